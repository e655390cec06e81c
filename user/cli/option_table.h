/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line as one table: each option's names, argument, group,
 * help text and parser. getopt_long's arrays (options.c), --help (help.c),
 * README's option block (checked by tests/unit/test_options.c) and the man
 * page are all made from it, so they cannot disagree.
 */
#ifndef TD_OPTION_TABLE_H
#define TD_OPTION_TABLE_H

#include <stdbool.h>
#include "cli/options.h"

enum option_group {
	GROUP_GENERAL, /* no heading */
	GROUP_TARGETS,
	GROUP_ROWS,
	GROUP_EXPORT,
	GROUP_SETUP,
	GROUP_INFO,
	NR_OPTION_GROUPS,
};

struct option_group_text {
	const char *heading; /* NULL: none */
	const char *note;    /* printed after the group's options, or NULL */
};

enum option_action {
	OPTION_SET,	/* parse() fills struct options */
	OPTION_HELP,	/* print --help, exit 0 */
	OPTION_VERSION, /* print the version, exit 0 */
};

struct option_row {
	const char *name; /* long name without "--"; NULL for a synopsis-only row */
	char letter;	  /* short name, or 0 */
	const char *arg;  /* the value's name in help ("MS"); NULL: takes none */
	enum option_group group;
	const char *help; /* one paragraph, wrapped when printed */
	/* Store @arg (NULL when the option takes none) into @o; 0 or -errno. */
	int (*parse)(struct options *o, const char *arg);
	const char *expected; /* the error's "expected ..." when parse() fails */
	bool repeatable;      /* may be given more than once (-c, -p) */
	bool optional;	      /* the value may be left out: --usdt or --usdt=BINARY */
	enum option_action action;
	const char *synopsis; /* shown instead of the names ("-- COMMAND [ARG...]") */
	/*
	 * Not in --help, README or the man page: why it exists anyway. Only
	 * test hooks that a tool reading sysfs needs (pointing it at a fake
	 * root) belong here.
	 */
	const char *hidden;
};

extern const struct option_row option_rows[];
extern const int nr_option_rows;
extern const struct option_group_text option_groups[NR_OPTION_GROUPS];

/* Set @o to the defaults every run starts from. */
void options_defaults(struct options *o);

#endif /* TD_OPTION_TABLE_H */
