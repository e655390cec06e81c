/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -x SEP (--format=perf-csv: ","): perf stat -x's columns, as perf 6.1
 * writes them with -I: the interval right-aligned in 16 characters, the
 * thread ("comm-pid") for a process, counter value, unit, event, the
 * cgroup for a cgroup row (perf -G's place), run time in ns, percent
 * running, metric value and unit ("" and "" when none). Counts print as
 * perf prints them: whole numbers without decimals, others and msec with
 * two; "CPUs utilized" with three, TopDown metrics (percent) with one.
 * The TopDown metrics follow an entity's counter lines as perf's extra
 * metric lines: value, unit, event, run time and percent empty (perf
 * fills the interval and the thread there; the cgroup is filled too, so a
 * line says whose it is). Which entities and numbers: perf_rows.h.
 */
#ifndef TD_PERF_CSV_H
#define TD_PERF_CSV_H

#include <stdio.h>
#include "model/report.h"

/* Print @r to @f with @sep between fields; nothing for the whole run's summary. */
void output_perf_csv(FILE *f, const struct report *r, const char *sep);

#endif /* TD_PERF_CSV_H */
