// SPDX-License-Identifier: GPL-2.0
/*
 * libtdregion's decode, pure: two snapshots of the PERF_METRICS register
 * and the slots counter (and of the generic counters a row adds), as
 * rdpmc would read them, through libtdregion's arithmetic (fields.c) and
 * tdtrace's decoder for the real icelake and sapphirerapids rows. Each
 * expected value is computed here from topdown.txt's recipe (each node's
 * slots = its 8-bit fraction * slots, differenced between the snapshots)
 * and perf's tma_* formulas for the row, written out in C.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/decode.h"
#include "tdregion/fields.h"

#define assert_close(a, b)                                                                         \
	do {                                                                                       \
		double a_ = (a), b_ = (b);                                                         \
		if (!(fabs(a_ - b_) <= 1e-7))                                                      \
			fail_msg("%s = %.12f, expected %.12f", #a, a_, b_);                        \
	} while (0)

/* Field values of a PERF_METRICS register, retiring (field 0) first. */
static __u64 metrics_reg(const unsigned char f[8])
{
	__u64 v = 0;

	for (int i = 0; i < 8; i++)
		v |= (__u64)f[i] << (8 * i);
	return v;
}

/* topdown.txt's GET_METRIC(m, i) * slots, in a double (no rounding but the double's). */
static double doc_slots(__u64 m, int i, __u64 slots)
{
	return (double)((m >> (i * 8)) & 0xff) * (double)slots / 0xff;
}

static void test_fields(void **state)
{
	unsigned char f[8] = { 0x40, 0x10, 0x5f, 0x50, 0x08, 0x0c, 0x30, 0x20 };
	__u64 m = metrics_reg(f);

	/* The metric events' encodings (umask 0x80 + field), nothing else. */
	assert_int_equal(tdr_metric_field(0x8000), 0);
	assert_int_equal(tdr_metric_field(0x8300), 3);
	assert_int_equal(tdr_metric_field(0x8700), 7);
	assert_int_equal(tdr_metric_field(0x0400), -1); /* slots */
	assert_int_equal(tdr_metric_field(0x8001), -1); /* event 1 */
	assert_int_equal(tdr_metric_field(0x8800), -1);
	/* Level 1's four fields sum to 0xff (100%), as the document says. */
	assert_int_equal(tdr_fraction(m, 0) + tdr_fraction(m, 1) + tdr_fraction(m, 2) +
				 tdr_fraction(m, 3),
			 0xff);
	for (int i = 0; i < 8; i++)
		assert_int_equal(tdr_fraction(m, i), f[i]);
	/* slots * fraction / 0xff, rounded down as the kernel does. */
	assert_int_equal(tdr_metric_slots(m, 0, 1000), 1000 * 0x40 / 0xff);
	assert_int_equal(tdr_metric_slots(m, 2, 0xff), 0x5f);
	/* Past 2^56 slots: no overflow, the exact floor (0xff * 2^56 / 0xff). */
	assert_true(tdr_metric_slots(0xff, 0, 1ULL << 60) == 1ULL << 60);
	assert_true(tdr_metric_slots(0x80, 0, (1ULL << 60) + 5) ==
		    (__u64)(((unsigned __int128)((1ULL << 60) + 5) * 0x80) / 0xff));
}

static void test_pmc_and_delta(void **state)
{
	__u64 a[3] = { 10, 20, 30 }, b[3] = { 15, 20, 31 }, d[3] = { 7, 7, 7 };

	/* A 48-bit counter programmed to -100 and counted up to -10: 90 since. */
	assert_int_equal(tdr_pmc_count(1000, (1ULL << 48) - 10, 48), 990);
	assert_int_equal(tdr_pmc_count(1000, 5, 48), 1005);
	assert_int_equal(tdr_pmc_count(7, 0xffff, 64), 7 + 0xffff);
	assert_int_equal(tdr_pmc_raw(0xffff000000000123ULL, 48), 0x123);
	assert_true(tdr_delta(b, a, d, 3));
	assert_int_equal(d[0], 5);
	assert_int_equal(d[1], 0);
	assert_int_equal(d[2], 1);
	/* A value that went backwards (a reset inside): refused, nothing written. */
	b[1] = 19;
	d[0] = 7;
	assert_false(tdr_delta(b, a, d, 3));
	assert_int_equal(d[0], 7);
}

/* The page's TSC to ns conversion, against the same done in 128 bits. */
static void test_page_ns(void **state)
{
	const struct {
		__u64 cyc, offset;
		__u32 mult;
		__u16 shift;
	} v[] = {
		{ 1000, 0, 1 << 10, 10 },			       /* 1 GHz: 1 ns per cycle */
		{ 3000000000ULL, 5, 699050667, 31 },		       /* 3 GHz */
		{ 0xfedcba9876543210ULL, -1000000ULL, 349525333, 30 }, /* past 2^64 before >> */
		{ 0x123456789ULL, 42, 0x7fffffff, 0 },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		__u64 want = v[i].offset +
			     (__u64)(((unsigned __int128)v[i].cyc * v[i].mult) >> v[i].shift);

		assert_true(tdr_page_ns(v[i].cyc, v[i].offset, v[i].mult, v[i].shift, false, 0,
					0) == want);
	}
	/* A 32-bit TSC that wrapped since time_cycles: counted on from it, not from 0. */
	assert_true(tdr_page_ns(0x10, 0, 1, 0, true, 0xfffffff0ULL, 0xffffffffULL) ==
		    0xfffffff0ULL + 0x20);
}

/* rdpmc only when every counter's page allows it, not the leader's alone. */
static void test_rdpmc_allowed(void **state)
{
	static struct perf_event_mmap_page page[3];
	struct perf_event_mmap_page *pages[3] = { &page[0], &page[1], &page[2] };

	for (int i = 0; i < 3; i++)
		page[i].cap_user_rdpmc = 1;
	assert_int_equal(tdr_first_without_rdpmc(pages, 3), -1);
	page[2].cap_user_rdpmc = 0;
	assert_int_equal(tdr_first_without_rdpmc(pages, 3), 2);
	page[0].cap_user_rdpmc = 0;
	assert_int_equal(tdr_first_without_rdpmc(pages, 3), 0);
}

/* A core PMU "cpu" with the kernel's slots and topdown-* encodings. */
static struct core_pmu *intel_pmu(void)
{
	static const char *const names[] = {
		"slots",
		"topdown-retiring",
		"topdown-bad-spec",
		"topdown-fe-bound",
		"topdown-be-bound",
		"topdown-heavy-ops",
		"topdown-br-mispredict",
		"topdown-fetch-lat",
		"topdown-mem-bound",
	};
	struct core_pmu *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	strcpy(p->name, "cpu");
	p->type = 4;
	for (int i = 0; i < 9; i++) {
		strcpy(p->events[i].name, names[i]);
		p->events[i].config[0] = i ? 0x8000 + 0x100 * (i - 1) : 0x0400;
	}
	p->nr_events = 9;
	return p;
}

struct named {
	const char *name;
	__u64 begin, end; /* the counter's count at each snapshot */
};

/*
 * A snapshot of @set as libtdregion's rdpmc read composes it, all offsets
 * 0: slots is its raw register; each metric event its fraction of it;
 * a generic counter its value in @gen, read as a 48-bit register started at
 * -2^20 (the kernel programs counting events to a negative value) with
 * the offset that makes it count from 0. Every group ran @enabled ns, for
 * @running of them.
 */
static void snapshot(const struct counter_set *set, __u64 slots, __u64 m, const struct named *gen,
		     bool end, __u64 enabled, const __u64 *running, __u64 *v)
{
	const __s64 start = -(1LL << 20);

	for (int i = 0; i < set->nr; i++) {
		int field = tdr_metric_field(set->attr[i].config);

		if (set->attr[i].config == 0x0400)
			v[i] = tdr_pmc_count(0, slots, 48);
		else if (field >= 0)
			v[i] = tdr_metric_slots(m, field, slots);
		else {
			const struct named *g = gen;

			while (g->name && strcmp(g->name, set->name[i]))
				g++;
			assert_non_null(g->name);
			v[i] = tdr_pmc_count(-start,
					     (__u64)(start + (__s64)(end ? g->end : g->begin)) &
						     ((1ULL << 48) - 1),
					     48);
		}
	}
	for (int g = 0; g < counters_nr_groups(set); g++) {
		v[tdr_times_at(set, g)] = enabled;
		v[tdr_times_at(set, g) + 1] = running[g];
	}
}

/* Decode the region between two snapshots with @row's formulas. */
static void region(const char *row, struct counter_set *set, struct td_decoding *d, const __u64 *a,
		   const __u64 *b, struct td_metrics *out)
{
	__u64 delta[TD_MAX_COUNTERS + 2 * TD_MAX_GROUPS];
	struct td_counts c;

	assert_true(tdr_delta(b, a, delta, tdr_nr_values(set)));
	tdr_to_counts(set, delta, &c);
	td_decode(d, &c, out);
	assert_true(out->valid);
}

static void open_row(const char *row, struct counter_set *set, struct td_decoding *d)
{
	struct core_pmu *pmu = intel_pmu();
	const struct pmu_model *m = model_by_name(row, "cpu");
	char err[256] = "";

	assert_non_null(m);
	if (counters_from_model(m, pmu, 2, false, set, err, sizeof(err)))
		fail_msg("%s", err);
	if (td_decoding_init(d, set, false, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(set->level, 2);
	free(pmu);
}

/*
 * icelake: level 1 from PERF_METRICS with perf's two corrections,
 * INT_MISC.UOP_DROPPING and INT_MISC.CLEARS_COUNT; level 2 from generic
 * counters (groups 1 and 2), group 1 multiplexed at half its time.
 */
static void test_icelake(void **state)
{
	static struct counter_set set;
	static struct td_decoding d;
	/* Fractions at the region's begin and end, slots 3e8 then 1.3e9 since the reset. */
	unsigned char fa[8] = { 0x50, 0x14, 0x46, 0x57 }, fb[8] = { 0x3c, 0x1e, 0x5a, 0x4b };
	__u64 sa = 300000000, sb = 1300000000, ma = metrics_reg(fa), mb = metrics_reg(fb);
	const struct named gen[] = {
		{ "INT_MISC.UOP_DROPPING", 1000, 3001000 },
		{ "INT_MISC.CLEARS_COUNT", 10, 400010 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 5, 20000005 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 0, 300000 },
		{ "MACHINE_CLEARS.COUNT", 0, 100000 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 0, 30000000 },
		{ "EXE_ACTIVITY.BOUND_ON_STORES", 0, 5000000 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 0, 60000000 },
		{ "EXE_ACTIVITY.1_PORTS_UTIL", 0, 20000000 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 0, 25000000 },
		{ "UOPS_RETIRED.SLOTS", 0, 500000000 },
		{ "UOPS_ISSUED.ANY", 0, 550000000 },
		{ "IDQ.MS_UOPS", 0, 11000000 },
		{ "UOPS_DECODED.DEC0", 0, 40000000 },
		{ "UOPS_DECODED.DEC0,cmask=1", 0, 30000000 },
		{ "IDQ.MITE_UOPS", 0, 200000000 },
		{ NULL, 0, 0 },
	};
	__u64 run_a[TD_MAX_GROUPS] = { 0 }, run_b[TD_MAX_GROUPS], a[32], b[32];
	struct td_metrics m;
	double slots, ret, bad, fe, be, sum, fe_b, be_b, ret_b, bad_b, scale1;
	double fl, bm, mb_, heavy, ms;

	open_row("icelake", &set, &d);
	assert_int_equal(counters_nr_groups(&set), 3);
	for (int g = 0; g < 3; g++)
		run_b[g] = g == 1 ? 500000 : 1000000;
	snapshot(&set, sa, ma, gen, false, 0, run_a, a);
	snapshot(&set, sb, mb, gen, true, 1000000, run_b, b);
	region("icelake", &set, &d, a, b, &m);

	/* topdown.txt: each node's slots in the region. */
	slots = (double)(sb - sa);
	ret = doc_slots(mb, 0, sb) - doc_slots(ma, 0, sa);
	bad = doc_slots(mb, 1, sb) - doc_slots(ma, 1, sa);
	fe = doc_slots(mb, 2, sb) - doc_slots(ma, 2, sa);
	be = doc_slots(mb, 3, sb) - doc_slots(ma, 3, sa);
	sum = ret + bad + fe + be;
	/* perf's icl-metrics.json, v7.3. */
	fe_b = fe / sum - 3000000.0 / slots;
	be_b = be / sum + 5 * 400000.0 / slots;
	ret_b = ret / sum;
	bad_b = fmax(1 - (fe_b + be_b + ret_b), 0);
	assert_close(m.slots, slots);
	assert_close(m.l1[TD_L1_FE_BOUND], fe_b);
	assert_close(m.l1[TD_L1_BE_BOUND], be_b);
	assert_close(m.l1[TD_L1_RETIRING], ret_b);
	assert_close(m.l1[TD_L1_BAD_SPEC], bad_b);
	/* Level 2: group 1 ran half its time, so its counts are doubled, as perf scales. */
	scale1 = 2;
	fl = (5 * 20000000.0 * scale1 - 3000000.0) / slots;
	bm = 300000.0 * scale1 / (300000.0 * scale1 + 100000.0 * scale1) * bad_b;
	mb_ = (30e6 + 5e6) * scale1 /
	      (60e6 * scale1 + (20e6 * scale1 + ret_b * 25e6 * scale1) + 5e6 * scale1) * be_b;
	ms = 500e6 / 550e6 * 11e6 / slots;
	heavy = ms + ret_b * (40e6 - 30e6) / 200e6;
	assert_true(m.multiplexed);
	assert_close(m.l2[TD_L2_FETCH_LAT], fl);
	assert_close(m.l2[TD_L2_FETCH_BW], fmax(0, fe_b - fl));
	assert_close(m.l2[TD_L2_BR_MISPREDICT], bm);
	assert_close(m.l2[TD_L2_MACHINE_CLEARS], fmax(0, bad_b - bm));
	assert_close(m.l2[TD_L2_MEM_BOUND], mb_);
	assert_close(m.l2[TD_L2_CORE_BOUND], fmax(0, be_b - mb_));
	assert_close(m.l2[TD_L2_HEAVY_OPS], heavy);
	assert_close(m.l2[TD_L2_LIGHT_OPS], fmax(0, ret_b - heavy));
}

/* sapphirerapids: all eight fields of PERF_METRICS, levels 1 and 2 from the register. */
static void test_sapphirerapids(void **state)
{
	static struct counter_set set;
	static struct td_decoding d;
	unsigned char fa[8] = { 0x66, 0x0f, 0x40, 0x4a, 0x20, 0x08, 0x30, 0x22 };
	unsigned char fb[8] = { 0x33, 0x22, 0x55, 0x55, 0x10, 0x19, 0x44, 0x30 };
	__u64 sa = 123456789, sb = 5123456789ULL, ma = metrics_reg(fa), mb = metrics_reg(fb);
	const struct named gen[] = { { "INT_MISC.UOP_DROPPING", 77, 2000077 }, { NULL, 0, 0 } };
	__u64 run[TD_MAX_GROUPS] = { 1000, 1000, 1000, 1000 }, a[32], b[32];
	double n[8], slots, sum, fe, be, ret, bad, fl;
	struct td_metrics m;

	open_row("sapphirerapids", &set, &d);
	assert_int_equal(counters_nr_groups(&set), 1);
	snapshot(&set, sa, ma, gen, false, 1000, run, a);
	for (int g = 0; g < TD_MAX_GROUPS; g++)
		run[g] = 9000;
	snapshot(&set, sb, mb, gen, true, 9000, run, b);
	region("sapphirerapids", &set, &d, a, b, &m);

	slots = (double)(sb - sa);
	for (int i = 0; i < 8; i++)
		n[i] = doc_slots(mb, i, sb) - doc_slots(ma, i, sa);
	sum = n[0] + n[1] + n[2] + n[3];
	/* perf's spr-metrics.json, v7.3. */
	fe = n[2] / sum - 2000000.0 / slots;
	be = n[3] / sum;
	ret = n[0] / sum;
	bad = fmax(1 - (fe + be + ret), 0);
	fl = n[6] / sum - 2000000.0 / slots;
	assert_false(m.multiplexed);
	assert_close(m.slots, slots);
	assert_close(m.l1[TD_L1_FE_BOUND], fe);
	assert_close(m.l1[TD_L1_BE_BOUND], be);
	assert_close(m.l1[TD_L1_RETIRING], ret);
	assert_close(m.l1[TD_L1_BAD_SPEC], bad);
	assert_close(m.l2[TD_L2_HEAVY_OPS], n[4] / sum);
	assert_close(m.l2[TD_L2_LIGHT_OPS], fmax(0, ret - n[4] / sum));
	assert_close(m.l2[TD_L2_BR_MISPREDICT], n[5] / sum);
	assert_close(m.l2[TD_L2_MACHINE_CLEARS], fmax(0, bad - n[5] / sum));
	assert_close(m.l2[TD_L2_FETCH_LAT], fl);
	assert_close(m.l2[TD_L2_FETCH_BW], fmax(0, fe - fl));
	assert_close(m.l2[TD_L2_MEM_BOUND], n[7] / sum);
	assert_close(m.l2[TD_L2_CORE_BOUND], fmax(0, be - n[7] / sum));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),	cmocka_unit_test(test_pmc_and_delta),
		cmocka_unit_test(test_page_ns), cmocka_unit_test(test_rdpmc_allowed),
		cmocka_unit_test(test_icelake), cmocka_unit_test(test_sapphirerapids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
