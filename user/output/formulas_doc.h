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
 * One JSON object per line and row: {"model", "pmu", "pmu_events",
 * "source", "perf_groups", "slots", "events": [{"name", "alias", "group", "flags"}], "metrics":
 * [{"name", "level", "expr", "plain"}]}.
 */
void formulas_doc_write(FILE *out);

#endif /* TD_FORMULAS_DOC_H */
