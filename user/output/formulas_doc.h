/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every model row's formulas as data (tools/mkdoc formulas), for
 * scripts/check-formulas to compare with a pmu-events tree, and for
 * tests that evaluate perf's text beside tdtrace's.
 */
#ifndef TD_FORMULAS_DOC_H
#define TD_FORMULAS_DOC_H

#include <stdio.h>

/*
 * One JSON object per line and row: {"model", "pmu", "vendor", "pmu_events",
 * "source", "perf_groups", "slots", "events": [{"name", "alias", "sysfs",
 * "config", "group", "flags"}], "metrics": [{"name", "level", "expr",
 * "plain"}]}. An event's "sysfs" is the PMU's events/ name it is opened
 * by, or null; "config" its raw config as a hex string ("0x10d").
 */
void formulas_doc_write(FILE *out);

#endif /* TD_FORMULAS_DOC_H */
