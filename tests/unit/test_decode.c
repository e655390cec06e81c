// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c: a row's counts through its model's formulas (the testlake row,
 * tests/unit/testlake.h, and a small AMD-like row made here), scaled as
 * perf scales multiplexed counts, with nodes picked out by name. Every
 * expected value is worked out by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "model/decode.h"
#include "testlake.h"

#define EPS 1e-12
#define assert_near(a, b)                                                                          \
	do {                                                                                       \
		double a_ = (a), b_ = (b);                                                         \
		if (!(fabs(a_ - b_) <= EPS))                                                       \
			fail_msg("%s = %.17g, expected %.17g", #a, a_, b_);                        \
	} while (0)
#define assert_nan(a) assert_true(isnan(a))

/* Counts in testlake's event order: slots, ret, bad, fe, be, heavy, br, fetch, mem. */
static struct td_counts counts(const __u64 *v, int n, __u64 enabled, __u64 running)
{
	struct td_counts c;

	memset(&c, 0, sizeof(c));
	memcpy(c.count, v, n * sizeof(*v));
	c.enabled_ns[0] = enabled;
	c.running_ns[0] = running;
	c.slices = 1;
	return c;
}

static void decode_testlake(int level, const struct td_counts *c, struct td_metrics *m)
{
	static struct counter_set set;
	static struct td_decoding d;
	char err[256];

	assert_int_equal(testlake_counters(level, &set), 0);
	assert_int_equal(td_decoding_init(&d, &set, false, err, sizeof(err)), 0);
	td_decode(&d, c, m);
}

/*
 * slots 5000; ret 2000, bad 500, fe 1000, be 1500; heavy 800, br 300,
 * fetch 600, mem 900. L1 = 2000/5000 = 0.4, 0.1, 0.2, 0.3. L2: heavy
 * 0.16, light 0.4 - 0.16 = 0.24, br 0.06, clears 0.1 - 0.06 = 0.04,
 * fetch lat 0.12, fetch bw 0.2 - 0.12 = 0.08, mem 0.18, core 0.3 - 0.18
 * = 0.12.
 */
static void test_level2(void **state)
{
	static const __u64 v[] = { 5000, 2000, 500, 1000, 1500, 800, 300, 600, 900 };
	struct td_counts c = counts(v, 9, 100, 100);
	struct td_metrics m;

	(void)state;
	decode_testlake(2, &c, &m);
	assert_int_equal(m.level, 2);
	assert_true(m.valid);
	assert_false(m.multiplexed);
	assert_false(m.never_counted);
	assert_near(m.scale, 1);
	assert_near(m.slots, 5000);
	assert_near(m.l1[TD_L1_RETIRING], 0.4);
	assert_near(m.l1[TD_L1_BAD_SPEC], 0.1);
	assert_near(m.l1[TD_L1_FE_BOUND], 0.2);
	assert_near(m.l1[TD_L1_BE_BOUND], 0.3);
	/* testlake has no SMT contention node: NaN, shown as '-' / null. */
	assert_nan(m.l1[TD_L1_SMT_CONTENTION]);
	assert_near(m.l2[TD_L2_HEAVY_OPS], 0.16);
	assert_near(m.l2[TD_L2_LIGHT_OPS], 0.24);
	assert_near(m.l2[TD_L2_BR_MISPREDICT], 0.06);
	assert_near(m.l2[TD_L2_MACHINE_CLEARS], 0.04);
	assert_near(m.l2[TD_L2_FETCH_LAT], 0.12);
	assert_near(m.l2[TD_L2_FETCH_BW], 0.08);
	assert_near(m.l2[TD_L2_MEM_BOUND], 0.18);
	assert_near(m.l2[TD_L2_CORE_BOUND], 0.12);
	/* value[] is by model metric: 0 is tma_info_thread_slots, 1 tma_retiring. */
	assert_near(m.value[0], 5000);
	assert_near(m.value[1], 0.4);
}

/* Level 1: no level-2 counters, so every level-2 value is NaN. */
static void test_level1(void **state)
{
	static const __u64 v[] = { 5000, 2000, 500, 1000, 1500 };
	struct td_counts c = counts(v, 5, 100, 100);
	struct td_metrics m;

	(void)state;
	decode_testlake(1, &c, &m);
	assert_int_equal(m.level, 1);
	assert_near(m.l1[TD_L1_BE_BOUND], 0.3);
	for (int i = 0; i < TD_NR_L2; i++)
		assert_nan(m.l2[i]);
	for (int i = 5; i < testlake.nr_metrics; i++)
		assert_nan(m.value[i]);
}

/*
 * Counted half the time (enabled 2000, running 1000): scale 2, slots
 * 1000 * 2 = 2000; fractions are ratios of counts scaled alike: 400/1000
 * = 0.4 retiring. A measured child larger than its parent (heavy 500 >
 * ret 400) leaves the sibling at max(0, 0.4 - 0.5) = 0.
 */
static void test_multiplexed_and_clamp(void **state)
{
	static const __u64 v[] = { 1000, 400, 100, 200, 300, 500, 50, 100, 150 };
	struct td_counts c = counts(v, 9, 2000, 1000);
	struct td_metrics m;

	(void)state;
	decode_testlake(2, &c, &m);
	assert_true(m.multiplexed);
	assert_near(m.scale, 2);
	assert_near(m.slots, 2000);
	assert_near(m.l1[TD_L1_RETIRING], 0.4);
	assert_near(m.l2[TD_L2_HEAVY_OPS], 0.5);
	assert_near(m.l2[TD_L2_LIGHT_OPS], 0);
}

/* Enabled but never running: no data, not zeros. */
static void test_never_counted(void **state)
{
	static const __u64 v[] = { 0 };
	struct td_counts c = counts(v, 1, 5000, 0);
	struct td_metrics m;

	(void)state;
	decode_testlake(2, &c, &m);
	assert_true(m.never_counted);
	assert_false(m.multiplexed);
	assert_false(m.valid);
	assert_near(m.slots, 0);
	for (int i = 0; i < TD_NR_L1; i++)
		assert_nan(m.l1[i]);
}

/* Counted, but no slots (a slice too short): nothing to take fractions of. */
static void test_no_slots(void **state)
{
	static const __u64 v[] = { 0, 0, 0, 0, 0 };
	struct td_counts c = counts(v, 5, 100, 100);
	struct td_metrics m;

	(void)state;
	decode_testlake(2, &c, &m);
	assert_false(m.never_counted);
	assert_false(m.valid);
	assert_nan(m.l1[TD_L1_RETIRING]);
	assert_nan(m.l2[TD_L2_CORE_BOUND]);
}

/* --software: cpu-clock ns as slots, scaled; no fractions at all. */
static void test_software(void **state)
{
	static const __u64 v[] = { 1500000 };
	struct td_counts c = counts(v, 1, 4000, 2000);
	struct counter_set set;
	struct td_decoding d;
	struct td_metrics m;

	(void)state;
	counters_software(&set);
	assert_int_equal(td_decoding_init(&d, &set, false, NULL, 0), 0);
	td_decode(&d, &c, &m);
	assert_int_equal(m.level, 0);
	assert_false(m.valid);
	assert_near(m.slots, 3000000); /* 1.5 ms counted half the time */
	assert_nan(m.l1[TD_L1_RETIRING]);
}

/*
 * An AMD-like row: slots = 6 * cycles, group 1 holds a level-2 event, and
 * SMT contention is a node. Counter slots are laid out by group, so
 * counts reach the formulas through set->event, not table order. cycles
 * 100 -> slots 600; smt 60 / 600 = 0.1; fe 120 / 600 = 0.2; lat (group 1)
 * 6 * 10 / 600 = 0.1.
 */
static const struct model_event zen_events[] = {
	{ .name = "cyc", .config = 0x76 },
	{ .name = "lat", .config = 0x1060001a0, .flags = MODEL_EV_L2, .group = 1 },
	{ .name = "fe", .config = 0x1000001a0 },
	{ .name = "smt", .config = 0x1000060a0, .flags = MODEL_EV_OPTIONAL },
};

static const struct model_metric zen_metrics[] = {
	{ "total_dispatch_slots", 0, NULL, "6 * cyc", NULL, NULL },
	{ "frontend_bound", 1, NULL, "d_ratio(fe, total_dispatch_slots)", NULL, "frontend_bound" },
	{ "smt_contention", 1, NULL, "d_ratio(smt, total_dispatch_slots)", NULL, "smt_contention" },
	{ "frontend_bound_latency", 2, "frontend_bound", "d_ratio(6 * lat, total_dispatch_slots)",
	  NULL, "fetch_latency" },
};

static const struct pmu_model zen = {
	.name = "testzen",
	.pmu = "cpu",
	.gp_counters = 3, /* group 0 just fits; with the watchdog's counter, smt must go */
	.watchdog_counters = 1,
	.slots = "total_dispatch_slots",
	.events = zen_events,
	.nr_events = 4,
	.metrics = zen_metrics,
	.nr_metrics = 4,
};

static void test_groups_and_smt(void **state)
{
	static struct core_pmu pmu = { .name = "cpu", .type = 4 };
	struct counter_set set;
	struct td_decoding d;
	struct td_metrics m;
	struct td_counts c;
	char err[256];

	(void)state;
	assert_int_equal(counters_from_model(&zen, &pmu, 2, false, &set, err, sizeof(err)), 0);
	/* Slots: cyc, fe, smt (group 0), then lat (group 1). */
	assert_int_equal(set.event[1], 2);
	assert_int_equal(set.event[3], 1);
	c = counts((const __u64[]){ 100, 120, 60, 10 }, 4, 100, 100);
	assert_int_equal(td_decoding_init(&d, &set, false, err, sizeof(err)), 0);
	td_decode(&d, &c, &m);
	assert_near(m.slots, 600);
	assert_near(m.l1[TD_L1_FE_BOUND], 0.2);
	assert_near(m.l1[TD_L1_SMT_CONTENTION], 0.1);
	assert_near(m.l2[TD_L2_FETCH_LAT], 0.1);
	assert_nan(m.l1[TD_L1_RETIRING]); /* this row has no such node */

	/* The watchdog holds a counter: smt goes, and its node is NaN, the rest stay. */
	assert_int_equal(counters_from_model(&zen, &pmu, 2, true, &set, err, sizeof(err)), 0);
	c = counts((const __u64[]){ 100, 120, 10 }, 3, 100, 100);
	assert_int_equal(td_decoding_init(&d, &set, false, err, sizeof(err)), 0);
	td_decode(&d, &c, &m);
	assert_near(m.l1[TD_L1_FE_BOUND], 0.2);
	assert_nan(m.l1[TD_L1_SMT_CONTENTION]);
	assert_near(m.l2[TD_L2_FETCH_LAT], 0.1);
}

/*
 * Each group scaled by its own times: group 0 ran all the time, group 1
 * (lat) half of it: lat 10 -> 20, fetch latency 6 * 20 / 600 = 0.2, and
 * the row is flagged multiplexed though group 0 was not. Group 1 never
 * ran: its metric is NaN, not 0, and level 1 stays.
 */
static void test_group_scaling(void **state)
{
	static struct core_pmu pmu = { .name = "cpu", .type = 4 };
	struct counter_set set;
	struct td_decoding d;
	struct td_metrics m;
	struct td_counts c;
	char err[256];

	(void)state;
	assert_int_equal(counters_from_model(&zen, &pmu, 2, false, &set, err, sizeof(err)), 0);
	assert_int_equal(td_decoding_init(&d, &set, false, err, sizeof(err)), 0);
	c = counts((const __u64[]){ 100, 120, 60, 10 }, 4, 100, 100);
	c.enabled_ns[1] = 100;
	c.running_ns[1] = 50;
	td_decode(&d, &c, &m);
	assert_true(m.multiplexed);
	assert_near(m.scale, 1);
	assert_near(m.l1[TD_L1_FE_BOUND], 0.2);
	assert_near(m.l2[TD_L2_FETCH_LAT], 0.2);
	c.running_ns[1] = 0;
	td_decode(&d, &c, &m);
	assert_false(m.never_counted);
	assert_near(m.l1[TD_L1_FE_BOUND], 0.2);
	assert_nan(m.l2[TD_L2_FETCH_LAT]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level2),
		cmocka_unit_test(test_level1),
		cmocka_unit_test(test_multiplexed_and_clamp),
		cmocka_unit_test(test_never_counted),
		cmocka_unit_test(test_no_slots),
		cmocka_unit_test(test_software),
		cmocka_unit_test(test_groups_and_smt),
		cmocka_unit_test(test_group_scaling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
