// SPDX-License-Identifier: GPL-2.0
/*
 * Intel rows of the PMU model table (see models.h): one per (perf model
 * directory, PMU). Formulas are perf's MetricExpr text, stored as data;
 * hybrid rows drop perf's "cpu_core@...@" / "cpu_atom@...@" PMU prefix so
 * that rows of one group share their arrays. Raw configs pack
 * event | umask << 8 | edge << 18 | any << 21 | cmask << 24, the
 * kernel's sysfs format of the core PMU (arch/x86/events/intel/core.c);
 * scripts/check-encodings checks every one against perf's event JSON.
 */
#include <stddef.h>
#include "model/models.h"

#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* perf's PERF_METRICS denominator: the four level-1 fields summed. */
#define TD_SUM                                                                                     \
	"(topdown\\-fe\\-bound + topdown\\-bad\\-spec + topdown\\-retiring + "                     \
	"topdown\\-be\\-bound)"

/*
 * Group A: Sunny / Willow / Cypress Cove (ICL, ICX, TGL, RKL). Four
 * PERF_METRICS fields and width 5: level 2 comes from generic counters.
 * Group 0 is the slots-led level-1 group with the two correction events;
 * group 1 splits frontend, bad speculation and backend (8 generic
 * counters); group 2 splits retiring (UOPS_DECODED and IDQ events are
 * limited to counters 0-3, and these four fit there).
 */
static const struct model_event icl_events[] = {
	{ .name = "slots", .alias = "TOPDOWN.SLOTS", .sysfs = "slots", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-retiring", .sysfs = "topdown-retiring", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-bad-spec", .sysfs = "topdown-bad-spec", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-fe-bound", .sysfs = "topdown-fe-bound", .flags = MODEL_EV_FIXED },
	{ .name = "topdown-be-bound", .sysfs = "topdown-be-bound", .flags = MODEL_EV_FIXED },
	{ .name = "INT_MISC.UOP_DROPPING", .config = 0x100d, .flags = MODEL_EV_CORRECTION },
	/* INT_MISC.RECOVERY_CYCLES' code with cmask 1 and edge (perf's pipeline.json). */
	{ .name = "INT_MISC.CLEARS_COUNT", .config = 0x0104010d, .flags = MODEL_EV_CORRECTION },
	{ .name = "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE",
	  .config = 0x0500019c,
	  .flags = MODEL_EV_L2,
	  .group = 1 },
	{ .name = "BR_MISP_RETIRED.ALL_BRANCHES",
	  .config = 0x00c5,
	  .flags = MODEL_EV_L2,
	  .group = 1 },
	{ .name = "MACHINE_CLEARS.COUNT", .config = 0x010401c3, .flags = MODEL_EV_L2, .group = 1 },
	{ .name = "CYCLE_ACTIVITY.STALLS_MEM_ANY",
	  .config = 0x140014a3,
	  .flags = MODEL_EV_L2,
	  .group = 1 },
	{ .name = "EXE_ACTIVITY.BOUND_ON_STORES",
	  .config = 0x020040a6,
	  .flags = MODEL_EV_L2,
	  .group = 1 },
	{ .name = "CYCLE_ACTIVITY.STALLS_TOTAL",
	  .config = 0x040004a3,
	  .flags = MODEL_EV_L2,
	  .group = 1 },
	{ .name = "EXE_ACTIVITY.1_PORTS_UTIL", .config = 0x02a6, .flags = MODEL_EV_L2, .group = 1 },
	{ .name = "EXE_ACTIVITY.2_PORTS_UTIL", .config = 0x04a6, .flags = MODEL_EV_L2, .group = 1 },
	{ .name = "UOPS_RETIRED.SLOTS", .config = 0x02c2, .flags = MODEL_EV_L2, .group = 2 },
	{ .name = "UOPS_ISSUED.ANY", .config = 0x010e, .flags = MODEL_EV_L2, .group = 2 },
	{ .name = "IDQ.MS_UOPS", .config = 0x3079, .flags = MODEL_EV_L2, .group = 2 },
	{ .name = "UOPS_DECODED.DEC0", .config = 0x0156, .flags = MODEL_EV_L2, .group = 2 },
	{ .name = "UOPS_DECODED.DEC0,cmask=1",
	  .config = 0x01000156,
	  .flags = MODEL_EV_L2,
	  .group = 2 },
	{ .name = "IDQ.MITE_UOPS", .config = 0x0479, .flags = MODEL_EV_L2, .group = 2 },
};

/*
 * perf v7.3's text is the same on all four models (icl-, icx-, tgl- and
 * rkl-metrics.json). The backend's clear count is INT_MISC.CLEARS_COUNT
 * by name (older icelake text spelled it by its encoding).
 * tma_microcode_sequencer, perf's level-3 node, feeds heavy operations:
 * retired over issued uops, times the microcode sequencer's uops, over
 * slots (older text: tma_retiring * slots / issued uops, the same ratio
 * taken from PERF_METRICS' retiring instead of UOPS_RETIRED.SLOTS).
 */
static const struct model_metric icl_metrics[] = {
	{ "tma_info_thread_slots", 0, NULL, "TOPDOWN.SLOTS", NULL, NULL },
	{ "tma_frontend_bound", 1, NULL,
	  "topdown\\-fe\\-bound / " TD_SUM " - INT_MISC.UOP_DROPPING / tma_info_thread_slots",
	  "topdown\\-fe\\-bound / " TD_SUM, "frontend_bound" },
	{ "tma_backend_bound", 1, NULL,
	  "topdown\\-be\\-bound / " TD_SUM " + 5 * INT_MISC.CLEARS_COUNT / tma_info_thread_slots",
	  "topdown\\-be\\-bound / " TD_SUM, "backend_bound" },
	{ "tma_retiring", 1, NULL, "topdown\\-retiring / " TD_SUM, NULL, "retiring" },
	{ "tma_bad_speculation", 1, NULL,
	  "max(1 - (tma_frontend_bound + tma_backend_bound + tma_retiring), 0)", NULL,
	  "bad_speculation" },
	{ "tma_fetch_latency", 2, "tma_frontend_bound",
	  "(5 * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE - INT_MISC.UOP_DROPPING) / "
	  "tma_info_thread_slots",
	  "5 * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE / tma_info_thread_slots",
	  "fetch_latency" },
	{ "tma_fetch_bandwidth", 2, "tma_frontend_bound",
	  "max(0, tma_frontend_bound - tma_fetch_latency)", NULL, "fetch_bandwidth" },
	{ "tma_branch_mispredicts", 2, "tma_bad_speculation",
	  "BR_MISP_RETIRED.ALL_BRANCHES / (BR_MISP_RETIRED.ALL_BRANCHES + MACHINE_CLEARS.COUNT) * "
	  "tma_bad_speculation",
	  NULL, "branch_mispredicts" },
	{ "tma_machine_clears", 2, "tma_bad_speculation",
	  "max(0, tma_bad_speculation - tma_branch_mispredicts)", NULL, "machine_clears" },
	{ "tma_memory_bound", 2, "tma_backend_bound",
	  "(CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES) / "
	  "(CYCLE_ACTIVITY.STALLS_TOTAL + (EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring * "
	  "EXE_ACTIVITY.2_PORTS_UTIL) + EXE_ACTIVITY.BOUND_ON_STORES) * tma_backend_bound",
	  NULL, "memory_bound" },
	{ "tma_core_bound", 2, "tma_backend_bound", "max(0, tma_backend_bound - tma_memory_bound)",
	  NULL, "core_bound" },
	/* perf's level-3 node, here only to feed heavy operations. */
	{ "tma_microcode_sequencer", 0, NULL,
	  "UOPS_RETIRED.SLOTS / UOPS_ISSUED.ANY * IDQ.MS_UOPS / tma_info_thread_slots", NULL,
	  NULL },
	{ "tma_heavy_operations", 2, "tma_retiring",
	  "tma_microcode_sequencer + tma_retiring * (UOPS_DECODED.DEC0 - "
	  "cpu@UOPS_DECODED.DEC0\\,cmask\\=1@) / IDQ.MITE_UOPS",
	  NULL, "heavy_operations" },
	{ "tma_light_operations", 2, "tma_retiring", "max(0, tma_retiring - tma_heavy_operations)",
	  NULL, "light_operations" },
};

/*
 * Groups B and C: Golden Cove and later P-cores. Eight PERF_METRICS
 * fields: levels 1 and 2 are all in the slots-led group 0.
 */
#define GLC_FIXED_EVENTS                                                                           \
	{ .name = "slots", .alias = "TOPDOWN.SLOTS", .sysfs = "slots", .flags = MODEL_EV_FIXED },  \
		{ .name = "topdown-retiring",                                                      \
		  .sysfs = "topdown-retiring",                                                     \
		  .flags = MODEL_EV_FIXED },                                                       \
		{ .name = "topdown-bad-spec",                                                      \
		  .sysfs = "topdown-bad-spec",                                                     \
		  .flags = MODEL_EV_FIXED },                                                       \
		{ .name = "topdown-fe-bound",                                                      \
		  .sysfs = "topdown-fe-bound",                                                     \
		  .flags = MODEL_EV_FIXED },                                                       \
		{ .name = "topdown-be-bound",                                                      \
		  .sysfs = "topdown-be-bound",                                                     \
		  .flags = MODEL_EV_FIXED },                                                       \
		{ .name = "topdown-heavy-ops",                                                     \
		  .sysfs = "topdown-heavy-ops",                                                    \
		  .flags = MODEL_EV_FIXED | MODEL_EV_L2 },                                         \
		{ .name = "topdown-br-mispredict",                                                 \
		  .sysfs = "topdown-br-mispredict",                                                \
		  .flags = MODEL_EV_FIXED | MODEL_EV_L2 },                                         \
		{ .name = "topdown-fetch-lat",                                                     \
		  .sysfs = "topdown-fetch-lat",                                                    \
		  .flags = MODEL_EV_FIXED | MODEL_EV_L2 },                                         \
	{                                                                                          \
		.name = "topdown-mem-bound", .sysfs = "topdown-mem-bound",                         \
		.flags = MODEL_EV_FIXED | MODEL_EV_L2                                              \
	}

/* Group B: SPR, EMR, GNR, the ADL/RPL and MTL P-cores; INT_MISC is event 0xad here. */
static const struct model_event glc_events[] = {
	GLC_FIXED_EVENTS,
	{ .name = "INT_MISC.UOP_DROPPING", .config = 0x10ad, .flags = MODEL_EV_CORRECTION },
};

static const struct model_metric glc_metrics[] = {
	{ "tma_info_thread_slots", 0, NULL, "TOPDOWN.SLOTS", NULL, NULL },
	{ "tma_frontend_bound", 1, NULL,
	  "topdown\\-fe\\-bound / " TD_SUM " - INT_MISC.UOP_DROPPING / tma_info_thread_slots",
	  "topdown\\-fe\\-bound / " TD_SUM, "frontend_bound" },
	{ "tma_backend_bound", 1, NULL, "topdown\\-be\\-bound / " TD_SUM, NULL, "backend_bound" },
	{ "tma_retiring", 1, NULL, "topdown\\-retiring / " TD_SUM, NULL, "retiring" },
	{ "tma_bad_speculation", 1, NULL,
	  "max(1 - (tma_frontend_bound + tma_backend_bound + tma_retiring), 0)", NULL,
	  "bad_speculation" },
	{ "tma_fetch_latency", 2, "tma_frontend_bound",
	  "topdown\\-fetch\\-lat / " TD_SUM " - INT_MISC.UOP_DROPPING / tma_info_thread_slots",
	  "topdown\\-fetch\\-lat / " TD_SUM, "fetch_latency" },
	{ "tma_fetch_bandwidth", 2, "tma_frontend_bound",
	  "max(0, tma_frontend_bound - tma_fetch_latency)", NULL, "fetch_bandwidth" },
	{ "tma_branch_mispredicts", 2, "tma_bad_speculation", "topdown\\-br\\-mispredict / " TD_SUM,
	  NULL, "branch_mispredicts" },
	{ "tma_machine_clears", 2, "tma_bad_speculation",
	  "max(0, tma_bad_speculation - tma_branch_mispredicts)", NULL, "machine_clears" },
	{ "tma_memory_bound", 2, "tma_backend_bound", "topdown\\-mem\\-bound / " TD_SUM, NULL,
	  "memory_bound" },
	{ "tma_core_bound", 2, "tma_backend_bound", "max(0, tma_backend_bound - tma_memory_bound)",
	  NULL, "core_bound" },
	{ "tma_heavy_operations", 2, "tma_retiring", "topdown\\-heavy\\-ops / " TD_SUM, NULL,
	  "heavy_operations" },
	{ "tma_light_operations", 2, "tma_retiring", "max(0, tma_retiring - tma_heavy_operations)",
	  NULL, "light_operations" },
};

/*
 * Group C: Lion Cove (LNL, ARL P-cores): every node is a plain PERF_METRICS
 * fraction; bad speculation is its own field, not the remainder. (Older
 * text, lnl-metrics.json @ 23878069de30, added "+ 0 * slots" to each: no
 * numeric effect.)
 */
static const struct model_event lnc_events[] = { GLC_FIXED_EVENTS };

static const struct model_metric lnc_metrics[] = {
	{ "tma_info_thread_slots", 0, NULL, "TOPDOWN.SLOTS", NULL, NULL },
	{ "tma_frontend_bound", 1, NULL, "topdown\\-fe\\-bound / " TD_SUM, NULL, "frontend_bound" },
	{ "tma_backend_bound", 1, NULL, "topdown\\-be\\-bound / " TD_SUM, NULL, "backend_bound" },
	{ "tma_retiring", 1, NULL, "topdown\\-retiring / " TD_SUM, NULL, "retiring" },
	{ "tma_bad_speculation", 1, NULL, "topdown\\-bad\\-spec / " TD_SUM, NULL,
	  "bad_speculation" },
	{ "tma_fetch_latency", 2, "tma_frontend_bound", "topdown\\-fetch\\-lat / " TD_SUM, NULL,
	  "fetch_latency" },
	{ "tma_fetch_bandwidth", 2, "tma_frontend_bound",
	  "max(0, tma_frontend_bound - tma_fetch_latency)", NULL, "fetch_bandwidth" },
	{ "tma_branch_mispredicts", 2, "tma_bad_speculation", "topdown\\-br\\-mispredict / " TD_SUM,
	  NULL, "branch_mispredicts" },
	{ "tma_machine_clears", 2, "tma_bad_speculation",
	  "max(0, tma_bad_speculation - tma_branch_mispredicts)", NULL, "machine_clears" },
	{ "tma_memory_bound", 2, "tma_backend_bound", "topdown\\-mem\\-bound / " TD_SUM, NULL,
	  "memory_bound" },
	{ "tma_core_bound", 2, "tma_backend_bound", "max(0, tma_backend_bound - tma_memory_bound)",
	  NULL, "core_bound" },
	{ "tma_heavy_operations", 2, "tma_retiring", "topdown\\-heavy\\-ops / " TD_SUM, NULL,
	  "heavy_operations" },
	{ "tma_light_operations", 2, "tma_retiring", "max(0, tma_retiring - tma_heavy_operations)",
	  NULL, "light_operations" },
};

/*
 * E-cores (PMU cpu_atom): plain generic events, no PERF_METRICS, no
 * correction. perf divides by width * CPU_CLK_UNHALTED.CORE (cycles, fixed
 * counter 1). perf has no level-2 split of retiring for these cores.
 * tma_info_core_slots is this table's name for those slots (the row's
 * .slots): perf has no metric of that name for these cores, and no
 * formula here uses it.
 */
#define ATOM_L2_EVENTS(grp)                                                                        \
	{ .name = "TOPDOWN_FE_BOUND.FRONTEND_LATENCY",                                             \
	  .config = 0x7271,                                                                        \
	  .flags = MODEL_EV_L2,                                                                    \
	  .group = (grp) },                                                                        \
		{ .name = "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH",                                   \
		  .config = 0x8d71,                                                                \
		  .flags = MODEL_EV_L2,                                                            \
		  .group = (grp) },                                                                \
		{ .name = "TOPDOWN_BAD_SPECULATION.MISPREDICT",                                    \
		  .config = 0x0473,                                                                \
		  .flags = MODEL_EV_L2,                                                            \
		  .group = (grp) },                                                                \
		{ .name = "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS",                                \
		  .config = 0x0373,                                                                \
		  .flags = MODEL_EV_L2,                                                            \
		  .group = (grp) },                                                                \
	{                                                                                          \
		.name = "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", .config = 0x0174,                   \
		.flags = MODEL_EV_L2, .group = (grp)                                               \
	}

/* The level-2 nodes of an E-core of pipeline width W ("5", "6", "8"). */
#define ATOM_L2_METRICS(W)                                                                         \
	{ "tma_ifetch_latency",                                                                    \
	  2,                                                                                       \
	  "tma_frontend_bound",                                                                    \
	  "TOPDOWN_FE_BOUND.FRONTEND_LATENCY / (" W " * CPU_CLK_UNHALTED.CORE)",                   \
	  NULL,                                                                                    \
	  "fetch_latency" },                                                                       \
		{ "tma_ifetch_bandwidth",                                                          \
		  2,                                                                               \
		  "tma_frontend_bound",                                                            \
		  "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH / (" W " * CPU_CLK_UNHALTED.CORE)",         \
		  NULL,                                                                            \
		  "fetch_bandwidth" },                                                             \
		{ "tma_branch_mispredicts",                                                        \
		  2,                                                                               \
		  "tma_bad_speculation",                                                           \
		  "TOPDOWN_BAD_SPECULATION.MISPREDICT / (" W " * CPU_CLK_UNHALTED.CORE)",          \
		  NULL,                                                                            \
		  "branch_mispredicts" },                                                          \
		{ "tma_machine_clears",                                                            \
		  2,                                                                               \
		  "tma_bad_speculation",                                                           \
		  "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS / (" W " * CPU_CLK_UNHALTED.CORE)",      \
		  NULL,                                                                            \
		  "machine_clears" },                                                              \
		{ "tma_core_bound",                                                                \
		  2,                                                                               \
		  "tma_backend_bound",                                                             \
		  "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS / (" W " * CPU_CLK_UNHALTED.CORE)",         \
		  NULL,                                                                            \
		  "core_bound" },                                                                  \
	{                                                                                          \
		"tma_resource_bound", 2, "tma_backend_bound",                                      \
			"tma_backend_bound - tma_core_bound", NULL, "resource_bound"               \
	}

#define ATOM_CYCLES                                                                                \
	{                                                                                          \
		.name = "CPU_CLK_UNHALTED.CORE", .config = 0x003c, .flags = MODEL_EV_FIXED         \
	}

/* Gracemont (ADL/RPL E-core), width 5, 6 generic counters: level 2 in group 1. */
static const struct model_event grt_events[] = {
	ATOM_CYCLES,
	{ .name = "TOPDOWN_FE_BOUND.ALL", .config = 0x0071 },
	{ .name = "TOPDOWN_BE_BOUND.ALL", .config = 0x0074 },
	{ .name = "TOPDOWN_RETIRING.ALL", .config = 0x00c2 },
	ATOM_L2_EVENTS(1),
};

static const struct model_metric grt_metrics[] = {
	{ "tma_info_core_slots", 0, NULL, "5 * CPU_CLK_UNHALTED.CORE", NULL, NULL },
	{ "tma_frontend_bound", 1, NULL, "TOPDOWN_FE_BOUND.ALL / (5 * CPU_CLK_UNHALTED.CORE)", NULL,
	  "frontend_bound" },
	{ "tma_backend_bound", 1, NULL, "TOPDOWN_BE_BOUND.ALL / (5 * CPU_CLK_UNHALTED.CORE)", NULL,
	  "backend_bound" },
	{ "tma_retiring", 1, NULL, "TOPDOWN_RETIRING.ALL / (5 * CPU_CLK_UNHALTED.CORE)", NULL,
	  "retiring" },
	/* Gracemont's bad speculation is the remainder, not TOPDOWN_BAD_SPECULATION.ALL. */
	{ "tma_bad_speculation", 1, NULL,
	  "(5 * CPU_CLK_UNHALTED.CORE - (TOPDOWN_FE_BOUND.ALL + TOPDOWN_BE_BOUND.ALL + "
	  "TOPDOWN_RETIRING.ALL)) / (5 * CPU_CLK_UNHALTED.CORE)",
	  NULL, "bad_speculation" },
	ATOM_L2_METRICS("5"),
};

/* Crestmont (MTL E-core), width 6, the ALL_P events; 9 generic events > 8: level 2 in group 1. */
static const struct model_event cmt_events[] = {
	ATOM_CYCLES,
	{ .name = "TOPDOWN_FE_BOUND.ALL_P", .config = 0x0071 },
	{ .name = "TOPDOWN_BE_BOUND.ALL_P", .config = 0x0074 },
	{ .name = "TOPDOWN_RETIRING.ALL_P", .config = 0x0072 },
	{ .name = "TOPDOWN_BAD_SPECULATION.ALL_P", .config = 0x0073 },
	ATOM_L2_EVENTS(1),
};

static const struct model_metric cmt_metrics[] = {
	{ "tma_info_core_slots", 0, NULL, "6 * CPU_CLK_UNHALTED.CORE", NULL, NULL },
	{ "tma_frontend_bound", 1, NULL, "TOPDOWN_FE_BOUND.ALL_P / (6 * CPU_CLK_UNHALTED.CORE)",
	  NULL, "frontend_bound" },
	{ "tma_backend_bound", 1, NULL, "TOPDOWN_BE_BOUND.ALL_P / (6 * CPU_CLK_UNHALTED.CORE)",
	  NULL, "backend_bound" },
	{ "tma_retiring", 1, NULL, "TOPDOWN_RETIRING.ALL_P / (6 * CPU_CLK_UNHALTED.CORE)", NULL,
	  "retiring" },
	{ "tma_bad_speculation", 1, NULL,
	  "TOPDOWN_BAD_SPECULATION.ALL_P / (6 * CPU_CLK_UNHALTED.CORE)", NULL, "bad_speculation" },
	ATOM_L2_METRICS("6"),
};

/*
 * Skymont (LNL, ARL E-cores), width 8. FE_BOUND.ALL and RETIRING.ALL are
 * fixed counters 5 and 6; the kernel knows them by the real codes 0x019c
 * and 0x02c2, not perf's pseudo encodings. 7 generic events fit 8
 * counters: one group.
 */
static const struct model_event skt_events[] = {
	ATOM_CYCLES,
	{ .name = "TOPDOWN_FE_BOUND.ALL", .config = 0x019c, .flags = MODEL_EV_FIXED },
	{ .name = "TOPDOWN_BE_BOUND.ALL_P", .config = 0x02a4 },
	{ .name = "TOPDOWN_RETIRING.ALL", .config = 0x02c2, .flags = MODEL_EV_FIXED },
	{ .name = "TOPDOWN_BAD_SPECULATION.ALL_P", .config = 0x0073 },
	ATOM_L2_EVENTS(0),
};

static const struct model_metric skt_metrics[] = {
	{ "tma_info_core_slots", 0, NULL, "8 * CPU_CLK_UNHALTED.CORE", NULL, NULL },
	{ "tma_frontend_bound", 1, NULL, "TOPDOWN_FE_BOUND.ALL / (8 * CPU_CLK_UNHALTED.CORE)", NULL,
	  "frontend_bound" },
	{ "tma_backend_bound", 1, NULL, "TOPDOWN_BE_BOUND.ALL_P / (8 * CPU_CLK_UNHALTED.CORE)",
	  NULL, "backend_bound" },
	{ "tma_retiring", 1, NULL, "TOPDOWN_RETIRING.ALL / (8 * CPU_CLK_UNHALTED.CORE)", NULL,
	  "retiring" },
	{ "tma_bad_speculation", 1, NULL,
	  "TOPDOWN_BAD_SPECULATION.ALL_P / (8 * CPU_CLK_UNHALTED.CORE)", NULL, "bad_speculation" },
	ATOM_L2_METRICS("8"),
};

/*
 * Before PERF_METRICS: SKL/KBL/CFL/CML client, SKX, CLX; width 4, 4
 * generic counters per thread with SMT on. Slots are core slots, so perf
 * estimates core clocks from the thread's (a per-task tool is never
 * #core_wide) and uses the _ANY recovery cycles with SMT on.
 * Group 0: cycles on fixed counter 1 and the four per-thread level-1
 * events; group 1: the core-wide and SMT-ratio events level 1 also
 * needs; groups 2 and 3: level 2; group 4: UOPS_RETIRED.MACRO_FUSED and
 * INST_RETIRED.ANY on fixed counter 0 (perf's tma_heavy_operations), 17
 * generic events in all. With the NMI watchdog on fixed counter 1, group
 * 0's last event moves into group 4's spare counter (counters.c split()),
 * as on Haswell. The same encodings on all three (each directory's
 * pipeline.json).
 */
static const struct model_event skl_events[] = {
	{ .name = "CPU_CLK_UNHALTED.THREAD", .config = 0x003c, .flags = MODEL_EV_FIXED },
	{ .name = "IDQ_UOPS_NOT_DELIVERED.CORE", .config = 0x019c },
	{ .name = "UOPS_ISSUED.ANY", .config = 0x010e },
	{ .name = "UOPS_RETIRED.RETIRE_SLOTS", .config = 0x02c2 },
	{ .name = "INT_MISC.RECOVERY_CYCLES", .config = 0x010d },
	{ .name = "INT_MISC.RECOVERY_CYCLES_ANY", .config = 0x0020010d, .group = 1 },
	{ .name = "CPU_CLK_UNHALTED.THREAD_ANY", .config = 0x0020003c, .group = 1 },
	{ .name = "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", .config = 0x023c, .group = 1 },
	{ .name = "CPU_CLK_UNHALTED.REF_XCLK", .config = 0x013c, .group = 1 },
	{ .name = "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE",
	  .config = 0x0400019c,
	  .flags = MODEL_EV_L2,
	  .group = 2 },
	{ .name = "BR_MISP_RETIRED.ALL_BRANCHES",
	  .config = 0x00c5,
	  .flags = MODEL_EV_L2,
	  .group = 2 },
	{ .name = "MACHINE_CLEARS.COUNT", .config = 0x010401c3, .flags = MODEL_EV_L2, .group = 2 },
	{ .name = "CYCLE_ACTIVITY.STALLS_MEM_ANY",
	  .config = 0x140014a3,
	  .flags = MODEL_EV_L2,
	  .group = 2 },
	{ .name = "EXE_ACTIVITY.BOUND_ON_STORES",
	  .config = 0x40a6,
	  .flags = MODEL_EV_L2,
	  .group = 3 },
	{ .name = "CYCLE_ACTIVITY.STALLS_TOTAL",
	  .config = 0x040004a3,
	  .flags = MODEL_EV_L2,
	  .group = 3 },
	{ .name = "EXE_ACTIVITY.1_PORTS_UTIL", .config = 0x02a6, .flags = MODEL_EV_L2, .group = 3 },
	{ .name = "EXE_ACTIVITY.2_PORTS_UTIL", .config = 0x04a6, .flags = MODEL_EV_L2, .group = 3 },
	{ .name = "UOPS_RETIRED.MACRO_FUSED", .config = 0x04c2, .flags = MODEL_EV_L2, .group = 4 },
	{ .name = "INST_RETIRED.ANY",
	  .config = 0x00c0,
	  .flags = MODEL_EV_FIXED | MODEL_EV_L2,
	  .group = 4 },
};

#define SKL_RECOVERY "(INT_MISC.RECOVERY_CYCLES_ANY / 2 if #SMT_on else INT_MISC.RECOVERY_CYCLES)"

/*
 * perf's text that the Skylake-class rows share with Haswell and Broadwell
 * (skl, skx, clx, hsw, hsx, bdw, bdx, bdwde-metrics.json, v7.3): slots,
 * frontend, bad speculation, retiring, fetch bandwidth and the split of bad
 * speculation.
 */
/* clang-format off */
#define SKL_SLOTS_METRICS                                                                          \
	{ "tma_info_thread_clks", 0, NULL, "CPU_CLK_UNHALTED.THREAD", NULL, NULL },                \
	{ "tma_info_core_core_clks", 0, NULL,                                                      \
	  "(CPU_CLK_UNHALTED.THREAD / 2 * (1 + CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE / "              \
	  "CPU_CLK_UNHALTED.REF_XCLK) if #core_wide < 1 else (CPU_CLK_UNHALTED.THREAD_ANY / 2 if " \
	  "#SMT_on else tma_info_thread_clks))",                                                   \
	  NULL, NULL },                                                                            \
	{ "tma_info_thread_slots", 0, NULL, "4 * tma_info_core_core_clks", NULL, NULL }

#define SKL_L1_METRICS                                                                             \
	{ "tma_frontend_bound", 1, NULL, "IDQ_UOPS_NOT_DELIVERED.CORE / tma_info_thread_slots",    \
	  NULL, "frontend_bound" },                                                                \
	{ "tma_bad_speculation", 1, NULL,                                                          \
	  "(UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS + 4 * " SKL_RECOVERY                       \
	  ") / tma_info_thread_slots",                                                             \
	  NULL, "bad_speculation" },                                                               \
	{ "tma_retiring", 1, NULL, "UOPS_RETIRED.RETIRE_SLOTS / tma_info_thread_slots", NULL,      \
	  "retiring" }

#define SKL_FETCH_BANDWIDTH                                                                        \
	{ "tma_fetch_bandwidth", 2, "tma_frontend_bound", "tma_frontend_bound - tma_fetch_latency", \
	  NULL, "fetch_bandwidth" }

#define SKL_BAD_SPECULATION_SPLIT                                                                  \
	{ "tma_branch_mispredicts", 2, "tma_bad_speculation",                                      \
	  "BR_MISP_RETIRED.ALL_BRANCHES / (BR_MISP_RETIRED.ALL_BRANCHES + MACHINE_CLEARS.COUNT) * " \
	  "tma_bad_speculation",                                                                   \
	  NULL, "branch_mispredicts" },                                                            \
	{ "tma_machine_clears", 2, "tma_bad_speculation",                                          \
	  "tma_bad_speculation - tma_branch_mispredicts", NULL, "machine_clears" }
/* clang-format on */

static const struct model_metric skl_metrics[] = {
	SKL_SLOTS_METRICS,
	SKL_L1_METRICS,
	{ "tma_backend_bound", 1, NULL,
	  "1 - tma_frontend_bound - (UOPS_ISSUED.ANY + 4 * " SKL_RECOVERY
	  ") / tma_info_thread_slots",
	  NULL, "backend_bound" },
	{ "tma_fetch_latency", 2, "tma_frontend_bound",
	  "4 * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE / tma_info_thread_slots", NULL,
	  "fetch_latency" },
	SKL_FETCH_BANDWIDTH,
	SKL_BAD_SPECULATION_SPLIT,
	{ "tma_memory_bound", 2, "tma_backend_bound",
	  "(CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES) / "
	  "(CYCLE_ACTIVITY.STALLS_TOTAL + (EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring * "
	  "EXE_ACTIVITY.2_PORTS_UTIL) + EXE_ACTIVITY.BOUND_ON_STORES) * tma_backend_bound",
	  NULL, "memory_bound" },
	{ "tma_core_bound", 2, "tma_backend_bound", "tma_backend_bound - tma_memory_bound", NULL,
	  "core_bound" },
	{ "tma_heavy_operations", 2, "tma_retiring",
	  "(UOPS_RETIRED.RETIRE_SLOTS + UOPS_RETIRED.MACRO_FUSED - INST_RETIRED.ANY) / "
	  "tma_info_thread_slots",
	  NULL, "heavy_operations" },
	{ "tma_light_operations", 2, "tma_retiring", "tma_retiring - tma_heavy_operations", NULL,
	  "light_operations" },
};

/*
 * Haswell and Broadwell (HSW, HSX, BDW, BDX, BDW-DE): width 4, 4 generic
 * counters per thread with SMT on, core slots as on Skylake. perf v7.3's
 * hsw/hsx/bdw/bdx/bdwde-metrics.json share the level-1 text but for the
 * backend, which is the remainder here; INT_MISC.RECOVERY_CYCLES is
 * umask 3, cmask 1 on these parts (pipeline.json), not Skylake's umask 1.
 * Groups 0 and 1 as on Skylake; group 2: the frontend, bad speculation
 * and retiring splits; groups 3 and 4: memory_bound (and so core_bound),
 * seven generic events and INST_RETIRED.ANY on fixed counter 0 (perf's
 * tma_info_thread_ipc). 19 generic events in 5 groups of 4: group 4's
 * spare counter takes what the NMI watchdog pushes out of group 0. The
 * same encodings on all five (each directory's pipeline.json,
 * frontend.json).
 */
/* clang-format off */
/* A level-2 event of group @grp, by raw config. */
#define HSW_L2(nm, cfg, grp) { .name = (nm), .config = (cfg), .flags = MODEL_EV_L2, .group = (grp) }

#define HSW_EVENTS                                                                                 \
	{ .name = "CPU_CLK_UNHALTED.THREAD", .config = 0x003c, .flags = MODEL_EV_FIXED },          \
	{ .name = "IDQ_UOPS_NOT_DELIVERED.CORE", .config = 0x019c },                               \
	{ .name = "UOPS_ISSUED.ANY", .config = 0x010e },                                           \
	{ .name = "UOPS_RETIRED.RETIRE_SLOTS", .config = 0x02c2 },                                 \
	{ .name = "INT_MISC.RECOVERY_CYCLES", .config = 0x0100030d },                              \
	{ .name = "INT_MISC.RECOVERY_CYCLES_ANY", .config = 0x0120030d, .group = 1 },              \
	{ .name = "CPU_CLK_UNHALTED.THREAD_ANY", .config = 0x0020003c, .group = 1 },               \
	{ .name = "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", .config = 0x023c, .group = 1 },            \
	{ .name = "CPU_CLK_UNHALTED.REF_XCLK", .config = 0x013c, .group = 1 },                     \
	HSW_L2("IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0x0400019c, 2),                  \
	HSW_L2("BR_MISP_RETIRED.ALL_BRANCHES", 0x00c5, 2),                                         \
	HSW_L2("MACHINE_CLEARS.COUNT", 0x010401c3, 2),                                             \
	HSW_L2("IDQ.MS_UOPS", 0x3079, 2),                                                          \
	HSW_L2("RESOURCE_STALLS.SB", 0x08a2, 3),                                                   \
	HSW_L2("RS_EVENTS.EMPTY_CYCLES", 0x015e, 3)

/* The tail of both tables: fixed counter 0, group 4's fourth event. */
#define HSW_INST_RETIRED                                                                           \
	{ .name = "INST_RETIRED.ANY", .config = 0x00c0, .flags = MODEL_EV_FIXED | MODEL_EV_L2,    \
	  .group = 4 }
/* clang-format on */

/*
 * Haswell: perf writes the stalls by the events' HSW names and the
 * executed-uop cycles as UOPS_EXECUTED.CORE with a cmask (perf's
 * "cpu@UOPS_EXECUTED.CORE\,cmask\=N@", unescaped).
 */
static const struct model_event hsw_events[] = {
	HSW_EVENTS,
	HSW_L2("CYCLE_ACTIVITY.STALLS_LDM_PENDING", 0x060006a3, 3),
	HSW_L2("CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", 0x040004a3, 3),
	HSW_L2("UOPS_EXECUTED.CORE,cmask=1", 0x010002b1, 4),
	HSW_L2("UOPS_EXECUTED.CORE,cmask=2", 0x020002b1, 4),
	HSW_L2("UOPS_EXECUTED.CORE,cmask=3", 0x030002b1, 4),
	HSW_INST_RETIRED,
};

/*
 * Broadwell: the same counters under their BDW names (STALLS_MEM_ANY is
 * STALLS_LDM_PENDING's encoding, STALLS_TOTAL CYCLES_NO_EXECUTE's), the
 * executed-uop cycles as the CYCLES_GE_N_UOP(S)_EXEC events (umask 1).
 */
static const struct model_event bdw_events[] = {
	HSW_EVENTS,
	HSW_L2("CYCLE_ACTIVITY.STALLS_MEM_ANY", 0x060006a3, 3),
	HSW_L2("CYCLE_ACTIVITY.STALLS_TOTAL", 0x040004a3, 3),
	HSW_L2("UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", 0x010001b1, 4),
	HSW_L2("UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC", 0x020001b1, 4),
	HSW_L2("UOPS_EXECUTED.CYCLES_GE_3_UOPS_EXEC", 0x030001b1, 4),
	HSW_INST_RETIRED,
};

/*
 * perf v7.3's text: Skylake's but the backend, the remainder here,
 * @FETCH_CYCLES, how the fetch latency counts its cycles, and
 * @MEMORY_BOUND, memory_bound's expression.
 */
/* clang-format off */
#define HSW_METRICS(FETCH_CYCLES, MEMORY_BOUND)                                                    \
	SKL_SLOTS_METRICS,                                                                         \
	{ "tma_info_thread_ipc", 0, NULL, "INST_RETIRED.ANY / tma_info_thread_clks", NULL, NULL }, \
	SKL_L1_METRICS,                                                                            \
	{ "tma_backend_bound", 1, NULL,                                                            \
	  "1 - (tma_frontend_bound + tma_bad_speculation + tma_retiring)", NULL,                   \
	  "backend_bound" },                                                                       \
	{ "tma_fetch_latency", 2, "tma_frontend_bound",                                            \
	  "4 * " FETCH_CYCLES " / tma_info_thread_slots", NULL, "fetch_latency" },                 \
	SKL_FETCH_BANDWIDTH,                                                                       \
	SKL_BAD_SPECULATION_SPLIT,                                                                 \
	{ "tma_memory_bound", 2, "tma_backend_bound", MEMORY_BOUND, NULL, "memory_bound" },        \
	{ "tma_core_bound", 2, "tma_backend_bound", "tma_backend_bound - tma_memory_bound", NULL,  \
	  "core_bound" },                                                                          \
	/* perf's level 3, under heavy operations: here a helper */                               \
	{ "tma_microcode_sequencer", 0, NULL,                                                      \
	  "UOPS_RETIRED.RETIRE_SLOTS / UOPS_ISSUED.ANY * IDQ.MS_UOPS / tma_info_thread_slots",     \
	  NULL, NULL },                                                                            \
	{ "tma_heavy_operations", 2, "tma_retiring", "tma_microcode_sequencer", NULL,              \
	  "heavy_operations" },                                                                    \
	{ "tma_light_operations", 2, "tma_retiring", "tma_retiring - tma_heavy_operations", NULL,  \
	  "light_operations" }

/* Cycles executing one uop or more, less those executing 3 (IPC above 1.8) or 2 or more. */
#define HSW_EXEC_CYCLES(GE1, GE2, GE3)                                                             \
	GE1 " - (" GE3 " if tma_info_thread_ipc > 1.8 else " GE2 ")"
#define HSW_NO_FETCH "(RS_EVENTS.EMPTY_CYCLES if tma_fetch_latency > 0.1 else 0)"
#define HSW_GE1 "cpu@UOPS_EXECUTED.CORE\\,cmask\\=1@"
#define HSW_GE2 "cpu@UOPS_EXECUTED.CORE\\,cmask\\=2@"
#define HSW_GE3 "cpu@UOPS_EXECUTED.CORE\\,cmask\\=3@"
#define HSW_NO_EXECUTE "min(CPU_CLK_UNHALTED.THREAD, CYCLE_ACTIVITY.CYCLES_NO_EXECUTE)"

/*
 * Haswell: the stalls bounded by the thread's clocks, and with SMT on
 * half the core's executed-uop cycles.
 */
#define HSW_MEMORY_BOUND                                                                           \
	"(min(CPU_CLK_UNHALTED.THREAD, CYCLE_ACTIVITY.STALLS_LDM_PENDING) + RESOURCE_STALLS.SB) / (" \
	HSW_NO_EXECUTE " + (" HSW_EXEC_CYCLES(HSW_GE1, HSW_GE2, HSW_GE3) ") / 2 - " HSW_NO_FETCH     \
	" + RESOURCE_STALLS.SB if #SMT_on else " HSW_NO_EXECUTE " + "                              \
	HSW_EXEC_CYCLES(HSW_GE1, HSW_GE2, HSW_GE3) " - " HSW_NO_FETCH " + RESOURCE_STALLS.SB) * "  \
	"tma_backend_bound"

/* Broadwell: per thread, SMT or not. */
#define BDW_MEMORY_BOUND                                                                           \
	"(CYCLE_ACTIVITY.STALLS_MEM_ANY + RESOURCE_STALLS.SB) / (CYCLE_ACTIVITY.STALLS_TOTAL + "    \
	HSW_EXEC_CYCLES("UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", "UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC", \
			"UOPS_EXECUTED.CYCLES_GE_3_UOPS_EXEC")                                     \
	" - " HSW_NO_FETCH " + RESOURCE_STALLS.SB) * tma_backend_bound"
/* clang-format on */

/* Haswell: the cycles without a delivered uop, bounded by the thread's clocks. */
static const struct model_metric hsw_metrics[] = {
	/* clang-format off */
	HSW_METRICS("min(CPU_CLK_UNHALTED.THREAD, IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE)",
		    HSW_MEMORY_BOUND),
	/* clang-format on */
};

static const struct model_metric bdw_metrics[] = {
	HSW_METRICS("IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", BDW_MEMORY_BOUND),
};

/*
 * Where each row's formulas come from: perf v7.3-rc7's
 * tools/perf/pmu-events/arch/ (Debian's linux-source-7.3, 7.3~rc7-1~exp1),
 * the file and its git blob hash. Every row's MetricExpr text equals that
 * file's, but for the hybrid PMU prefix (scripts/check-formulas checks it
 * against tests/fixtures/pmu-events-v7.3/, a copy of these files).
 */
#define SRC(file, blob) "perf v7.3-rc7 tools/perf/pmu-events/arch/x86/" file " @ " blob
#define SRC_ICL		SRC("icelake/icl-metrics.json", "cf9ed3edb694")
#define SRC_ICX		SRC("icelakex/icx-metrics.json", "f58eec2a1788")
#define SRC_TGL		SRC("tigerlake/tgl-metrics.json", "908da985c594")
#define SRC_RKL		SRC("rocketlake/rkl-metrics.json", "79dc34157481")
#define SRC_SPR		SRC("sapphirerapids/spr-metrics.json", "b6a28227a58a")
#define SRC_EMR		SRC("emeraldrapids/emr-metrics.json", "e00e32e71691")
#define SRC_GNR		SRC("graniterapids/gnr-metrics.json", "95e05812eb3b")
#define SRC_ADL		SRC("alderlake/adl-metrics.json", "e76d679a784b")
#define SRC_MTL		SRC("meteorlake/mtl-metrics.json", "a23691052237")
#define SRC_LNL		SRC("lunarlake/lnl-metrics.json", "6bc62297ca6c")
#define SRC_ARL		SRC("arrowlake/arl-metrics.json", "52db2caafc0a")
#define SRC_SKL		SRC("skylake/skl-metrics.json", "707bd8790ed2")
#define SRC_SKX		SRC("skylakex/skx-metrics.json", "56c2caaafef4")
#define SRC_CLX		SRC("cascadelakex/clx-metrics.json", "2e50a91b6728")
#define SRC_SRF		SRC("sierraforest/srf-metrics.json", "ca2c55917e55")
#define SRC_GRR		SRC("grandridge/grr-metrics.json", "a0d637a24c1b")
#define SRC_ADLN	SRC("alderlaken/adln-metrics.json", "0f72c9192df6")
#define SRC_HSW		SRC("haswell/hsw-metrics.json", "aebd82ced1cf")
#define SRC_HSX		SRC("haswellx/hsx-metrics.json", "b8845f8a28b9")
#define SRC_BDW		SRC("broadwell/bdw-metrics.json", "1d8e910f5961")
#define SRC_BDX		SRC("broadwellx/bdx-metrics.json", "5b83b040060c")
#define SRC_BDWDE	SRC("broadwellde/bdwde-metrics.json", "a5e408ca46a7")
#define NOT_ON_HW	"not on hardware"

/*
 * perf stat -M for the same nodes: every file read tags its level-1 nodes
 * TopdownL1 and its level-2 nodes TopdownL2 (MetricGroup). On hybrids
 * both units' metrics carry the same groups; perf computes each on the
 * PMU its "Unit" names (cpu_core or cpu_atom) and prints them per PMU.
 */
#define PERF_GROUPS .perf_groups = "TopdownL1,TopdownL2"

#define ROW_EVENTS(ev)	.events = (ev), .nr_events = ARRAY_LEN(ev)
#define ROW_METRICS(mt) .metrics = (mt), .nr_metrics = ARRAY_LEN(mt)

#define ICL_ROW(nm, src, ...)                                                                      \
	{                                                                                          \
		.name = (nm), .vendor = "GenuineIntel", .family = 6,                               \
		.cpu_models = { __VA_ARGS__ }, .pmu = "cpu", .requires = "slots",                  \
		.gp_counters = 8, .slots = "tma_info_thread_slots", ROW_EVENTS(icl_events),        \
		ROW_METRICS(icl_metrics), .source = (src), .pmu_events = MODEL_PMU_EVENTS_V7_3,    \
		PERF_GROUPS, .verified = NOT_ON_HW                                                 \
	}

#define GLC_ROW(nm, pm, cr, src, ...)                                                              \
	{                                                                                          \
		.name = (nm), .vendor = "GenuineIntel", .family = 6,                               \
		.cpu_models = { __VA_ARGS__ }, .pmu = (pm), .core = (cr), .requires = "slots",     \
		.gp_counters = 8, .slots = "tma_info_thread_slots", ROW_EVENTS(glc_events),        \
		ROW_METRICS(glc_metrics), .source = (src), .pmu_events = MODEL_PMU_EVENTS_V7_3,    \
		PERF_GROUPS, .verified = NOT_ON_HW                                                 \
	}

#define LNC_ROW(nm, src, ...)                                                                      \
	{                                                                                          \
		.name = (nm), .vendor = "GenuineIntel", .family = 6,                               \
		.cpu_models = { __VA_ARGS__ }, .pmu = "cpu_core", .core = "P-core",                \
		.requires = "slots", .gp_counters = 8, .slots = "tma_info_thread_slots",           \
		ROW_EVENTS(lnc_events), ROW_METRICS(lnc_metrics), .source = (src),                 \
		.pmu_events = MODEL_PMU_EVENTS_V7_3, PERF_GROUPS, .verified = NOT_ON_HW            \
	}

/* E-cores on PMU @pm: cpu_atom of a hybrid, or cpu of a part with E-cores only (@cr NULL). */
#define ATOM_PMU_ROW(nm, pm, cr, gp, ev, mt, src, ...)                                             \
	{                                                                                          \
		.name = (nm), .vendor = "GenuineIntel", .family = 6,                               \
		.cpu_models = { __VA_ARGS__ }, .pmu = (pm), .core = (cr), .gp_counters = (gp),     \
		.slots = "tma_info_core_slots", ROW_EVENTS(ev), ROW_METRICS(mt), .source = (src),  \
		.pmu_events = MODEL_PMU_EVENTS_V7_3, PERF_GROUPS, .verified = NOT_ON_HW            \
	}

#define ATOM_ROW(nm, gp, ev, mt, src, ...)                                                         \
	ATOM_PMU_ROW(nm, "cpu_atom", "E-core", gp, ev, mt, src, __VA_ARGS__)

#define SKL_ROW(nm, smin, smax, src, ...)                                                          \
	{                                                                                          \
		.name = (nm), .vendor = "GenuineIntel", .family = 6,                               \
		.cpu_models = { __VA_ARGS__ }, .stepping_min = (smin), .stepping_max = (smax),     \
		.pmu = "cpu", .gp_counters = 4, .slots = "tma_info_thread_slots",                  \
		.smt_approximate = true, ROW_EVENTS(skl_events), ROW_METRICS(skl_metrics),         \
		.source = (src), .pmu_events = MODEL_PMU_EVENTS_V7_3, PERF_GROUPS,                 \
		.verified = NOT_ON_HW                                                              \
	}

/* Haswell, Broadwell: per thread, SMT as on Skylake. */
#define HSW_ROW(nm, ev, mt, src, ...)                                                              \
	{                                                                                          \
		.name = (nm), .vendor = "GenuineIntel", .family = 6,                               \
		.cpu_models = { __VA_ARGS__ }, .pmu = "cpu", .gp_counters = 4,                     \
		.slots = "tma_info_thread_slots", .smt_approximate = true, ROW_EVENTS(ev),         \
		ROW_METRICS(mt), .source = (src), .pmu_events = MODEL_PMU_EVENTS_V7_3,             \
		PERF_GROUPS, .verified = NOT_ON_HW                                                 \
	}

/* CPU models from perf's tools/perf/pmu-events/arch/x86/mapfile.csv. */
const struct pmu_model intel_models[] = {
	/* Group A */
	ICL_ROW("icelake", SRC_ICL, 0x7d, 0x7e),
	ICL_ROW("icelakex", SRC_ICX, 0x6a, 0x6c),
	ICL_ROW("tigerlake", SRC_TGL, 0x8c, 0x8d),
	ICL_ROW("rocketlake", SRC_RKL, 0xa7),
	/* Group B */
	GLC_ROW("sapphirerapids", "cpu", NULL, SRC_SPR, 0x8f),
	GLC_ROW("emeraldrapids", "cpu", NULL, SRC_EMR, 0xcf),
	GLC_ROW("graniterapids", "cpu", NULL, SRC_GNR, 0xad, 0xae),
	/* alderlake: ADL 0x97/0x9a and RPL 0xb7/0xba/0xbf */
	GLC_ROW("alderlake", "cpu_core", "P-core", SRC_ADL, 0x97, 0x9a, 0xb7, 0xba, 0xbf),
	/* meteorlake: MTL 0xaa/0xac and ARL-U 0xb5 */
	GLC_ROW("meteorlake", "cpu_core", "P-core", SRC_MTL, 0xaa, 0xac, 0xb5),
	/* Group C */
	LNC_ROW("lunarlake", SRC_LNL, 0xbd),
	LNC_ROW("arrowlake", SRC_ARL, 0xc5, 0xc6),
	/* E-cores */
	ATOM_ROW("alderlake", 6, grt_events, grt_metrics, SRC_ADL, 0x97, 0x9a, 0xb7, 0xba, 0xbf),
	ATOM_ROW("meteorlake", 8, cmt_events, cmt_metrics, SRC_MTL, 0xaa, 0xac, 0xb5),
	ATOM_ROW("lunarlake", 8, skt_events, skt_metrics, SRC_LNL, 0xbd),
	ATOM_ROW("arrowlake", 8, skt_events, skt_metrics, SRC_ARL, 0xc5, 0xc6),
	/* E-cores only, PMU cpu: Crestmont (SRF, GRR), Gracemont (ADL-N) */
	ATOM_PMU_ROW("sierraforest", "cpu", NULL, 8, cmt_events, cmt_metrics, SRC_SRF, 0xaf),
	ATOM_PMU_ROW("grandridge", "cpu", NULL, 8, cmt_events, cmt_metrics, SRC_GRR, 0xb6),
	ATOM_PMU_ROW("alderlaken", "cpu", NULL, 6, grt_events, grt_metrics, SRC_ADLN, 0xbe),
	/* Before PERF_METRICS */
	SKL_ROW("skylake", 0, 0, SRC_SKL, 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6),
	SKL_ROW("skylakex", 0, 4, SRC_SKX, 0x55),
	SKL_ROW("cascadelakex", 5, 0xf, SRC_CLX, 0x55),
	/* Haswell, Broadwell */
	HSW_ROW("haswell", hsw_events, hsw_metrics, SRC_HSW, 0x3c, 0x45, 0x46),
	HSW_ROW("haswellx", hsw_events, hsw_metrics, SRC_HSX, 0x3f),
	HSW_ROW("broadwell", bdw_events, bdw_metrics, SRC_BDW, 0x3d, 0x47),
	HSW_ROW("broadwellx", bdw_events, bdw_metrics, SRC_BDX, 0x4f),
	HSW_ROW("broadwellde", bdw_events, bdw_metrics, SRC_BDWDE, 0x56),
};
const int nr_intel_models = ARRAY_LEN(intel_models);
