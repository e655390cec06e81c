/* SPDX-License-Identifier: GPL-2.0 */
/* The human table: one block per interval, and one for the whole run. */
#ifndef TD_OUTPUT_TABLE_H
#define TD_OUTPUT_TABLE_H

#include <stdio.h>
#include "model/report.h"

/* Print @r to @f, at most @top rows in each of its tables. */
void output_table(FILE *f, const struct report *r, unsigned int top);

#endif /* TD_OUTPUT_TABLE_H */
