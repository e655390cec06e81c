// SPDX-License-Identifier: GPL-2.0
/* --help: the option table laid out in two columns, wrapped. */
#include <string.h>
#include "cli/help.h"
#include "cli/option_table.h"

#define NAME_COLUMN 24 /* help text starts 2 columns after this */

static const char intro[] =
	"Usage: tdtrace [OPTION...] [-- COMMAND [ARG...]]\n"
	"   or: tdtrace report [--json] [FILE]   (decode recorded --json lines again)\n"
	"Live Top-down Microarchitecture Analysis (TopDown) per process and per cgroup,\n"
	"attributed at every context switch by a BPF program reading the CPU's SLOTS\n"
	"and TopDown metric counters.\n";

static const char examples[] =
	"Examples:\n"
	"  sudo tdtrace                     # per process and cgroup, every second\n"
	"  sudo tdtrace -I 5000 -n 20       # every 5 s, top 20 rows\n"
	"  sudo tdtrace -d 10 --json -o td.jsonl  # 10 s of JSON lines into a file\n"
	"  sudo tdtrace --software          # CPU time per process/cgroup, no PMU needed\n"
	"  sudo tdtrace -c system.slice/docker-0123abcd.scope   # one container\n"
	"  sudo tdtrace --containers --per-cgroup               # every container\n"
	"  sudo tdtrace --group-by=pod --listen 9466  # Kubernetes pods, for Prometheus\n"
	"  sudo tdtrace -p 1234 -t          # one process, a row per thread\n"
	"  sudo tdtrace -- make -j8         # a command and its children, like perf stat\n"
	"  sudo tdtrace --region=./prog:parse -- ./prog   # one function's calls\n"
	"  sudo tdtrace --usdt -p 1234      # regions it marks with tdtrace/region.h\n"
	"  tdtrace --probe                  # does this machine have TopDown counters?\n";

static const char exit_status[] =
	"Exit status: 0 success, or stopped by SIGINT or SIGTERM; 1 runtime failure\n"
	"(privileges, BTF, counters, a target that does not exist, an output file that\n"
	"cannot be written); 2 bad command line (a --region or --usdt binary, symbol or\n"
	"markers not found too), or no TopDown PMU and no --software;\n"
	"with COMMAND: the command's status, 126 if it cannot be executed, 127 if it\n"
	"is not found. Needs root, or CAP_BPF and CAP_PERFMON. Diagnostics go to\n"
	"stderr, data to stdout or -o.\n";

/* "  -I, --interval=MS", "      --depth=N", "  -- COMMAND [ARG...]" into @buf. */
static void names(const struct option_row *r, char *buf, size_t size)
{
	if (r->synopsis)
		snprintf(buf, size, "  %s", r->synopsis);
	else
		snprintf(buf, size, "  %c%c%c --%s%s%s%s", r->letter ? '-' : ' ',
			 r->letter ? r->letter : ' ', r->letter ? ',' : ' ', r->name,
			 r->arg ? (r->optional ? "[=" : "=") : "", r->arg ? r->arg : "",
			 r->optional ? "]" : "");
}

/*
 * @text wrapped at word boundaries into lines that start at @column and
 * end before HELP_WIDTH; the first line continues what @out has (@at
 * columns so far).
 */
static void wrapped(FILE *out, const char *text, int column, int at)
{
	const char *p = text;

	while (*p) {
		int room = HELP_WIDTH - column, len = strlen(p);

		if (at > column - 2) { /* the names were too long: start below them */
			fputc('\n', out);
			at = 0;
		}
		fprintf(out, "%*s", column - at, "");
		if (len > room) {
			len = room;
			while (len > 0 && p[len] != ' ')
				len--;
			if (!len) /* one word longer than the line: keep it whole */
				len = strcspn(p, " ");
		}
		fprintf(out, "%.*s\n", len, p);
		p += len;
		p += strspn(p, " ");
		at = 0;
	}
}

void help_write(FILE *out)
{
	fputs(intro, out);
	for (int g = 0; g < NR_OPTION_GROUPS; g++) {
		const struct option_group_text *t = &option_groups[g];

		fputc('\n', out);
		if (t->heading)
			fprintf(out, "%s\n", t->heading);
		for (int i = 0; i < nr_option_rows; i++) {
			const struct option_row *r = &option_rows[i];
			char buf[64];

			if (r->group != (enum option_group)g || r->hidden)
				continue;
			names(r, buf, sizeof(buf));
			fputs(buf, out);
			wrapped(out, r->help, NAME_COLUMN + 2, strlen(buf));
		}
		if (t->note)
			wrapped(out, t->note, 2, 0);
	}
	fputc('\n', out);
	fputs(examples, out);
	fputc('\n', out);
	fputs(exit_status, out);
}
