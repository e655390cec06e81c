// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 rows of the PMU model table (see models.h): Arm Neoverse N2/V2
 * ("neoverse-n2-v2"), V1, N3 and V3, NVIDIA t410, AmpereOne, AmpereOneX
 * and HiSilicon hip08, perf's TopdownL1 (and TopdownL2 where perf has it)
 * metrics as data.
 *
 * perf's arm64 metrics are sbsa.json's four (frontend_bound,
 * bad_speculation, retiring, backend_bound), which a model's metrics.json
 * pulls in by ArchStdEvent and may replace by its own MetricExpr. They
 * are in percent (ScaleUnit "1percent of slots": pmu_model.percent),
 * from STALL_SLOT_FRONTEND/BACKEND, STALL_SLOT, OP_SPEC, OP_RETIRED and
 * CPU_CYCLES times the core's slots per cycle: perf's #slots (the core
 * PMU's caps/slots, recorded as slots_per_cycle) or the width the model's
 * text writes (8 on V1's own formulas, 5 on N3, 10 on V3). N2 before r0p3
 * counts one STALL_SLOT per cycle too many: perf tests the MIDR
 * (strcmp_cpuid_str, recorded as cpuid).
 *
 * Event numbers are the Arm architecture's common events, perf's
 * common-and-microarch.json: the PMU's config is the event number. Every
 * event is in group 0 (Level 1 only): CPU_CYCLES on the cycle counter,
 * six on the generic ones. The NMI watchdog (arm64's perf hardlockup
 * detector) holds the cycle counter with its own CPU_CYCLES: tdtrace's
 * then needs a generic one (watchdog_counters 1).
 *
 * No row here has run on its hardware.
 */
#include <stddef.h>
#include "model/models.h"

#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Where a row's text comes from: perf v7.3-rc7's tools/perf/pmu-events/arch/. */
/* clang-format off */
#define SRC_FILE(file, blob) "arm64/" file " @ " blob
#define SRC_ARM(dir, blob)                                                                         \
	"perf v7.3-rc7 tools/perf/pmu-events/arch/" SRC_FILE(dir "/metrics.json", blob)           \
	", " SRC_FILE("sbsa.json", "4eed79a28f6e")                                                 \
	", events: " SRC_FILE("common-and-microarch.json", "144325d87be4")                         \
	", " SRC_FILE("mapfile.csv", "7f0eaa702048")
/* clang-format on */

/* common-and-microarch.json's EventCode of each */
#define EV(name_, code_, ...)                                                                      \
	{                                                                                          \
		.name = name_, .config = code_, __VA_ARGS__                                        \
	}
#define EV_CPU_CYCLES		EV("CPU_CYCLES", 0x11, .flags = MODEL_EV_FIXED)
#define EV_STALL_SLOT_BACKEND	EV("STALL_SLOT_BACKEND", 0x3d)
#define EV_STALL_SLOT_FRONTEND	EV("STALL_SLOT_FRONTEND", 0x3e)
#define EV_STALL_SLOT		EV("STALL_SLOT", 0x3f)
#define EV_OP_RETIRED		EV("OP_RETIRED", 0x3a)
#define EV_OP_SPEC		EV("OP_SPEC", 0x3b)
#define EV_BR_MIS_PRED		EV("BR_MIS_PRED", 0x10)
#define EV_STALL_FRONTEND_FLUSH EV("STALL_FRONTEND_FLUSH", 0x8162)

/* A level-1 metric in percent; the row's slots, a level-0 helper perf has not. */
#define L1(name_, expr_)                                                                           \
	{                                                                                          \
		name_, 1, NULL, expr_, NULL, name_                                                 \
	}
#define SLOTS(expr_)                                                                               \
	{                                                                                          \
		"total_slots", 0, NULL, expr_, NULL, NULL                                          \
	}

/* sbsa.json's, for the metrics a model's metrics.json does not replace. */
#define SBSA_RETIRING                                                                              \
	L1("retiring", "100 * ((op_retired / op_spec) * (1 - stall_slot / (#slots * "              \
		       "cpu_cycles)))")
#define SBSA_BACKEND_BOUND L1("backend_bound", "100 * (stall_slot_backend / (#slots * cpu_cycles))")

static const struct model_event neoverse_events[] = {
	EV_CPU_CYCLES, EV_STALL_SLOT_BACKEND, EV_STALL_SLOT_FRONTEND, EV_STALL_SLOT, EV_OP_RETIRED,
	EV_OP_SPEC,    EV_BR_MIS_PRED,
};

/* perf's arm/neoverse-n2-v2/metrics.json, MetricExpr verbatim (JSON string unescaped). */
/* clang-format off */
static const struct model_metric n2_metrics[] = {
	SLOTS("CPU_CYCLES * #slots"),
	L1("frontend_bound",
	   "(100 * ((((STALL_SLOT_FRONTEND) if (strcmp_cpuid_str(0x410fd493) | strcmp_cpuid_str(0x410fd490) ^ 1) else (STALL_SLOT_FRONTEND - CPU_CYCLES)) / (CPU_CYCLES * #slots)) - (BR_MIS_PRED / CPU_CYCLES)))"),
	L1("bad_speculation",
	   "(100 * (((1 - (OP_RETIRED / OP_SPEC)) * (1 - (((STALL_SLOT) if (strcmp_cpuid_str(0x410fd493) | strcmp_cpuid_str(0x410fd490) ^ 1) else (STALL_SLOT - CPU_CYCLES)) / (CPU_CYCLES * #slots)))) + ((BR_MIS_PRED * 4) / CPU_CYCLES)))"),
	L1("retiring",
	   "(100 * ((OP_RETIRED / OP_SPEC) * (1 - (((STALL_SLOT) if (strcmp_cpuid_str(0x410fd493) | strcmp_cpuid_str(0x410fd490) ^ 1) else (STALL_SLOT - CPU_CYCLES)) / (CPU_CYCLES * #slots)))))"),
	L1("backend_bound",
	   "(100 * ((STALL_SLOT_BACKEND / (CPU_CYCLES * #slots)) - ((BR_MIS_PRED * 3) / CPU_CYCLES)))"),
};

/* perf's arm/neoverse-v1/metrics.json; retiring and backend_bound are sbsa.json's. */
static const struct model_metric v1_metrics[] = {
	SLOTS("CPU_CYCLES * #slots"),
	L1("frontend_bound",
	   "(100 * ((STALL_SLOT_FRONTEND / (CPU_CYCLES * 8)) - ((BR_MIS_PRED * 4) / CPU_CYCLES)))"),
	L1("bad_speculation",
	   "(100 * (((1 - (OP_RETIRED / OP_SPEC)) * (1 - (STALL_SLOT / (CPU_CYCLES * 8)))) + ((BR_MIS_PRED * 4) / CPU_CYCLES)))"),
	SBSA_RETIRING,
	SBSA_BACKEND_BOUND,
};
/* clang-format on */

/* N3 and V3: the frontend's flush stalls in place of BR_MIS_PRED. */
static const struct model_event neoverse_flush_events[] = {
	EV_CPU_CYCLES,		 EV_STALL_SLOT_BACKEND, EV_STALL_SLOT_FRONTEND,
	EV_STALL_SLOT,		 EV_OP_RETIRED,		EV_OP_SPEC,
	EV_STALL_FRONTEND_FLUSH,
};

/* perf's arm/neoverse-n3/metrics.json (@width 5) and -v3 (10); the rest sbsa.json's. */
/* clang-format off */
#define FLUSH_METRICS(width)                                                                       \
	SLOTS("CPU_CYCLES * #slots"),                                                              \
	L1("frontend_bound",                                                                       \
	   "(STALL_SLOT_FRONTEND / (" width " * CPU_CYCLES) - STALL_FRONTEND_FLUSH / CPU_CYCLES) * 100"), \
	L1("bad_speculation",                                                                      \
	   "(1 - STALL_SLOT / (" width " * CPU_CYCLES)) * (1 - OP_RETIRED / OP_SPEC) * 100 + STALL_FRONTEND_FLUSH / CPU_CYCLES * 100"), \
	SBSA_RETIRING,                                                                             \
	SBSA_BACKEND_BOUND
/* clang-format on */
static const struct model_metric n3_metrics[] = { FLUSH_METRICS("5") };
static const struct model_metric v3_metrics[] = { FLUSH_METRICS("10") };

/*
 * NVIDIA t410: its own CPU_SLOT (slots, not cycles) and frontend stalls
 * without mispredicts, its nvidia/t410/general.json and stall.json
 * events; no CPU_CYCLES, so the watchdog's cycle counter is not ours.
 */
static const struct model_event t410_events[] = {
	EV("CPU_SLOT", 0x01e1),
	EV_STALL_SLOT_BACKEND,
	EV("STALL_SLOT_FRONTEND_WITHOUT_MISPRED", 0x01e2),
	EV_STALL_SLOT,
	EV_OP_RETIRED,
	EV_OP_SPEC,
};

/* perf's nvidia/t410/metrics.json; bad_speculation is what the others leave. */
static const struct model_metric t410_metrics[] = {
	SLOTS("CPU_SLOT"),
	L1("frontend_bound", "100 * (STALL_SLOT_FRONTEND_WITHOUT_MISPRED / CPU_SLOT)"),
	L1("retiring", "100 * ((OP_RETIRED/OP_SPEC) * (1 - (STALL_SLOT/CPU_SLOT)))"),
	L1("backend_bound", "100 * (STALL_SLOT_BACKEND / CPU_SLOT)"),
	L1("bad_speculation", "100 - (frontend_bound + retiring + backend_bound)"),
};

/*
 * HiSilicon hip08 (TaiShan v110): fractions, 4 slots per cycle written in
 * the text; its own events from hisilicon/hip08/core-imp-def.json, and
 * raw ones perf writes armv8_pmuv3_0@event\=0x201d@, counted as
 * "event=0x201d". Level 2 in group 1, which the kernel multiplexes with
 * group 0 (nine generic events for six counters).
 */
#define EV_L2(name_, code_) EV(name_, code_, .flags = MODEL_EV_L2, .group = 1)
static const struct model_event hip08_events[] = {
	EV_CPU_CYCLES,
	EV("FETCH_BUBBLE", 0x2014),
	EV("INST_SPEC", 0x1b),
	EV("INST_RETIRED", 0x08),
	EV_L2("event=0x201d", 0x201d),
	EV_L2("BR_MIS_PRED", 0x10),
	EV_L2("event=0x2013", 0x2013),
	EV_L2("EXE_STALL_CYCLE", 0x7001),
	EV_L2("MEM_STALL_ANYLOAD", 0x7004),
	EV_L2("event=0x7005", 0x7005),
};

/* perf's hisilicon/hip08/metrics.json, MetricExpr verbatim (JSON string unescaped). */
#define HIP08_L1(name_, expr_)                                                                     \
	{                                                                                          \
		name_, 1, NULL, expr_, NULL, name_                                                 \
	}
#define HIP08_L2(name_, parent_, expr_, node_)                                                     \
	{                                                                                          \
		name_, 2, parent_, expr_, NULL, node_                                              \
	}
static const struct model_metric hip08_metrics[] = {
	SLOTS("CPU_CYCLES * 4"),
	HIP08_L1("frontend_bound", "FETCH_BUBBLE / (4 * CPU_CYCLES)"),
	HIP08_L1("bad_speculation", "(INST_SPEC - INST_RETIRED) / (4 * CPU_CYCLES)"),
	HIP08_L1("retiring", "INST_RETIRED / (CPU_CYCLES * 4)"),
	HIP08_L1("backend_bound", "1 - (frontend_bound + bad_speculation + retiring)"),
	HIP08_L2("fetch_latency_bound", "frontend_bound",
		 "armv8_pmuv3_0@event\\=0x201d@ / CPU_CYCLES", "fetch_latency"),
	HIP08_L2("fetch_bandwidth_bound", "frontend_bound", "frontend_bound - fetch_latency_bound",
		 "fetch_bandwidth"),
	HIP08_L2("branch_mispredicts", "bad_speculation",
		 "(bad_speculation * BR_MIS_PRED) / (BR_MIS_PRED + armv8_pmuv3_0@event\\=0x2013@)",
		 "branch_mispredicts"),
	HIP08_L2("machine_clears", "bad_speculation", "bad_speculation - branch_mispredicts",
		 "machine_clears"),
	HIP08_L2("core_bound", "backend_bound",
		 "(EXE_STALL_CYCLE - (MEM_STALL_ANYLOAD + armv8_pmuv3_0@event\\=0x7005@)) / "
		 "CPU_CYCLES",
		 "core_bound"),
	HIP08_L2("memory_bound", "backend_bound",
		 "(MEM_STALL_ANYLOAD + armv8_pmuv3_0@event\\=0x7005@) / CPU_CYCLES",
		 "memory_bound"),
};

/* clang-format off */
#define SRC_HIP08                                                                                  \
	"perf v7.3-rc7 tools/perf/pmu-events/arch/" SRC_FILE("hisilicon/hip08/metrics.json", "b6a0d2de8534") \
	", events: " SRC_FILE("hisilicon/hip08/core-imp-def.json", "a4a6408639b4")                \
	", " SRC_FILE("common-and-microarch.json", "144325d87be4")                                 \
	", " SRC_FILE("mapfile.csv", "7f0eaa702048")
/* clang-format on */

/*
 * AmpereOne and AmpereOneX: perf's own level 1 (retired_fraction and
 * slots_lost_misspeculation_fraction, shown as retiring and
 * bad_speculation), sbsa.json's backend_bound and frontend_bound the
 * rest; level 2 (TopdownL2) from the core's events in two more groups,
 * which the kernel multiplexes. backend_memory and backend_core (and on
 * AmpereOneX frontend_latency) are fractions in perf (ScaleUnit "100%").
 * perf's pipe_utilization (TopdownL2) is no TopDown node: left out.
 * Events: ampere/<dir>/core-imp-def.json, pipeline.json (AmpereOneX's
 * STALL_BACKEND_TLB), common-and-microarch.json.
 */
#define EV_G(name_, code_, group_) EV(name_, code_, .flags = MODEL_EV_L2, .group = group_)
#define AMPERE_EVENTS(backend_tlb)                                                                 \
	EV_CPU_CYCLES, EV_OP_SPEC, EV_OP_RETIRED, EV_STALL_SLOT_BACKEND,                           \
		EV_G("STALL_BACKEND_TLB", backend_tlb, 1), EV_G("STALL_BACKEND_CACHE", 0xd20d, 1), \
		EV_G("BR_MIS_PRED_RETIRED", 0x22, 1), EV_G("GPC_FLUSH", 0x120, 1),                 \
		EV_G("STALL_FRONTEND", 0x23, 2), EV_G("STALL_SLOT_FRONTEND", 0x3e, 2)
static const struct model_event ampereone_events[] = { AMPERE_EVENTS(0xd20e) };
static const struct model_event ampereonex_events[] = { AMPERE_EVENTS(0x8167) };

#define AMPERE_L1(name_, expr_, node_)                                                             \
	{                                                                                          \
		name_, 1, NULL, expr_, NULL, node_                                                 \
	}
#define AMPERE_L2(name_, parent_, expr_, node_)                                                    \
	{                                                                                          \
		name_, 2, parent_, expr_, NULL, node_                                              \
	}
/* perf's ampere/<dir>/metrics.json, MetricExpr verbatim; frontend_latency and the rest differ. */
#define AMPERE_METRICS(misspec, retired, fe_latency, fe_bandwidth)                                 \
	SLOTS("CPU_CYCLES * #slots"),                                                              \
		AMPERE_L1("slots_lost_misspeculation_fraction", misspec, "bad_speculation"),       \
		AMPERE_L1("retired_fraction", retired, "retiring"), SBSA_BACKEND_BOUND,            \
		AMPERE_L1("frontend_bound",                                                        \
			  "100 - (retired_fraction + slots_lost_misspeculation_fraction + "        \
			  "backend_bound)",                                                        \
			  "frontend_bound"),                                                       \
		AMPERE_L2("backend_memory", "backend_bound",                                       \
			  "(STALL_BACKEND_TLB + STALL_BACKEND_CACHE) / CPU_CYCLES",                \
			  "memory_bound"),                                                         \
		AMPERE_L2("backend_core", "backend_bound",                                         \
			  "(backend_bound / 100) - backend_memory", "core_bound"),                 \
		AMPERE_L2(                                                                         \
			"branch_mispredict", "slots_lost_misspeculation_fraction",                 \
			"(BR_MIS_PRED_RETIRED / GPC_FLUSH) * slots_lost_misspeculation_fraction",  \
			"branch_mispredicts"),                                                     \
		AMPERE_L2("other_miss_pred", "slots_lost_misspeculation_fraction",                 \
			  "slots_lost_misspeculation_fraction - branch_mispredict",                \
			  "machine_clears"),                                                       \
		AMPERE_L2("frontend_latency", "frontend_bound", fe_latency, "fetch_latency"),      \
		AMPERE_L2("frontend_bandwidth", "frontend_bound", fe_bandwidth, "fetch_bandwidth")
/* clang-format off */
static const struct model_metric ampereone_metrics[] = { AMPERE_METRICS(
	"100 * ((OP_SPEC - OP_RETIRED) / (CPU_CYCLES * #slots))",
	"100 * (OP_RETIRED / (CPU_CYCLES * #slots))",
	"((STALL_FRONTEND - ((STALL_SLOT_FRONTEND - ((frontend_bound / 100) * CPU_CYCLES * #slots)) / #slots)) / CPU_CYCLES) * 100",
	"frontend_bound - frontend_latency") };
static const struct model_metric ampereonex_metrics[] = { AMPERE_METRICS(
	"100 * (OP_SPEC - OP_RETIRED) / (CPU_CYCLES * #slots)",
	"100 * OP_RETIRED / (CPU_CYCLES * #slots)",
	"(STALL_FRONTEND - ((STALL_SLOT_FRONTEND - ((frontend_bound / 100) * CPU_CYCLES * #slots)) / #slots)) / CPU_CYCLES",
	"frontend_bound - 100 * frontend_latency") };
/* clang-format on */
static const char *const ampereone_fractions[] = { "backend_memory", "backend_core", NULL };
static const char *const ampereonex_fractions[] = { "backend_memory", "backend_core",
						    "frontend_latency", NULL };

/* clang-format off */
#define SRC_AMPERE(dir, metrics, imp_def, pipeline)                                                \
	"perf v7.3-rc7 tools/perf/pmu-events/arch/" SRC_FILE("ampere/" dir "/metrics.json", metrics) \
	", " SRC_FILE("sbsa.json", "4eed79a28f6e")                                                 \
	", events: " SRC_FILE("ampere/" dir "/core-imp-def.json", imp_def)                         \
	", " SRC_FILE("ampere/" dir "/pipeline.json", pipeline)                                    \
	", " SRC_FILE("common-and-microarch.json", "144325d87be4")                                 \
	", " SRC_FILE("mapfile.csv", "7f0eaa702048")
/* clang-format on */

#define AMPERE_ROW(name_, midr_, events_, metrics_, fractions_, src)                               \
	{                                                                                          \
		.name = name_, .vendor = "", .midr = { midr_ }, .pmu = "armv8_pmuv3_0",            \
		.gp_counters = 6, .watchdog_counters = 1, .slots = "total_slots", .percent = true, \
		.fractions = fractions_, .events = events_, .nr_events = ARRAY_LEN(events_),       \
		.metrics = metrics_, .nr_metrics = ARRAY_LEN(metrics_),                            \
		.perf_groups = "TopdownL1,TopdownL2", .source = src,                               \
		.pmu_events = MODEL_PMU_EVENTS_V7_3, .verified = "not on hardware",                \
	}

/* clang-format off */
#define SRC_T410                                                                                   \
	"perf v7.3-rc7 tools/perf/pmu-events/arch/" SRC_FILE("nvidia/t410/metrics.json", "59474ccb7417") \
	", events: " SRC_FILE("nvidia/t410/general.json", "bd9c248387aa")                          \
	", " SRC_FILE("nvidia/t410/stall.json", "92d9e0866c24")                                    \
	", " SRC_FILE("common-and-microarch.json", "144325d87be4")                                 \
	", " SRC_FILE("mapfile.csv", "7f0eaa702048")
/* clang-format on */

#define ARM_ROW(name_, events_, metrics_, watchdog, src, ...)                                      \
	{                                                                                          \
		.name = name_, .vendor = "", .midr = { __VA_ARGS__ }, .pmu = "armv8_pmuv3_0",      \
		.gp_counters = 6, .watchdog_counters = watchdog, .slots = "total_slots",           \
		.percent = true, .events = events_, .nr_events = ARRAY_LEN(events_),               \
		.metrics = metrics_, .nr_metrics = ARRAY_LEN(metrics_),                            \
		.perf_groups = "TopdownL1", .source = src, .pmu_events = MODEL_PMU_EVENTS_V7_3,    \
		.verified = "not on hardware",                                                     \
	}

/*
 * The MIDRs are mapfile.csv's (variant and revision 0: any revision).
 * watchdog_counters 1 where the row counts CPU_CYCLES: the watchdog's
 * takes the cycle counter, and ours a generic one.
 */
const struct pmu_model arm64_models[] = {
	/* N2 0xd49, V2 0xd4f */
	ARM_ROW("neoverse-n2-v2", neoverse_events, n2_metrics, 1,
		SRC_ARM("arm/neoverse-n2-v2", "97d352f94323"), 0x410fd490, 0x410fd4f0),
	ARM_ROW("neoverse-v1", neoverse_events, v1_metrics, 1,
		SRC_ARM("arm/neoverse-v1", "3fd8fefec46a"), 0x410fd400),
	ARM_ROW("neoverse-n3", neoverse_flush_events, n3_metrics, 1,
		SRC_ARM("arm/neoverse-n3", "eb3a35f244e7"), 0x410fd8e0),
	ARM_ROW("neoverse-v3", neoverse_flush_events, v3_metrics, 1,
		SRC_ARM("arm/neoverse-v3", "4a671f55eaf3"), 0x410fd830),
	ARM_ROW("t410", t410_events, t410_metrics, 0, SRC_T410, 0x4e0f0100),
	AMPERE_ROW("ampereone", 0xc00fac30, ampereone_events, ampereone_metrics,
		   ampereone_fractions,
		   SRC_AMPERE("ampereone", "324104438e78", "879ff21e0b17", "711028377f3e")),
	AMPERE_ROW("ampereonex", 0xc00fac40, ampereonex_events, ampereonex_metrics,
		   ampereonex_fractions,
		   SRC_AMPERE("ampereonex", "a29aadc9b2e3", "eb5a2208d260", "2fb2d1f183fc")),
	{
		.name = "hip08",
		.vendor = "",
		.midr = { 0x480fd010 },
		.pmu = "armv8_pmuv3_0",
		.gp_counters = 6,
		.watchdog_counters = 1,
		.slots = "total_slots",
		.events = hip08_events,
		.nr_events = ARRAY_LEN(hip08_events),
		.metrics = hip08_metrics,
		.nr_metrics = ARRAY_LEN(hip08_metrics),
		.perf_groups = "TopdownL1,TopdownL2",
		.source = SRC_HIP08,
		.pmu_events = MODEL_PMU_EVENTS_V7_3,
		.verified = "not on hardware",
	},
};

const int nr_arm64_models = ARRAY_LEN(arm64_models);
