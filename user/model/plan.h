/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plan: from what the user asked and what the machine has, what to count
 * (the counter set) and where (the CPUs). Pure: no syscalls.
 */
#ifndef TD_PLAN_H
#define TD_PLAN_H

#include <stdbool.h>
#include <stdio.h>
#include "cli/options.h"
#include "model/pmu_desc.h"
#include "model/counters.h"
#include "model/counts.h"

/* What one core PMU counts, and where. */
struct pmu_plan {
	char pmu[32];		     /* "cpu", "cpu_core", "cpu_atom"; "software" with --software */
	const char *core;	     /* "P-core", "E-core", or NULL */
	struct counter_set counters; /* the groups opened on each of its CPUs */
	bool cpus[PMU_MAX_CPUS];     /* online CPUs it covers */
	int nr_cpus;
	unsigned long long midr; /* arm64: its CPUs' MIDR (the records' cpuid), 0 if none */
	unsigned int slots;	 /* arm64: caps/slots (the records' slots_per_cycle) */
};

/* What sizes the entry map: the machine at start (0: unknown). */
struct machine_size {
	unsigned long threads;	      /* tasks running now (/proc/loadavg) */
	unsigned long processes;      /* processes now (/proc), 0: not counted */
	unsigned long pid_max;	      /* /proc/sys/kernel/pid_max */
	unsigned long long mem_bytes; /* MemTotal */
};

struct plan {
	bool cpus[PMU_MAX_CPUS];  /* where to open counters: CPUs of some planned PMU */
	unsigned int max_entries; /* (task, cgroup) entries the BPF map holds */
	unsigned int entry_bytes; /* each one's value in td_vals (plan_entry_bytes) */
	unsigned int hash_bytes;  /* and its share of the hash and the rest, about */
	char map_note[256];	  /* how max_entries was chosen, for --probe */

	/* By core PMU (plan_models): hybrid machines have one per core type. */
	struct pmu_plan pmus[PMU_MAX_CORE_PMUS];
	int nr_pmus;
	signed char pmu_of[PMU_MAX_CPUS]; /* index into pmus[] of each CPU, -1: not counted */
	bool smt_on;
	/* How much of every count the run fills: the widest PMU's counters and groups. */
	struct td_width width;
	char notes[PMU_MAX_CORE_PMUS][300]; /* core PMUs left out, and why ("cpu_atom CPUs 16-23:
					       no TopDown model for ...") */
	int nr_notes;
};

/*
 * The counters of each core PMU in @cpu, from its model (models.h), or
 * cpu-clock on every online CPU with --software. A PMU without a model,
 * or whose model cannot be opened, is left out, its CPUs named in
 * p->notes and on @err; with none left, says why and what to do on @err
 * (NULL: quiet, for --probe) and returns
 * -ENODEV (a usage error, exit 2). A bad --test-members list: -EINVAL.
 */
int plan_models(const struct options *o, const struct cpu_pmus *cpu, const bool *online,
		struct plan *p, FILE *err);

/*
 * The bytes of one entry's value: the counts of the run's width, in two
 * halves (td_entry_bytes in tdtrace.h), with times unless --software.
 */
unsigned int plan_entry_bytes(const struct plan *p);

/*
 * The entry map's size without --max-tasks (or --max-cgroups): 4 entries
 * per thread running at start (processes churn and move between cgroups),
 * at most 2 per pid_max (no more tasks are alive at once), at least
 * 10240, at most 1% of memory and 4000000; said in p->map_note with the
 * bytes of an entry (p->entry_bytes, p->hash_bytes). After the run's width
 * is known (replan_widen).
 */
void plan_map_size(const struct options *o, const struct machine_size *sz, struct plan *p);

/*
 * --listen: connections the exporter's HTTP server may hold at once, most
 * of them closing (it keeps 16 live; see exporter/http.c).
 */
#define EXPORTER_FILES 256

/*
 * File descriptors the run will hold: a counter per event per CPU, the
 * cgroup-switch trigger per CPU, -p's pidfds, the exporter's connections,
 * and room for the BPF object's maps, programs and links, stdio and -o.
 */
unsigned long plan_files(const struct plan *p, const struct options *o);

#endif /* TD_PLAN_H */
