/* SPDX-License-Identifier: GPL-2.0 */
/*
 * toplev's CSV (pmu-tools' toplev -x, -o), so that its plotting scripts
 * (tl-barplot.py, interval-plot.py) draw tdtrace's runs: toplev's header
 * and dotted node names (Frontend_Bound.Fetch_Latency), "% Slots", values
 * in percent. One file is one entity, as toplev's --split-output: the
 * whole machine on the output, or with --toplev-dir a file per top cgroup
 * and process; the CPUs column holds "S0" (toplev's scripts expect a
 * CPU-like token there; which entity a file is about is in its name).
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

/* The whole machine's nodes for this report; the header first when @header. */
void output_toplev_csv(FILE *f, const struct report *r, bool header);

/*
 * The top @top cgroups and processes of @r, each appended to its own file
 * in @dir (system.csv, cgroup-<path>.csv, process-<comm>-<pid>.csv), the
 * header written when a file is new. 0, or -errno.
 */
int output_toplev_dir(const char *dir, const struct report *r, unsigned int top);

#endif /* TD_TOPLEV_CSV_H */
