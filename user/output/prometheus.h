/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's metrics: counters per cgroup subtree (slots, slots per
 * TopDown node, CPU time with --software), container metadata as an info
 * metric, the top processes when asked, and tdtrace's own health. Made
 * from reports of the run so far (cumulative counts), one per core PMU.
 * A cgroup whose counts have not moved for the grace period is left out,
 * so that series of exited containers do not pile up. Pure.
 */
#ifndef TD_PROMETHEUS_H
#define TD_PROMETHEUS_H

#include <stdbool.h>
#include <stdio.h>
#include "model/report.h"

struct exposition_seen; /* in prometheus.c */

struct exposition {
	double grace_s;		/* a cgroup quiet this long is left out */
	unsigned int processes; /* top processes by slots to export, 0: none */
	struct exposition_seen *seen; /* (cgroup, PMU): its slices and when they last moved */
	size_t nr_seen, cap_seen;
	/* seen by (cgroup, PMU): open addressing, 0 or 1 + an index into seen, twice its room */
	size_t *index;
	size_t index_cells;
	bool self_stats; /* the switch program's own runs and time, when --self-stats */
};

void exposition_init(struct exposition *x, double grace_s, unsigned int processes,
		     bool self_stats);

/* Note which cgroups moved since the last call, at @now (seconds, monotonic). 0 or -ENOMEM. */
int exposition_update(struct exposition *x, const struct report *const *reports, int n,
		      double now);

/*
 * Every family for @reports[0..n) (cumulative: the whole run so far) into
 * @f, as OpenMetrics 1.0 or text 0.0.4; quiet cgroups left out.
 */
void exposition_write(const struct exposition *x, FILE *f, bool openmetrics,
		      const struct report *const *reports, int n, double now);

void exposition_free(struct exposition *x);

#endif /* TD_PROMETHEUS_H */
