/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --format=toplev-csv: pmu-tools toplev's CSV (toplev -I MS -x, -o FILE),
 * so that its plotting scripts (tl-barplot.py, interval-plot.py) draw
 * tdtrace's runs. toplev's header, toplev's dotted node names
 * (Frontend_Bound, Frontend_Bound.Fetch_Latency) from the common nodes of
 * decode.h, Unit "% Slots", Value in percent.
 *
 * One file is one entity, as toplev's --split-output writes one per
 * aggregation: without -o the whole machine on the output; with -o a
 * DIR/ or a PREFIX, a file per entity: the machine and each top cgroup
 * and process (DIR/system.csv, DIR/cgroup_system.slice.csv,
 * DIR/process-nginx-812.csv, or PREFIX-system.csv ...). The CPUs column
 * holds "C0": both scripts look for a CPU-like token there and would take
 * a cgroup path for a node name; which entity a file is about is in its
 * name. The whole run's summary is not written (toplev -I writes none).
 */
#ifndef TD_TOPLEV_CSV_H
#define TD_TOPLEV_CSV_H

#include <stdbool.h>
#include <stdio.h>
#include "model/report.h"

/* toplev's header line. */
void toplev_header(FILE *f);

/* One entity's nodes at @ts seconds (nothing if @m has no fractions). */
void toplev_nodes(FILE *f, double ts, const struct td_counts *c, const struct td_metrics *m);

/* The whole machine's nodes of @r (no header: toplev_header once first). */
void output_toplev_csv(FILE *f, const struct report *r);

/* -o DIR/ or PREFIX: a file per entity. */
struct toplev_split {
	char *base;	/* "DIR/" or "PREFIX-": file names are base + entity + ".csv" */
	char **written; /* files this run has begun: appended to from then on */
	size_t nr_written;
};

/*
 * Where the files of -o @target go: a directory when @target is one or
 * ends in '/' (made if missing), else a prefix in an existing directory.
 * 0, or -errno with the reason in @err.
 */
int toplev_split_init(struct toplev_split *s, const char *target, char *err, size_t errlen);

/*
 * The machine and the top @top cgroups and processes of @r, each added to
 * its own file: emptied and headed the first time this run writes it,
 * appended to after that. 0, or -errno with the file in @err.
 */
int toplev_split_write(struct toplev_split *s, const struct report *r, unsigned int top, char *err,
		       size_t errlen);

void toplev_split_free(struct toplev_split *s);

#endif /* TD_TOPLEV_CSV_H */
