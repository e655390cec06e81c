// SPDX-License-Identifier: GPL-2.0
/*
 * counters_from_model on model rows and PMUs made here: slot order by
 * group with each leader first, configs from the PMU's events/ or raw,
 * level 2 given up when the PMU lacks a level-2 event, correction and
 * optional events left out and said, the NMI watchdog's counter.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/counters.h"

static const struct model_event intel_events[] = {
	{ .name = "TOPDOWN.SLOTS", .sysfs = "slots", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-fe-bound", .sysfs = "topdown-fe-bound", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-heavy-ops",
	  .sysfs = "topdown-heavy-ops",
	  .flags = MODEL_EV_FIXED | MODEL_EV_L2 },
	{ .name = "INT_MISC.UOP_DROPPING", .config = 0x10ad, .flags = MODEL_EV_CORRECTION },
	{ .name = "CYCLES", .config = 0x3c, .flags = MODEL_EV_L2, .group = 1 },
	{ .name = "L2.EVENT", .config = 0x1234, .flags = MODEL_EV_L2, .group = 1 },
};

static const struct model_metric intel_metrics[] = {
	{ "slots", 0, NULL, "TOPDOWN.SLOTS", NULL, NULL },
	{ "tma_frontend_bound", 1, NULL, "topdown\\-fe\\-bound / slots", NULL, "frontend_bound" },
	{ "tma_heavy_operations", 2, "tma_frontend_bound", "topdown\\-heavy\\-ops / slots", NULL,
	  "heavy_operations" },
};

static const struct pmu_model intel = {
	.name = "testlake",
	.pmu = "cpu",
	.gp_counters = 8,
	.slots = "slots",
	.events = intel_events,
	.nr_events = 6,
	.metrics = intel_metrics,
	.nr_metrics = 3,
};

/* A PMU with the sysfs events named in @names ("slots" = 0x400, then 0x8000 + 0x100 each). */
static struct core_pmu *pmu_with(const char *const *names, int n)
{
	struct core_pmu *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	strcpy(p->name, "cpu");
	p->type = 4;
	for (int i = 0; i < n; i++) {
		strcpy(p->events[i].name, names[i]);
		p->events[i].config[0] = i ? 0x8000 + 0x100 * (i - 1) : 0x400;
	}
	p->nr_events = n;
	return p;
}

static const char *const all_names[] = { "slots", "topdown-fe-bound", "topdown-heavy-ops" };

static void test_order_and_configs(void **state)
{
	struct core_pmu *p = pmu_with(all_names, 3);
	struct counter_set set;
	char err[256] = "";

	(void)state;
	assert_int_equal(counters_from_model(&intel, p, 2, false, &set, err, sizeof(err)), 0);
	assert_int_equal(set.level, 2);
	assert_int_equal(set.nr, 6);
	assert_int_equal(set.nr_groups, 2);
	assert_string_equal(set.left_out, "");
	/* Group 0 in table order, then group 1: slot i counts model event i here. */
	for (int i = 0; i < 6; i++) {
		assert_int_equal(set.event[i], i);
		assert_string_equal(set.name[i], intel_events[i].name);
		assert_int_equal(set.group[i], i < 4 ? 0 : 1);
		assert_true(set.opened[i]);
		assert_int_equal(set.attr[i].type, 4);
		assert_int_equal(set.attr[i].size, sizeof(set.attr[i]));
		/* Each group's leader (slots, CYCLES) waits to be enabled; members follow. */
		assert_int_equal(set.attr[i].disabled, i == 0 || i == 4);
	}
	assert_int_equal(set.attr[0].config, 0x400);  /* slots, from events/ */
	assert_int_equal(set.attr[1].config, 0x8000); /* topdown-fe-bound */
	assert_int_equal(set.attr[2].config, 0x8100); /* topdown-heavy-ops */
	assert_int_equal(set.attr[3].config, 0x10ad); /* raw */
	assert_int_equal(set.attr[5].config, 0x1234);
	assert_ptr_equal(set.model, &intel);

	/* Level 1 asked: no level-2 event has a counter. */
	assert_int_equal(counters_from_model(&intel, p, 1, false, &set, err, sizeof(err)), 0);
	assert_int_equal(set.level, 1);
	assert_int_equal(set.nr, 3);
	assert_int_equal(set.nr_groups, 1);
	assert_false(set.opened[2]);
	assert_int_equal(set.event[2], 3); /* slot 2 is UOP_DROPPING */
	free(p);
}

/* No topdown-heavy-ops: level 1, and said; no topdown-fe-bound: refused, and said. */
static void test_missing_events(void **state)
{
	static const char *const no_l2[] = { "slots", "topdown-fe-bound" };
	static const char *const no_l1[] = { "slots" };
	struct core_pmu *p = pmu_with(no_l2, 2);
	struct counter_set set;
	char err[256] = "";

	(void)state;
	assert_int_equal(counters_from_model(&intel, p, 2, false, &set, err, sizeof(err)), 0);
	assert_int_equal(set.level, 1);
	assert_int_equal(set.nr, 3);
	assert_non_null(strstr(set.left_out, "level 2"));
	free(p);

	p = pmu_with(no_l1, 1);
	assert_int_equal(counters_from_model(&intel, p, 2, false, &set, err, sizeof(err)), -ENODEV);
	assert_string_equal(err, "cpu has no event topdown-fe-bound (cpu/events/topdown-fe-bound)");
	free(p);
}

/* AMD-like: six generic events in one group, the last optional. */
static const struct model_event amd_events[] = {
	{ .name = "cycles", .config = 0x76 },
	{ .name = "a", .config = 0x1 },
	{ .name = "b", .config = 0x2 },
	{ .name = "c", .config = 0x3 },
	{ .name = "d", .config = 0x4 },
	{ .name = "smt", .config = 0x1000060a0, .flags = MODEL_EV_OPTIONAL },
	{ .name = "l2a", .config = 0x5, .flags = MODEL_EV_L2, .group = 1 },
};

static const struct model_metric amd_metrics[] = {
	{ "slots", 0, NULL, "6 * cycles", NULL, NULL },
	{ "smt_contention", 1, NULL, "smt / slots", NULL, "smt_contention" },
};

static const struct pmu_model amd = {
	.name = "testzen",
	.pmu = "cpu",
	.gp_counters = 6,
	.watchdog_counters = 1,
	.slots = "slots",
	.events = amd_events,
	.nr_events = 7,
	.metrics = amd_metrics,
	.nr_metrics = 2,
};

static void test_watchdog(void **state)
{
	struct core_pmu *p = pmu_with(all_names, 0);
	struct counter_set set;
	char err[256] = "";

	(void)state;
	/* Watchdog off: all six fit the six counters. No level-2 metric: level 1. */
	assert_int_equal(counters_from_model(&amd, p, 2, false, &set, err, sizeof(err)), 0);
	assert_int_equal(set.nr, 6);
	assert_int_equal(set.level, 1);
	assert_true(set.opened[5]);
	assert_int_equal(set.attr[5].config, 0x1000060a0);
	assert_string_equal(set.left_out, "");
	/* Watchdog on: five counters left, the optional event goes, and that is said. */
	assert_int_equal(counters_from_model(&amd, p, 2, true, &set, err, sizeof(err)), 0);
	assert_int_equal(set.nr, 5);
	assert_false(set.opened[5]);
	assert_string_equal(
		set.left_out,
		"smt: the NMI watchdog holds a counter (sysctl kernel.nmi_watchdog=0 frees it)");
	free(p);
}

/*
 * Every counter of a model counts the host only (exclude_guest, perf's :H):
 * no conflict with a KVM guest's mediated vPMU. Software sets are left as
 * they are (no guest to exclude).
 */
static void test_host_only(void **state)
{
	struct core_pmu *p = pmu_with(all_names, 3);
	struct counter_set set;
	char err[256] = "";

	(void)state;
	assert_int_equal(counters_from_model(&intel, p, 2, false, &set, err, sizeof(err)), 0);
	assert_int_equal(set.nr, 6);
	for (int i = 0; i < set.nr; i++)
		assert_int_equal(set.attr[i].exclude_guest, 1);
	assert_int_equal(counters_from_model(&amd, p, 2, true, &set, err, sizeof(err)), 0);
	for (int i = 0; i < set.nr; i++)
		assert_int_equal(set.attr[i].exclude_guest, 1);
	counters_software(&set);
	assert_int_equal(set.attr[0].exclude_guest, 0);
	free(p);
}

/* More events than the BPF side has slots for: refused with the model's name. */
static void test_too_many(void **state)
{
	struct model_event many[TD_MAX_COUNTERS + 1];
	struct pmu_model big = amd;
	struct core_pmu *p = pmu_with(all_names, 0);
	struct counter_set set;
	char err[256] = "";

	(void)state;
	for (int i = 0; i <= TD_MAX_COUNTERS; i++)
		many[i] = (struct model_event){ .name = "x", .config = i, .group = i / 6 % 4 };
	big.events = many;
	big.nr_events = TD_MAX_COUNTERS + 1;
	assert_int_equal(counters_from_model(&big, p, 1, false, &set, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "testzen on cpu needs more than"));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_configs),
		cmocka_unit_test(test_missing_events),
		cmocka_unit_test(test_watchdog),
		cmocka_unit_test(test_host_only),
		cmocka_unit_test(test_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
