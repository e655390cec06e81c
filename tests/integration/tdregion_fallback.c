// SPDX-License-Identifier: GPL-2.0
/*
 * libtdregion's fallback, run for real: the program links the library
 * (built twice by the Makefile, as tdregion_static and tdregion_shared)
 * and times regions that burn CPU. The region's CPU time must match the
 * program's own CLOCK_THREAD_CPUTIME_ID around the calls within 2%, the
 * TopDown fields must be absent (NaN, flag clear), and on a machine with
 * no core PMU the library must say so.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "tdtrace/tdregion.h"

static double thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Burn about @ms of CPU, by a fixed amount of work calibrated once. */
static volatile unsigned long sink;

static void burn_iters(unsigned long n)
{
	unsigned long x = sink;

	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

static unsigned long iters_per_ms;

static void burn_ms(int ms)
{
	if (!iters_per_ms) {
		double t0 = thread_cpu_ns();

		burn_iters(10000000);
		iters_per_ms = (unsigned long)(10000000 / ((thread_cpu_ns() - t0) / 1e6)) + 1;
	}
	burn_iters(iters_per_ms * ms);
}

#define assert_within(got, want, rel)                                                              \
	do {                                                                                       \
		double g_ = (got), w_ = (want);                                                    \
		if (!(fabs(g_ - w_) <= (rel)*w_))                                                  \
			fail_msg("%s = %.0f, expected %.0f within %.0f%%", #got, g_, w_,           \
				 (rel)*100);                                                       \
	} while (0)

static void assert_no_topdown(const struct tdregion_result *r)
{
	assert_false(r->flags & TDREGION_TOPDOWN);
	assert_true(r->flags & TDREGION_SOFTWARE);
	assert_int_equal(r->level, 0);
	assert_true(isnan(r->slots));
	assert_true(isnan(r->retiring) && isnan(r->bad_speculation));
	assert_true(isnan(r->frontend_bound) && isnan(r->backend_bound));
	assert_true(isnan(r->smt_contention));
	assert_true(isnan(r->heavy_operations) && isnan(r->light_operations));
	assert_true(isnan(r->branch_mispredicts) && isnan(r->machine_clears));
	assert_true(isnan(r->fetch_latency) && isnan(r->fetch_bandwidth));
	assert_true(isnan(r->memory_bound) && isnan(r->core_bound));
}

/* @calls regions of @ms each on @td; the program's own CPU time around each, summed. */
static double timed_regions(struct tdregion *td, struct tdregion_region *r, int calls, int ms)
{
	double own = 0;

	for (int i = 0; i < calls; i++) {
		double t0 = thread_cpu_ns();

		assert_int_equal(tdregion_begin(td, r), 0);
		burn_ms(ms);
		assert_int_equal(tdregion_end(td, r), 0);
		own += thread_cpu_ns() - t0;
	}
	return own;
}

/* One call of @r around @body; the program's own CPU time around it. */
static double timed_call(struct tdregion *td, struct tdregion_region *r,
			 void (*body)(struct tdregion *, struct tdregion_region *))
{
	double t0 = thread_cpu_ns();

	assert_int_equal(tdregion_begin(td, r), 0);
	body(td, r);
	assert_int_equal(tdregion_end(td, r), 0);
	return thread_cpu_ns() - t0;
}

/* Does this machine show a core PMU in sysfs, as perf names them? */
static bool has_core_pmu(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d)))
		found = !strcmp(e->d_name, "cpu") || !strcmp(e->d_name, "cpu_core") ||
			!strcmp(e->d_name, "cpu_atom") || !strncmp(e->d_name, "armv8", 5) ||
			!strncmp(e->d_name, "armv9", 5);
	closedir(d);
	return found;
}

/* No core PMU: the default open says "no PMU" and counts CPU time only. */
static void test_no_pmu_falls_back(void **state)
{
	struct tdregion_region r = TDREGION_REGION_INIT("burn");
	struct tdregion_result res;
	struct tdregion *td;
	double own;

	if (has_core_pmu()) {
		print_message("skipped: this machine has a core PMU, so no \"no PMU\" fallback\n");
		skip();
	}
	td = tdregion_open(0);
	assert_non_null(td);
	print_message("tdregion_why: %s\n", tdregion_why(td));
	assert_true(tdregion_mode(td) & TDREGION_SOFTWARE);
	assert_false(tdregion_mode(td) & (TDREGION_TOPDOWN | TDREGION_RDPMC | TDREGION_READ));
	assert_non_null(strstr(tdregion_why(td), "no PMU"));
	own = timed_regions(td, &r, 3, 40);
	assert_int_equal(tdregion_report(td, &r, &res), 0);
	assert_no_topdown(&res);
	assert_int_equal(res.calls, 3);
	assert_int_equal(res.dropped, 0);
	assert_null(res.model);
	assert_within(res.cpu_ns, own, 0.02);
	tdregion_close(td);
}

/* Software asked for, on any machine: the same, and the reason says it was asked. */
static void test_software_time(void **state)
{
	struct tdregion_region r = TDREGION_REGION_INIT("burn");
	struct tdregion_result res;
	struct tdregion *td = tdregion_open(TDREGION_OPEN_SOFTWARE);
	double own;

	assert_non_null(td);
	assert_int_equal(tdregion_mode(td), TDREGION_SOFTWARE);
	assert_non_null(strstr(tdregion_why(td), "TDREGION_OPEN_SOFTWARE"));
	own = timed_regions(td, &r, 5, 30);
	assert_int_equal(tdregion_report(td, &r, &res), 0);
	assert_no_topdown(&res);
	assert_int_equal(res.calls, 5);
	assert_within(res.cpu_ns, own, 0.02);
	tdregion_close(td);
}

/* Sleeping inside a region: only the thread's CPU time counts, not the sleep. */
static void burn_sleep_burn(struct tdregion *td, struct tdregion_region *r)
{
	burn_ms(20);
	usleep(100 * 1000);
	burn_ms(20);
}

/* One region around @body on a context opened with @flags: its time within 2% of ours. */
static double one_region(unsigned int flags,
			 void (*body)(struct tdregion *, struct tdregion_region *))
{
	struct tdregion_region r = TDREGION_REGION_INIT("one");
	struct tdregion_result res;
	struct tdregion *td = tdregion_open(flags);
	double own;

	assert_non_null(td);
	own = timed_call(td, &r, body);
	assert_int_equal(tdregion_report(td, &r, &res), 0);
	assert_int_equal(res.calls, 1);
	assert_within(res.cpu_ns, own, 0.02);
	tdregion_close(td);
	return res.cpu_ns;
}

static void test_sleep_inside(void **state)
{
	assert_true(one_region(0, burn_sleep_burn) < 80e6); /* 40 ms burnt, 100 ms asleep */
}

/* A region begun again before its end counts its outermost call once. */
static void burn_inner(struct tdregion *td, struct tdregion_region *r)
{
	burn_ms(15);
}

static void burn_recursive(struct tdregion *td, struct tdregion_region *r)
{
	burn_ms(15);
	timed_call(td, r, burn_inner);
	burn_ms(15);
}

static void test_recursion(void **state)
{
	struct tdregion_region r = TDREGION_REGION_INIT("rec");
	struct tdregion *td;

	one_region(TDREGION_OPEN_SOFTWARE, burn_recursive);
	td = tdregion_open(TDREGION_OPEN_SOFTWARE);
	assert_non_null(td);
	/* An end with no begin is refused. */
	errno = 0;
	assert_int_equal(tdregion_end(td, &r), -1);
	assert_int_equal(errno, EINVAL);
	tdregion_close(td);
}

/* No reset inside a region: its begin snapshot would be lost. */
static void test_reset_busy(void **state)
{
	struct tdregion_region r = TDREGION_REGION_INIT("r");
	struct tdregion *td = tdregion_open(0);

	assert_non_null(td);
	assert_int_equal(tdregion_begin(td, &r), 0);
	errno = 0;
	assert_int_equal(tdregion_reset(td), -1);
	assert_int_equal(errno, EBUSY);
	assert_int_equal(tdregion_end(td, &r), 0);
	assert_int_equal(tdregion_reset(td), 0);
	tdregion_close(td);
}

/* Each thread its own context: a busy thread beside does not count in ours. */
static void *busy(void *arg)
{
	struct tdregion_region r = TDREGION_REGION_INIT("busy");
	struct tdregion_result *res = arg;
	struct tdregion *td = tdregion_open(0);
	double own;

	if (!td)
		return NULL;
	own = timed_regions(td, &r, 2, 40);
	tdregion_report(td, &r, res);
	res->slots = own; /* hand the thread's own time back (slots is NaN here) */
	tdregion_close(td);
	return res;
}

/*
 * The read() path for real, with software events in two groups
 * (TDREGION_TEST_MEMBERS): cpu-clock leading context-switches, then
 * page-faults leading cpu-migrations. The kernel refuses rdpmc on them,
 * which the reason must say. r.sum is the library's, read here to see each
 * group's values land where they belong: counters in set order, then each
 * group's enabled and running times.
 */
static void faults_and_sleep(struct tdregion *td, struct tdregion_region *r)
{
	size_t len = 4 << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	madvise(p, len, MADV_NOHUGEPAGE); /* small pages, whatever THP's setting */
	memset(p, 1, len); /* a fault per page: 1024 of them */
	munmap(p, len);
	/* Switches out: several, as this VM's kernel now and then switches unseen (README). */
	for (int i = 0; i < 20; i++)
		usleep(100);
	burn_ms(20);
}

static void test_read_path(void **state)
{
	struct tdregion_region r = TDREGION_REGION_INIT("members");
	struct tdregion_result res;
	struct tdregion *td;
	double own;

	setenv("TDREGION_TEST_MEMBERS", "context-switches/page-faults,cpu-migrations", 1);
	td = tdregion_open(0);
	unsetenv("TDREGION_TEST_MEMBERS");
	assert_non_null(td);
	print_message("tdregion_why: %s\n", tdregion_why(td));
	assert_int_equal(tdregion_mode(td), TDREGION_READ);
	assert_non_null(strstr(tdregion_why(td), "cap_user_rdpmc 0"));
	own = timed_call(td, &r, faults_and_sleep);
	assert_int_equal(tdregion_report(td, &r, &res), 0);
	assert_int_equal(res.calls, 1);
	assert_true(res.flags & TDREGION_READ);
	assert_false(res.flags & (TDREGION_TOPDOWN | TDREGION_SOFTWARE));
	assert_true(isnan(res.retiring) && isnan(res.slots));
	/* cpu-clock and both groups' enabled times: the thread's CPU time. */
	assert_within((double)r.sum[0], (double)r.sum[4], 0.01);
	assert_within((double)r.sum[6], (double)r.sum[4], 0.01);
	assert_true(r.sum[5] == r.sum[4] && r.sum[7] == r.sum[6]); /* never multiplexed */
	assert_within(res.cpu_ns, (double)r.sum[4], 0.0);
	assert_within(res.cpu_ns, own, 0.10); /* perf's context time: short when preempted */
	assert_true(r.sum[1] >= 1);	      /* context-switches */
	assert_true(r.sum[2] >= 1024);	      /* page-faults */
	assert_true(r.sum[2] < 4096);
	assert_true(r.sum[3] <= r.sum[1]); /* cpu-migrations: at most one per switch */
	tdregion_close(td);
}

/* Another thread may not use a context: it would read its own CPU's counters. */
static void *try_begin(void *arg)
{
	struct tdregion_region r = TDREGION_REGION_INIT("theirs");
	static int ret, err;

	errno = 0;
	ret = tdregion_begin(arg, &r);
	err = errno;
	return ret == -1 && err == EINVAL ? arg : NULL;
}

static void test_other_thread_refused(void **state)
{
	struct tdregion *td = tdregion_open(0);
	pthread_t t;
	void *ret;

	assert_non_null(td);
	assert_int_equal(pthread_create(&t, NULL, try_begin, td), 0);
	assert_int_equal(pthread_join(t, &ret), 0);
	assert_ptr_equal(ret, td);
	tdregion_close(td);
}

static void test_threads(void **state)
{
	struct tdregion_region r = TDREGION_REGION_INIT("main");
	struct tdregion_result res, theirs;
	struct tdregion *td = tdregion_open(0);
	pthread_t t;
	double t0, own;
	void *ret;

	assert_non_null(td);
	if (tdregion_mode(td) & TDREGION_TOPDOWN) {
		tdregion_close(td);
		print_message("skipped: TopDown counters here; slots is not the thread's time\n");
		skip();
	}
	t0 = thread_cpu_ns();
	assert_int_equal(tdregion_begin(td, &r), 0);
	assert_int_equal(pthread_create(&t, NULL, busy, &theirs), 0);
	burn_ms(10);
	assert_int_equal(pthread_join(t, &ret), 0);
	assert_int_equal(tdregion_end(td, &r), 0);
	own = thread_cpu_ns() - t0;
	assert_non_null(ret);
	assert_int_equal(tdregion_report(td, &r, &res), 0);
	assert_within(res.cpu_ns, own, 0.02);
	assert_int_equal(theirs.calls, 2);
	assert_within(theirs.cpu_ns, theirs.slots, 0.02);
	tdregion_close(td);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_pmu_falls_back),    cmocka_unit_test(test_software_time),
		cmocka_unit_test(test_sleep_inside),	     cmocka_unit_test(test_recursion),
		cmocka_unit_test(test_reset_busy),	     cmocka_unit_test(test_threads),
		cmocka_unit_test(test_other_thread_refused), cmocka_unit_test(test_read_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
