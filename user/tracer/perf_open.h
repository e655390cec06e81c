/* SPDX-License-Identifier: GPL-2.0 */
/* Open: the counting groups of each CPU (leader + members), fds kept for the run. */
#ifndef TD_PERF_OPEN_H
#define TD_PERF_OPEN_H

#include <stdbool.h>
#include <stdio.h>
#include "model/counters.h"

/* Room for "CPU n: failed to open EVENT: why", the longest reason (EOPNOTSUPP's) whole. */
#define CPU_GROUPS_WHY 320

struct cpu_groups {
	int nr_cpus;			    /* possible CPUs: td_counters' stride */
	int nr_counters;		    /* per CPU, all groups */
	int *fd;			    /* [cpu * TD_MAX_COUNTERS + role], -1 when not open */
	bool leads[TD_MAX_COUNTERS];	    /* the counter leads its group (counter_set.group) */
	int nr_open;			    /* CPUs whose whole group is open */
	char first_failure[CPU_GROUPS_WHY]; /* "CPU n: failed to open EVENT: why", or "" */
};

/*
 * Open @set on each CPU in @cpus[0..nr_cpus) (NULL: all of them). A CPU
 * whose group can't be opened is reported once on @err and left out, if
 * any CPU is counted. Returns 0 if at least one CPU is counted, else
 * -errno of the first failure, told in @g->first_failure (nothing printed).
 */
int cpu_groups_open(struct cpu_groups *g, const struct counter_set *set, const bool *cpus,
		    int nr_cpus, FILE *err);

/*
 * A CPU that came back online, or whose PMU was re-planned: close whatever
 * @g holds for @cpu, open @set there afresh and start it (@set's leaders
 * become @g's: every CPU of @g is to open @set). 0, or -errno with the reason in
 * @why_not (-ENODEV: @g opened on no CPU at all).
 */
int cpu_groups_reopen(struct cpu_groups *g, const struct counter_set *set, int cpu, char *why_not,
		      size_t len);

/* A CPU that went offline: its counters are closed. */
void cpu_groups_close_cpu(struct cpu_groups *g, int cpu);

/* Start every open group counting (leaders were opened disabled). */
int cpu_groups_enable(struct cpu_groups *g);

int cpu_groups_fd(const struct cpu_groups *g, int cpu, int role);

void cpu_groups_close(struct cpu_groups *g);

#endif /* TD_PERF_OPEN_H */
