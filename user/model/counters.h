/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counter model: which events tdtrace opens, built as perf_event_attr from
 * what discovery found (never from hard-coded config numbers for TopDown).
 */
#ifndef TD_COUNTERS_H
#define TD_COUNTERS_H

#include <stdbool.h>
#include <linux/perf_event.h>
#include "model/counts.h" /* TD_SLOTS */
#include "model/models.h"
#include "model/pmu_desc.h"

struct counter_set {
	int nr;	   /* counters per CPU, in BPF slot order: by group, each group's leader first */
	int level; /* 0 with --software, else 1 or 2 */
	bool software; /* leader is cpu-clock, no TopDown ratios */
	struct perf_event_attr attr[TD_MAX_COUNTERS];
	const char *name[TD_MAX_COUNTERS]; /* event names as perf spells them */

	/* From a model (counters_from_model); software sets: one group, no model. */
	const struct pmu_model *model;
	/*
	 * The perf event group of each counter: 0, 1, ... in order, each
	 * group's counters next to each other, the first of a group leading
	 * it. All 0 (one group led by counter 0) unless set otherwise.
	 */
	int group[TD_MAX_COUNTERS];
	int event[TD_MAX_COUNTERS]; /* each counter's model event, or -1 */
	/*
	 * Read directly from its struct perf_event after its leader's helper
	 * read (see counters_reads_direct), else with the helper itself.
	 */
	bool direct[TD_MAX_COUNTERS];
	bool opened[MODEL_MAX_EVENTS]; /* by model event: has a counter */
	int nr_groups;
	char left_out[256]; /* what the model has that is not counted, and why; "" if nothing */
};

/* Does counter @i lead its group? */
bool counters_leads(const struct counter_set *set, int i);

/*
 * May counter @i of @set be read directly from its struct perf_event,
 * just after its leader's helper read? Only where the kernel keeps that
 * count current: a generic or fixed counter's count is brought up to date
 * only on a read, a stop or an overflow, but a helper read of any TopDown
 * event on Intel updates every PERF_METRICS event of the CPU
 * (intel_pmu_update_topdown_event). So: a topdown-* metric event (event
 * 0x00, umask 0x80..0x87: the kernel's is_metric_event()) in a group led
 * by slots (0x0400, is_slots_event()), on Intel's core PMU. Everything
 * else, UOP_DROPPING and every Skylake, E-core and AMD member among them,
 * goes through the helper.
 */
bool counters_reads_direct(const struct counter_set *set, int i);

/* How many groups @set has (1 for a set with counters). */
int counters_nr_groups(const struct counter_set *set);

/*
 * The counters of model @m on core PMU @pmu, up to @level (1 or 2; lowered
 * to 1 when a level-2 event is missing), with @watchdog_on the NMI
 * watchdog holding m->watchdog_counters generic counters. Events named
 * by sysfs are encoded from @pmu's events/; the others are raw configs.
 * A missing correction or optional event, or an optional event that does
 * not fit beside the watchdog, is left out and said in set->left_out. On
 * Intel the watchdog holds fixed counter 1, so a cycles event (0x003c)
 * there takes a generic counter: a group that no longer fits has its last
 * members moved into a group of their own, and with no group left for
 * that, level 2 is left out (said). Every counter counts the host only
 * (exclude_guest).
 * Returns 0, or -ENODEV with a one-line reason in @err when a level-1
 * event is missing or the model needs more than TD_MAX_COUNTERS.
 */
int counters_from_model(const struct pmu_model *m, const struct core_pmu *pmu, int level,
			bool watchdog_on, struct counter_set *set, char *err, size_t errlen);


/* --software: cpu-clock in the slots role, nothing else. */
void counters_software(struct counter_set *set);

/*
 * Tests only (--test-members): cpu-clock leading software members named in
 * @list ("context-switches,page-faults,cpu-clock"), to exercise the member
 * read paths without a PMU. A '/' starts a new group, led by the event
 * named after it ("context-switches/page-faults,cpu-migrations": cpu-clock
 * and context-switches, then page-faults leading cpu-migrations). As the
 * metric members stand in for: a member the kernel counts as it happens
 * (context-switches, page-faults, cpu-migrations, emulation-faults) is read
 * directly, cpu-clock and task-clock (brought up to date only on a read,
 * like a generic counter) with the helper; a '!' after a member's name
 * reads it directly all the same, for the self-check to catch
 * ("cpu-clock!"). Each counter's event[] is its name's place in that
 * list of names (cpu-clock 0, as counter 0's). Returns
 * 0, or -EINVAL for an unknown or missing name, more than TD_MAX_COUNTERS
 * counters or TD_MAX_GROUPS groups.
 */
int counters_software_members(struct counter_set *set, const char *list);

/*
 * The cgroup-switches software event, sampling every occurrence: the
 * trigger of the --per-cgroup program (counts only when the cgroup changes).
 */
void counters_cgroup_switches(struct counter_set *set);

#endif /* TD_COUNTERS_H */
