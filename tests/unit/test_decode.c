// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the decode layer, written from the contract in
 * user/model/decode.h. Every expected value is computed by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/decode.h"

/* cmocka's assert_float_equal() goes through float: too coarse here. */
#define EPS 1e-12
#define assert_near(a, b, eps)                                                                     \
	do {                                                                                       \
		double a_ = (a), b_ = (b);                                                         \
		if (!(fabs(a_ - b_) <= (eps)))                                                     \
			fail_msg("%s = %.17g, expected %.17g (eps %g)", #a, a_, b_,                \
				 (double)(eps));                                                   \
	} while (0)

struct vec {
	__u64 slots, ret, bad, fe, be;
	__u64 heavy, br, fetch_lat, mem;
	__u64 enabled, running;
};

static struct td_counts mk(struct vec v)
{
	struct td_counts c;

	memset(&c, 0, sizeof(c));
	c.count[TD_SLOTS] = v.slots;
	c.count[TD_RETIRING] = v.ret;
	c.count[TD_BAD_SPEC] = v.bad;
	c.count[TD_FE_BOUND] = v.fe;
	c.count[TD_BE_BOUND] = v.be;
	c.count[TD_HEAVY_OPS] = v.heavy;
	c.count[TD_BR_MISPREDICT] = v.br;
	c.count[TD_FETCH_LAT] = v.fetch_lat;
	c.count[TD_MEM_BOUND] = v.mem;
	c.enabled_ns[0] = v.enabled;
	c.running_ns[0] = v.running;
	c.slices = 1;
	return c;
}

/* Fill @m with values td_decode() must overwrite, then decode. */
static void decode(struct vec v, int level, struct td_metrics *m)
{
	struct td_counts c = mk(v);
	int i;

	m->level = -1;
	m->scale = NAN;
	m->multiplexed = true;
	m->never_counted = true;
	m->slots = NAN;
	m->valid = true;
	for (i = 0; i < TD_NR_L1; i++)
		m->l1[i] = NAN;
	for (i = 0; i < TD_NR_L2; i++)
		m->l2[i] = NAN;
	m->l1_coverage = NAN;
	td_decode(&c, level, m);
}

/* No NaN or infinity anywhere in @m. */
static void assert_all_finite(const struct td_metrics *m)
{
	int i;

	assert_true(isfinite(m->scale));
	assert_true(isfinite(m->slots));
	assert_true(isfinite(m->l1_coverage));
	for (i = 0; i < TD_NR_L1; i++)
		assert_true(isfinite(m->l1[i]));
	for (i = 0; i < TD_NR_L2; i++)
		assert_true(isfinite(m->l2[i]));
}

static void assert_l1(const struct td_metrics *m, double ret, double bad, double fe, double be)
{
	assert_near(m->l1[TD_L1_RETIRING], ret, EPS);
	assert_near(m->l1[TD_L1_BAD_SPEC], bad, EPS);
	assert_near(m->l1[TD_L1_FE_BOUND], fe, EPS);
	assert_near(m->l1[TD_L1_BE_BOUND], be, EPS);
	assert_near(m->l1[0] + m->l1[1] + m->l1[2] + m->l1[3], 1.0, 1e-9);
}

static void assert_l2(const struct td_metrics *m, const double want[TD_NR_L2])
{
	int i;

	for (i = 0; i < TD_NR_L2; i++) {
		if (!(fabs(m->l2[i] - want[i]) <= EPS))
			fail_msg("l2[%d] = %.17g, expected %.17g", i, m->l2[i], want[i]);
		assert_true(m->l2[i] >= 0.0);
	}
}

/* L1 sums exactly to slots: 250/100/300/350 of 1000 = 25%/10%/30%/35%. */
static void test_l1_clean(void **state)
{
	struct td_metrics m;

	decode((struct vec){ .slots = 1000, .ret = 250, .bad = 100, .fe = 300, .be = 350 }, 1, &m);
	assert_int_equal(m.level, 1);
	assert_true(m.valid);
	/* enabled == running == 0 (synthetic counts): scale 1, not multiplexed. */
	assert_near(m.scale, 1.0, 0);
	assert_false(m.multiplexed);
	assert_false(m.never_counted);
	assert_near(m.slots, 1000.0, 0);
	assert_l1(&m, 0.25, 0.10, 0.30, 0.35);
	/* 1000 / 1000 */
	assert_near(m.l1_coverage, 1.0, EPS);
	assert_all_finite(&m);
}

/*
 * L1 sums to 990 of 1000 slots (247 + 99 + 297 + 347 = 990): the fractions
 * are over 990, not 1000: 247/990 = 0.24949..., 99/990 = 0.1,
 * 297/990 = 0.3, 347/990 = 0.35050...; coverage 990/1000 = 0.99.
 */
static void test_l1_sum_below_slots(void **state)
{
	struct td_metrics m;

	decode((struct vec){ .slots = 1000, .ret = 247, .bad = 99, .fe = 297, .be = 347 }, 1, &m);
	assert_true(m.valid);
	assert_near(m.slots, 1000.0, 0);
	assert_l1(&m, 247.0 / 990.0, 0.1, 0.3, 347.0 / 990.0);
	assert_near(m.l1[TD_L1_RETIRING], 0.2494949494949495, 1e-15);
	assert_near(m.l1_coverage, 0.99, EPS);
}

/*
 * L1 sums to more than slots: 260 + 100 + 300 + 350 = 1010 of 1000;
 * 260/1010 = 0.25742574..., coverage 1.01.
 */
static void test_l1_sum_above_slots(void **state)
{
	struct td_metrics m;

	decode((struct vec){ .slots = 1000, .ret = 260, .bad = 100, .fe = 300, .be = 350 }, 1, &m);
	assert_true(m.valid);
	assert_l1(&m, 260.0 / 1010.0, 100.0 / 1010.0, 300.0 / 1010.0, 350.0 / 1010.0);
	assert_near(m.l1[TD_L1_RETIRING], 0.25742574257425743, 1e-15);
	assert_near(m.l1_coverage, 1.01, EPS);
}

/* Nothing counted at all, at every level: invalid, no NaN. */
static void test_all_zero(void **state)
{
	struct td_metrics m;
	int level;

	for (level = 0; level <= 2; level++) {
		decode((struct vec){ 0 }, level, &m);
		assert_int_equal(m.level, level);
		assert_false(m.valid);
		assert_false(m.multiplexed);
		assert_false(m.never_counted);
		assert_near(m.scale, 1.0, 0);
		assert_near(m.slots, 0.0, 0);
		assert_all_finite(&m);
		if (level > 0)
			assert_near(m.l1_coverage, 0.0, 0); /* slots == 0 */
	}
}

/* Slots counted but every L1 count zero: sum(L1) == 0, so invalid. */
static void test_l1_all_zero(void **state)
{
	struct td_metrics m;

	decode((struct vec){ .slots = 1000 }, 1, &m);
	assert_false(m.valid);
	assert_near(m.slots, 1000.0, 0);
	assert_all_finite(&m);
	assert_near(m.l1_coverage, 0.0, 0); /* 0 / 1000 */

	/* Same at level 2, with L2 counts that have no parent to share. */
	decode((struct vec){ .slots = 1000, .heavy = 10, .br = 20, .fetch_lat = 30, .mem = 40 }, 2,
	       &m);
	assert_false(m.valid);
	assert_all_finite(&m);
}

/* L1 counted but slots zero: ratios still valid, coverage 0 by definition. */
static void test_slots_zero_l1_nonzero(void **state)
{
	struct td_metrics m;

	/* 30 + 10 + 20 + 40 = 100: 0.3, 0.1, 0.2, 0.4. */
	decode((struct vec){ .ret = 30, .bad = 10, .fe = 20, .be = 40 }, 1, &m);
	assert_true(m.valid);
	assert_near(m.slots, 0.0, 0);
	assert_l1(&m, 0.3, 0.1, 0.2, 0.4);
	assert_near(m.l1_coverage, 0.0, 0);
	assert_all_finite(&m);
}

/*
 * Level 2, L1 sums to slots: slots 2000, L1 800/200/400/600 = .4/.1/.2/.3;
 *   heavy 300/2000 = .15    light = .4 - .15 = .25
 *   br    150/2000 = .075   machine clears = .1 - .075 = .025
 *   fetch lat 100/2000 = .05  fetch bw = .2 - .05 = .15
 *   mem 450/2000 = .225     core = .3 - .225 = .075
 * The eight L2 nodes sum to 1.
 */
static void test_l2_clean(void **state)
{
	static const double want[TD_NR_L2] = {
		[TD_L2_HEAVY_OPS] = 0.15,      [TD_L2_LIGHT_OPS] = 0.25,
		[TD_L2_BR_MISPREDICT] = 0.075, [TD_L2_MACHINE_CLEARS] = 0.025,
		[TD_L2_FETCH_LAT] = 0.05,      [TD_L2_FETCH_BW] = 0.15,
		[TD_L2_MEM_BOUND] = 0.225,     [TD_L2_CORE_BOUND] = 0.075,
	};
	struct td_metrics m;
	double sum = 0;
	int i;

	decode((struct vec){ .slots = 2000,
			     .ret = 800,
			     .bad = 200,
			     .fe = 400,
			     .be = 600,
			     .heavy = 300,
			     .br = 150,
			     .fetch_lat = 100,
			     .mem = 450 },
	       2, &m);
	assert_int_equal(m.level, 2);
	assert_true(m.valid);
	assert_l1(&m, 0.4, 0.1, 0.2, 0.3);
	assert_l2(&m, want);
	for (i = 0; i < TD_NR_L2; i++)
		sum += m.l2[i];
	assert_near(sum, 1.0, 1e-9);
	assert_near(m.l1_coverage, 1.0, EPS);
}

/*
 * Level 2 where L1 covers only half of slots: slots 1000, L1 200/50/100/150
 * (sum 500) = .4/.1/.2/.3. L2 is divided by the L1 sum (500), not slots:
 *   heavy 100/500 = .2   light .4 - .2 = .2
 *   br 25/500 = .05      machine clears .1 - .05 = .05
 *   fetch lat 60/500 = .12  fetch bw .2 - .12 = .08
 *   mem 75/500 = .15     core .3 - .15 = .15
 * coverage 500/1000 = 0.5.
 */
static void test_l2_uses_l1_sum(void **state)
{
	static const double want[TD_NR_L2] = {
		[TD_L2_HEAVY_OPS] = 0.2,      [TD_L2_LIGHT_OPS] = 0.2,
		[TD_L2_BR_MISPREDICT] = 0.05, [TD_L2_MACHINE_CLEARS] = 0.05,
		[TD_L2_FETCH_LAT] = 0.12,     [TD_L2_FETCH_BW] = 0.08,
		[TD_L2_MEM_BOUND] = 0.15,     [TD_L2_CORE_BOUND] = 0.15,
	};
	struct td_metrics m;

	decode((struct vec){ .slots = 1000,
			     .ret = 200,
			     .bad = 50,
			     .fe = 100,
			     .be = 150,
			     .heavy = 100,
			     .br = 25,
			     .fetch_lat = 60,
			     .mem = 75 },
	       2, &m);
	assert_true(m.valid);
	assert_l1(&m, 0.4, 0.1, 0.2, 0.3);
	assert_l2(&m, want);
	assert_near(m.l1_coverage, 0.5, EPS);
}

/*
 * Children larger than (or equal to) their parent: slots 1000,
 * L1 100/200/300/400 = .1/.2/.3/.4;
 *   heavy 150 > retiring 100: heavy clamped to .1, light 0
 *   br 200 == bad spec 200: br .2, machine clears 0
 *   fetch lat 0: fetch lat 0, fetch bw .3
 *   mem 500 > be 400: mem clamped to .4, core 0
 */
static void test_l2_child_above_parent(void **state)
{
	static const double want[TD_NR_L2] = {
		[TD_L2_HEAVY_OPS] = 0.1,      [TD_L2_LIGHT_OPS] = 0.0,	[TD_L2_BR_MISPREDICT] = 0.2,
		[TD_L2_MACHINE_CLEARS] = 0.0, [TD_L2_FETCH_LAT] = 0.0,	[TD_L2_FETCH_BW] = 0.3,
		[TD_L2_MEM_BOUND] = 0.4,      [TD_L2_CORE_BOUND] = 0.0,
	};
	struct td_metrics m;

	decode((struct vec){ .slots = 1000,
			     .ret = 100,
			     .bad = 200,
			     .fe = 300,
			     .be = 400,
			     .heavy = 150,
			     .br = 200,
			     .fetch_lat = 0,
			     .mem = 500 },
	       2, &m);
	assert_true(m.valid);
	assert_l1(&m, 0.1, 0.2, 0.3, 0.4);
	assert_l2(&m, want);
	/* Child and sibling always add up to the parent. */
	assert_near(m.l2[TD_L2_HEAVY_OPS] + m.l2[TD_L2_LIGHT_OPS], m.l1[TD_L1_RETIRING], EPS);
	assert_near(m.l2[TD_L2_MEM_BOUND] + m.l2[TD_L2_CORE_BOUND], m.l1[TD_L1_BE_BOUND], EPS);
}

/* A child far beyond the L1 sum (garbage) is still clamped, siblings >= 0. */
static void test_l2_child_huge(void **state)
{
	static const double want[TD_NR_L2] = {
		[TD_L2_HEAVY_OPS] = 0.25,     [TD_L2_LIGHT_OPS] = 0.0,
		[TD_L2_BR_MISPREDICT] = 0.25, [TD_L2_MACHINE_CLEARS] = 0.0,
		[TD_L2_FETCH_LAT] = 0.25,     [TD_L2_FETCH_BW] = 0.0,
		[TD_L2_MEM_BOUND] = 0.25,     [TD_L2_CORE_BOUND] = 0.0,
	};
	struct td_metrics m;

	/* L1 25 each (sum 100) = .25 each; each child >= 1e6/100 clamps to .25. */
	decode((struct vec){ .slots = 100,
			     .ret = 25,
			     .bad = 25,
			     .fe = 25,
			     .be = 25,
			     .heavy = 1000000,
			     .br = UINT64_MAX,
			     .fetch_lat = 1ULL << 40,
			     .mem = 101 },
	       2, &m);
	assert_true(m.valid);
	assert_l1(&m, 0.25, 0.25, 0.25, 0.25);
	assert_l2(&m, want);
	assert_all_finite(&m);
}

/* Level 1 ignores whatever sits in the L2 counters. */
static void test_level1_ignores_l2(void **state)
{
	struct td_metrics m;
	int i;

	decode((struct vec){ .slots = 1000,
			     .ret = 250,
			     .bad = 100,
			     .fe = 300,
			     .be = 350,
			     .heavy = 999999,
			     .br = UINT64_MAX,
			     .fetch_lat = 7,
			     .mem = 1ULL << 50 },
	       1, &m);
	assert_int_equal(m.level, 1);
	assert_true(m.valid);
	assert_l1(&m, 0.25, 0.10, 0.30, 0.35);
	assert_near(m.l1_coverage, 1.0, EPS);
	/* "level 2 only": not filled from the garbage, left at zero. */
	for (i = 0; i < TD_NR_L2; i++)
		assert_near(m.l2[i], 0.0, 0);
	assert_all_finite(&m);
}

/* Level 0 (--software): slots is the cpu-clock leader, no ratios. */
static void test_level0_software(void **state)
{
	struct td_metrics m;

	/* 5 ms of cpu-clock, no other counters. */
	decode((struct vec){ .slots = 5000000, .enabled = 5000000, .running = 5000000 }, 0, &m);
	assert_int_equal(m.level, 0);
	assert_false(m.valid);
	assert_near(m.slots, 5000000.0, 0);
	assert_near(m.scale, 1.0, 0);
	assert_false(m.multiplexed);
	assert_all_finite(&m);

	/* Even if the L1 counters hold numbers, level 0 has no ratios. */
	decode((struct vec){ .slots = 1000, .ret = 250, .bad = 100, .fe = 300, .be = 350 }, 0, &m);
	assert_int_equal(m.level, 0);
	assert_false(m.valid);
	assert_near(m.slots, 1000.0, 0);
	assert_all_finite(&m);

	/* Software counters multiplexed too: 2000/1000 scales cpu-clock x2. */
	decode((struct vec){ .slots = 1000, .enabled = 2000, .running = 1000 }, 0, &m);
	assert_false(m.valid);
	assert_true(m.multiplexed);
	assert_near(m.scale, 2.0, 0);
	assert_near(m.slots, 2000.0, 0);
}

/*
 * Multiplexed: enabled 2000, running 1000: scale 2000/1000 = 2, slots
 * 1000 * 2 = 2000; ratios and coverage are ratios of counts, so unchanged.
 */
static void test_multiplexed(void **state)
{
	static const double want[TD_NR_L2] = {
		[TD_L2_HEAVY_OPS] = 0.15,     [TD_L2_LIGHT_OPS] = 0.10,
		[TD_L2_BR_MISPREDICT] = 0.04, [TD_L2_MACHINE_CLEARS] = 0.06,
		[TD_L2_FETCH_LAT] = 0.2,      [TD_L2_FETCH_BW] = 0.1,
		[TD_L2_MEM_BOUND] = 0.3,      [TD_L2_CORE_BOUND] = 0.05,
	};
	struct td_metrics m;

	decode((struct vec){ .slots = 1000,
			     .ret = 250,
			     .bad = 100,
			     .fe = 300,
			     .be = 350,
			     .enabled = 2000,
			     .running = 1000 },
	       1, &m);
	assert_true(m.multiplexed);
	assert_false(m.never_counted);
	assert_true(m.valid);
	assert_near(m.scale, 2.0, EPS);
	assert_near(m.slots, 2000.0, 1e-9);
	assert_l1(&m, 0.25, 0.10, 0.30, 0.35);
	assert_near(m.l1_coverage, 1.0, EPS);

	/*
	 * Level 2 at scale 1.5 (3000/2000): slots 1000 -> 1500;
	 *   heavy 150/1000 = .15, light .25 - .15 = .10
	 *   br 40/1000 = .04, clears .1 - .04 = .06
	 *   fetch lat 200/1000 = .2, fetch bw .3 - .2 = .1
	 *   mem 300/1000 = .3, core .35 - .3 = .05
	 */
	decode((struct vec){ .slots = 1000,
			     .ret = 250,
			     .bad = 100,
			     .fe = 300,
			     .be = 350,
			     .heavy = 150,
			     .br = 40,
			     .fetch_lat = 200,
			     .mem = 300,
			     .enabled = 3000,
			     .running = 2000 },
	       2, &m);
	assert_true(m.multiplexed);
	assert_true(m.valid);
	assert_near(m.scale, 1.5, EPS);
	assert_near(m.slots, 1500.0, 1e-9);
	assert_l1(&m, 0.25, 0.10, 0.30, 0.35);
	assert_l2(&m, want);
}

/*
 * The documented convention (perf_event_open(2), and bpf.h on
 * bpf_perf_event_read_value): normalized = count * time_enabled /
 * time_running. A group sharing the PMU with `perf stat --topdown` and on
 * it a quarter of the time: enabled 4 s, running 1 s, scale 4. Raw slots
 * 2.5e9 -> 1e10; L1 1e9/0.5e9/0.5e9/0.5e9 of a 2.5e9 sum stays
 * 40/20/20/20 %, coverage 2.5e9 / 2.5e9 = 1. Running short by 1 ns is
 * still flagged: the kernel advances both times together when a group is
 * never descheduled, so any gap is real.
 */
static void test_multiplexed_documented(void **state)
{
	struct td_metrics m;

	decode((struct vec){ .slots = 2500000000,
			     .ret = 1000000000,
			     .bad = 500000000,
			     .fe = 500000000,
			     .be = 500000000,
			     .enabled = 4000000000,
			     .running = 1000000000 },
	       1, &m);
	assert_true(m.multiplexed);
	assert_false(m.never_counted);
	assert_near(m.scale, 4.0, 0);
	assert_near(m.slots, 1e10, 0);
	assert_l1(&m, 0.40, 0.20, 0.20, 0.20);
	assert_near(m.l1_coverage, 1.0, EPS);

	decode((struct vec){ .slots = 1000, .enabled = 1000000001, .running = 1000000000 }, 0, &m);
	assert_true(m.multiplexed);
	assert_near(m.scale, 1.000000001, 1e-15);
	assert_near(m.slots, 1000.000001, 1e-9);

	/* Never on the PMU: no scale (enabled / 0), nothing to scale. */
	decode((struct vec){ .slots = 0, .enabled = 1000000000, .running = 0 }, 1, &m);
	assert_true(m.never_counted);
	assert_false(m.multiplexed);
	assert_near(m.slots, 0, 0);
	assert_false(m.valid);
}

/* running == enabled: counted all the time, scale exactly 1. */
static void test_not_multiplexed(void **state)
{
	struct td_metrics m;

	decode((struct vec){ .slots = 1000,
			     .ret = 250,
			     .bad = 100,
			     .fe = 300,
			     .be = 350,
			     .enabled = 123456789,
			     .running = 123456789 },
	       1, &m);
	assert_false(m.multiplexed);
	assert_false(m.never_counted);
	assert_true(m.valid);
	assert_near(m.scale, 1.0, 0);
	assert_near(m.slots, 1000.0, 0);

	/* running > enabled should not happen; it is not multiplexing: scale 1. */
	decode((struct vec){ .slots = 1000,
			     .ret = 250,
			     .bad = 100,
			     .fe = 300,
			     .be = 350,
			     .enabled = 1000,
			     .running = 2000 },
	       1, &m);
	assert_false(m.multiplexed);
	assert_near(m.scale, 1.0, 0);
	assert_near(m.slots, 1000.0, 0);
}

/*
 * Times are kept per group; the scale and the multiplexed flag come from
 * group 0 (the slots group) alone. Group 1 running half its enabled time
 * leaves scale 1; group 0 running 1000 of 4000 ns gives 4000 / 1000 = 4,
 * whatever group 1 says.
 */
static void test_scale_from_group0(void **state)
{
	struct td_counts c = mk((struct vec){ .slots = 1000,
					      .ret = 250,
					      .bad = 100,
					      .fe = 300,
					      .be = 350,
					      .enabled = 5000,
					      .running = 5000 });
	struct td_metrics m;

	c.enabled_ns[1] = 2000;
	c.running_ns[1] = 1000;
	c.enabled_ns[TD_MAX_GROUPS - 1] = 7;
	c.running_ns[TD_MAX_GROUPS - 1] = 0;
	assert_near(td_counts_scale(&c), 1.0, 0);
	td_decode(&c, 1, &m);
	assert_false(m.multiplexed);
	assert_false(m.never_counted);
	assert_near(m.slots, 1000.0, 0);

	c.enabled_ns[0] = 4000;
	c.running_ns[0] = 1000;
	assert_near(td_counts_scale(&c), 4.0, 0);
	td_decode(&c, 1, &m);
	assert_true(m.multiplexed);
	assert_near(m.slots, 4000.0, 0);
}

/* enabled > 0 but running == 0: the group never got the PMU. */
static void test_never_counted(void **state)
{
	struct td_metrics m;
	int level;

	for (level = 0; level <= 2; level++) {
		decode((struct vec){ .enabled = 1000, .running = 0 }, level, &m);
		assert_true(m.never_counted);
		assert_false(m.valid);
		assert_all_finite(&m); /* no 1000 / 0 */
	}

	/* Stale counts with running 0 are still "no data". */
	decode((struct vec){ .slots = 1000,
			     .ret = 250,
			     .bad = 100,
			     .fe = 300,
			     .be = 350,
			     .enabled = 1000,
			     .running = 0 },
	       2, &m);
	assert_true(m.never_counted);
	assert_false(m.valid);
	assert_all_finite(&m);
}

static struct td_counts counts_seq(__u64 base, __u64 step)
{
	struct td_counts c;
	int i;

	for (i = 0; i < TD_MAX_COUNTERS; i++)
		c.count[i] = base + step * i;
	c.enabled_ns[0] = base * 10;
	c.running_ns[0] = base * 9;
	c.slices = base + 1;
	return c;
}

static void test_counts_sub(void **state)
{
	/* a: 1000, 1100, ..., 1800; enabled 10000, running 9000, slices 1001 */
	struct td_counts a = counts_seq(1000, 100);
	/* b: 100, 110, ..., 180; enabled 1000, running 900, slices 101 */
	struct td_counts b = counts_seq(100, 10);
	struct td_counts out;
	int i;

	memset(&out, 0xaa, sizeof(out));
	td_counts_sub(&a, &b, &out);
	/* (1000 + 100 i) - (100 + 10 i) = 900 + 90 i */
	for (i = 0; i < TD_MAX_COUNTERS; i++)
		assert_int_equal(out.count[i], 900 + 90 * i);
	assert_int_equal(out.enabled_ns[0], 9000);
	assert_int_equal(out.running_ns[0], 8100);
	assert_int_equal(out.slices, 900);

	/* Inputs untouched. */
	assert_int_equal(a.count[8], 1800);
	assert_int_equal(b.count[8], 180);

	/* a - a = 0 */
	td_counts_sub(&a, &a, &out);
	for (i = 0; i < TD_MAX_COUNTERS; i++)
		assert_int_equal(out.count[i], 0);
	assert_int_equal(out.enabled_ns[0], 0);
	assert_int_equal(out.running_ns[0], 0);
	assert_int_equal(out.slices, 0);
}

static void test_counts_sub_saturates(void **state)
{
	struct td_counts a = counts_seq(1000, 100);
	struct td_counts b = a;
	struct td_counts out;
	int i;

	/* b exceeds a in some fields: those saturate at 0, not wrap. */
	b.count[TD_SLOTS] = 0;	     /* 1000 - 0 = 1000 */
	b.count[TD_RETIRING] = 1101; /* 1100 - 1101 -> 0 */
	b.count[TD_MEM_BOUND] = UINT64_MAX;
	b.count[TD_FE_BOUND] = 1299; /* 1300 - 1299 = 1 */
	b.enabled_ns[0] = 10001;	     /* 10000 - 10001 -> 0 */
	b.running_ns[0] = 1;	     /* 9000 - 1 = 8999 */
	b.slices = UINT64_MAX;
	td_counts_sub(&a, &b, &out);
	assert_int_equal(out.count[TD_SLOTS], 1000);
	assert_int_equal(out.count[TD_RETIRING], 0);
	assert_int_equal(out.count[TD_BAD_SPEC], 0); /* equal */
	assert_int_equal(out.count[TD_FE_BOUND], 1);
	assert_int_equal(out.count[TD_MEM_BOUND], 0);
	assert_int_equal(out.enabled_ns[0], 0);
	assert_int_equal(out.running_ns[0], 8999);
	assert_int_equal(out.slices, 0);
	for (i = 0; i < TD_MAX_COUNTERS; i++)
		assert_true(out.count[i] <= a.count[i]);
}

static void test_counts_add(void **state)
{
	struct td_counts acc, c = counts_seq(100, 10);
	int i;

	memset(&acc, 0, sizeof(acc));
	td_counts_add(&acc, &c);
	td_counts_add(&acc, &c);
	/* 2 * (100 + 10 i) */
	for (i = 0; i < TD_MAX_COUNTERS; i++)
		assert_int_equal(acc.count[i], 200 + 20 * i);
	assert_int_equal(acc.enabled_ns[0], 2000);
	assert_int_equal(acc.running_ns[0], 1800);
	assert_int_equal(acc.slices, 202);
	/* c untouched */
	assert_int_equal(c.count[0], 100);

	/* Large values: 2^40 + 2^40 = 2^41, no truncation to 32 bits. */
	memset(&c, 0, sizeof(c));
	memset(&acc, 0, sizeof(acc));
	c.count[TD_BE_BOUND] = 1ULL << 40;
	c.running_ns[0] = 1ULL << 33;
	td_counts_add(&acc, &c);
	td_counts_add(&acc, &c);
	assert_int_equal(acc.count[TD_BE_BOUND], 1ULL << 41);
	assert_int_equal(acc.running_ns[0], 1ULL << 34);
	assert_int_equal(acc.count[TD_SLOTS], 0);

	/* add then sub gives the original back */
	{
		struct td_counts a = counts_seq(5000, 7), b = counts_seq(300, 3), sum = a, back;

		td_counts_add(&sum, &b);
		td_counts_sub(&sum, &b, &back);
		assert_memory_equal(&back, &a, sizeof(a));
	}
}

/* Decoding a delta of two cumulative snapshots: the interval's own ratios. */
static void test_decode_of_delta(void **state)
{
	struct td_counts prev = mk((struct vec){ .slots = 1000,
						 .ret = 250,
						 .bad = 250,
						 .fe = 250,
						 .be = 250,
						 .enabled = 1000,
						 .running = 1000 });
	/* Interval: +2000 slots, +1000/+200/+400/+400, enabled +1000, running +500. */
	struct td_counts cur = mk((struct vec){ .slots = 3000,
						.ret = 1250,
						.bad = 450,
						.fe = 650,
						.be = 650,
						.enabled = 2000,
						.running = 1500 });
	struct td_counts d;
	struct td_metrics m;

	td_counts_sub(&cur, &prev, &d);
	td_decode(&d, 1, &m);
	/* 1000/2000 = .5, 200/2000 = .1, .2, .2; scale 1000/500 = 2, slots 4000 */
	assert_true(m.valid);
	assert_true(m.multiplexed);
	assert_near(m.scale, 2.0, EPS);
	assert_near(m.slots, 4000.0, 1e-9);
	assert_l1(&m, 0.5, 0.1, 0.2, 0.2);
}

static void test_names(void **state)
{
	static const char *const l1[TD_NR_L1] = {
		"tma_retiring",
		"tma_bad_speculation",
		"tma_frontend_bound",
		"tma_backend_bound",
	};
	static const char *const l2[TD_NR_L2] = {
		"tma_heavy_operations", "tma_light_operations", "tma_branch_mispredicts",
		"tma_machine_clears",	"tma_fetch_latency",	"tma_fetch_bandwidth",
		"tma_memory_bound",	"tma_core_bound",
	};
	int i;

	for (i = 0; i < TD_NR_L1; i++) {
		assert_non_null(td_l1_perf_names[i]);
		assert_string_equal(td_l1_perf_names[i], l1[i]);
	}
	for (i = 0; i < TD_NR_L2; i++) {
		assert_non_null(td_l2_perf_names[i]);
		assert_string_equal(td_l2_perf_names[i], l2[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l1_clean),
		cmocka_unit_test(test_l1_sum_below_slots),
		cmocka_unit_test(test_l1_sum_above_slots),
		cmocka_unit_test(test_all_zero),
		cmocka_unit_test(test_l1_all_zero),
		cmocka_unit_test(test_slots_zero_l1_nonzero),
		cmocka_unit_test(test_l2_clean),
		cmocka_unit_test(test_l2_uses_l1_sum),
		cmocka_unit_test(test_l2_child_above_parent),
		cmocka_unit_test(test_l2_child_huge),
		cmocka_unit_test(test_level1_ignores_l2),
		cmocka_unit_test(test_level0_software),
		cmocka_unit_test(test_multiplexed),
		cmocka_unit_test(test_multiplexed_documented),
		cmocka_unit_test(test_not_multiplexed),
		cmocka_unit_test(test_never_counted),
		cmocka_unit_test(test_scale_from_group0),
		cmocka_unit_test(test_counts_sub),
		cmocka_unit_test(test_counts_sub_saturates),
		cmocka_unit_test(test_counts_add),
		cmocka_unit_test(test_decode_of_delta),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
