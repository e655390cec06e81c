// SPDX-License-Identifier: GPL-2.0
/*
 * Command line parsing. getopt_long rather than argp: argp's errors take two
 * lines, and we want exactly one that names the option and what to do.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli/options.h"

#define TDTRACE_VERSION "0.1"

static const char usage_text[] =
	"Usage: tdtrace [OPTION...] [-- COMMAND [ARG...]]\n"
	"Live Top-down Microarchitecture Analysis (TopDown) per process and per cgroup,\n"
	"attributed at every context switch by a BPF program reading the CPU's SLOTS\n"
	"and TopDown metric counters.\n"
	"\n"
	"  -I, --interval=MS       print a table every MS milliseconds (default 1000)\n"
	"  -d, --duration=SECS     stop after SECS seconds (default: until Ctrl-C)\n"
	"  -n, --top=N             rows per table, processes and cgroups (default 10)\n"
	"  -j, --json              JSON lines, every entity every interval\n"
	"  -o, --output=FILE       write tables or JSON lines to FILE, not stdout\n"
	"                          (created, or emptied at the first interval)\n"
	"  -s, --software          count CPU time with cpu-clock instead of TopDown\n"
	"                          (works without a hardware PMU; no TopDown ratios)\n"
	"  -t, --per-thread        one row per thread instead of per process\n"
	"\n"
	"Targets (default: every task on the machine):\n"
	"  -c, --cgroup=PATH       only tasks in this cgroup v2 subtree (repeatable, up\n"
	"                          to 8); PATH is absolute, or relative to the cgroup2\n"
	"                          mount (as in /proc/PID/cgroup)\n"
	"  -p, --pid=PID[,PID...]  only these processes, all their threads, and the\n"
	"                          processes they start after tdtrace does\n"
	"      --no-children       with -p or COMMAND: don't follow new processes\n"
	"  -- COMMAND [ARG...]     run COMMAND, trace it and its descendants, print the\n"
	"                          summary when it exits, and exit with its status\n"
	"                          -c and -p together trace the intersection.\n"
	"\n"
	"Rows:\n"
	"      --per-cgroup        cgroup rows only, no process rows\n"
	"      --depth=N           roll cgroups up to their ancestor N levels below\n"
	"                          the root (0 = root only)\n"
	"      --containers        name cgroup rows by container (docker, containerd,\n"
	"                          Kubernetes, CRI-O, podman, LXC) or systemd unit\n"
	"      --self-stats        measure tdtrace's own cost per context switch and\n"
	"                          print it in the summary (costs a little itself)\n"
	"      --probe             print what this machine supports, and exit\n"
	"      --btf=FILE          kernel BTF for CO-RE (default /sys/kernel/btf/vmlinux)\n"
	"      --max-tasks=N       map size in (task, cgroup) entries, and exited\n"
	"                          processes kept for the summary (default 10240)\n"
	"      --max-cgroups=N     map size with --per-cgroup (default 4096)\n"
	"  -v, --verbose           print libbpf's debug output\n"
	"  -h, --help              this text\n"
	"  -V, --version           print the version\n"
	"\n"
	"Examples:\n"
	"  sudo tdtrace                     # TopDown per process and cgroup, every second\n"
	"  sudo tdtrace -I 5000 -n 20       # every 5 s, top 20 rows\n"
	"  sudo tdtrace -d 10 --json -o td.jsonl  # 10 s of JSON lines into a file\n"
	"  sudo tdtrace --software          # CPU time per process/cgroup, no PMU needed\n"
	"  sudo tdtrace -c system.slice/docker-0123abcd.scope   # one container\n"
	"  sudo tdtrace --containers --per-cgroup               # every container\n"
	"  sudo tdtrace -p 1234 -t          # one process, a row per thread\n"
	"  sudo tdtrace -- make -j8         # a command and its children, like perf stat\n"
	"  tdtrace --probe                  # does this machine have TopDown counters?\n"
	"\n"
	"Exit status: 0 success; 1 runtime failure (privileges, BTF, counters, a\n"
	"target that does not exist, a COMMAND that cannot run, an output file that\n"
	"cannot be written); 2 bad command line,\n"
	"or no TopDown PMU and no --software. With COMMAND: the command's status.\n"
	"Needs root, or CAP_BPF and CAP_PERFMON. Diagnostics go to stderr, data to stdout or -o.\n";

enum {
	OPT_PROBE = 0x100,
	OPT_BTF,
	OPT_MAX_TASKS,
	OPT_MAX_CGROUPS,
	OPT_SYSFS_ROOT,
	OPT_NO_CHILDREN,
	OPT_PER_CGROUP,
	OPT_DEPTH,
	OPT_CONTAINERS,
	OPT_SELF_STATS,
	OPT_TEST_MEMBERS,
};

static const struct option long_options[] = {
	{ "interval", required_argument, NULL, 'I' },
	{ "duration", required_argument, NULL, 'd' },
	{ "top", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'j' },
	{ "output", required_argument, NULL, 'o' },
	{ "software", no_argument, NULL, 's' },
	{ "per-thread", no_argument, NULL, 't' },
	{ "probe", no_argument, NULL, OPT_PROBE },
	{ "btf", required_argument, NULL, OPT_BTF },
	{ "max-tasks", required_argument, NULL, OPT_MAX_TASKS },
	{ "max-cgroups", required_argument, NULL, OPT_MAX_CGROUPS },
	{ "cgroup", required_argument, NULL, 'c' },
	{ "pid", required_argument, NULL, 'p' },
	{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
	{ "per-cgroup", no_argument, NULL, OPT_PER_CGROUP },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "containers", no_argument, NULL, OPT_CONTAINERS },
	{ "self-stats", no_argument, NULL, OPT_SELF_STATS },
	{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT },     /* undocumented: tests */
	{ "test-members", required_argument, NULL, OPT_TEST_MEMBERS }, /* undocumented: tests */
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

/*
 * Options that take one value: a second one is refused rather than silently
 * replacing the first (-c and -p accumulate and are not here).
 */
static const struct {
	int c;
	const char *name;
} single_value[] = {
	{ 'I', "--interval" },
	{ 'd', "--duration" },
	{ 'n', "--top" },
	{ 'o', "--output" },
	{ OPT_BTF, "--btf" },
	{ OPT_SYSFS_ROOT, "--sysfs-root" },
	{ OPT_MAX_TASKS, "--max-tasks" },
	{ OPT_MAX_CGROUPS, "--max-cgroups" },
	{ OPT_DEPTH, "--depth" },
	{ OPT_TEST_MEMBERS, "--test-members" },
};

/* The name of @c if it was given before; marks it given in @seen. */
static const char *given_twice(int c, unsigned int *seen)
{
	for (size_t i = 0; i < sizeof(single_value) / sizeof(single_value[0]); i++) {
		if (single_value[i].c != c)
			continue;
		if (*seen & (1u << i))
			return single_value[i].name;
		*seen |= 1u << i;
	}
	return NULL;
}

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

/* A whole decimal number in [min, max], nothing before or after it. */
static int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned int *out)
{
	unsigned long v;
	char *end;

	/* strtoul would skip any white space and take a sign: allow digits only. */
	if (!isdigit((unsigned char)*s))
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

	/* Plain decimal only: strtod would also take white space, hex, "inf". */
	if (!*s || s[strspn(s, "0123456789.eE+-")] || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > 366.0 * 86400)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "1,22,333": each a PID > 0; appended to o->pids. */
static int parse_pids(const char *s, struct options *o)
{
	const char *p = s;

	do {
		unsigned long v;
		char *end;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || v == 0 || v > INT_MAX || (*end && *end != ','))
			return -EINVAL;
		if (o->nr_pids == TD_MAX_PIDS)
			return -E2BIG;
		o->pids[o->nr_pids++] = (pid_t)v;
		p = *end ? end + 1 : end;
	} while (*p);
	return p[-1] == ',' ? -EINVAL : 0;
}

enum options_result options_parse(int argc, char **argv, struct options *o, FILE *out, FILE *err)
{
	const char *bad = NULL, *what = NULL, *last_optarg = NULL, *twice;
	unsigned int seen = 0;
	bool ends_options;
	int c, word = 1; /* the word getopt_long reads next: optind before the call */

	memset(o, 0, sizeof(*o));
	o->interval_ms = 1000;
	o->top = 10;
	o->sysfs_root = "/";
	o->max_tasks = 10240;
	o->max_cgroups = 4096;
	o->depth = -1;

	optind = 0; /* 0, not 1: glibc then also forgets a half-parsed "-xj" */
	opterr = 0; /* we print our own one-line errors */
	/* '+': stop at the first non-option, so COMMAND's own options stay its own. */
	while ((c = getopt_long(argc, argv, "+:I:d:n:jo:stc:p:vhV", long_options, NULL)) != -1) {
		twice = given_twice(c, &seen);
		if (twice) {
			fprintf(err, "tdtrace: %s given twice: give it once\n", twice);
			return OPTIONS_BAD;
		}
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
		case 'o':
			if (!*optarg)
				bad = "--output", what = "a file name";
			o->output = optarg;
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
		case 'c':
			if (!*optarg)
				bad = "--cgroup", what = "a cgroup path";
			else if (o->nr_cgroups == TD_MAX_CGROUP_FILTERS)
				bad = "--cgroup", what = "at most 8 cgroups";
			else
				o->cgroups[o->nr_cgroups++] = optarg;
			break;
		case 'p':
			if (parse_pids(optarg, o))
				bad = "--pid",
				what = "process ids > 0, separated by commas (at most 1024)";
			break;
		case OPT_NO_CHILDREN:
			o->no_children = true;
			break;
		case OPT_PER_CGROUP:
			o->per_cgroup = true;
			break;
		case OPT_CONTAINERS:
			o->containers = true;
			break;
		case OPT_SELF_STATS:
			o->self_stats = true;
			break;
		case OPT_TEST_MEMBERS:
			o->test_members = optarg;
			o->software = true;
			break;
		case OPT_DEPTH: {
			unsigned int depth;

			if (parse_uint(optarg, 0, 64, &depth))
				bad = "--depth", what = "a depth from 0 to 64";
			o->depth = depth;
			break;
		}
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
				options_shown(argv[optind - 1], (size_t)-1));
			return OPTIONS_BAD;
		default:
			/*
			 * A long option ("--bogus", or "--json=1" given a value it does
			 * not take) is named as written, up to '='; a short one by optopt.
			 * Not argv[optind - 1]: in "-xj" getopt stays on the word, and
			 * that would name the one before it.
			 */
			if (!strncmp(argv[word], "--", 2)) {
				const char *arg = argv[word];

				fprintf(err,
					"tdtrace: unknown option, or one that takes no value: "
					"'%s' (see tdtrace --help)\n",
					options_shown(arg, strcspn(arg, "=")));
			} else {
				char letter[2] = { (char)optopt };

				fprintf(err, "tdtrace: unknown option '-%s' (see tdtrace --help)\n",
					options_shown(letter, 1));
			}
			return OPTIONS_BAD;
		}
		if (bad) {
			fprintf(err, "tdtrace: invalid value '%s' for %s: expected %s\n",
				options_shown(optarg, (size_t)-1), bad, what);
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
		fprintf(err, "tdtrace: -- must be followed by a COMMAND to run\n");
		return OPTIONS_BAD;
	} else if (optind < argc) {
		fprintf(err,
			"tdtrace: unexpected argument '%s' (to trace a command, put it after --)\n",
			options_shown(argv[optind], (size_t)-1));
		return OPTIONS_BAD;
	}
	if (o->per_thread && o->per_cgroup) {
		fprintf(err, "tdtrace: --per-thread and --per-cgroup conflict: choose one\n");
		return OPTIONS_BAD;
	}
	if (o->containers && o->depth >= 0) {
		fprintf(err, "tdtrace: --depth and --containers conflict: choose one\n");
		return OPTIONS_BAD;
	}
	if (o->no_children && !o->nr_pids && !o->command) {
		fprintf(err, "tdtrace: --no-children needs -p or a COMMAND\n");
		return OPTIONS_BAD;
	}
	if (o->command && o->nr_pids) {
		fprintf(err, "tdtrace: -p and a COMMAND conflict: choose one\n");
		return OPTIONS_BAD;
	}
	return OPTIONS_RUN;
}
