/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A PMU as perf describes it in sysfs: its format/ fields, the config words
 * of its events, the CPUs it covers; and what discovery made of it
 * (struct cpu_pmus). Parsing and encoding only: pure.
 */
#ifndef TD_PMU_DESC_H
#define TD_PMU_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "tdtrace.h"

#define PMU_MAX_CPUS   8192
#define PMU_MAX_FORMAT 32

/* One sysfs format/ file: "config:0-7" or "config1:0-3,8-11". */
struct pmu_format_field {
	char name[32];
	int word;   /* 0 = config, 1 = config1, 2 = config2 */
	__u64 mask; /* bits of that word, lowest first */
};

struct pmu_format {
	int nr;
	struct pmu_format_field field[PMU_MAX_FORMAT];
};

/* One event's attr config, encoded from its events/ string. */
struct pmu_event {
	bool present;
	__u64 config[3]; /* config, config1, config2 */
};


#define PMU_MAX_CORE_PMUS TD_MAX_PMUS /* "cpu", "cpu_core", "cpu_atom", "cpu_lowpower" */
#define PMU_MAX_EVENTS	  128 /* events/ entries kept per PMU */

/* One events/ entry, encoded. */
struct pmu_named_event {
	char name[64];
	__u64 config[3]; /* config, config1, config2 */
};

/* One core PMU as sysfs shows it. */
struct core_pmu {
	char name[32]; /* "cpu", "cpu_core", "cpu_atom" */
	__u32 type;    /* perf_event_attr.type */
	struct pmu_format format;
	struct pmu_named_event events[PMU_MAX_EVENTS]; /* those that encoded with format/ */
	int nr_events;
	bool cpus[PMU_MAX_CPUS]; /* online CPUs it covers */
	int nr_cpus;
	/* arm64 ("armv8_*" PMUs) */
	unsigned long long midr; /* midr_el1 of its first CPU, 0 if unknown */
	unsigned int slots;	 /* caps/slots: perf's #slots, 0 if it has none */
};

/* The machine's CPU and its core PMUs, as discovery found them. */
struct cpu_pmus {
	char vendor[32];	     /* /proc/cpuinfo vendor_id, "" if unknown */
	char model_name[128];	     /* "model name" */
	int family, model, stepping; /* -1 if unknown */
	bool hypervisor;	     /* cpuinfo flags has "hypervisor": a guest */
	bool smt_on;		     /* /sys/devices/system/cpu/smt/active is 1 */
	int nmi_watchdog;	     /* /proc/sys/kernel/nmi_watchdog: 1, 0, or -1 if unreadable */
	struct core_pmu pmu[PMU_MAX_CORE_PMUS];
	int nr_pmus;
	char why[256]; /* nr_pmus == 0: why, one line ("no core PMU in ...: a VM without ...") */
};

/* The events/ entry @name of @p, or NULL. */
const struct pmu_named_event *core_pmu_event(const struct core_pmu *p, const char *name);

/* Parse one format/ file's content into @field (name set by caller). 0 or -EINVAL. */
int pmu_parse_format(const char *text, struct pmu_format_field *field);

/*
 * Encode an events/ string ("event=0x00,umask=0x80") with @format into
 * @ev->config. Unknown terms and values that do not fit their field are
 * errors: returns -EINVAL and writes a one-line reason to @err.
 */
int pmu_encode_event(const char *text, const struct pmu_format *format, struct pmu_event *ev,
		     char *err, size_t errlen);

/* Parse a cpu list ("0-3,8,10-11\n") into @cpus[0..max). Returns the count or -EINVAL. */
int pmu_parse_cpu_list(const char *text, bool *cpus, int max);

/* Format @cpus[0..max) as "0-3,8" into @buf. Returns the count, or -ENOSPC if cut short. */
int pmu_format_cpu_list(const bool *cpus, int max, char *buf, size_t size);

/* Copy the value of a /proc/cpuinfo line "key<blanks>: value" into @out if @line has @key. */
bool pmu_cpuinfo_value(const char *line, const char *key, char *out, size_t size);

/*
 * An arm64 MIDR from /proc/cpuinfo's "CPU implementer", "CPU variant",
 * "CPU part" and "CPU revision" (the architecture field 0xf: ARMv8 and on,
 * which cpuinfo prints as "CPU architecture: 8").
 */
unsigned long long pmu_midr(unsigned int implementer, unsigned int variant, unsigned int part,
			    unsigned int revision);

/* A PMU's type file: a decimal number that fits __u32. 0 or -EINVAL. */
int pmu_parse_type(const char *text, __u32 *type);

#endif /* TD_PMU_DESC_H */
