/* SPDX-License-Identifier: GPL-2.0 */
/* JSON lines: one object per entity per interval, then per entity for the run. */
#ifndef TD_OUTPUT_JSON_H
#define TD_OUTPUT_JSON_H

#include <stdio.h>
#include "model/report.h"

/* Print @r to @f: every row, one JSON object per line. */
void output_json(FILE *f, const struct report *r);

#endif /* TD_OUTPUT_JSON_H */
