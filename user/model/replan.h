/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Re-plan: the NMI watchdog (sysctl kernel.nmi_watchdog) changed during a
 * run. The plan for it, laid onto the run's columns: each event kept stays
 * in its slot, so the counts charged so far and those to come add up, and
 * the groups are opened anew. Pure: no syscalls.
 */
#ifndef TD_REPLAN_H
#define TD_REPLAN_H

#include <stdbool.h>
#include "cli/options.h"
#include "model/entries.h"
#include "model/plan.h"

enum replan_verdict {
	REPLAN_SAME,	/* the counters the run has are the plan with the watchdog now */
	REPLAN_SWITCH,	/* the run switches to r->set (its events or fewer, regrouped) */
	REPLAN_RESTART, /* the new plan counts what the run has no column for, or not exactly */
};

struct replan {
	int nr;		      /* PMUs whose counters change */
	int pmu[TD_MAX_PMUS]; /* each one's index in the plan */
	/*
	 * Each one's new set. Its level stays the run's, so that the run's
	 * records keep their keys: a metric whose events it no longer opens
	 * (level 2 on Skylake) is null, not gone.
	 */
	struct counter_set set[TD_MAX_PMUS];
	/*
	 * For each group of the new set, the run's group whose times its
	 * counts had so far (where its leader was), -1 if none: a group
	 * index that meant another group before takes those times on.
	 */
	signed char times_from[TD_MAX_PMUS][TD_MAX_GROUPS];
	/* For each slot of the new set, the run's slot its counts so far are in. */
	signed char from_slot[TD_MAX_PMUS][TD_MAX_COUNTERS];
	/* "cpu: level 1 in 3 groups of 9 counters instead of level 2 in 5 groups of 19" */
	char what[300];
};

/*
 * The run counts @p (planned from @cpu, then perhaps switched), and the
 * watchdog is now @watchdog_now: plan again from @cpu with it and compare,
 * core PMU by core PMU. REPLAN_SWITCH when every event of the new plan
 * has a column in the run: @r has the new sets, each event in the slot it
 * had where that leaves no gap and keeps each group's slots together,
 * else in the new plan's own slots, the run's counts moved along at the
 * switch (r->from_slot; AMD). Exact only: each group of the new set
 * takes on the times of the group every one of its events counted in so
 * far (r->times_from). Where the new plan's groups are not (Skylake-class,
 * Haswell and Broadwell: the watchdog moves an event into group 4, which
 * counted others), the watchdog turned on switches to level 1 of the
 * row, if that is exact. REPLAN_RESTART when the new plan counts more
 * than the run has columns for (level 2 again), in more groups than the
 * run keeps times for (p->width, see replan_widen), or not exactly.
 * REPLAN_SAME with --software, or when nothing changes. @r->what says
 * what changes (empty for REPLAN_SAME).
 */
enum replan_verdict replan_watchdog(const struct options *o, const struct cpu_pmus *cpu,
				    const bool *online, const struct plan *p, int watchdog_now,
				    struct replan *r);

/*
 * Before the run: widen @p->width (its counts, the BPF program's bounds)
 * to what the switch for the watchdog turned the other way would count,
 * so that a switch to more groups (a group 0 that loses a counter to the
 * watchdog, its last event in a group of its own) keeps every group's times.
 */
void replan_widen(const struct options *o, const struct cpu_pmus *cpu, const bool *online,
		  struct plan *p);

/*
 * The switch, in the run's totals: in the entries and totals of the PMUs
 * that switch, each slot's counts so far are moved to its new slot
 * (r->from_slot), and each new group takes the times of the group its
 * leader counted in (r->times_from), so that a count that moved is scaled
 * by the times of the groups it was counted in, as perf sums them.
 */
void replan_carry(const struct replan *r, int nr_pmus, struct entry_set *total);

/* The switch, in the plan: each PMU of @r counts its new set from now on. */
void replan_apply(const struct replan *r, struct plan *p);

#endif /* TD_REPLAN_H */
