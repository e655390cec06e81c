// SPDX-License-Identifier: GPL-2.0
/*
 * region_target: the program bench/region.sh puts regions on.
 *   region_target plain LOOPS GOFILE   calls work() LOOPS times
 *   region_target usdt LOOPS GOFILE    the same, each call bracketed by
 *                                      TDTRACE_REGION_BEGIN/END("work")
 * Prints "region_target: ready" on stderr, waits until GOFILE exists (so
 * that the probes are attached first), runs the loop and prints the mean
 * ns per call (CLOCK_MONOTONIC around the whole loop) on stdout.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tdtrace/region.h"

/* What the uprobe and uretprobe are placed on: a call that does nothing. */
__attribute__((noinline)) int work(int x)
{
	__asm__ volatile("" : "+r"(x) : : "memory");
	return x + 1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	volatile int sink = 0;
	double start, end;
	bool usdt;
	long loops;

	if (argc != 4 || (strcmp(argv[1], "plain") && strcmp(argv[1], "usdt"))) {
		fprintf(stderr, "usage: region_target plain|usdt LOOPS GOFILE\n");
		return 2;
	}
	usdt = !strcmp(argv[1], "usdt");
	loops = atol(argv[2]);
	if (loops < 1) {
		fprintf(stderr, "region_target: LOOPS must be a positive number\n");
		return 2;
	}
	fprintf(stderr, "region_target: ready\n");
	/* Bounded wait: a minute, then give up. */
	for (int i = 0; access(argv[3], F_OK); i++) {
		if (i == 6000) {
			fprintf(stderr, "region_target: no go signal (%s) in 60 s\n", argv[3]);
			return 1;
		}
		usleep(10000);
	}
	start = now_ns();
	if (usdt) {
		for (long i = 0; i < loops; i++) {
			TDTRACE_REGION_BEGIN("work");
			sink = work(sink);
			TDTRACE_REGION_END("work");
		}
	} else {
		for (long i = 0; i < loops; i++)
			sink = work(sink);
	}
	end = now_ns();
	printf("%.1f\n", (end - start) / loops);
	return 0;
}
