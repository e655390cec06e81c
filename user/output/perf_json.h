/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --format=perf-json: perf stat -j's lines (perf 6.1's layout), for
 * scripts written for perf. Only the keys perf's JSON linter accepts
 * (tools/perf/tests/shell/lib/perf_json_output_lint.py), in perf's order,
 * with perf's types: "counter-value" a string, numbers elsewhere. A
 * counter line per raw event, as perf 6.1 always with "metric-value" and
 * "metric-unit" (0 and "" when the event has no metric of its own), then
 * the entity's TopDown metric lines, as perf's lines for a metric beyond
 * an event's first: the interval, the entity, "metric-value",
 * "metric-unit". Which entities and numbers: perf_rows.h.
 */
#ifndef TD_PERF_JSON_H
#define TD_PERF_JSON_H

#include <stdio.h>
#include "model/report.h"

/* Print @r to @f; nothing for the whole run's summary (perf -I prints none). */
void output_perf_json(FILE *f, const struct report *r);

#endif /* TD_PERF_JSON_H */
