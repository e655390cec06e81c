/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way tdtrace tells its user something: say(f, fmt, ...) writes
 * "tdtrace: <message>\n" to @f in one write, and nothing when @f is NULL
 * (a caller that wants silence, as --probe's planning). Messages follow
 * libbpf-tools' shape: "failed to <what>: <reason>", or "<what was
 * wrong>; <what to do>", one line, never a trailing period.
 *
 * A function that cannot say a thing itself (a pure model function, or
 * one whose caller adds the context) returns -errno and fills a why
 * buffer with the reason; its caller says it.
 */
#ifndef TD_SAY_H
#define TD_SAY_H

#include <stdio.h>

void say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same for a command of tdtrace's: "tdtrace report: <message>\n". */
void say_in(FILE *f, const char *command, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* TD_SAY_H */
