// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of test_regions: functions that burn a known CPU time per
 * call, for tdtrace --region to measure, each call measured here too with
 * CLOCK_THREAD_CPUTIME_ID around it. Prints one line of NAME=VALUE pairs.
 *
 *   region_work calls N US        N calls of td_work(US); and the process's CPU time
 *   region_work nest N US         N calls of td_outer: US, td_inner(US), US
 *   region_work recurse N D US    N calls of td_rec, D levels deep, US each
 *   region_work sleep N US MS     N calls of td_sleepy: US, sleep MS, US
 *   region_work threads T N US    T threads, each N calls of td_work(US)
 *   region_work exec N US         N calls of td_work, then td_exec_inside
 *                                 burns US and execs "calls N US" inside it
 *   region_work lib SO N US       N calls of tdwork_burn(US) in library SO
 *   region_work deep N US         N calls of td_d1 -> ... -> td_d6, US each
 *
 * The same with tdtrace/region.h's markers (--usdt), by region name:
 *   region_work usdt N US         N "work" regions of US
 *   region_work usdt_nest N US    "outer": US, "inner" of US, US
 *   region_work usdt_rec N US     "rec" inside "rec", US in each
 *   region_work usdt_sleep N US MS "sleepy": US, sleep MS, US
 *   region_work usdt_threads T N US  T threads of N "work" regions
 *   region_work usdt_exec N US    N "work", then exec "usdt N US" inside "exec"
 *
 * The functions are reached through volatile pointers, so that the
 * compiler neither inlines nor clones them: their symbols are what runs.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <tdtrace/region.h>

static long long thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void burn(long long ns)
{
	long long t0 = thread_ns();

	while (thread_ns() - t0 < ns)
		;
}

__attribute__((noinline)) void td_work(long long ns)
{
	burn(ns);
}

__attribute__((noinline)) void td_inner(long long ns)
{
	burn(ns);
}

static void (*volatile inner_fn)(long long) = td_inner;
static long long inner_ns; /* measured inside td_outer */

__attribute__((noinline)) void td_outer(long long ns)
{
	long long t0;

	burn(ns);
	t0 = thread_ns();
	inner_fn(ns);
	inner_ns += thread_ns() - t0;
	burn(ns);
}

__attribute__((noinline)) void td_rec(int depth, long long ns);
static void (*volatile rec_fn)(int, long long) = td_rec;

__attribute__((noinline)) void td_rec(int depth, long long ns)
{
	burn(ns);
	if (depth > 1)
		rec_fn(depth - 1, ns);
}

__attribute__((noinline)) void td_sleepy(long long ns, long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	burn(ns);
	nanosleep(&ts, NULL);
	burn(ns);
}

/* Six distinct regions, each calling the next: deeper than tdtrace keeps open. */
#define DEEP(n, next)                                                                              \
	__attribute__((noinline)) void td_d##n(long long ns)                                       \
	{                                                                                          \
		burn(ns);                                                                          \
		next;                                                                              \
	}
__attribute__((noinline)) void td_d6(long long ns)
{
	burn(ns);
}
static void (*volatile d6_fn)(long long) = td_d6;
DEEP(5, d6_fn(ns))
static void (*volatile d5_fn)(long long) = td_d5;
DEEP(4, d5_fn(ns))
static void (*volatile d4_fn)(long long) = td_d4;
DEEP(3, d4_fn(ns))
static void (*volatile d3_fn)(long long) = td_d3;
DEEP(2, d3_fn(ns))
static void (*volatile d2_fn)(long long) = td_d2;
DEEP(1, d2_fn(ns))
static void (*volatile d1_fn)(long long) = td_d1;

static void (*volatile work_fn)(long long) = td_work;
static void (*volatile outer_fn)(long long) = td_outer;
static void (*volatile sleepy_fn)(long long, long) = td_sleepy;

/* Calls of @fn, each measured: their CPU time summed. */
static long long calls(void (*fn)(long long), int n, long long ns)
{
	long long sum = 0;

	for (int i = 0; i < n; i++) {
		long long t0 = thread_ns();

		fn(ns);
		sum += thread_ns() - t0;
	}
	return sum;
}

static char *self_path;

/* Execs this program inside the region: it never returns. */
__attribute__((noinline)) void td_exec_inside(long long ns, const char *n, const char *us)
{
	burn(ns);
	execl(self_path, self_path, "calls", n, us, (char *)NULL);
	perror("exec");
	exit(1);
}

static void (*volatile exec_fn)(long long, const char *, const char *) = td_exec_inside;

/* The marked regions: what the usdt modes time, one pass each. */
static void marked_work(long long ns)
{
	TDTRACE_REGION_BEGIN("work");
	burn(ns);
	TDTRACE_REGION_END("work");
}

static long long marked_inner_ns;

static void marked_nest(long long ns)
{
	long long t0;

	TDTRACE_REGION_BEGIN("outer");
	burn(ns);
	t0 = thread_ns();
	TDTRACE_REGION_BEGIN("inner");
	burn(ns);
	TDTRACE_REGION_END("inner");
	marked_inner_ns += thread_ns() - t0;
	burn(ns);
	TDTRACE_REGION_END("outer");
}

static void marked_rec(long long ns)
{
	TDTRACE_REGION_BEGIN("rec");
	burn(ns);
	TDTRACE_REGION_BEGIN("rec");
	burn(ns);
	TDTRACE_REGION_END("rec");
	TDTRACE_REGION_END("rec");
}

static long sleep_ms;

static void marked_sleep(long long ns)
{
	struct timespec ts = { .tv_sec = sleep_ms / 1000, .tv_nsec = (sleep_ms % 1000) * 1000000L };

	TDTRACE_REGION_BEGIN("sleepy");
	burn(ns);
	nanosleep(&ts, NULL);
	burn(ns);
	TDTRACE_REGION_END("sleepy");
}

struct worker {
	pthread_t th;
	int n;
	long long ns, sum;
	void (*fn)(long long);
};

static void *work_thread(void *arg)
{
	struct worker *w = arg;

	w->sum = calls(w->fn, w->n, w->ns);
	return NULL;
}

/* @nt threads, each @n calls of @fn: their measured CPU time summed; -1 on failure. */
static long long in_threads(void (*fn)(long long), int nt, int n, long long ns)
{
	struct worker w[16];
	long long sum = 0;

	if (nt < 1 || nt > 16)
		return -1;
	for (int i = 0; i < nt; i++) {
		w[i] = (struct worker){ .n = n, .ns = ns, .fn = fn };
		if (pthread_create(&w[i].th, NULL, work_thread, &w[i]))
			return -1;
	}
	for (int i = 0; i < nt; i++) {
		pthread_join(w[i].th, NULL);
		sum += w[i].sum;
	}
	return sum;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long long us = argc > 3 ? atoll(argv[argc - 1]) : 0, ns = us * 1000, sum = 0;
	int n = argc > 2 ? atoi(argv[2]) : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	self_path = argv[0];
	if (!strcmp(mode, "calls") && argc == 4) {
		struct timespec t;

		sum = calls(work_fn, n, ns);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		printf("calls=%d cpu_ns=%lld process_ns=%lld\n", n, sum,
		       t.tv_sec * 1000000000LL + t.tv_nsec);
	} else if (!strcmp(mode, "nest") && argc == 4) {
		printf("calls=%d outer_ns=%lld", n, calls(outer_fn, n, ns));
		printf(" inner_ns=%lld\n", inner_ns);
	} else if (!strcmp(mode, "recurse") && argc == 5) {
		int depth = atoi(argv[3]);

		for (int i = 0; i < n; i++) {
			long long t0 = thread_ns();

			rec_fn(depth, ns);
			sum += thread_ns() - t0;
		}
		printf("calls=%d cpu_ns=%lld\n", n, sum);
	} else if (!strcmp(mode, "sleep") && argc == 5) {
		ns = atoll(argv[3]) * 1000;
		for (int i = 0; i < n; i++) {
			long long t0 = thread_ns();

			sleepy_fn(ns, atol(argv[4]));
			sum += thread_ns() - t0;
		}
		printf("calls=%d cpu_ns=%lld\n", n, sum);
	} else if ((!strcmp(mode, "threads") || !strcmp(mode, "usdt_threads")) && argc == 5) {
		sum = in_threads(mode[0] == 'u' ? marked_work : work_fn, atoi(argv[2]),
				 atoi(argv[3]), ns);
		if (sum < 0)
			return 1;
		printf("calls=%d cpu_ns=%lld\n", atoi(argv[2]) * atoi(argv[3]), sum);
	} else if (!strcmp(mode, "exec") && argc == 4) {
		printf("calls=%d cpu_ns=%lld\n", n, calls(work_fn, n, ns));
		exec_fn(ns, argv[2], argv[3]);
	} else if (!strcmp(mode, "lib") && argc == 5) {
		void *h = dlopen(argv[2], RTLD_NOW);
		void (*fn)(long long) = h ? (void (*)(long long))dlsym(h, "tdwork_burn") : NULL;

		if (!fn) {
			fprintf(stderr, "region_work: %s\n", dlerror());
			return 1;
		}
		n = atoi(argv[3]);
		printf("calls=%d cpu_ns=%lld\n", n, calls(fn, n, ns));
	} else if (!strcmp(mode, "deep") && argc == 4) {
		printf("calls=%d cpu_ns=%lld\n", n, calls(d1_fn, n, ns));
	} else if (!strcmp(mode, "usdt") && argc == 4) {
		printf("calls=%d cpu_ns=%lld\n", n, calls(marked_work, n, ns));
	} else if (!strcmp(mode, "usdt_nest") && argc == 4) {
		printf("calls=%d outer_ns=%lld", n, calls(marked_nest, n, ns));
		printf(" inner_ns=%lld\n", marked_inner_ns);
	} else if (!strcmp(mode, "usdt_rec") && argc == 4) {
		printf("calls=%d cpu_ns=%lld\n", n, calls(marked_rec, n, ns));
	} else if (!strcmp(mode, "usdt_sleep") && argc == 5) {
		sleep_ms = atol(argv[4]);
		ns = atoll(argv[3]) * 1000;
		printf("calls=%d cpu_ns=%lld\n", n, calls(marked_sleep, n, ns));
	} else if (!strcmp(mode, "usdt_exec") && argc == 4) {
		printf("calls=%d cpu_ns=%lld\n", n, calls(marked_work, n, ns));
		TDTRACE_REGION_BEGIN("exec");
		burn(ns);
		execl(self_path, self_path, "usdt", argv[2], argv[3], (char *)NULL);
		perror("exec");
		return 1;
	} else {
		fprintf(stderr, "usage: see tests/integration/helpers/region_work.c\n");
		return 2;
	}
	return 0;
}
