// SPDX-License-Identifier: GPL-2.0
/*
 * namer NAME CPU_MS: take NAME (any bytes; the kernel keeps the first 15)
 * as this task's comm, wait for one byte on stdin, so that the caller can
 * move it into a cgroup first, then burn CPU_MS of CPU time and exit 0.
 * End of file on stdin instead exits 3 without spinning.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	volatile unsigned long sink = 0;
	long long end;
	char go;

	if (argc != 3) {
		fprintf(stderr, "usage: namer NAME CPU_MS\n");
		return 2;
	}
	/* Before anything is charged: the name is what tdtrace sees first. */
	if (prctl(PR_SET_NAME, argv[1], 0, 0, 0)) {
		perror("namer: PR_SET_NAME");
		return 1;
	}
	if (read(0, &go, 1) != 1)
		return 3;
	end = cpu_ns() + atoll(argv[2]) * 1000000LL;
	while (cpu_ns() < end)
		sink++;
	return 0;
}
