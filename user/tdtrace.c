// SPDX-License-Identifier: GPL-2.0
/*
 * tdtrace: TopDown per process and per cgroup, attributed at sched_switch.
 *
 * discover (pmu.c) -> open (counters.c, perf_open.c) -> BPF attribute
 * (bpf/tdtrace.bpf.c) -> collect (collect.c) -> decode (entries.c,
 * decode.c, report.c) -> output (output_table.c, output_json.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "tdtrace.h" /* before the skeleton, whose .bss uses its types */
#include "tdtrace.skel.h"
#include "host/cgroupfs.h"
#include "tracer/collect.h"
#include "model/counters.h"
#include "cli/options.h"
#include "output/file.h"
#include "tracer/perf_open.h"
#include "host/pmu.h"
#include "host/preflight.h"
#include "output/probe.h"
#include "model/report.h"
#include "output/json.h"
#include "output/table.h"
#include "host/targets.h"

static volatile sig_atomic_t exiting, exiting_by_kill, child_exited;

static void on_signal(int sig, siginfo_t *info, void *ucontext)
{
	exiting = sig;
	/* kill(1) and friends (si_code <= 0), not the terminal, which signals COMMAND too. */
	exiting_by_kill = info->si_code <= 0;
}

static void on_sigchld(int sig)
{
	child_exited = 1;
}

static bool verbose;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (!verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Sleep until @deadline (CLOCK_MONOTONIC), or until one of the @n pidfds
 * turns readable (a -p process exited), or a signal arrives (EINTR): the
 * loop then looks at `exiting`, `child_exited` and the pidfds.
 */
static void sleep_until(double deadline, const int *pidfds, int n, const sigset_t *unblocked)
{
	struct pollfd fds[TD_MAX_PIDS];
	double left = deadline - now(CLOCK_MONOTONIC);
	struct timespec ts;
	int nfds = 0;

	if (left <= 0)
		return;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - (time_t)left) * 1e9);
	for (int i = 0; i < n; i++)
		if (pidfds[i] >= 0)
			fds[nfds++] = (struct pollfd){ .fd = pidfds[i], .events = POLLIN };
	/* Signals are delivered only here: none slips in between a flag check and the sleep. */
	ppoll(fds, nfds, &ts, unblocked);
}

static struct bpf_map *counter_map(struct tdtrace *skel, int role)
{
	struct bpf_map *maps[TD_MAX_COUNTERS] = {
		skel->maps.td_counter_0, skel->maps.td_counter_1, skel->maps.td_counter_2,
		skel->maps.td_counter_3, skel->maps.td_counter_4, skel->maps.td_counter_5,
		skel->maps.td_counter_6, skel->maps.td_counter_7, skel->maps.td_counter_8,
	};
	return maps[role];
}

/* Mark the CPUs whose counters are open: the program does nothing on the others. */
static int mark_counted_cpus(struct tdtrace *skel, const struct cpu_groups *g)
{
	struct td_cpu_state *st = calloc(g->nr_cpus, sizeof(*st));
	__u32 zero = 0;
	int err = 0;

	if (!st)
		return -ENOMEM;
	for (int cpu = 0; cpu < g->nr_cpus; cpu++)
		st[cpu].counted = cpu_groups_fd(g, cpu, 0) >= 0;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.td_cpu_state), &zero, st, 0))
		err = -errno;
	free(st);
	return err;
}

/* Put every open counter fd into its perf event array, at its CPU. */
static int fill_counter_maps(struct tdtrace *skel, const struct cpu_groups *g)
{
	for (int role = 0; role < g->nr_counters; role++) {
		int map_fd = bpf_map__fd(counter_map(skel, role));

		for (int cpu = 0; cpu < g->nr_cpus; cpu++) {
			int fd = cpu_groups_fd(g, cpu, role);
			__u32 key = cpu;

			if (fd >= 0 && bpf_map_update_elem(map_fd, &key, &fd, BPF_ANY))
				return -errno;
		}
	}
	return 0;
}

/*
 * cur = the maps now; delta = cur - prev; total += delta. Then the entries
 * of tasks that exited and were not charged for a whole interval leave the
 * map (their counts are in total). Reports its own error.
 */
static int read_delta(struct collector *coll, struct entry_set *prev, struct entry_set *cur,
		      struct entry_set *delta, struct entry_set *total)
{
	int err = collector_read(coll, cur);

	if (!err)
		err = entries_diff(prev, cur, delta);
	if (!err)
		err = entries_add(total, delta);
	if (!err) {
		err = collector_evict_exited(coll, prev, cur);
		err = err > 0 ? 0 : err;
	}
	if (err)
		fprintf(stderr, "tdtrace: failed to read BPF maps: %s\n", strerror(-err));
	return err;
}

/* Print one report; returns 0, or -EPIPE/-errno when the output is gone. */
static int emit(const struct options *o, struct output_file *out, struct report *r,
		const struct entry_set *s, struct snapshot *view, struct cgroup_names *names)
{
	int err;

	/* Each interval must add up exactly (see struct td_val): say so if one does not. */
	r->conserved = entries_conserved(s, r->counters->nr, !r->counters->software);
	if (!r->conserved)
		fprintf(stderr,
			"tdtrace: %s %u: entries, overflow and untraced do not add up to the "
			"per-CPU totals: counts may be missing\n",
			r->summary ? "summary after interval" : "interval", r->interval);
	if (entries_view(s, !o->per_cgroup, view) || report_build(r, view, names))
		return -ENOMEM;
	err = output_file_begin(out);
	if (!err) {
		if (o->json)
			output_json(out->f, r);
		else
			output_table(out->f, r, o->top);
	}
	report_free(r);
	return err ? err : output_file_end(out);
}

/* Hybrid parts: the E-cores (cpu_atom) have no TopDown metrics. Say which CPUs go. */
static void leave_out_uncovered(bool *cpus, const struct pmu_info *pmu)
{
	bool *left = calloc(PMU_MAX_CPUS, sizeof(*left));
	char list[256];
	int n = 0;

	if (!left)
		return;
	for (int cpu = 0; cpu < PMU_MAX_CPUS; cpu++) {
		left[cpu] = cpus[cpu] && !pmu->cpus[cpu];
		n += left[cpu];
		cpus[cpu] = cpus[cpu] && pmu->cpus[cpu];
	}
	if (n) {
		if (pmu_format_cpu_list(left, PMU_MAX_CPUS, list, sizeof(list)) < 0)
			strcpy(list + sizeof(list) - 4, "...");
		fprintf(stderr, "tdtrace: leaving out CPUs %s: not covered by PMU %s%s\n", list,
			pmu->name, pmu->hybrid ? " (E-cores have no TopDown metrics)" : "");
	}
	free(left);
}

/* -c: resolve every path; the BPF filter takes (id, level) pairs, rows the paths. */
static int resolve_cgroups(const struct options *o, const char *mount, struct tdtrace *skel,
			   char **roots)
{
	char err[PATH_MAX + 256];

	if (o->nr_cgroups && !mount) {
		fprintf(stderr, "tdtrace: -c needs cgroup v2, and none is mounted\n");
		return -ENOENT;
	}
	for (int i = 0; i < o->nr_cgroups; i++) {
		struct cgroup_target t;

		if (target_cgroup(mount, o->cgroups[i], &t, err, sizeof(err))) {
			fprintf(stderr, "tdtrace: %s\n", err);
			return -ENOENT;
		}
		skel->rodata->cgroup_filter_id[i] = t.id;
		skel->rodata->cgroup_filter_level[i] = t.level;
		roots[i] = strdup(t.rel);
		if (!roots[i])
			return -ENOMEM;
	}
	skel->rodata->nr_cgroup_filters = o->nr_cgroups;
	return 0;
}

/* -p: each PID must exist now; a thread id stands for its process. */
static int resolve_pids(struct options *o, int *pidfds)
{
	for (int i = 0; i < o->nr_pids; i++) {
		pid_t tgid;

		if (target_pid(o->pids[i], &tgid)) {
			fprintf(stderr, "tdtrace: no process with PID %d\n", (int)o->pids[i]);
			return -ESRCH;
		}
		o->pids[i] = tgid;
		/* A pidfd turns readable when that very process exits, PID reuse or not. */
		pidfds[i] = syscall(SYS_pidfd_open, tgid, 0);
	}
	return 0;
}

/* Add a traced process; start time 0 is filled in by BPF at first sight. */
static int trace_tgid(struct tdtrace *skel, pid_t tgid)
{
	__u32 key = tgid;
	__u64 start = 0;

	if (bpf_map_update_elem(bpf_map__fd(skel->maps.td_traced_tgids), &key, &start, BPF_ANY))
		return -errno;
	return 0;
}

/* True once every -p process has exited (their pidfds are readable). */
static bool all_exited(const int *pidfds, int n)
{
	for (int i = 0; i < n; i++) {
		struct pollfd p = { .fd = pidfds[i], .events = POLLIN };

		if (pidfds[i] < 0 || poll(&p, 1, 0) != 1)
			return false;
	}
	return n > 0;
}

/*
 * --per-cgroup without targets: trigger on each CPU's cgroup-switches event
 * instead of every sched_switch. Returns false (sched_switch stays) if the
 * kernel has no such event (before 5.13) or any CPU's fails to open.
 */
static bool open_cgroup_switches(struct cpu_groups *g, const bool *cpus)
{
	struct counter_set set;
	FILE *quiet = fopen("/dev/null", "w");
	int err;

	counters_cgroup_switches(&set);
	err = cpu_groups_open(g, &set, cpus, libbpf_num_possible_cpus(), quiet ? quiet : stderr);
	if (quiet)
		fclose(quiet);
	for (int cpu = 0; !err && cpu < g->nr_cpus; cpu++)
		if (cpus[cpu] && cpu_groups_fd(g, cpu, 0) < 0)
			err = -ENODEV;
	if (err)
		cpu_groups_close(g);
	return !err;
}

static int attach_cgroup_switches(struct tdtrace *skel, const struct cpu_groups *g,
				  struct bpf_link **links)
{
	for (int cpu = 0; cpu < g->nr_cpus; cpu++) {
		int fd = cpu_groups_fd(g, cpu, 0);

		if (fd < 0)
			continue;
		links[cpu] = bpf_program__attach_perf_event(skel->progs.td_cgroup_switch, fd);
		if (!links[cpu])
			return -errno;
	}
	return 0;
}

static void detach_cgroup_switches(struct bpf_link **links, int n)
{
	for (int cpu = 0; links && cpu < n; cpu++) {
		bpf_link__destroy(links[cpu]);
		links[cpu] = NULL;
	}
}

/*
 * Read the metric members directly after one leader read (one TopDown
 * update per switch) only if td_selfcheck, run on every counted CPU, found
 * those reads equal to helper reads. Says which on stderr.
 */
static int choose_member_reads(struct tdtrace *skel, const struct cpu_groups *g)
{
	int fd = bpf_program__fd(skel->progs.td_selfcheck);
	const struct td_selfcheck *c = &skel->bss->selfcheck;

	for (int cpu = 0; cpu < g->nr_cpus; cpu++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);

		if (cpu_groups_fd(g, cpu, 0) >= 0 && bpf_prog_test_run_opts(fd, &opts))
			return -errno;
	}
	/* Equal, or behind by under 1% (counts still growing between the two reads). */
	skel->bss->members_direct = c->reads && !c->behind && !c->ahead && !c->failed;
	fprintf(stderr,
		"tdtrace: %s (self-check: %llu of %llu member reads equal, %llu stale, %llu "
		"ahead, %llu failed)\n",
		skel->bss->members_direct ? "members read directly after one leader read"
					  : "members read with one helper call each",
		(unsigned long long)c->equal, (unsigned long long)c->reads,
		(unsigned long long)c->behind, (unsigned long long)c->ahead,
		(unsigned long long)c->failed);
	return 0;
}

/* The sched_switch program's run count and total run time, from the kernel. */
static void self_cost(struct tdtrace *skel, unsigned long long *runs, unsigned long long *ns)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	*runs = *ns = 0;
	if (bpf_obj_get_info_by_fd(bpf_program__fd(skel->progs.td_switch), &info, &len))
		return;
	*runs = info.run_cnt;
	*ns = info.run_time_ns;
}

/* The shell's convention: the exit code, or 128 + the signal that killed it. */
static int command_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void no_topdown_error(const struct pmu_info *pmu)
{
	fprintf(stderr,
		"tdtrace: no TopDown counters on this CPU (%s%s%s): %s; "
		"use --software for CPU time per process and cgroup\n",
		pmu->vendor[0] ? pmu->vendor : "unknown vendor", pmu->model[0] ? ", " : "",
		pmu->model, pmu->why);
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts);
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };
	sigset_t blocked, unblocked;
	struct entry_set sets[2] = {}, delta = {}, total = {};
	struct entry_set *prev = &sets[0], *cur = &sets[1], *swap;
	struct snapshot view = {};
	struct cgroup_names names = {};
	struct cpu_groups groups = {}, cgroup_switches = {};
	struct bpf_link **cgsw_links = NULL;
	bool on_cgroup_switch = false;
	struct collector coll = {};
	struct counter_set cs = {};
	struct tdtrace *skel = NULL;
	struct pmu_info *pmu = NULL;
	struct command cmd = { .pid = -1, .gate_fd = -1, .exec_fd = -1 };
	struct output_file out = {};
	int pidfds[TD_MAX_PIDS];
	int forwarded = 0;
	struct cgroup_rows_opts row_opts = { .depth = -1 };
	char *roots[TD_MAX_CGROUP_FILTERS] = {};
	struct options opts;
	struct report rep;
	char mount[4096];
	bool *cpus = NULL; /* CPUs to count, then CPUs counted */
	double t_start, t_end, t_read, t_prev_read, deadline, wake, interval;
	unsigned int printed = 0, entries_size;
	bool finished = false; /* the summary is out */
	int err, ret = EXIT_FAIL, cmd_status = 0, stats_fd = -1;

	switch (options_parse(argc, argv, &opts, stdout, stderr)) {
	case OPTIONS_DONE:
		return EXIT_OK;
	case OPTIONS_BAD:
		return EXIT_USAGE;
	case OPTIONS_RUN:
		break;
	}
	verbose = opts.verbose;
	/*
	 * Each interval builds and frees arrays of a few MiB (10,000 tasks):
	 * keep them in the heap, rather than mmap fresh zeroed pages every
	 * second (that was a fifth of tdtrace's CPU time).
	 */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	for (int i = 0; i < TD_MAX_PIDS; i++)
		pidfds[i] = -1;
	libbpf_set_print(libbpf_print);

	/* discover */
	pmu = calloc(1, sizeof(*pmu));
	cpus = calloc(PMU_MAX_CPUS, sizeof(*cpus));
	if (!pmu || !cpus) {
		fprintf(stderr, "tdtrace: out of memory\n");
		goto cleanup;
	}
	err = pmu_discover(opts.sysfs_root, pmu);
	if (err) {
		fprintf(stderr, "tdtrace: failed to read PMUs under %s: %s\n",
			options_shown(opts.sysfs_root, (size_t)-1), strerror(-err));
		goto cleanup;
	}
	if (opts.probe) {
		ret = probe_print(stdout, pmu, &opts);
		goto cleanup;
	}
	if (opts.test_members) {
		if (counters_software_members(&cs, opts.test_members)) {
			fprintf(stderr, "tdtrace: invalid value '%s' for --test-members\n",
				options_shown(opts.test_members, (size_t)-1));
			ret = EXIT_USAGE;
			goto cleanup;
		}
	} else if (opts.software) {
		counters_software(&cs);
	} else if (counters_topdown(pmu, &cs)) {
		no_topdown_error(pmu);
		ret = EXIT_USAGE;
		goto cleanup;
	}
	if (!have_privileges()) {
		fprintf(stderr,
			"tdtrace: needs root, or CAP_BPF and CAP_PERFMON: run it with sudo\n");
		goto cleanup;
	}
	err = output_file_open(&out, opts.output);
	if (err) {
		fprintf(stderr, "tdtrace: failed to open output file %s: %s\n",
			options_shown(opts.output, (size_t)-1), strerror(-err));
		goto cleanup;
	}
	open_opts.btf_custom_path = opts.btf_path;
	err = check_btf(opts.btf_path ? opts.btf_path : TD_KERNEL_BTF);
	if (err) {
		fprintf(stderr,
			"tdtrace: no kernel BTF at %s: %s; needs a kernel with "
			"CONFIG_DEBUG_INFO_BTF=y (5.10 or later), or --btf FILE\n",
			options_shown(opts.btf_path ? opts.btf_path : TD_KERNEL_BTF, (size_t)-1),
			strerror(-err));
		goto cleanup;
	}
	if (cgroup2_find_mount("/proc/self/mountinfo", mount, sizeof(mount))) {
		if (!opts.nr_cgroups)
			fprintf(stderr,
				"tdtrace: no cgroup v2 mounted: per-cgroup rows need cgroup "
				"v2; process rows still work\n");
		mount[0] = '\0';
		cgroup_names_init(&names, NULL);
	} else if (cgroup_names_init(&names, mount)) {
		fprintf(stderr, "tdtrace: out of memory\n");
		goto cleanup;
	}
	if (resolve_pids(&opts, pidfds))
		goto cleanup;

	/* open: every online CPU, less those the TopDown PMU does not cover */
	if (read_online_cpus(opts.sysfs_root, cpus, PMU_MAX_CPUS) <= 0) {
		fprintf(stderr, "tdtrace: failed to read the online CPUs from sysfs\n");
		goto cleanup;
	}
	if (!cs.software)
		leave_out_uncovered(cpus, pmu);
	err = cpu_groups_open(&groups, &cs, cpus, libbpf_num_possible_cpus(), stderr);
	if (err) {
		fprintf(stderr, "tdtrace: failed to open counters on any CPU: %s\n",
			groups.first_failure[0] ? groups.first_failure : strerror(-err));
		goto cleanup;
	}
	for (int cpu = 0; cpu < groups.nr_cpus; cpu++)
		cpus[cpu] = cpu_groups_fd(&groups, cpu, 0) >= 0;

	/* BPF: open -> configure -> load -> fill -> attach */
	skel = tdtrace__open_opts(&open_opts);
	if (!skel) {
		fprintf(stderr, "tdtrace: failed to open BPF object: %s\n", strerror(errno));
		goto cleanup;
	}
	skel->rodata->nr_counters = cs.nr;
	skel->rodata->per_thread = opts.per_thread;
	skel->rodata->charge_tasks = !opts.per_cgroup;
	skel->rodata->track_times = !cs.software;
	skel->rodata->filter_pids = opts.nr_pids || opts.command;
	if (resolve_cgroups(&opts, mount[0] ? mount : NULL, skel, roots))
		goto cleanup;
	row_opts.roots = (const char *const *)roots;
	row_opts.nr_roots = opts.nr_cgroups;
	row_opts.depth = opts.depth;
	row_opts.containers = opts.containers;
	/*
	 * --per-cgroup alone: a switch between tasks of one cgroup changes no
	 * row, so trigger on cgroup changes only and leave sched_switch alone.
	 */
	on_cgroup_switch = opts.per_cgroup && !skel->rodata->filter_pids && !opts.nr_cgroups &&
			   open_cgroup_switches(&cgroup_switches, cpus);
	bpf_program__set_autoload(skel->progs.td_cgroup_switch, on_cgroup_switch);
	bpf_program__set_autoload(skel->progs.td_idle, on_cgroup_switch);
	bpf_program__set_autoattach(skel->progs.td_switch, !on_cgroup_switch);
	/* Following forks costs a program on every fork: load it only when needed. */
	bpf_program__set_autoload(skel->progs.td_fork,
				  skel->rodata->filter_pids && !opts.no_children);
	bpf_map__set_max_entries(skel->maps.td_traced_tgids, opts.max_tasks);
	/* Indexed by CPU, read across CPUs by td_attach: plain arrays, one slot per CPU. */
	bpf_map__set_max_entries(skel->maps.td_running, libbpf_num_possible_cpus());
	bpf_map__set_max_entries(skel->maps.td_moves, libbpf_num_possible_cpus());
	skel->rodata->nr_cpu_ids = libbpf_num_possible_cpus();
	/* One entry per (task, cgroup); with --per-cgroup, per cgroup. */
	entries_size = opts.per_cgroup ? opts.max_cgroups : opts.max_tasks;
	bpf_map__set_max_entries(skel->maps.td_entries, entries_size);
	err = tdtrace__load(skel);
	if (err) {
		char why[128];

		/* libbpf's own codes (4001 and up) mean nothing to strerror. */
		libbpf_strerror(err, why, sizeof(why));
		if (opts.btf_path)
			fprintf(stderr,
				"tdtrace: failed to load BPF program with --btf %s: %s; is it this "
				"kernel's BTF? (-v shows libbpf's log)\n",
				options_shown(opts.btf_path, (size_t)-1), why);
		else
			fprintf(stderr,
				"tdtrace: failed to load BPF program: %s (-v shows the verifier "
				"log)\n",
				why);
		goto cleanup;
	}
	err = fill_counter_maps(skel, &groups);
	if (!err)
		err = mark_counted_cpus(skel, &groups);
	if (!err)
		err = cpu_groups_enable(&groups);
	if (!err && cs.nr > 1)
		err = choose_member_reads(skel, &groups);
	if (err) {
		fprintf(stderr, "tdtrace: failed to set up counters: %s\n", strerror(-err));
		goto cleanup;
	}
	err = collector_init(&coll, bpf_map__fd(skel->maps.td_entries),
			     bpf_map__fd(skel->maps.td_totals), entries_size,
			     bpf_program__fd(skel->progs.td_flush), cpus);
	if (err) {
		fprintf(stderr, "tdtrace: failed to set up map reading: %s\n", strerror(-err));
		goto cleanup;
	}
	for (int i = 0; i < opts.nr_pids && !err; i++)
		err = trace_tgid(skel, opts.pids[i]);
	if (!err && opts.command) {
		/* Held at a gate until attached: traced from its first instruction. */
		err = command_start(opts.command, &cmd);
		if (!err)
			err = trace_tgid(skel, cmd.pid);
	}
	if (err) {
		fprintf(stderr, "tdtrace: failed to set up targets: %s\n", strerror(-err));
		goto cleanup;
	}
	if (opts.self_stats) {
		/* Stats stay on while this fd is open: nothing to undo at exit, even SIGKILL. */
		stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (stats_fd < 0) {
			fprintf(stderr, "tdtrace: failed to enable BPF run-time stats: %s\n",
				strerror(errno));
			goto cleanup;
		}
	}
	err = tdtrace__attach(skel);
	if (!err && on_cgroup_switch) {
		cgsw_links = calloc(cgroup_switches.nr_cpus, sizeof(*cgsw_links));
		err = cgsw_links ? attach_cgroup_switches(skel, &cgroup_switches, cgsw_links)
				 : -ENOMEM;
	}
	if (err) {
		fprintf(stderr, "tdtrace: failed to attach BPF programs: %s\n", strerror(-err));
		goto cleanup;
	}

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* the terminal went away: stop with a summary */
	signal(SIGPIPE, SIG_IGN); /* a closed stdout or FIFO shows as EPIPE from fflush */
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP; /* a stopped COMMAND has not exited */
	sigaction(SIGCHLD, &sa, NULL);
	/* Held until ppoll: output writes are never cut short by EINTR either. */
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGTERM);
	sigaddset(&blocked, SIGHUP);
	sigaddset(&blocked, SIGCHLD);
	sigprocmask(SIG_BLOCK, &blocked, &unblocked);

	err = collector_read(&coll, prev);
	if (err) {
		fprintf(stderr, "tdtrace: failed to read BPF maps: %s\n", strerror(-err));
		goto cleanup;
	}
	if (opts.command) {
		err = command_release(&cmd);
		if (err) {
			fprintf(stderr, "tdtrace: failed to run '%s': %s\n",
				options_shown(opts.command[0], (size_t)-1), strerror(-err));
			goto cleanup;
		}
	}
	t_start = t_prev_read = deadline = now(CLOCK_MONOTONIC);
	interval = opts.interval_ms / 1000.0;
	t_end = opts.duration_s > 0 ? t_start + opts.duration_s : 0;
	fprintf(stderr, "tdtrace: counting %s on %d CPUs%s%s; Ctrl-C to stop\n",
		cs.software ? "cpu-clock (--software)"
			    : (cs.level == 2 ? "TopDown L1+L2" : "TopDown L1"),
		groups.nr_open, opts.per_thread ? " per thread" : "",
		on_cgroup_switch ? " at cgroup switches" : "");

	memset(&rep, 0, sizeof(rep));
	rep.counters = &cs;
	rep.nr_cpus = groups.nr_open;
	rep.per_thread = opts.per_thread;
	rep.filtered = opts.nr_cgroups || opts.nr_pids || opts.command;
	rep.per_cgroup = opts.per_cgroup;
	rep.cgroup_opts = &row_opts;
	/* A table shows --top rows: the rest need no sorting. */
	rep.limit = opts.json ? 0 : opts.top;

	/* collect -> decode -> output, every interval */
	for (;;) {
		/* The next boundary; those missed while output was blocked are skipped. */
		deadline += interval;
		if (deadline < now(CLOCK_MONOTONIC))
			deadline += ceil((now(CLOCK_MONOTONIC) - deadline) / interval) * interval;
		wake = t_end && deadline > t_end ? t_end : deadline;
		while (now(CLOCK_MONOTONIC) < wake - 1e-4 && !exiting && !child_exited &&
		       !all_exited(pidfds, opts.nr_pids))
			sleep_until(wake, pidfds, opts.nr_pids, &unblocked);
		if (cmd.pid > 0 && child_exited) {
			int status;

			child_exited = 0;
			if (waitpid(cmd.pid, &status, WNOHANG) == cmd.pid) {
				cmd.pid = -1;
				cmd_status = command_status(status);
				break; /* the command is done: the summary covers the rest */
			}
			deadline -= interval;
			continue;
		}
		if (exiting && cmd.pid > 0) {
			/* SIGINT/SIGTERM: pass it on (unless the terminal did) and stop with
			 * COMMAND. */
			if (exiting_by_kill && forwarded != exiting)
				kill(cmd.pid, exiting);
			forwarded = exiting;
			exiting = 0;
			deadline -= interval;
			continue;
		}
		if (exiting)
			break; /* interrupted: the summary covers the rest */
		if (all_exited(pidfds, opts.nr_pids)) {
			fprintf(stderr, "tdtrace: every process given with -p has exited\n");
			break; /* the summary covers the rest */
		}

		if (read_delta(&coll, prev, cur, &delta, &total))
			goto cleanup;
		/* Durations are measured, not planned: a late read covers more time. */
		t_read = now(CLOCK_MONOTONIC);
		rep.interval = ++printed;
		rep.timestamp = now(CLOCK_REALTIME);
		rep.elapsed_s = t_read - t_start;
		rep.duration_s = t_read - t_prev_read;
		err = emit(&opts, &out, &rep, &delta, &view, &names);
		if (err == -EPIPE) {
			ret = EXIT_OK; /* `tdtrace | head`: the reader has what it wanted */
			goto cleanup;
		}
		if (err) {
			fprintf(stderr, "tdtrace: failed to write output: %s\n", strerror(-err));
			goto cleanup;
		}
		swap = prev;
		prev = cur;
		cur = swap;
		/* Memory stays bounded however many tasks come and go. */
		entries_fold_exited(&total, opts.max_tasks);
		t_prev_read = t_read;
		if (t_end && t_read >= t_end - 1e-4)
			break;
	}
	/* -d may end just as COMMAND does: take its status rather than kill it. */
	if (cmd.pid > 0) {
		int status;

		if (waitpid(cmd.pid, &status, WNOHANG) == cmd.pid) {
			cmd.pid = -1;
			cmd_status = command_status(status);
		}
	}

	/* Whole run: stop the programs, charge the running slices, read once more. */
	tdtrace__detach(skel);
	detach_cgroup_switches(cgsw_links, cgroup_switches.nr_cpus);
	rep.self_stats = opts.self_stats;
	if (opts.self_stats)
		self_cost(skel, &rep.self_runs, &rep.self_ns);
	if (read_delta(&coll, prev, cur, &delta, &total))
		goto cleanup;
	rep.summary = true;
	rep.timestamp = now(CLOCK_REALTIME);
	rep.elapsed_s = rep.duration_s = now(CLOCK_MONOTONIC) - t_start;
	err = emit(&opts, &out, &rep, &total, &view, &names);
	if (err && err != -EPIPE) {
		fprintf(stderr, "tdtrace: failed to write output: %s\n", strerror(-err));
		goto cleanup;
	}
	ret = opts.command ? cmd_status : EXIT_OK;
	finished = true;

cleanup:
	output_file_close(&out, !finished);
	if (stats_fd >= 0)
		close(stats_fd);
	command_abort(&cmd);
	for (int i = 0; i < TD_MAX_CGROUP_FILTERS; i++)
		free(roots[i]);
	for (int i = 0; i < TD_MAX_PIDS; i++)
		if (pidfds[i] >= 0)
			close(pidfds[i]);
	detach_cgroup_switches(cgsw_links, cgroup_switches.nr_cpus);
	free(cgsw_links);
	tdtrace__destroy(skel);
	cpu_groups_close(&cgroup_switches);
	cpu_groups_close(&groups);
	collector_free(&coll);
	entries_free(&sets[0]);
	entries_free(&sets[1]);
	entries_free(&delta);
	entries_free(&total);
	snapshot_free(&view);
	cgroup_names_free(&names);
	free(cpus);
	free(pmu);
	return ret;
}
