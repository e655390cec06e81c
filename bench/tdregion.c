// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: what a libtdregion region costs, ns per begin/end pair on an
 * empty region, in each read mode this machine offers (rdpmc, read(),
 * CPU time only), beside its floor: the bare reads a pair makes (two
 * CLOCK_THREAD_CPUTIME_ID reads for CPU time only). Each is the median
 * of ROUNDS rounds of PAIRS pairs, interleaved. Prints markdown.
 *
 *   tdregion-bench [ROUNDS [PAIRS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "tdtrace/tdregion.h"

#define MAX_ROUNDS 101

static double now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct config {
	const char *name;
	unsigned int flags; /* tdregion_open's; ~0u: the floor, no library */
	struct tdregion *td;
	double ns[MAX_ROUNDS];
};

/* ns per pair of @c over @pairs pairs. */
static double round_of(struct config *c, long pairs)
{
	struct tdregion_region r = TDREGION_REGION_INIT("empty");
	double t0 = now_ns(CLOCK_MONOTONIC);

	if (!c->td) {
		for (long i = 0; i < pairs; i++) {
			now_ns(CLOCK_THREAD_CPUTIME_ID);
			now_ns(CLOCK_THREAD_CPUTIME_ID);
		}
	} else {
		for (long i = 0; i < pairs; i++) {
			tdregion_begin(c->td, &r);
			tdregion_end(c->td, &r);
		}
	}
	return (now_ns(CLOCK_MONOTONIC) - t0) / pairs;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 7;
	long pairs = argc > 2 ? atol(argv[2]) : 200000;
	struct config cf[] = {
		{ .name = "floor: 2 x CLOCK_THREAD_CPUTIME_ID", .flags = ~0u },
		{ .name = "libtdregion, default", .flags = 0 },
		{ .name = "libtdregion, read()", .flags = TDREGION_OPEN_NO_RDPMC },
		{ .name = "libtdregion, CPU time only", .flags = TDREGION_OPEN_SOFTWARE },
	};
	int n = sizeof(cf) / sizeof(cf[0]);

	if (rounds < 1 || rounds > MAX_ROUNDS || pairs < 1) {
		fprintf(stderr,
			"tdregion-bench: ROUNDS must be 1..%d and PAIRS > 0; see "
			"bench/tdregion.c\n",
			MAX_ROUNDS);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		if (cf[i].flags == ~0u)
			continue;
		cf[i].td = tdregion_open(cf[i].flags);
		if (!cf[i].td) {
			perror("tdregion-bench: failed to open the thread's counters");
			return 1;
		}
	}
	for (int k = 0; k < rounds; k++)
		for (int i = 0; i < n; i++)
			cf[i].ns[k] = round_of(&cf[i], pairs);
	printf("| libtdregion | mode | ns per begin/end pair, median | min - max |\n");
	printf("| --- | --- | --- | --- |\n");
	for (int i = 0; i < n; i++) {
		unsigned int mode = cf[i].td ? tdregion_mode(cf[i].td) : 0;

		qsort(cf[i].ns, rounds, sizeof(double), cmp);
		printf("| %s | %s | %.0f | %.0f - %.0f |\n", cf[i].name,
		       !cf[i].td	       ? "-"
		       : mode & TDREGION_RDPMC ? "rdpmc"
		       : mode & TDREGION_READ  ? "read()"
					       : "CPU time only",
		       cf[i].ns[rounds / 2], cf[i].ns[0], cf[i].ns[rounds - 1]);
	}
	printf("\n- default mode here: %s\n", tdregion_why(cf[1].td));
	printf("- %d interleaved rounds of %ld pairs on an empty region\n", rounds, pairs);
	for (int i = 0; i < n; i++)
		tdregion_close(cf[i].td);
	return 0;
}
