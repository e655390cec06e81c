// SPDX-License-Identifier: GPL-2.0
/* Messages to the user: see say.h. */
#include <stdarg.h>
#include <stdio.h>
#include "cli/say.h"

/* One line in one write: messages of tdtrace and of COMMAND share stderr. */
static void vsay(FILE *f, const char *command, const char *fmt, va_list ap)
{
	char msg[4096];
	int n;

	if (!f)
		return;
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(msg))
		n = sizeof(msg) - 1; /* cut, still one line */
	fprintf(f, "tdtrace%s%s: %.*s\n", command ? " " : "", command ? command : "", n, msg);
	fflush(f);
}

void say(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(f, NULL, fmt, ap);
	va_end(ap);
}

void say_in(FILE *f, const char *command, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(f, command, fmt, ap);
	va_end(ap);
}
