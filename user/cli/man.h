/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tdtrace(8) and bash completion, made from the option table like --help,
 * so that none of them can disagree with the others (tools/mkdoc.c writes
 * them at build time).
 */
#ifndef TD_MAN_H
#define TD_MAN_H

#include <stdio.h>

/* The man page, in man(7) macros, dated @date ("2026-11-24"). */
void man_write(FILE *out, const char *date);

/* A bash completion script for tdtrace. */
void completion_write(FILE *out);

#endif /* TD_MAN_H */
