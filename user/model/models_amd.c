// SPDX-License-Identifier: GPL-2.0
/*
 * AMD rows of the PMU model table (see models.h): Zen 4 ("amdzen4"), Zen 5
 * ("amdzen5") and Zen 6 ("amdzen6"), perf's "pipeline utilization"
 * metrics (metric groups PipelineL1 and PipelineL2) as data.
 *
 * How perf's AMD metrics are shown as the common TopDown nodes
 * ----------------------------------------------------------------
 *
 *   perf, Zen 4 / Zen 5                         node              exact?
 *   frontend_bound                              frontend_bound    yes
 *   bad_speculation                             bad_speculation   no (1)
 *   backend_bound                               backend_bound     yes
 *   smt_contention                              smt_contention    no Intel node (2)
 *   retiring                                    retiring          yes
 *   frontend_bound_latency / _by_latency        fetch_latency     yes (3)
 *   frontend_bound_bandwidth / _by_bandwidth    fetch_bandwidth   yes (3)
 *   bad_speculation_mispredicts /
 *     bad_speculation_from_mispredicts          branch_mispredicts  no (4)
 *   bad_speculation_pipeline_restarts /
 *     bad_speculation_from_pipeline_restarts    machine_clears    no (4)
 *   backend_bound_memory / _by_memory           memory_bound      no (5)
 *   backend_bound_cpu / _by_cpu                 core_bound        no (5)
 *   retiring_fastpath / _from_fastpath          light_operations  no (6)
 *   retiring_microcode / _from_microcode        heavy_operations  no (6)
 *
 * (1) AMD counts ops dispatched but not retired, over dispatch slots (Zen
 *     5's ScaleUnit says "%ops"). It has no term for the slots lost while
 *     the machine recovers, which Intel's bad_speculation includes, so it
 *     reads lower, and the five level-1 fractions need not sum to 1.
 * (2) Slots this thread could not dispatch because the core gave the cycle
 *     to its SMT sibling. Intel has no such node: its per-thread slots
 *     simply count fewer. Its event is MODEL_EV_OPTIONAL: with the NMI
 *     watchdog holding one of the 6 counters, level 1 runs in 5 without it.
 * (3) As on Intel: latency is width x (cycles in which the front end
 *     supplied no op at all, cmask = width); bandwidth is the rest.
 * (4) AMD divides bad_speculation between branch mispredicts and pipeline
 *     restarts (resyncs) in proportion to their counts, as if each cost the
 *     same. A resync is not the same set of events as Intel's machine
 *     clears (memory ordering, self-modifying code, ...), but is the
 *     closest node. On Zen 4 the restarts event also counts redirects for
 *     non-cacheable fetches (resyncs_or_nc_redirects).
 * (5) AMD divides backend_bound by the share of no-retire cycles spent
 *     waiting for load data. Stores play no part, unlike Intel's
 *     memory_bound; core_bound is the rest.
 * (6) AMD's heavy part is microcoded ops only; Intel's heavy_operations
 *     also holds instructions of two or more uops that need no microcode.
 *
 * ScaleUnit: perf multiplies a metric by ScaleUnit's number and prints the
 * rest as the unit. Zen 4 writes "100%"; Zen 5 writes "100%slots" or
 * "100%ops" (and "1slots" for total_dispatch_slots, a count). So every
 * MetricExpr below is already a fraction of slots, 0 .. 1, like Intel's
 * tma_* (whose ScaleUnit is also "100%"): the text is stored unscaled and
 * the output applies the same x 100 to both vendors. The "slots"/"ops"
 * suffix is a label only and changes no value.
 *
 * Encodings: EventSelect bits 7:0 go to config 7:0 and bits 11:8 to config
 * 35:32 (the kernel's format "event=config:0-7,32-35"); UMask to 15:8;
 * cmask to 31:24. No edge or inv bits are used. AMD's core PMU has no
 * fixed counters and exports no pipeline names in sysfs, so every event is
 * a raw config on a generic counter.
 *
 * Counters: level 1 is 6 events, all 6 generic counters. The NMI watchdog's
 * cycles event holds one, so the smt_contention event is optional. Level 2
 * adds 6 more events (perf's PipelineL2 uses 12 distinct in all), here in
 * two groups of at most 5 so that each can run beside the watchdog too;
 * the kernel multiplexes the groups and each is scaled by its own enabled
 * and running times. The pairs whose ratio a metric takes (mispredicts and
 * resyncs; load_not_complete and not_complete) share a group.
 */
#include <stddef.h>
#include "model/models.h"

#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* EventSelect @ev (12 bits) and @umask as a raw config. */
#define AMD_EVENT(ev, umask) ((((__u64)(ev)&0xf00) << 24) | ((ev)&0xff) | ((umask) << 8))
#define AMD_CMASK(n)	     ((__u64)(n) << 24)

/*
 * Where a row's text comes from: perf v7.3-rc7's
 * tools/perf/pmu-events/arch/ (Debian's linux-source-7.3), each file with
 * its git blob hash; scripts/check-formulas compares the formulas with it.
 */
/* clang-format off */
#define SRC_FILE(file, blob) "x86/" file " @ " blob
#define SRC_PIPELINE(dir, blob)                                                                    \
	"perf v7.3-rc7 tools/perf/pmu-events/arch/" SRC_FILE(dir "/pipeline.json", blob)
#define SRC_MAPFILE SRC_FILE("mapfile.csv", "e5d90825041b")
#define SRC_ZEN4                                                                                   \
	SRC_PIPELINE("amdzen4", "4ae8316c7507")                                                    \
	", events: " SRC_FILE("amdzen4/core.json", "a56a41828bd4")                                 \
	", " SRC_FILE("amdzen4/branch.json", "208c646c59ca")                                       \
	", " SRC_FILE("amdzen4/other.json", "a02a9c807289") ", " SRC_MAPFILE
/* Zen 5 and Zen 6 (@dir): pipeline.json, the event files, mapfile.csv. */
#define SRC_ZEN5_CLASS(dir, pipeline, decode, execution, load_store, branch_prediction)           \
	SRC_PIPELINE(dir, pipeline)                                                                \
	", events: " SRC_FILE(dir "/decode.json", decode)                                          \
	", " SRC_FILE(dir "/execution.json", execution)                                            \
	", " SRC_FILE(dir "/load-store.json", load_store)                                          \
	", " SRC_FILE(dir "/branch-prediction.json", branch_prediction) ", " SRC_MAPFILE
#define SRC_ZEN5                                                                                   \
	SRC_ZEN5_CLASS("amdzen5", "d860bf599cf2", "d0eff7f2a3ea", "5a46d3db74e7", "b1994539ece8",  \
		       "2d8d18cb85c1")
#define SRC_ZEN6                                                                                   \
	SRC_ZEN5_CLASS("amdzen6", "48c501d8a097", "c5d37fbac948", "1b80acc89b6f", "4291eb59426f",  \
		       "dd70069f68ed")
/* clang-format on */

/*
 * Level 1, shared by both rows (same events, same encodings on Zen 4 and
 * Zen 5). ls_not_halted_cyc leads group 0.
 */
/* clang-format off */
#define AMD_L1_EVENTS                                                                              \
	{ .name = "ls_not_halted_cyc", .config = AMD_EVENT(0x076, 0x00) },                         \
	{ .name = "de_no_dispatch_per_slot.no_ops_from_frontend",                                  \
	  .config = AMD_EVENT(0x1a0, 0x01) },                                                      \
	{ .name = "de_src_op_disp.all", .config = AMD_EVENT(0x0aa, 0x07) },                        \
	{ .name = "ex_ret_ops", .config = AMD_EVENT(0x0c1, 0x00) },                                \
	{ .name = "de_no_dispatch_per_slot.backend_stalls",                                        \
	  .config = AMD_EVENT(0x1a0, 0x1e) },                                                      \
	{ .name = "de_no_dispatch_per_slot.smt_contention",                                        \
	  .config = AMD_EVENT(0x1a0, 0x60),                                                        \
	  .flags = MODEL_EV_OPTIONAL }
/* clang-format on */

/*
 * Zen 4. Events: perf's amdzen4/{core,other,branch}.json. Level-2 group 1
 * splits bad_speculation and backend_bound; group 2 frontend_bound and
 * retiring.
 */
static const struct model_event zen4_events[] = {
	AMD_L1_EVENTS,
	{ .name = "ex_ret_brn_misp",
	  .config = AMD_EVENT(0x0c3, 0x00),
	  .flags = MODEL_EV_L2,
	  .group = 1 },
	{ .name = "resyncs_or_nc_redirects",
	  .config = AMD_EVENT(0x096, 0x00),
	  .flags = MODEL_EV_L2,
	  .group = 1 },
	{ .name = "ex_no_retire.load_not_complete",
	  .config = AMD_EVENT(0x0d6, 0xa2),
	  .flags = MODEL_EV_L2,
	  .group = 1 },
	{ .name = "ex_no_retire.not_complete",
	  .config = AMD_EVENT(0x0d6, 0x02),
	  .flags = MODEL_EV_L2,
	  .group = 1 },
	/* perf's "cpu@de_no_dispatch_per_slot.no_ops_from_frontend\,cmask\=0x6@", unescaped. */
	{ .name = "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6",
	  .config = AMD_EVENT(0x1a0, 0x01) | AMD_CMASK(6),
	  .flags = MODEL_EV_L2,
	  .group = 2 },
	{ .name = "ex_ret_ucode_ops",
	  .config = AMD_EVENT(0x1c2, 0x00),
	  .flags = MODEL_EV_L2,
	  .group = 2 },
};

/* perf's amdzen4/pipeline.json, MetricExpr verbatim (JSON string unescaped). */
static const struct model_metric zen4_metrics[] = {
	{ "total_dispatch_slots", 0, NULL, "6 * ls_not_halted_cyc", NULL, NULL },
	{ "frontend_bound", 1, NULL,
	  "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend, total_dispatch_slots)", NULL,
	  "frontend_bound" },
	{ "bad_speculation", 1, NULL,
	  "d_ratio(de_src_op_disp.all - ex_ret_ops, total_dispatch_slots)", NULL,
	  "bad_speculation" },
	{ "backend_bound", 1, NULL,
	  "d_ratio(de_no_dispatch_per_slot.backend_stalls, total_dispatch_slots)", NULL,
	  "backend_bound" },
	{ "smt_contention", 1, NULL,
	  "d_ratio(de_no_dispatch_per_slot.smt_contention, total_dispatch_slots)", NULL,
	  "smt_contention" },
	{ "retiring", 1, NULL, "d_ratio(ex_ret_ops, total_dispatch_slots)", NULL, "retiring" },
	{ "frontend_bound_latency", 2, "frontend_bound",
	  "d_ratio((6 * cpu@de_no_dispatch_per_slot.no_ops_from_frontend\\,cmask\\=0x6@), "
	  "total_dispatch_slots)",
	  NULL, "fetch_latency" },
	{ "frontend_bound_bandwidth", 2, "frontend_bound",
	  "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend - (6 * "
	  "cpu@de_no_dispatch_per_slot.no_ops_from_frontend\\,cmask\\=0x6@), total_dispatch_slots)",
	  NULL, "fetch_bandwidth" },
	{ "bad_speculation_mispredicts", 2, "bad_speculation",
	  "d_ratio(bad_speculation * ex_ret_brn_misp, ex_ret_brn_misp + resyncs_or_nc_redirects)",
	  NULL, "branch_mispredicts" },
	{ "bad_speculation_pipeline_restarts", 2, "bad_speculation",
	  "d_ratio(bad_speculation * resyncs_or_nc_redirects, ex_ret_brn_misp + "
	  "resyncs_or_nc_redirects)",
	  NULL, "machine_clears" },
	{ "backend_bound_memory", 2, "backend_bound",
	  "backend_bound * d_ratio(ex_no_retire.load_not_complete, ex_no_retire.not_complete)",
	  NULL, "memory_bound" },
	{ "backend_bound_cpu", 2, "backend_bound",
	  "backend_bound * (1 - d_ratio(ex_no_retire.load_not_complete, "
	  "ex_no_retire.not_complete))",
	  NULL, "core_bound" },
	{ "retiring_fastpath", 2, "retiring",
	  "retiring * (1 - d_ratio(ex_ret_ucode_ops, ex_ret_ops))", NULL, "light_operations" },
	{ "retiring_microcode", 2, "retiring", "retiring * d_ratio(ex_ret_ucode_ops, ex_ret_ops)",
	  NULL, "heavy_operations" },
};

/*
 * Zen 5 and Zen 6. Events: perf's amdzen5/ and amdzen6/{decode,execution,
 * load-store,branch-prediction}.json, the same encodings on both. Width 8:
 * the latency event's cmask is 8. Resyncs are @RESYNC, event 0x9f umask 1:
 * bp_redirects.resync on Zen 5, bp_fe_redir.resync on Zen 6. Groups as on
 * Zen 4.
 */
/* clang-format off */
#define ZEN5_EVENTS(RESYNC)                                                                        \
	AMD_L1_EVENTS,                                                                             \
	{ .name = "ex_ret_brn_misp",                                                               \
	  .config = AMD_EVENT(0x0c3, 0x00),                                                        \
	  .flags = MODEL_EV_L2,                                                                    \
	  .group = 1 },                                                                            \
	{ .name = RESYNC,                                                                          \
	  .config = AMD_EVENT(0x09f, 0x01),                                                        \
	  .flags = MODEL_EV_L2,                                                                    \
	  .group = 1 },                                                                            \
	{ .name = "ex_no_retire.load_not_complete",                                                \
	  .config = AMD_EVENT(0x0d6, 0xa2),                                                        \
	  .flags = MODEL_EV_L2,                                                                    \
	  .group = 1 },                                                                            \
	{ .name = "ex_no_retire.not_complete",                                                     \
	  .config = AMD_EVENT(0x0d6, 0x02),                                                        \
	  .flags = MODEL_EV_L2,                                                                    \
	  .group = 1 },                                                                            \
	/* perf's "cpu@de_no_dispatch_per_slot.no_ops_from_frontend\,cmask\=0x8@", unescaped. */ \
	{ .name = "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8",                        \
	  .config = AMD_EVENT(0x1a0, 0x01) | AMD_CMASK(8),                                         \
	  .flags = MODEL_EV_L2,                                                                    \
	  .group = 2 },                                                                            \
	{ .name = "ex_ret_ucode_ops",                                                              \
	  .config = AMD_EVENT(0x1c2, 0x00),                                                        \
	  .flags = MODEL_EV_L2,                                                                    \
	  .group = 2 }

/* perf's amdzen5/ and amdzen6/pipeline.json, MetricExpr verbatim (JSON string unescaped). */
#define ZEN5_METRICS(RESYNC)                                                                       \
	{ "total_dispatch_slots", 0, NULL, "8 * ls_not_halted_cyc", NULL, NULL },                  \
	{ "frontend_bound", 1, NULL,                                                               \
	  "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend, total_dispatch_slots)", NULL,     \
	  "frontend_bound" },                                                                      \
	{ "bad_speculation", 1, NULL,                                                              \
	  "d_ratio(de_src_op_disp.all - ex_ret_ops, total_dispatch_slots)", NULL,                  \
	  "bad_speculation" },                                                                     \
	{ "backend_bound", 1, NULL,                                                                \
	  "d_ratio(de_no_dispatch_per_slot.backend_stalls, total_dispatch_slots)", NULL,           \
	  "backend_bound" },                                                                       \
	{ "smt_contention", 1, NULL,                                                               \
	  "d_ratio(de_no_dispatch_per_slot.smt_contention, total_dispatch_slots)", NULL,           \
	  "smt_contention" },                                                                      \
	{ "retiring", 1, NULL, "d_ratio(ex_ret_ops, total_dispatch_slots)", NULL, "retiring" },    \
	{ "frontend_bound_by_latency", 2, "frontend_bound",                                        \
	  "d_ratio((8 * cpu@de_no_dispatch_per_slot.no_ops_from_frontend\\,cmask\\=0x8@), "        \
	  "total_dispatch_slots)",                                                                 \
	  NULL, "fetch_latency" },                                                                 \
	{ "frontend_bound_by_bandwidth", 2, "frontend_bound",                                      \
	  "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend - (8 * "                           \
	  "cpu@de_no_dispatch_per_slot.no_ops_from_frontend\\,cmask\\=0x8@), total_dispatch_slots)", \
	  NULL, "fetch_bandwidth" },                                                               \
	{ "bad_speculation_from_mispredicts", 2, "bad_speculation",                                \
	  "d_ratio(bad_speculation * ex_ret_brn_misp, ex_ret_brn_misp + " RESYNC ")", NULL,        \
	  "branch_mispredicts" },                                                                  \
	{ "bad_speculation_from_pipeline_restarts", 2, "bad_speculation",                          \
	  "d_ratio(bad_speculation * " RESYNC ", ex_ret_brn_misp + " RESYNC ")",                   \
	  NULL, "machine_clears" },                                                                \
	{ "backend_bound_by_memory", 2, "backend_bound",                                           \
	  "backend_bound * d_ratio(ex_no_retire.load_not_complete, ex_no_retire.not_complete)",    \
	  NULL, "memory_bound" },                                                                  \
	{ "backend_bound_by_cpu", 2, "backend_bound",                                              \
	  "backend_bound * (1 - d_ratio(ex_no_retire.load_not_complete, "                          \
	  "ex_no_retire.not_complete))",                                                           \
	  NULL, "core_bound" },                                                                    \
	{ "retiring_from_fastpath", 2, "retiring",                                                 \
	  "retiring * (1 - d_ratio(ex_ret_ucode_ops, ex_ret_ops))", NULL, "light_operations" },    \
	{ "retiring_from_microcode", 2, "retiring",                                                \
	  "retiring * d_ratio(ex_ret_ucode_ops, ex_ret_ops)", NULL, "heavy_operations" }
/* clang-format on */

static const struct model_event zen5_events[] = { ZEN5_EVENTS("bp_redirects.resync") };
static const struct model_metric zen5_metrics[] = { ZEN5_METRICS("bp_redirects.resync") };
static const struct model_event zen6_events[] = { ZEN5_EVENTS("bp_fe_redir.resync") };
static const struct model_metric zen6_metrics[] = { ZEN5_METRICS("bp_fe_redir.resync") };

const struct pmu_model amd_models[] = {
	{
		.name = "amdzen4",
		.vendor = "AuthenticAMD",
		.family = 0x19,
		/*
		 * mapfile.csv: "AuthenticAMD-25-[[:xdigit:]]+" after amdzen3's
		 * "AuthenticAMD-25-([245][[:xdigit:]]|[[:xdigit:]])", matched
		 * whole against the model in hex: every family 0x19 model but
		 * 0x00-0x0f, 0x20-0x2f and 0x40-0x5f (Zen 3, Zen 3+).
		 */
		.cpu_model_ranges = { { 0x10, 0x1f }, { 0x30, 0x3f }, { 0x60, 0xff } },
		.pmu = "cpu",
		.gp_counters = 6,
		.watchdog_counters =
			1, /* the NMI watchdog's cycles take a generic counter: no fixed ones */
		.perf_groups = "PipelineL1,PipelineL2",
		.slots = "total_dispatch_slots",
		.smt_approximate = true,
		.events = zen4_events,
		.nr_events = ARRAY_LEN(zen4_events),
		.metrics = zen4_metrics,
		.nr_metrics = ARRAY_LEN(zen4_metrics),
		.source = SRC_ZEN4,
		.pmu_events = MODEL_PMU_EVENTS_V7_3,
		.verified = "not on hardware",
	},
	{
		.name = "amdzen5",
		.vendor = "AuthenticAMD",
		.family = 0x1a,
		/*
		 * mapfile.csv (v7.3-rc7):
		 * "AuthenticAMD-26-([12467][[:xdigit:]]|[[:xdigit:]])", matched
		 * whole against the model in hex: 0x00-0x2f, 0x40-0x4f,
		 * 0x60-0x7f, the kernel's X86_FEATURE_ZEN5 ranges
		 * (arch/x86/kernel/cpu/amd.c). Every other model of family 0x1a
		 * is perf's amdzen6 ("AuthenticAMD-26-[[:xdigit:]]+").
		 */
		.cpu_model_ranges = { { 0x00, 0x2f }, { 0x40, 0x4f }, { 0x60, 0x7f } },
		.pmu = "cpu",
		.gp_counters = 6,
		.watchdog_counters =
			1, /* the NMI watchdog's cycles take a generic counter: no fixed ones */
		.perf_groups = "PipelineL1,PipelineL2",
		.slots = "total_dispatch_slots",
		.smt_approximate = true,
		.events = zen5_events,
		.nr_events = ARRAY_LEN(zen5_events),
		.metrics = zen5_metrics,
		.nr_metrics = ARRAY_LEN(zen5_metrics),
		.source = SRC_ZEN5,
		.pmu_events = MODEL_PMU_EVENTS_V7_3,
		.verified = "not on hardware",
	},
	{
		.name = "amdzen6",
		.vendor = "AuthenticAMD",
		.family = 0x1a,
		/*
		 * mapfile.csv (v7.3): "AuthenticAMD-26-[[:xdigit:]]+" after
		 * amdzen5's "AuthenticAMD-26-([12467][[:xdigit:]]|[[:xdigit:]])":
		 * every family 0x1a model that is not Zen 5's.
		 */
		.cpu_model_ranges = { { 0x30, 0x3f }, { 0x50, 0x5f }, { 0x80, 0xff } },
		.pmu = "cpu",
		.gp_counters = 6,
		.watchdog_counters = 1,
		.perf_groups = "PipelineL1,PipelineL2",
		.slots = "total_dispatch_slots",
		.smt_approximate = true,
		.events = zen6_events,
		.nr_events = ARRAY_LEN(zen6_events),
		.metrics = zen6_metrics,
		.nr_metrics = ARRAY_LEN(zen6_metrics),
		.source = SRC_ZEN6,
		.pmu_events = MODEL_PMU_EVENTS_V7_3,
		.verified = "not on hardware",
	},
};
const int nr_amd_models = ARRAY_LEN(amd_models);
