// SPDX-License-Identifier: GPL-2.0
/*
 * user/model/decoder.c on a small model row made here: metrics compiled
 * against the events that opened, the plain form when a correction event
 * is missing, level-2 metrics left out without their events, and a bad
 * row refused. Expected values worked out in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include "model/decoder.h"

static const struct model_event events[] = {
	{ .name = "slots", .alias = "TOPDOWN.SLOTS", .sysfs = "slots", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-fe-bound", .sysfs = "topdown-fe-bound", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-be-bound", .sysfs = "topdown-be-bound", .flags = MODEL_EV_FIXED },
	{ .name = "INT_MISC.UOP_DROPPING", .config = 0x10ad, .flags = MODEL_EV_CORRECTION },
	{ .name = "FETCH.LAT", .config = 0x1, .flags = MODEL_EV_L2 },
};

static const struct model_metric metrics[] = {
	{ "tma_info_thread_slots", 0, NULL, "TOPDOWN.SLOTS", NULL, NULL },
	{ "tma_frontend_bound", 1, NULL,
	  "topdown\\-fe\\-bound / tma_info_thread_slots - INT_MISC.UOP_DROPPING / "
	  "tma_info_thread_slots",
	  "topdown\\-fe\\-bound / tma_info_thread_slots", "frontend_bound" },
	{ "tma_backend_bound", 1, NULL, "topdown\\-be\\-bound / tma_info_thread_slots", NULL,
	  "backend_bound" },
	{ "tma_rest", 1, NULL, "max(1 - (tma_frontend_bound + tma_backend_bound), 0)", NULL, "rest" },
	{ "tma_fetch_latency", 2, "tma_frontend_bound", "FETCH.LAT / tma_info_thread_slots", NULL,
	  "fetch_latency" },
	{ "tma_smt", 1, NULL, "1 if #SMT_on else 0", NULL, "smt" },
};

static const struct pmu_model row = {
	.name = "testlake",
	.pmu = "cpu",
	.slots = "tma_info_thread_slots",
	.events = events,
	.nr_events = 5,
	.metrics = metrics,
	.nr_metrics = 6,
};

/* slots 100, fe 30, be 50, dropping 10, fetch lat 20 */
static const double counts[] = { 100, 30, 50, 10, 20 };

static void test_all_opened(void **state)
{
	struct td_decoder d;
	double out[MODEL_MAX_METRICS];
	char err[256];

	(void)state;
	assert_int_equal(td_decoder_init(&d, &row, 2, NULL, true, err, sizeof(err)), 0);
	assert_false(d.plain);
	assert_int_equal(d.slots, 0);
	td_decoder_eval(&d, counts, out);
	assert_true(fabs(out[1] - 0.2) < 1e-12); /* 30/100 - 10/100 */
	assert_true(fabs(out[2] - 0.5) < 1e-12); /* 50/100 */
	assert_true(fabs(out[3] - 0.3) < 1e-12); /* max(1 - 0.7, 0) */
	assert_true(fabs(out[4] - 0.2) < 1e-12); /* 20/100 */
	assert_true(out[5] == 1);		 /* #SMT_on */
	assert_int_equal(td_decoder_metric(&d, "tma_rest"), 3);
	assert_int_equal(td_decoder_metric(&d, "nope"), -1);
}

static void test_correction_missing_goes_plain(void **state)
{
	bool opened[] = { true, true, true, false, false };
	double out[MODEL_MAX_METRICS];
	struct td_decoder d;
	char err[256];

	(void)state;
	assert_int_equal(td_decoder_init(&d, &row, 2, opened, false, err, sizeof(err)), 0);
	assert_true(d.plain);
	td_decoder_eval(&d, counts, out);
	assert_true(fabs(out[1] - 0.3) < 1e-12); /* plain: 30/100 */
	assert_true(fabs(out[3] - 0.2) < 1e-12); /* max(1 - 0.8, 0) */
	/* Level 2 without its event: left out, no value. */
	assert_false(d.computed[4]);
	assert_true(isnan(out[4]));
	assert_true(out[5] == 0);
}

static void test_level1_event_missing_is_an_error(void **state)
{
	bool opened[] = { true, true, false, true, true };
	struct td_decoder d;
	char err[256];

	(void)state;
	assert_int_equal(td_decoder_init(&d, &row, 1, opened, false, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "tma_backend_bound needs topdown-be-bound"));
}

/*
 * arm64 (neoverse-n2-v2's shape): #slots and strcmp_cpuid_str() from
 * td_decoder_set_cpu, sbsa.json's lower-case names resolving to the row's
 * upper-case events, and percent metrics given as fractions.
 */
static const struct model_event arm_events[] = {
	{ .name = "CPU_CYCLES", .config = 0x11, .flags = MODEL_EV_FIXED },
	{ .name = "STALL_SLOT", .config = 0x3f },
};

static const struct model_metric arm_metrics[] = {
	{ "slots", 0, NULL, "CPU_CYCLES * #slots", NULL, NULL },
	{ "stalled", 1, NULL,
	  "100 * (((STALL_SLOT) if (strcmp_cpuid_str(0x410fd493) | strcmp_cpuid_str(0x410fd490) ^ "
	  "1) else (STALL_SLOT - CPU_CYCLES)) / (CPU_CYCLES * #slots))",
	  NULL, "stalled" },
	{ "sbsa", 1, NULL, "100 * (stall_slot / (#slots * cpu_cycles))", NULL, "sbsa" },
};

static const struct pmu_model arm_row = {
	.name = "armlake",
	.pmu = "armv8_pmuv3_0",
	.slots = "slots",
	.percent = true,
	.events = arm_events,
	.nr_events = 2,
	.metrics = arm_metrics,
	.nr_metrics = 3,
};

static void test_arm64_slots_and_cpuid(void **state)
{
	static const struct {
		const char *cpuid;
		double stalled; /* CPU_CYCLES 100, STALL_SLOT 300, #slots 5 */
	} cpus[] = {
		{ "0x00000000410fd490", 0.4 }, /* N2 r0p0: (300 - 100) / 500 */
		{ "0x00000000410fd492", 0.4 }, /* N2 r0p2 */
		{ "0x00000000410fd493", 0.6 }, /* N2 r0p3: 300 / 500 */
		{ "0x00000000411fd490", 0.6 }, /* N2 r1p0: later than r0p3 */
		{ "0x00000000410fd4f0", 0.6 }, /* V2: not an N2 */
	};
	const double arm_counts[] = { 100, 300 };
	double out[MODEL_MAX_METRICS];
	struct td_decoder d;
	char err[256];

	(void)state;
	assert_int_equal(td_decoder_init(&d, &arm_row, 1, NULL, false, err, sizeof(err)), 0);
	assert_int_equal(d.nr_cpuid_tests, 2);
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		td_decoder_set_cpu(&d, 5, cpus[i].cpuid);
		td_decoder_eval(&d, arm_counts, out);
		if (fabs(out[1] - cpus[i].stalled) > 1e-12)
			fail_msg("%s: %.6f, expected %.6f", cpus[i].cpuid, out[1], cpus[i].stalled);
		assert_true(fabs(out[0] - 500) < 1e-9); /* not percent: as is */
		assert_true(fabs(out[2] - 0.6) < 1e-12);
	}
	/* No cpuid: perf's strcmp_cpuid_str() is NaN, which is not zero: the first branch. */
	td_decoder_set_cpu(&d, 5, NULL);
	td_decoder_eval(&d, arm_counts, out);
	assert_true(fabs(out[1] - 0.6) < 1e-12);
	/* No caps/slots: #slots 0, and perf prints no value. */
	td_decoder_set_cpu(&d, 0, "0x00000000410fd493");
	td_decoder_eval(&d, arm_counts, out);
	assert_true(isnan(out[2]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_opened),
		cmocka_unit_test(test_correction_missing_goes_plain),
		cmocka_unit_test(test_level1_event_missing_is_an_error),
		cmocka_unit_test(test_arm64_slots_and_cpuid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
