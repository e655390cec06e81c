/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMU models as data. One row per (CPU family, PMU): how it is recognised,
 * what it opens (one counting group per CPU of that PMU), and how its
 * counts decode into TopDown levels 1 and 2, as perf's own metric
 * expressions. Model names are perf's tools/perf/pmu-events/arch/x86
 * directory names; metric names are perf's MetricName. Adding a CPU
 * family is adding a row here and its tests: nothing else branches on
 * the model. Pure.
 */
#ifndef TD_MODELS_H
#define TD_MODELS_H

#include <stdbool.h>
#include <linux/types.h>
#include "tdtrace.h"

#define MODEL_MAX_EVENTS  24 /* events of one model, in all its groups */
#define MODEL_MAX_GROUPS  5  /* counting groups per CPU */
#define MODEL_MAX_METRICS 32
#define MODEL_MAX_RANGES  4  /* cpu model ranges of one row */

/*
 * The perf pmu-events version a row's formulas follow (struct pmu_model
 * .pmu_events): its MetricExpr text is that tree's, file by file as the
 * row's .source names them (scripts/check-formulas compares the two).
 */
#define MODEL_PMU_EVENTS_V7_3 "perf v7.3-rc7"

enum model_event_flags {
	MODEL_EV_L2 = 1 << 0,	      /* only needed for level 2 */
	MODEL_EV_CORRECTION = 1 << 1, /* may fail to open: metrics then use their plain form */
	MODEL_EV_FIXED = 1 << 2, /* on a fixed counter, or a PERF_METRICS field: no generic one */
	MODEL_EV_OPTIONAL = 1 << 3, /* dropped first when generic counters are short (the NMI
				       watchdog holds one): the metrics that use it are not shown */
};

/*
 * One event of a model. Events are opened in counting groups, one of each
 * per CPU of the model's PMU: group 0 holds Level 1 and is always opened;
 * further groups hold what does not fit beside it. Within a group the
 * first event in table order is the leader. Groups that do not fit the
 * counters at once are multiplexed by the kernel and scaled by their own
 * enabled and running times, as perf does.
 */
struct model_event {
	const char *name; /* perf's spelling, the key of JSON "counts": "slots",
			     "INT_MISC.UOP_DROPPING" */
	const char
		*alias; /* another name perf's expressions use for it ("TOPDOWN.SLOTS"), or NULL */
	const char
		*sysfs; /* encode from the PMU's events/ file of this name, or NULL: use config */
	__u64 config;	/* raw: event | umask << 8 | edge << 18 | inv << 23 | cmask << 24 (AMD:
			   event bits 11:8 at 35:32) */
	unsigned int flags;
	int group; /* counting group: 0 .. MODEL_MAX_GROUPS - 1 */
};

/* One metric: perf's formula for it, as perf writes it. */
struct model_metric {
	const char *name;   /* "tma_frontend_bound"; level 0 ones only feed the others */
	int level;	    /* 0, 1 or 2 */
	const char *parent; /* level 2: the level-1 node it divides */
	const char *expr;   /* perf's MetricExpr, verbatim but for the PMU prefix */
	const char *plain;  /* the same without MODEL_EV_CORRECTION events; NULL: expr uses none */
	const char *node;   /* the TopDown node it is shown as, the same on every vendor (table
			       column, Prometheus "node" label): "frontend_bound", "fetch_latency";
			       NULL for level 0 */
};

/* Cpu models first .. last, both included: what a mapfile.csv regular expression names. */
struct model_range {
	unsigned char first, last;
};

struct pmu_model {
	const char *name;   /* perf's directory: "icelake", "sapphirerapids", "alderlake" */
	const char *vendor; /* /proc/cpuinfo vendor_id: "GenuineIntel", "AuthenticAMD" */
	int family;	    /* cpu family */
	unsigned char cpu_models[16]; /* cpu models (CPUID), 0-terminated */
	/* and these ranges of them; an entry with last 0 ends the list */
	struct model_range cpu_model_ranges[MODEL_MAX_RANGES];
	int stepping_min, stepping_max; /* steppings it covers (both 0: any) */
	/* arm64: MIDRs as mapfile.csv writes them (variant and revision 0: any), 0-terminated */
	unsigned int midr[4];
	const char *pmu;       /* sysfs PMU: "cpu", "cpu_core" (P-cores), "cpu_atom" (E-cores) */
	const char *core;      /* hybrid: "P-core" or "E-core"; NULL */
	const char *requires;  /* a sysfs events/ name the PMU must have ("slots"), or NULL */
	int gp_counters;       /* generic counters one group may use on this PMU */
	int watchdog_counters; /* generic ones the NMI watchdog's cycles event holds when
				  on: 1 on AMD (no fixed counters), 0 on Intel (fixed) */
	const char *slots;     /* the metric that counts pipeline slots */
	bool percent; /* its level-1/2 metrics are in percent (perf's ScaleUnit "1percent of
			 slots", arm64's "100 * ..."), not fractions ... */
	const char *const *fractions; /* ... but these (ScaleUnit "100%"), NULL-terminated */
	bool smt_approximate;  /* with SMT on, per-task fractions are an approximation */
	const struct model_event *events;
	int nr_events;
	const struct model_metric *metrics;
	int nr_metrics;
	const char *perf_groups; /* perf stat -M for the same metrics: "TopdownL1,TopdownL2" */
	const char *source;	 /* where the formulas come from: "x86/<dir>/<file>.json @ <blob>",
				    git blob hashes, for each file read */
	const char *pmu_events;	 /* the pmu-events version they follow: MODEL_PMU_EVENTS_V7_3 */
	const char *verified;	 /* on which hardware this row was checked, or "not on hardware" */
};

/* The table, one file per vendor: models_intel.c, models_amd.c. */
extern const struct pmu_model intel_models[];
extern const int nr_intel_models;
extern const struct pmu_model amd_models[];
extern const int nr_amd_models;
extern const struct pmu_model arm64_models[];
extern const int nr_arm64_models;

/* The row for this CPU and PMU, or NULL. */
const struct pmu_model *model_find(const char *vendor, int family, int cpu_model, int stepping,
				   const char *pmu);

/*
 * The arm64 row for this MIDR (midr_el1: any variant and revision), or
 * NULL: whatever the core PMU's name ("armv8_pmuv3_0" with ACPI, a device
 * tree's "armv8_neoverse_n2"); its records name the row's .pmu.
 */
const struct pmu_model *model_find_midr(unsigned long long midr);

/* A MIDR without its variant and revision, as mapfile.csv writes them. */
#define MODEL_MIDR_ID(midr) ((unsigned int)((midr) & 0xff0ffff0u))

/* Row @i of the whole table, every vendor's, from 0; NULL past the last. */
const struct pmu_model *model_at(int i);

/* The row of @name on @pmu (NULL: the first of that name), or NULL: for recorded lines. */
const struct pmu_model *model_by_name(const char *name, const char *pmu);

/*
 * A CPU perf knows (mapfile.csv) without TopDown metrics in its
 * pmu-events as of MODEL_NO_TOPDOWN_PERF: no row is guessed for it
 * (models_no_topdown.c).
 */
#define MODEL_NO_TOPDOWN_PERF "v7.3"

struct model_no_topdown {
	const char *name;	     /* perf's directory: "pantherlake" */
	const char *cpu;	     /* "Panther Lake" */
	const char *vendor;	     /* /proc/cpuinfo vendor_id */
	int family;		     /* cpu family */
	unsigned char cpu_models[8]; /* cpu models, 0-terminated */
	unsigned int midr[2];	     /* arm64: mapfile.csv's MIDRs, 0-terminated (vendor "") */
};

/* The entry for this CPU, or NULL. */
const struct model_no_topdown *model_find_no_topdown(const char *vendor, int family, int cpu_model);

/* The arm64 entry for this MIDR (any variant and revision), or NULL. */
const struct model_no_topdown *model_find_no_topdown_midr(unsigned long long midr);

#endif /* TD_MODELS_H */
