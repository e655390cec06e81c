/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output in perf stat's own formats, for scripts written for perf:
 * --format=perf-json is perf stat -j's lines (only the keys perf's JSON
 * linter accepts, in perf's order), -x SEP is perf stat -x's columns. The
 * whole machine is perf's -a line, a cgroup row is perf's -G (the cgroup
 * after the event), a process is perf's --per-thread ("comm-pid"). Each
 * raw event is a counter line, each TopDown metric of the model a metric
 * line ("%  tma_frontend_bound"), as perf prints them.
 */
#ifndef TD_PERF_FORMAT_H
#define TD_PERF_FORMAT_H

#include <stdio.h>
#include "model/report.h"

void output_perf_json(FILE *f, const struct report *r);

/* perf's CSV with separator @sep (-x SEP). */
void output_perf_csv(FILE *f, const struct report *r, const char *sep);

#endif /* TD_PERF_FORMAT_H */
