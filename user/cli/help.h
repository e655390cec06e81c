/* SPDX-License-Identifier: GPL-2.0 */
/* --help, made from the option table. */
#ifndef TD_HELP_H
#define TD_HELP_H

#include <stdio.h>

/* Lines of --help are at most this wide. */
#define HELP_WIDTH 79

/* Write --help to @out: usage, the options by group, examples, exit status. */
void help_write(FILE *out);

#endif /* TD_HELP_H */
