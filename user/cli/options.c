// SPDX-License-Identifier: GPL-2.0
/*
 * Command line parsing, driven by the option table (option_table.c).
 * getopt_long rather than argp: argp's errors take two lines, and we want
 * exactly one that names the option and what to do.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli/help.h"
#include "cli/option_table.h"
#include "cli/say.h"

#define MAX_ROWS 64
#define VAL_BASE 0x100 /* getopt's val for row i without a short name: VAL_BASE + i */

/*
 * What an error line shows of an argument: up to 100 of its first @len
 * bytes, those that are not printable ASCII as \xHH, so that the line stays
 * one line and an escape sequence in it is shown, not obeyed by the
 * terminal. One buffer: one call per message.
 */
const char *options_shown(const char *s, size_t len)
{
	static char buf[100 * 4 + 4];
	size_t n = 0, i;

	for (i = 0; i < len && s[i] && i < 100; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f)
			buf[n++] = c;
		else
			n += sprintf(buf + n, "\\x%02x", c);
	}
	if (i < len && s[i])
		n += sprintf(buf + n, "...");
	buf[n] = '\0';
	return buf;
}

/* getopt_long's arrays, from the table. */
struct getopt_arrays {
	struct option longs[MAX_ROWS + 1];
	char shorts[3 + 2 * MAX_ROWS + 1];
};

static void getopt_arrays(struct getopt_arrays *g)
{
	int n = 0;
	char *s = g->shorts;

	memset(g, 0, sizeof(*g));
	/* '+': stop at the first non-option, so COMMAND's own options stay its own;
	 * ':': a missing value is told apart from an unknown option. */
	*s++ = '+';
	*s++ = ':';
	for (int i = 0; i < nr_option_rows && i < MAX_ROWS; i++) {
		const struct option_row *r = &option_rows[i];

		if (!r->name)
			continue;
		g->longs[n].name = r->name;
		g->longs[n].has_arg = !r->arg	     ? no_argument
				      : r->optional ? optional_argument
						    : required_argument;
		g->longs[n].val = r->letter ? r->letter : VAL_BASE + i;
		n++;
		if (r->letter) {
			*s++ = r->letter;
			if (r->arg)
				*s++ = ':';
		}
	}
}

/* The row getopt_long returned @c for, or NULL. */
static const struct option_row *row_of(int c)
{
	if (c >= VAL_BASE && c < VAL_BASE + nr_option_rows)
		return &option_rows[c - VAL_BASE];
	for (int i = 0; i < nr_option_rows; i++)
		if (option_rows[i].letter && option_rows[i].letter == c)
			return &option_rows[i];
	return NULL;
}

/* Options that are given, and are alternatives, or need another. */
static bool consistent(const struct options *o, FILE *err)
{
	if (o->per_thread && o->per_cgroup) {
		say(err, "--per-thread and --per-cgroup conflict: choose one");
		return false;
	}
	if (o->containers && o->depth >= 0) {
		say(err, "--depth and --containers (or --group-by) conflict: choose one");
		return false;
	}
	if (o->format == FORMAT_TOPLEV_CSV && o->software) {
		say(err, "--format=toplev-csv needs TopDown counters, not --software");
		return false;
	}
	if (o->format_conflict) {
		say(err, "-j, --format and -x name different formats: choose one");
		return false;
	}
	if (o->wait_cgroup && !o->nr_cgroups) {
		say(err, "--wait-cgroup needs -c");
		return false;
	}
	if (o->no_children && !o->nr_pids && !o->command) {
		say(err, "--no-children needs -p or a COMMAND");
		return false;
	}
	if (o->command && o->nr_pids) {
		say(err, "-p and a COMMAND conflict: choose one");
		return false;
	}
	return true;
}

/* Name an unknown option as it was written. */
static void unknown(char **argv, int word, FILE *err)
{
	/*
	 * A long option ("--bogus", or "--json=1" given a value it does not
	 * take) is named as written, up to '='; a short one by optopt. Not
	 * argv[optind - 1]: in "-xj" getopt stays on the word, and that would
	 * name the one before it.
	 */
	if (!strncmp(argv[word], "--", 2)) {
		const char *arg = argv[word];

		say(err,
		    "unknown option, or one that takes no value: '%s' (see tdtrace "
		    "--help)",
		    options_shown(arg, strcspn(arg, "=")));
	} else {
		char letter[2] = { (char)optopt };

		say(err, "unknown option '-%s' (see tdtrace --help)", options_shown(letter, 1));
	}
}

enum options_result options_parse(int argc, char **argv, struct options *o, FILE *out, FILE *err)
{
	bool seen[MAX_ROWS] = { false };
	const char *last_optarg = NULL;
	struct getopt_arrays g;
	bool ends_options;
	int c, word = 1; /* the word getopt_long reads next: optind before the call */

	options_defaults(o);
	getopt_arrays(&g);
	optind = 0; /* 0, not 1: glibc then also forgets a half-parsed "-xj" */
	opterr = 0; /* we print our own one-line errors */
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		const struct option_row *r = row_of(c);

		if (c == ':') {
			say(err, "option '%s' needs a value (see tdtrace --help)",
			    options_shown(argv[optind - 1], (size_t)-1));
			return OPTIONS_BAD;
		}
		if (!r) {
			unknown(argv, word, err);
			return OPTIONS_BAD;
		}
		/* One value per option, but for -c and -p: never a silent override. */
		if (r->arg && !r->repeatable && seen[r - option_rows]) {
			say(err, "--%s given twice: give it once", r->name);
			return OPTIONS_BAD;
		}
		seen[r - option_rows] = true;
		switch (r->action) {
		case OPTION_HELP:
			help_write(out);
			return OPTIONS_DONE;
		case OPTION_VERSION:
			fprintf(out, "tdtrace %s\n", TDTRACE_VERSION);
			return OPTIONS_DONE;
		case OPTION_SET:
			break;
		}
		if (r->parse(o, r->arg ? optarg : NULL)) {
			say(err, "invalid value '%s' for --%s: expected %s",
			    options_shown(optarg, (size_t)-1), r->name, r->expected);
			return OPTIONS_BAD;
		}
		last_optarg = optarg;
		word = optind;
	}
	/* A COMMAND must follow "--", so that a stray word is never run. */
	ends_options =
		optind > 1 && !strcmp(argv[optind - 1], "--") && argv[optind - 1] != last_optarg;
	if (optind < argc && ends_options) {
		o->command = &argv[optind];
	} else if (ends_options) {
		/* "tdtrace --" alone would trace everything, not the COMMAND meant. */
		say(err, "-- must be followed by a COMMAND to run");
		return OPTIONS_BAD;
	} else if (optind < argc) {
		say(err, "unexpected argument '%s' (to trace a command, put it after --)",
		    options_shown(argv[optind], (size_t)-1));
		return OPTIONS_BAD;
	}
	if (!consistent(o, err))
		return OPTIONS_BAD;
	/* toplev-csv's -o names files to come, one per entity: no one FILE to open. */
	if (o->format == FORMAT_TOPLEV_CSV && o->output) {
		o->toplev_split = o->output;
		o->output = NULL;
	}
	return OPTIONS_RUN;
}
