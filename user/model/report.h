/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One interval (or the whole run) ready to print: rows named and decoded,
 * sorted by slots. Built from a snapshot; printed by output/table.c and
 * output/json.c.
 */
#ifndef TD_REPORT_H
#define TD_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "model/cgroup_rows.h"
#include "model/cgroup_names.h"
#include "model/counters.h"
#include "model/decode.h"
#include "model/regions.h"
#include "model/snapshot.h"

/* One BPF program's cost over the run, from the kernel's run-time stats (--self-stats). */
struct prog_cost {
	char name[32];	/* as bpftool shows it: td_switch, td_flush, ... */
	bool on_switch; /* it charges switches: td_switch, or td_cgroup_switch and td_idle */
	unsigned long long runs, ns;
};

#define TD_MAX_PROG_COSTS 16

struct row {
	const struct td_counts *c;     /* what the row shows: a cgroup's whole subtree */
	const struct td_counts *self;  /* cgroups: charged to this row only */
	const struct container *label; /* cgroups with --containers, else NULL */
	const struct k8s_meta *k8s;    /* cgroups: Kubernetes names, NULL if none */
	struct td_metrics m;
	__u64 cgroup_id;
	const char *cgroup;		/* path under the v2 mount, NULL if unknown */
	const struct task_sample *task; /* task rows only */
	bool idle;			/* the idle tasks, or their pseudo cgroup */
};

/* What a report shows: fixed for the run, from the options and the plan. */
struct report_config {
	const struct counter_set *counters;
	const struct td_decoding *decoding; /* how counts become TopDown fractions */
	bool smt_on;			    /* perf's #SMT_on, recorded for tdtrace report */
	/* arm64, recorded for tdtrace report: perf's #slots (caps/slots) and its cpuid */
	unsigned int slots_per_cycle;
	const char *cpuid; /* midr_el1 as perf writes it, "0x00000000410fd493"; NULL: none */
	const char *pmu; /* hybrid parts: which core PMU ("cpu_atom"); else NULL */
	bool per_thread;
	bool filtered;	 /* -c, -p or COMMAND: only some tasks are traced */
	bool per_cgroup; /* no task rows */
	const struct cgroup_rows_opts *cgroup_opts; /* NULL: every cgroup, any depth */
	unsigned int limit; /* keep only the largest rows of each table (0: all) */
	bool self_stats;    /* the summary says what tdtrace's BPF programs cost */
	bool regions; /* --region or --usdt: the system line says what regions lost */
};

/* One region in one process and cgroup (model/regions.h), named and decoded. */
struct region_line {
	const struct region_row *src;
	const char *name;   /* BINARY:SYMBOL as given, or the marker's name */
	const char *cgroup; /* path under the v2 mount, NULL if unknown */
	struct td_metrics m;
};

/* What was measured in one interval, or in the whole run. */
struct report {
	const struct report_config *cfg;
	bool summary;	       /* whole run rather than one interval */
	unsigned int interval; /* 1-based index; in the summary, intervals printed */
	double timestamp;      /* wall clock at the end, unix seconds */
	double duration_s;     /* time covered */
	double elapsed_s;      /* since tdtrace started counting */
	int nr_cpus;	       /* CPUs counted */
	const struct td_cpu_totals *totals;
	bool conserved;		  /* entries + overflow + untraced == totals (entries_conserved) */
	struct td_metrics system; /* all CPUs together */
	struct row *tasks;	  /* by slots, largest first */
	size_t nr_tasks;
	struct row *cgroups;
	size_t nr_cgroups;
	struct cgroup_row *cgroup_rows; /* what cgroups[] points into */
	size_t nr_cgroup_rows;
	const struct td_counts *idle; /* the idle tasks' counts, NULL if none */
	/* -c cgroups removed while tdtrace ran (paths), in the order given */
	const char *removed[TD_MAX_CGROUP_FILTERS];
	int nr_removed;
	/* summary with cfg->self_stats: each BPF program that ran, its runs and time */
	struct prog_cost self[TD_MAX_PROG_COSTS];
	int nr_self;
	struct region_line *regions; /* by region id, then process and cgroup */
	size_t nr_regions;
};

/* Build @r from @s; @r points into @s, which must outlive it. 0 or -ENOMEM. */
int report_build(struct report *r, const struct snapshot *s, const struct cgroup_names *names);

/*
 * @r's region lines: @s's rows counted on core PMU @pmu (-1: all), named
 * and decoded as the process rows are. 0 or -ENOMEM.
 */
int report_regions(struct report *r, const struct region_set *s, int pmu,
		   const struct cgroup_names *names);

void report_free(struct report *r);

/*
 * --self-stats: runs and time summed over every program (@on_switch: those
 * on switches only). Inline: the writers use it without the rest of report.c.
 */
static inline void report_self_sum(const struct report *r, bool on_switch,
				   unsigned long long *runs, unsigned long long *ns)
{
	*runs = *ns = 0;
	for (int i = 0; i < r->nr_self; i++) {
		if (on_switch && !r->self[i].on_switch)
			continue;
		*runs += r->self[i].runs;
		*ns += r->self[i].ns;
	}
}

#endif /* TD_REPORT_H */
