// SPDX-License-Identifier: GPL-2.0
/* Every option of tdtrace: one row each, with its parser. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "cli/listen.h"
#include "cli/option_table.h"
#include "model/cgroup_rows.h"
#include "model/regions.h"

void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->interval_ms = 1000;
	o->top = 10;
	o->sysfs_root = "/";
	o->max_tasks = 10240;
	o->max_cgroups = 4096;
	o->level = 2;
	o->depth = -1;
	o->listen_grace_s = 300;
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

/* A file or directory name: anything but empty. */
static int parse_name(const char *s, const char **out)
{
	if (!*s)
		return -EINVAL;
	*out = s;
	return 0;
}

static int parse_interval(struct options *o, const char *arg)
{
	return parse_uint(arg, 1, 3600000, &o->interval_ms);
}

static int parse_duration(struct options *o, const char *arg)
{
	double v;
	char *end;

	/* Plain decimal only: strtod would also take white space, hex, "inf". */
	if (!*arg || arg[strspn(arg, "0123456789.eE+-")] ||
	    !(isdigit((unsigned char)*arg) || *arg == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > 366.0 * 86400)
		return -EINVAL;
	o->duration_s = v;
	return 0;
}

static int parse_top(struct options *o, const char *arg)
{
	return parse_uint(arg, 1, 100000, &o->top);
}

static int parse_output(struct options *o, const char *arg)
{
	return parse_name(arg, &o->output);
}

static int parse_btf(struct options *o, const char *arg)
{
	return parse_name(arg, &o->btf_path);
}

static int parse_sysfs_root(struct options *o, const char *arg)
{
	return parse_name(arg, &o->sysfs_root);
}

static int parse_cgroup(struct options *o, const char *arg)
{
	if (!*arg || o->nr_cgroups == TD_MAX_CGROUP_FILTERS)
		return -EINVAL;
	o->cgroups[o->nr_cgroups++] = arg;
	return 0;
}

/* "1,22,333": each a PID > 0; appended to o->pids. */
static int parse_pid(struct options *o, const char *arg)
{
	const char *p = arg;

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

/* BINARY:SYMBOL, at most TD_MAX_REGIONS; resolved later (tracer/regions.c). */
static int parse_region(struct options *o, const char *arg)
{
	char buf[PATH_MAX + 256];
	const char *binary, *symbol;

	if (o->nr_regions == TD_MAX_REGIONS)
		return -E2BIG;
	if (region_spec_split(arg, buf, sizeof(buf), &binary, &symbol))
		return -EINVAL;
	o->regions[o->nr_regions++] = arg;
	return 0;
}

/* --usdt, or --usdt=BINARY (resolved as --region's). */
static int parse_usdt(struct options *o, const char *arg)
{
	o->usdt = true;
	return arg ? parse_name(arg, &o->usdt_binary) : 0;
}

static int parse_depth(struct options *o, const char *arg)
{
	unsigned int depth;

	if (parse_uint(arg, 0, 64, &depth))
		return -EINVAL;
	o->depth = depth;
	return 0;
}

static int parse_group_by(struct options *o, const char *arg)
{
	static const char *const names[] = { [GROUP_CONTAINER] = "container",
					     [GROUP_POD] = "pod",
					     [GROUP_NAMESPACE] = "namespace" };

	for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (!strcmp(arg, names[i])) {
			o->group_by = i;
			o->containers = true;
			return 0;
		}
	return -EINVAL;
}

/* RUNTIME=DIR: DIR may be empty (that runtime's place is left out), not relative. */
static int parse_runtime_root(struct options *o, const char *arg)
{
	const struct {
		const char *name;
		size_t off;
	} runtimes[] = {
		{ "containerd", offsetof(struct options, containerd_root) },
		{ "crio-run", offsetof(struct options, crio_run_root) },
		{ "crio", offsetof(struct options, crio_root) },
		{ "docker", offsetof(struct options, docker_root) },
	};
	const char *eq = strchr(arg, '=');

	if (!eq || (eq[1] && eq[1] != '/'))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++)
		if (strlen(runtimes[i].name) == (size_t)(eq - arg) &&
		    !strncmp(arg, runtimes[i].name, eq - arg)) {
			*(const char **)((char *)o + runtimes[i].off) = eq + 1;
			return 0;
		}
	return -EINVAL;
}

static int parse_max_tasks(struct options *o, const char *arg)
{
	o->max_tasks_given = true;
	return parse_uint(arg, 16, 4000000, &o->max_tasks);
}

static int parse_level(struct options *o, const char *arg)
{
	return parse_uint(arg, 1, 2, &o->level);
}

static int parse_max_cgroups(struct options *o, const char *arg)
{
	return parse_uint(arg, 16, 1000000, &o->max_cgroups);
}

static int parse_listen(struct options *o, const char *arg)
{
	char host[64];
	unsigned int port;

	if (listen_parse(arg, host, sizeof(host), &port))
		return -EINVAL;
	o->listen = arg;
	return 0;
}

static int parse_listen_processes(struct options *o, const char *arg)
{
	return parse_uint(arg, 0, 10000, &o->listen_processes);
}

static int parse_listen_grace(struct options *o, const char *arg)
{
	return parse_uint(arg, 1, 86400 * 7, &o->listen_grace_s);
}

/*
 * -j, --format and -x all choose the format: a second choice that differs
 * from the first is a conflict, said by options.c, never a silent override.
 */
static void choose_format(struct options *o, enum output_format f)
{
	if (o->format_given && o->format != f)
		o->format_conflict = true;
	o->format_given = true;
	o->format = f;
	o->json = f == FORMAT_JSON;
}

static int parse_format(struct options *o, const char *arg)
{
	static const char *const names[] = {
		[FORMAT_TABLE] = "table",	    [FORMAT_JSON] = "json",
		[FORMAT_PERF_JSON] = "perf-json",   [FORMAT_PERF_CSV] = "perf-csv",
		[FORMAT_TOPLEV_CSV] = "toplev-csv",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(arg, names[i]))
			continue;
		choose_format(o, i);
		if (i == FORMAT_PERF_CSV && !o->csv_sep)
			o->csv_sep = ","; /* -x's, if given too */
		return 0;
	}
	return -EINVAL;
}

static int parse_csv_sep(struct options *o, const char *arg)
{
	/*
	 * perf takes any string. A digit, '.' or '-' could be read as part of
	 * a number, a newline would end the line: the columns would not parse.
	 */
	if (!*arg || strpbrk(arg, "\n0123456789.-"))
		return -EINVAL;
	choose_format(o, FORMAT_PERF_CSV);
	o->csv_sep = arg;
	return 0;
}

static int parse_test_members(struct options *o, const char *arg)
{
	o->test_members = arg;
	o->software = true;
	return 0;
}

static int parse_test_replan(struct options *o, const char *arg)
{
	o->test_replan = arg;
	return 0;
}

/* Flags: one setter each, so that rows stay data. */
#define FLAG(field)                                                                                \
	static int set_##field(struct options *o, const char *arg)                                 \
	{                                                                                          \
		(void)arg;                                                                         \
		o->field = true;                                                                   \
		return 0;                                                                          \
	}
static int set_json(struct options *o, const char *arg)
{
	(void)arg;
	choose_format(o, FORMAT_JSON);
	return 0;
}
FLAG(software)
FLAG(per_thread)
FLAG(no_children)
FLAG(per_cgroup)
FLAG(containers)
FLAG(self_stats)
FLAG(probe)
FLAG(verbose)
FLAG(table)
FLAG(wait_cgroup)
#undef FLAG

const struct option_group_text option_groups[NR_OPTION_GROUPS] = {
	[GROUP_GENERAL] = { NULL, NULL },
	[GROUP_TARGETS] = { "Targets (default: every task on the machine):",
			    "-c and -p together trace the intersection." },
	[GROUP_ROWS] = { "Rows:", NULL },
	[GROUP_EXPORT] = { "Prometheus exporter:",
			   "Metrics are counters per cgroup subtree (slots, slots per TopDown "
			   "node, CPU seconds with --software); prometheus/tdtrace.rules.yml "
			   "turns them into fractions. Listens on 127.0.0.1 unless told "
			   "otherwise." },
	[GROUP_SETUP] = { "Setup:", NULL },
	[GROUP_INFO] = { NULL, NULL },
};

const struct option_row option_rows[] = {
	{ .name = "interval",
	  .letter = 'I',
	  .arg = "MS",
	  .parse = parse_interval,
	  .help = "print a table every MS milliseconds (default 1000)",
	  .expected = "milliseconds from 1 to 3600000" },
	{ .name = "duration",
	  .letter = 'd',
	  .arg = "SECS",
	  .parse = parse_duration,
	  .help = "stop after SECS seconds (default: until Ctrl-C)",
	  .expected = "seconds greater than 0" },
	{ .name = "top",
	  .letter = 'n',
	  .arg = "N",
	  .parse = parse_top,
	  .help = "rows per table, processes and cgroups (default 10)",
	  .expected = "a row count from 1 to 100000" },
	{ .name = "json",
	  .letter = 'j',
	  .parse = set_json,
	  .help = "JSON lines, every entity every interval" },
	{ .name = "format",
	  .arg = "FMT",
	  .parse = parse_format,
	  .help = "table (default); json (as -j); perf-json: perf stat -j's lines; perf-csv: "
		  "perf stat -x,'s columns; toplev-csv: pmu-tools' toplev CSV (TopDown only), "
		  "for its plotting scripts",
	  .expected = "table, json, perf-json, perf-csv or toplev-csv" },
	{ .name = "field-separator",
	  .letter = 'x',
	  .arg = "SEP",
	  .parse = parse_csv_sep,
	  .help = "perf's CSV with SEP between fields, as perf stat -x SEP",
	  .expected = "a separator without digits, '.', '-' or a newline" },
	{ .name = "output",
	  .letter = 'o',
	  .arg = "FILE",
	  .parse = parse_output,
	  .help = "write the output to FILE, not stdout (created, or emptied at the first "
		  "interval); with --format=toplev-csv FILE is a DIR/ or a PREFIX: a CSV per "
		  "top cgroup and process and one for the machine (DIR/system.csv, "
		  "PREFIX-system.csv), as toplev's --split-output",
	  .expected = "a file name" },
	{ .name = "software",
	  .letter = 's',
	  .parse = set_software,
	  .help = "count CPU time with cpu-clock instead of TopDown (works without a hardware "
		  "PMU; no TopDown ratios)" },
	{ .name = "level",
	  .letter = 'l',
	  .arg = "N",
	  .parse = parse_level,
	  .help = "TopDown levels to count: 2 (default, where the model has it) or 1, which "
		  "opens fewer counters and keeps smaller entries (as toplev -l1)",
	  .expected = "1 or 2" },
	{ .name = "per-thread",
	  .letter = 't',
	  .parse = set_per_thread,
	  .help = "one row per thread instead of per process" },

	{ .name = "cgroup",
	  .letter = 'c',
	  .arg = "PATH",
	  .group = GROUP_TARGETS,
	  .parse = parse_cgroup,
	  .repeatable = true,
	  .help = "only tasks in this cgroup v2 subtree (repeatable, up to 8); PATH is "
		  "absolute, or relative to the cgroup2 mount (as in /proc/PID/cgroup)",
	  .expected = "a cgroup path, at most 8 of them" },
	{ .name = "pid",
	  .letter = 'p',
	  .arg = "PID[,PID...]",
	  .group = GROUP_TARGETS,
	  .parse = parse_pid,
	  .repeatable = true,
	  .help = "only these processes, all their threads, and the processes they start "
		  "after tdtrace does",
	  .expected = "process ids > 0, separated by commas (at most 1024)" },
	{ .name = "wait-cgroup",
	  .group = GROUP_TARGETS,
	  .parse = set_wait_cgroup,
	  .help = "with -c: a cgroup not there yet, or removed during the run, is waited for "
		  "and traced when created at that path (within an interval); the run then "
		  "does not end when it is gone" },
	{ .name = "no-children",
	  .group = GROUP_TARGETS,
	  .parse = set_no_children,
	  .help = "with -p or COMMAND: don't follow new processes" },
	{ .synopsis = "-- COMMAND [ARG...]",
	  .group = GROUP_TARGETS,
	  .help = "run COMMAND, trace it and its descendants, print the summary when it "
		  "exits, and exit with its status" },

	{ .name = "region",
	  .arg = "BINARY:SYMBOL",
	  .group = GROUP_ROWS,
	  .parse = parse_region,
	  .repeatable = true,
	  .help = "also rows for function SYMBOL in BINARY (a path, or a library or program "
		  "name), from each call's entry to its return, per process and cgroup: calls, "
		  "on-CPU time and TopDown; repeatable, up to 512 (README: Regions)",
	  .expected = "BINARY:SYMBOL, at most 512 of them" },
	{ .name = "usdt",
	  .arg = "BINARY",
	  .optional = true,
	  .group = GROUP_ROWS,
	  .parse = parse_usdt,
	  .help = "also rows for regions marked in the program with "
		  "TDTRACE_REGION_BEGIN(name) and END(name) (tdtrace/region.h), by name, as "
		  "--region's; in BINARY, or the -p processes' or COMMAND's program",
	  .expected = "a program or library" },
	{ .name = "per-cgroup",
	  .group = GROUP_ROWS,
	  .parse = set_per_cgroup,
	  .help = "cgroup rows only, no process rows" },
	{ .name = "depth",
	  .arg = "N",
	  .group = GROUP_ROWS,
	  .parse = parse_depth,
	  .help = "roll cgroups up to their ancestor N levels below the root (0 = root only)",
	  .expected = "a depth from 0 to 64" },
	{ .name = "containers",
	  .group = GROUP_ROWS,
	  .parse = set_containers,
	  .help = "name cgroup rows by container (docker, containerd, Kubernetes, CRI-O, "
		  "podman, LXC) or systemd unit; a Kubernetes container as NAMESPACE/POD/"
		  "CONTAINER, from its runtime's state on this node" },
	{ .name = "group-by",
	  .arg = "BY",
	  .group = GROUP_ROWS,
	  .parse = parse_group_by,
	  .help = "with --containers (implied): container (default), or roll Kubernetes "
		  "containers up to their pod or namespace, in rows and in /metrics",
	  .expected = "container, pod or namespace" },
	{ .name = "runtime-root",
	  .arg = "RUNTIME=DIR",
	  .group = GROUP_ROWS,
	  .parse = parse_runtime_root,
	  .repeatable = true,
	  .help = "where a container runtime keeps its containers' state, read for their "
		  "Kubernetes names: RUNTIME is containerd, crio-run, crio (podman's too) or "
		  "docker; an empty DIR: don't look there (defaults: tdtrace(8), FILES)",
	  .expected = "RUNTIME=DIR, RUNTIME one of containerd, crio-run, crio, docker, and DIR "
		      "absolute or empty" },

	{ .name = "listen",
	  .arg = "[ADDR:]PORT",
	  .group = GROUP_EXPORT,
	  .parse = parse_listen,
	  .help = "serve /metrics on PORT (ADDR 127.0.0.1 unless given; [::1]:PORT for "
		  "IPv6) for Prometheus, OpenMetrics when asked; prints nothing on stdout "
		  "unless --json, --table or -o asks for it",
	  .expected = "[ADDR:]PORT with a numeric ADDR (or localhost) and a PORT from 1 to 65535" },
	{ .name = "listen-processes",
	  .arg = "N",
	  .group = GROUP_EXPORT,
	  .parse = parse_listen_processes,
	  .help = "also export the N busiest processes (default 0: cgroups only)",
	  .expected = "a process count from 0 to 10000" },
	{ .name = "listen-grace",
	  .arg = "SECS",
	  .group = GROUP_EXPORT,
	  .parse = parse_listen_grace,
	  .help = "a cgroup whose counts stop moving leaves /metrics after SECS (default "
		  "300), so series of exited containers do not pile up",
	  .expected = "seconds from 1 to 604800" },
	{ .name = "table",
	  .group = GROUP_EXPORT,
	  .parse = set_table,
	  .help = "with --listen, print the tables too" },

	{ .name = "self-stats",
	  .group = GROUP_SETUP,
	  .parse = set_self_stats,
	  .help = "measure what each of tdtrace's BPF programs costs (runs, ns per run) and "
		  "print it in the summary (costs a little itself)" },
	{ .name = "btf",
	  .arg = "FILE",
	  .group = GROUP_SETUP,
	  .parse = parse_btf,
	  .help = "kernel BTF for CO-RE (default /sys/kernel/btf/vmlinux)",
	  .expected = "a file name" },
	{ .name = "max-tasks",
	  .arg = "N",
	  .group = GROUP_SETUP,
	  .parse = parse_max_tasks,
	  .help = "map size in (task, cgroup) entries, and exited processes kept for the "
		  "summary (default: 4 per process at start, per thread with -t, at most 2 per pid_max, "
		  "at least 10240, at most 1% of memory; --probe says how many)",
	  .expected = "an entry count from 16 to 4000000" },
	{ .name = "max-cgroups",
	  .arg = "N",
	  .group = GROUP_SETUP,
	  .parse = parse_max_cgroups,
	  .help = "map size with --per-cgroup (default 4096)",
	  .expected = "an entry count from 16 to 1000000" },
	{ .name = "verbose",
	  .letter = 'v',
	  .group = GROUP_SETUP,
	  .parse = set_verbose,
	  .help = "print libbpf's debug output, and what the verifier processed for each BPF "
		  "program" },

	{ .name = "probe",
	  .group = GROUP_INFO,
	  .parse = set_probe,
	  .help = "print what this machine supports, and exit" },
	{ .name = "help",
	  .letter = 'h',
	  .group = GROUP_INFO,
	  .action = OPTION_HELP,
	  .help = "this text" },
	{ .name = "version",
	  .letter = 'V',
	  .group = GROUP_INFO,
	  .action = OPTION_VERSION,
	  .help = "print the version" },

	{ .name = "sysfs-root",
	  .arg = "DIR",
	  .parse = parse_sysfs_root,
	  .expected = "a directory",
	  .hidden = "tests: read sysfs and /proc under DIR, a fake machine (fixtures of CPUs "
		    "this one is not); as perf's tests point it at fake sysfs trees" },
	{ .name = "test-members",
	  .arg = "LIST",
	  .parse = parse_test_members,
	  .expected = "software event names",
	  .hidden = "tests: software counters as group members, implies --software, so that "
		    "the member read paths run on machines without a PMU" },
	{ .name = "test-replan",
	  .arg = "LIST",
	  .parse = parse_test_replan,
	  .expected = "software event names",
	  .hidden = "tests: with --test-members, the members (as LIST there) counted once the "
		    "NMI watchdog is on, and those of --test-members once it is off: the "
		    "watchdog's mid-run re-plan runs on machines without a PMU" },
};

const int nr_option_rows = sizeof(option_rows) / sizeof(option_rows[0]);
