// SPDX-License-Identifier: GPL-2.0
/*
 * Command line parsing. getopt_long rather than argp: argp's errors take two
 * lines, and we want exactly one that names the option and what to do.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"

#define TDTRACE_VERSION "0.1"

static const char usage_text[] =
	"Usage: tdtrace [OPTION...]\n"
	"Live Top-down Microarchitecture Analysis (TopDown) per process and per cgroup,\n"
	"attributed at every context switch by a BPF program reading the CPU's SLOTS\n"
	"and TopDown metric counters.\n"
	"\n"
	"  -I, --interval=MS       print a table every MS milliseconds (default 1000)\n"
	"  -d, --duration=SECS     stop after SECS seconds (default: until Ctrl-C)\n"
	"  -n, --top=N             rows per table, processes and cgroups (default 10)\n"
	"  -j, --json              JSON lines on stdout, every entity every interval\n"
	"  -s, --software          count CPU time with cpu-clock instead of TopDown\n"
	"                          (works without a hardware PMU; no TopDown ratios)\n"
	"  -t, --per-thread        one row per thread instead of per process\n"
	"      --probe             print what this machine supports, and exit\n"
	"      --btf=FILE          kernel BTF for CO-RE (default /sys/kernel/btf/vmlinux)\n"
	"      --max-tasks=N       task map size (default 10240); more go to overflow\n"
	"      --max-cgroups=N     cgroup map size (default 4096); more go to overflow\n"
	"  -v, --verbose           print libbpf's debug output\n"
	"  -h, --help              this text\n"
	"  -V, --version           print the version\n"
	"\n"
	"Examples:\n"
	"  sudo tdtrace                     # TopDown L1 (and L2) per process and cgroup, every second\n"
	"  sudo tdtrace -I 5000 -n 20       # every 5 s, top 20 rows\n"
	"  sudo tdtrace -d 10 --json > td.jsonl   # 10 s of JSON lines\n"
	"  sudo tdtrace --software          # CPU time per process/cgroup, no PMU needed\n"
	"  tdtrace --probe                  # does this machine have TopDown counters?\n"
	"\n"
	"Exit status: 0 success; 1 runtime failure (privileges, BTF, counters);\n"
	"2 bad command line, or no TopDown PMU and no --software.\n"
	"Needs root, or CAP_BPF and CAP_PERFMON. Diagnostics go to stderr, data to stdout.\n";

enum {
	OPT_PROBE = 0x100,
	OPT_BTF,
	OPT_MAX_TASKS,
	OPT_MAX_CGROUPS,
	OPT_SYSFS_ROOT,
};

static const struct option long_options[] = {
	{ "interval", required_argument, NULL, 'I' },
	{ "duration", required_argument, NULL, 'd' },
	{ "top", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'j' },
	{ "software", no_argument, NULL, 's' },
	{ "per-thread", no_argument, NULL, 't' },
	{ "probe", no_argument, NULL, OPT_PROBE },
	{ "btf", required_argument, NULL, OPT_BTF },
	{ "max-tasks", required_argument, NULL, OPT_MAX_TASKS },
	{ "max-cgroups", required_argument, NULL, OPT_MAX_CGROUPS },
	{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT }, /* undocumented: tests */
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

/* A whole decimal number in [min, max], nothing before or after it. */
static int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_seconds(const char *s, double *out)
{
	double v;
	char *end;

	if (!*s || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > 366.0 * 86400)
		return -EINVAL;
	*out = v;
	return 0;
}

enum options_result options_parse(int argc, char **argv, struct options *o, FILE *out, FILE *err)
{
	const char *bad = NULL, *what = NULL;
	int c;

	memset(o, 0, sizeof(*o));
	o->interval_ms = 1000;
	o->top = 10;
	o->sysfs_root = "/";
	o->max_tasks = 10240;
	o->max_cgroups = 4096;

	optind = 1;
	opterr = 0; /* we print our own one-line errors */
	while ((c = getopt_long(argc, argv, ":I:d:n:jstvhV", long_options, NULL)) != -1) {
		switch (c) {
		case 'I':
			if (parse_uint(optarg, 1, 3600000, &o->interval_ms))
				bad = "--interval", what = "milliseconds from 1 to 3600000";
			break;
		case 'd':
			if (parse_seconds(optarg, &o->duration_s))
				bad = "--duration", what = "seconds greater than 0";
			break;
		case 'n':
			if (parse_uint(optarg, 1, 100000, &o->top))
				bad = "--top", what = "a row count from 1 to 100000";
			break;
		case 'j':
			o->json = true;
			break;
		case 's':
			o->software = true;
			break;
		case 't':
			o->per_thread = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case OPT_PROBE:
			o->probe = true;
			break;
		case OPT_BTF:
			if (!*optarg)
				bad = "--btf", what = "a file name";
			o->btf_path = optarg;
			break;
		case OPT_SYSFS_ROOT:
			if (!*optarg)
				bad = "--sysfs-root", what = "a directory";
			o->sysfs_root = optarg;
			break;
		case OPT_MAX_TASKS:
			if (parse_uint(optarg, 16, 4000000, &o->max_tasks))
				bad = "--max-tasks", what = "an entry count from 16 to 4000000";
			break;
		case OPT_MAX_CGROUPS:
			if (parse_uint(optarg, 16, 1000000, &o->max_cgroups))
				bad = "--max-cgroups", what = "an entry count from 16 to 1000000";
			break;
		case 'h':
			fputs(usage_text, out);
			return OPTIONS_DONE;
		case 'V':
			fprintf(out, "tdtrace %s\n", TDTRACE_VERSION);
			return OPTIONS_DONE;
		case ':':
			fprintf(err, "tdtrace: option '%s' needs a value (see tdtrace --help)\n",
				argv[optind - 1]);
			return OPTIONS_BAD;
		default:
			/* optopt names an unknown short option; for a long one it is 0. */
			if (optopt)
				fprintf(err, "tdtrace: unknown option '-%c' (see tdtrace --help)\n",
					optopt);
			else
				fprintf(err, "tdtrace: unknown option '%s' (see tdtrace --help)\n",
					argv[optind - 1]);
			return OPTIONS_BAD;
		}
		if (bad) {
			fprintf(err, "tdtrace: invalid value '%s' for %s: expected %s\n", optarg, bad,
				what);
			return OPTIONS_BAD;
		}
	}
	if (optind < argc) {
		fprintf(err, "tdtrace: unexpected argument '%s' (see tdtrace --help)\n",
			argv[optind]);
		return OPTIONS_BAD;
	}
	return OPTIONS_RUN;
}
