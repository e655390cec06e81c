/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Open and BPF attribute: the per-CPU counter groups, the BPF object
 * (open -> configure -> load -> fill the perf event array -> attach), and
 * the collector that reads what it charged.
 */
#ifndef TD_TRACER_H
#define TD_TRACER_H

#include <stdbool.h>
#include "cli/options.h"
#include "host/targets.h"
#include "model/entries.h"
#include "model/plan.h"
#include "model/report.h"
#include "tracer/collect.h"
#include "tracer/perf_open.h"
#include "tracer/regions.h"

struct tdtrace;
struct bpf_link;

struct tracer {
	struct tdtrace *skel;
	struct cpu_groups groups[TD_MAX_PMUS]; /* the counters of each core PMU, on its CPUs */
	int nr_pmus;
	struct cpu_groups cgroup_switches; /* --per-cgroup alone: the trigger events */
	struct bpf_link **cgsw_links;
	bool on_cgroup_switch; /* charged at cgroup switches, not at every sched_switch */
	bool *cpus;	       /* [PMU_MAX_CPUS]: CPUs counted (the collector drops offline ones) */
	signed char *pmu_of;   /* [PMU_MAX_CPUS]: each counted CPU's PMU (plan's index), else -1 */
	struct collector coll;
	struct slot_packing packing; /* how each entry's counts are packed (td_entry_bytes) */
	int stats_fd;		     /* --self-stats: BPF run-time stats stay on while it is open */
	struct tracer_regions regions; /* --region: resolved before tracer_open, which keeps them */
};

#define TRACER_INIT                                                                                \
	{                                                                                          \
		.stats_fd = -1                                                                     \
	}

/*
 * Open @p's counters on its CPUs, load the BPF programs configured for
 * @o and @t, fill their maps and start counting; -p processes are traced
 * from here on. Nothing is attached yet. Prints a one-line error; 0 or -errno.
 */
int tracer_open(struct tracer *tr, const struct options *o, const struct plan *p,
		const struct targets *t);

/*
 * Trace one more process (COMMAND, before it is released); nothing if
 * @tgid is not a PID. Prints a one-line error; 0 or -errno.
 */
int tracer_follow(struct tracer *tr, pid_t tgid);

/*
 * Attach the programs: charging starts. The first read of the maps,
 * taken just after, is @tl's baseline. Prints a one-line error; 0 or -errno.
 */
int tracer_attach(struct tracer *tr, struct tally *tl);

/* Say on stderr what is counted, where, and how to stop. */
void tracer_announce(const struct tracer *tr, const struct plan *p, bool per_thread);

/*
 * Read what was charged since the last call: @tl's interval delta and
 * running total move on one step, and exited entries already counted
 * leave the BPF map. Prints a one-line error; 0 or -errno.
 */
int tracer_collect(struct tracer *tr, struct tally *tl);

/*
 * CPU hotplug, given the CPUs @online now and those @changed (NULL: not
 * known) since the last call: a CPU gone offline is said once and no
 * longer counted; one that came (back) online gets its PMU's counters
 * opened afresh and is counted from then on, said once.
 */
void tracer_hotplug(struct tracer *tr, const struct plan *p, const bool *online,
		    const bool *changed);

/*
 * The NMI watchdog changed and PMU @k's counters are re-planned
 * (model/replan.h): tracer_pause() stops charging on its CPUs (what runs
 * until tracer_replan() is not counted), tracer_replan() opens @set there
 * in place of @was's counters and charges again, @set's slots as its
 * layout. A CPU whose new counters fail to open is said once and no
 * longer counted.
 */
void tracer_pause(struct tracer *tr, int k);
void tracer_replan(struct tracer *tr, int k, const struct counter_set *was,
		   const struct counter_set *set);

/*
 * --wait-cgroup: a -c cgroup created or removed (t->changed): the program
 * filters by the new ids from now on.
 */
void tracer_retarget(struct tracer *tr, struct targets *t);

/* Stop charging; the counters stay open for a last tracer_collect(). */
void tracer_detach(struct tracer *tr);

/*
 * Each BPF program that ran so far, its run count and total run time, from
 * the kernel's run-time stats (--self-stats), as bpftool shows them: at
 * most @max into @cost; how many.
 */
int tracer_self_cost(const struct tracer *tr, struct prog_cost *cost, int max);

/* CPUs counted now. */
int tracer_nr_cpus(const struct tracer *tr);

void tracer_close(struct tracer *tr);

#endif /* TD_TRACER_H */
