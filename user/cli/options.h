/* SPDX-License-Identifier: GPL-2.0 */
/* Command line: parse and validate, nothing else. */
#ifndef TD_OPTIONS_H
#define TD_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "tdtrace.h"

#define TD_MAX_PIDS	1024
#define TDTRACE_VERSION "0.1"

/* Exit codes, documented in the README and --help. */
#define EXIT_OK		0
#define EXIT_FAIL	1   /* runtime failure: privileges, BTF, counters, targets */
#define EXIT_USAGE	2   /* bad command line, or no TopDown PMU without --software */
#define EXIT_CANNOT_RUN 126 /* COMMAND was found but could not be executed */
#define EXIT_NOT_FOUND	127 /* COMMAND was not found */

/* --format */
enum output_format {
	FORMAT_TABLE,
	FORMAT_JSON,	   /* -j: tdtrace's JSON lines */
	FORMAT_PERF_JSON,  /* perf stat -j's lines */
	FORMAT_PERF_CSV,   /* perf stat -x SEP's columns */
	FORMAT_TOPLEV_CSV, /* toplev -x, -o's CSV */
};

struct options {
	unsigned int interval_ms;  /* -I */
	double duration_s;	   /* -d; 0 = until SIGINT/SIGTERM */
	unsigned int top;	   /* --top rows per table */
	bool json;		   /* --format=json (-j) */
	enum output_format format; /* --format, -j, -x */
	const char *csv_sep;	   /* -x SEP, "," for --format=perf-csv */
	bool format_given;	   /* by -j, --format or -x */
	bool format_conflict;	   /* two of them named different formats */
	const char *toplev_split;  /* toplev-csv with -o: a DIR/ or PREFIX, no FILE */
	const char *output;	   /* -o FILE; NULL: stdout */
	bool software;
	bool per_thread;
	bool probe;
	bool verbose;
	bool self_stats;	  /* report the programs' own cost (kernel BPF run-time stats) */
	const char *test_members; /* tests: software members after cpu-clock, implies --software */
	const char *test_replan;  /* tests: the members counted once the NMI watchdog is on */
	const char *btf_path;	  /* NULL: the kernel's /sys/kernel/btf/vmlinux */
	const char *sysfs_root;	  /* "/" unless --sysfs-root (tests) */
	unsigned int max_tasks;
	bool max_tasks_given; /* else the plan sizes the map from the machine */
	unsigned int max_cgroups;
	unsigned int level; /* --level: TopDown levels counted, 1 or 2 (the default) */

	/* targets: -c and -p together mean the intersection */
	const char *cgroups[TD_MAX_CGROUP_FILTERS]; /* -c, as given */
	int nr_cgroups;
	bool wait_cgroup;	 /* --wait-cgroup: trace -c paths whenever a cgroup is there */
	pid_t pids[TD_MAX_PIDS]; /* -p */
	int nr_pids;
	bool no_children; /* -p/COMMAND: don't follow new processes */
	char **command;	  /* after --, NULL-terminated; NULL if none */

	/* --region BINARY:SYMBOL, as given; region id i + 1 is regions[i] */
	const char *regions[TD_MAX_REGIONS];
	int nr_regions;
	bool usdt;		 /* --usdt: tdtrace/region.h's markers */
	const char *usdt_binary; /* --usdt=BINARY; NULL: the -p processes' or COMMAND's */

	/* --listen: the Prometheus exporter */
	const char *listen;	       /* [ADDR:]PORT, NULL: none */
	unsigned int listen_processes; /* top processes exported, 0: none */
	unsigned int listen_grace_s;   /* a quiet cgroup's series go after this */
	bool table;		       /* tables on stdout even with --listen */

	/* rows */
	bool per_cgroup; /* cgroup rows only */
	bool containers; /* name cgroup rows by container */
	int depth;	 /* --depth: roll cgroups up to this depth; -1 = no limit */
	int group_by;	 /* --group-by: an enum cgroup_group (model/cgroup_rows.h) */

	/*
	 * --runtime-root RUNTIME=DIR: where each container runtime keeps its
	 * state on this node (host/k8s_state.h); NULL: the default, "": none.
	 */
	const char *containerd_root, *crio_run_root, *crio_root, *docker_root;
};

enum options_result {
	OPTIONS_RUN,  /* go on */
	OPTIONS_DONE, /* --help or --version printed: exit 0 */
	OPTIONS_BAD,  /* error printed: exit EXIT_USAGE */
};

/*
 * An argument as an error line may show it: at most 100 bytes, anything
 * but printable ASCII as \xHH. One static buffer: one call per message.
 */
const char *options_shown(const char *s, size_t len);

/* Parse argv into @o. Help goes to @out, the one-line error to @err. */
enum options_result options_parse(int argc, char **argv, struct options *o, FILE *out, FILE *err);

#endif /* TD_OPTIONS_H */
