/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The end of a bench crowd (bench/tasks.c, bench/crowd.c): kill its
 * processes, reap them, and remove the cgroups DIR/c0 .. DIR/c<cgroups-1>.
 */
#ifndef TDTRACE_BENCH_CROWD_END_H
#define TDTRACE_BENCH_CROWD_END_H

#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

static void crowd_end(const pid_t *pids, long n, const char *dir, long cgroups)
{
	char path[4096];

	for (long i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (long i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	for (long i = 0; i < cgroups; i++) {
		snprintf(path, sizeof(path), "%s/c%ld", dir, i);
		rmdir(path);
	}
}

#endif
