// SPDX-License-Identifier: GPL-2.0
/*
 * tasks: a crowd for `make bench`. Forks N processes spread over M new
 * cgroups under DIR (a cgroup v2 directory); each wakes every PERIOD ms, so
 * that every one of them is charged in every interval. Prints "tasks: ready"
 * on stderr when all run; on SIGINT/SIGTERM kills them and removes the
 * cgroups.
 *   tasks DIR N M PERIOD_MS
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "crowd_end.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int write_pid(const char *dir, pid_t pid)
{
	char path[4096];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/cgroup.procs", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fprintf(f, "%d\n", (int)pid);
	return fclose(f) ? -errno : 0;
}

int main(int argc, char **argv)
{
	struct timespec period;
	char path[4096];
	pid_t *pids;
	int n, m, ms, started = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: tasks DIR N M PERIOD_MS\n");
		return 2;
	}
	n = atoi(argv[2]);
	m = atoi(argv[3]);
	ms = atoi(argv[4]);
	if (n < 1 || m < 1 || ms < 1) {
		fprintf(stderr, "tasks: N, M and PERIOD_MS must be > 0\n");
		return 2;
	}
	period.tv_sec = ms / 1000;
	period.tv_nsec = (ms % 1000) * 1000000L;
	pids = calloc(n, sizeof(*pids));
	if (!pids)
		return 1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	for (int c = 0; c < m; c++) {
		snprintf(path, sizeof(path), "%s/c%d", argv[1], c);
		if (mkdir(path, 0755) && errno != EEXIST) {
			fprintf(stderr, "tasks: failed to make %s: %s\n", path, strerror(errno));
			goto out;
		}
	}
	for (int i = 0; i < n && !stop; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "tasks: fork %d failed: %s\n", i, strerror(errno));
			break;
		}
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				nanosleep(&period, NULL);
		}
		pids[started++] = pid;
		snprintf(path, sizeof(path), "%s/c%d", argv[1], i % m);
		write_pid(path, pid);
	}
	fprintf(stderr, "tasks: ready: %d processes in %d cgroups\n", started, m);
	while (!stop)
		pause();
out:
	crowd_end(pids, started, argv[1], m);
	free(pids);
	return 0;
}
