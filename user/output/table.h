/* SPDX-License-Identifier: GPL-2.0 */
/* The human table: one block per interval, and one for the whole run. */
#ifndef TD_OUTPUT_TABLE_H
#define TD_OUTPUT_TABLE_H

#include <stdio.h>
#include "model/report.h"

/* Print @r to @f, at most @top rows in each of its tables. */
void output_table(FILE *f, const struct report *r, unsigned int top);

/*
 * Names come from tasks and directory names: any byte. Print only
 * printable ASCII so that nothing reaches the terminal as a control
 * sequence and columns stay aligned; everything else becomes '?'. At most
 * @max bytes of @s, padded with spaces to @width. tdtrace report's table
 * writes names with it too.
 */
void table_put_safe(FILE *f, const char *s, size_t max, size_t width);

#endif /* TD_OUTPUT_TABLE_H */
