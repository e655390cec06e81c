/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "testlake": a model row made for the output and decode tests, with the
 * nine PERF_METRICS events in the old enum td_counter order (slots, the
 * four level-1 metrics, four level-2 ones) and plain formulas: each node
 * is its event over slots, each derived sibling its parent less the
 * measured child, floored at 0. So a test's counts in that order decode to
 * fractions it can work out by hand. Real rows are in user/model/models_*.c.
 */
#ifndef TESTLAKE_H
#define TESTLAKE_H

#include <string.h>
#include "model/counters.h"

static const struct model_event testlake_events[] = {
	{ .name = "slots", .sysfs = "slots", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-retiring", .sysfs = "topdown-retiring", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-bad-spec", .sysfs = "topdown-bad-spec", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-fe-bound", .sysfs = "topdown-fe-bound", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-be-bound", .sysfs = "topdown-be-bound", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-heavy-ops",
	  .sysfs = "topdown-heavy-ops",
	  .flags = MODEL_EV_FIXED | MODEL_EV_L2 },
	{ .name = "topdown-br-mispredict",
	  .sysfs = "topdown-br-mispredict",
	  .flags = MODEL_EV_FIXED | MODEL_EV_L2 },
	{ .name = "topdown-fetch-lat",
	  .sysfs = "topdown-fetch-lat",
	  .flags = MODEL_EV_FIXED | MODEL_EV_L2 },
	{ .name = "topdown-mem-bound",
	  .sysfs = "topdown-mem-bound",
	  .flags = MODEL_EV_FIXED | MODEL_EV_L2 },
};

#define TL_NODE(name, level, parent, expr, node)                                                   \
	{                                                                                          \
		name, level, parent, expr, NULL, node                                              \
	}
static const struct model_metric testlake_metrics[] = {
	TL_NODE("tma_info_thread_slots", 0, NULL, "slots", NULL),
	TL_NODE("tma_retiring", 1, NULL, "topdown\\-retiring / tma_info_thread_slots", "retiring"),
	TL_NODE("tma_bad_speculation", 1, NULL, "topdown\\-bad\\-spec / tma_info_thread_slots",
		"bad_speculation"),
	TL_NODE("tma_frontend_bound", 1, NULL, "topdown\\-fe\\-bound / tma_info_thread_slots",
		"frontend_bound"),
	TL_NODE("tma_backend_bound", 1, NULL, "topdown\\-be\\-bound / tma_info_thread_slots",
		"backend_bound"),
	TL_NODE("tma_heavy_operations", 2, "tma_retiring",
		"topdown\\-heavy\\-ops / tma_info_thread_slots", "heavy_operations"),
	TL_NODE("tma_light_operations", 2, "tma_retiring",
		"max(0, tma_retiring - tma_heavy_operations)", "light_operations"),
	TL_NODE("tma_branch_mispredicts", 2, "tma_bad_speculation",
		"topdown\\-br\\-mispredict / tma_info_thread_slots", "branch_mispredicts"),
	TL_NODE("tma_machine_clears", 2, "tma_bad_speculation",
		"max(0, tma_bad_speculation - tma_branch_mispredicts)", "machine_clears"),
	TL_NODE("tma_fetch_latency", 2, "tma_frontend_bound",
		"topdown\\-fetch\\-lat / tma_info_thread_slots", "fetch_latency"),
	TL_NODE("tma_fetch_bandwidth", 2, "tma_frontend_bound",
		"max(0, tma_frontend_bound - tma_fetch_latency)", "fetch_bandwidth"),
	TL_NODE("tma_memory_bound", 2, "tma_backend_bound",
		"topdown\\-mem\\-bound / tma_info_thread_slots", "memory_bound"),
	TL_NODE("tma_core_bound", 2, "tma_backend_bound",
		"max(0, tma_backend_bound - tma_memory_bound)", "core_bound"),
};
#undef TL_NODE

static const struct pmu_model testlake = {
	.name = "testlake",
	.vendor = "GenuineIntel",
	.pmu = "cpu",
	.gp_counters = 8,
	.slots = "tma_info_thread_slots",
	.events = testlake_events,
	.nr_events = sizeof(testlake_events) / sizeof(testlake_events[0]),
	.metrics = testlake_metrics,
	.nr_metrics = sizeof(testlake_metrics) / sizeof(testlake_metrics[0]),
	.source = "tests/unit/testlake.h",
	.pmu_events = "perf testlake-1",
	.verified = "not hardware: a test row",
};

/* testlake's counters at @level (1 or 2) on a PMU of type 4 with every event. */
static inline int testlake_counters(int level, struct counter_set *set)
{
	static struct core_pmu pmu;
	char err[256];

	memset(&pmu, 0, sizeof(pmu));
	strcpy(pmu.name, "cpu");
	pmu.type = 4;
	for (int i = 0; i < testlake.nr_events; i++) {
		strcpy(pmu.events[i].name, testlake_events[i].sysfs);
		pmu.events[i].config[0] = i ? 0x8000 + 0x100 * (i - 1) : 0x400;
	}
	pmu.nr_events = testlake.nr_events;
	return counters_from_model(&testlake, &pmu, level, false, set, err, sizeof(err));
}

#endif /* TESTLAKE_H */
