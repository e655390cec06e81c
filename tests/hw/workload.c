// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads with a known TopDown shape, for make hwcheck:
 *   workload alu SECS     dependent integer arithmetic: mostly retiring
 *   workload mem SECS     a random pointer chase over 256 MiB: backend (memory) bound
 *   workload branch SECS  branches on random bits: bad speculation
 *   workload icache SECS  1024 functions of 64 bytes of code and more, called in
 *                         random order: a code footprint far past the L1
 *                         i-cache and the uop cache: frontend bound
 *   workload drop SECS    three branches on independent random bits per
 *                         iteration of a short loop: as many clears as it
 *                         can make, for INT_MISC.UOP_DROPPING (below)
 *
 * drop: perf's JSON (pipeline.json of icelake, sapphirerapids, ...) says
 * INT_MISC.UOP_DROPPING counts "TMA slots where uops got dropped",
 * "dropped due to non front-end reasons"; perf's tma_frontend_bound takes
 * them off topdown-fe-bound, so tma_bad_speculation (1 - the others)
 * gains them: perf counts them as slots lost to speculation. A clear
 * (INT_MISC.CLEARS_COUNT: "speculative clears due to any type of branch
 * misprediction or machine clears") throws away what was in flight, so
 * a load that mispredicts every few uops, each resolved within a few
 * cycles, keeps the frontend delivering uops that a clear then drops.
 * make hwcheck prints how many it dropped (perf's own count) before it
 * compares, and fails if none were: the comparison would prove nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * @stmt, then an empty asm on x: no compiler turns an if/else of these
 * into a conditional move (at -O1 gcc made "branch" a cmovne: no branch
 * left to mispredict). Any architecture: the asm has no instruction.
 */
#define KEEP(stmt)                                                                                 \
	do {                                                                                       \
		stmt;                                                                              \
		__asm__ volatile("" : "+r"(x));                                                    \
	} while (0)

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* 4^5 = 1024 functions f10000 .. f13333, each with 64 bytes of padding code. */
#define FN(n)                                                                              \
	__attribute__((noinline)) static uint64_t f##n(uint64_t x)                         \
	{                                                                                  \
		__asm__ volatile(".fill 64, 1, 0x90");                                     \
		return x * 0x##n##ULL + 1;                                                 \
	}
#define D4(M, n)   M(n##0) M(n##1) M(n##2) M(n##3)
#define D16(M, n)  D4(M, n##0) D4(M, n##1) D4(M, n##2) D4(M, n##3)
#define D64(M, n)  D16(M, n##0) D16(M, n##1) D16(M, n##2) D16(M, n##3)
#define D256(M, n) D64(M, n##0) D64(M, n##1) D64(M, n##2) D64(M, n##3)
#define D1K(M, n)  D256(M, n##0) D256(M, n##1) D256(M, n##2) D256(M, n##3)
D1K(FN, 1)
#define PTR(n) f##n,
static uint64_t (*const code[])(uint64_t) = { D1K(PTR, 1) };

int main(int argc, char **argv)
{
	double secs = argc > 2 ? atof(argv[2]) : 2, end = now() + secs;
	volatile uint64_t sink = 0;
	uint64_t seed = 88172645463325252ull, x = 1;

	if (argc < 2 || secs <= 0) {
		fprintf(stderr, "usage: workload alu|mem|branch|icache|drop [SECS]\n");
		return 2;
	}
	if (!strcmp(argv[1], "alu")) {
		while (now() < end)
			for (int i = 0; i < 1000000; i++)
				x = x * 2862933555777941757ull + 3037000493ull;
	} else if (!strcmp(argv[1], "mem")) {
		size_t n = (256u << 20) / sizeof(size_t);
		size_t *next = malloc(n * sizeof(*next)), p = 0;

		if (!next)
			return 1;
		/* Sattolo's shuffle: one cycle through every slot, in random order. */
		for (size_t i = 0; i < n; i++)
			next[i] = i;
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = xorshift(&seed) % i, t = next[i];

			next[i] = next[j];
			next[j] = t;
		}
		end = now() + secs; /* the shuffle is set-up, not the workload */
		while (now() < end)
			for (int i = 0; i < 100000; i++)
				p = next[p];
		x = p;
		free(next);
	} else if (!strcmp(argv[1], "branch")) {
		while (now() < end)
			for (int i = 0; i < 1000000; i++)
				if (xorshift(&seed) & 1)
					KEEP(x += i);
				else
					KEEP(x ^= i);
	} else if (!strcmp(argv[1], "drop")) {
		while (now() < end)
			for (int i = 0; i < 1000000; i++) {
				uint64_t r = xorshift(&seed);

				if (r & 1)
					KEEP(x += r);
				else
					KEEP(x ^= r);
				if (r & 2)
					KEEP(x -= r);
				else
					KEEP(x |= r);
				if (r & 4)
					KEEP(x &= r);
				else
					KEEP(x += r >> 1);
			}
	} else if (!strcmp(argv[1], "icache")) {
		while (now() < end)
			for (int i = 0; i < 100000; i++)
				x = code[xorshift(&seed) & 1023](x);
	} else {
		fprintf(stderr, "workload: unknown kind '%s': alu, mem, branch, icache or drop\n",
			argv[1]);
		return 2;
	}
	sink = x;
	(void)sink;
	return 0;
}
