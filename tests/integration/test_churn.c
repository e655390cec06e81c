// SPDX-License-Identifier: GPL-2.0
/*
 * Churn without loss: 6,000 short-lived processes (600 of them exec
 * /bin/true, 400 start 10 threads each: 4,000 threads, 600 move to a
 * child cgroup before they exit) and 300 forced PID reuses, made by
 * helpers/churn in a fresh cgroup over 12 s, while tdtrace --software
 * --json -I 500 runs. Twice: with -c on that cgroup and --max-tasks 1024,
 * then system-wide with --max-tasks 2048 plus one per process already
 * running (a busy machine's own tasks need entries too). Needs root.
 *
 * 6,000 process entries (6,600 with the movers' second cgroup) would fill
 * a 1,024-entry map six times over; they fit only because the loader
 * evicts an exited task's entries once they have stayed unchanged for a
 * whole interval. An entry lives from its task's first charge to the
 * read after the one that saw it exit: at most two intervals (1 s). The
 * churn makes 500 processes a second, so fewer than 1,024 of its entries
 * are ever live at once, and no slice may go to overflow: task_drops
 * must stay 0. The map is read every 20 ms to see its occupancy, and the
 * churn's part of it, which must be back to 0 once the churn is over.
 *
 * Checked per run: tdtrace exits 0; every interval's counts add up
 * exactly ("conserved", and recomputed from the process and cgroup
 * lines); no drops; the map never full; tdtrace's peak RSS under 64 MiB;
 * the summary's exited rows bounded by --max-tasks, the rest folded into
 * one "[exited]" row; every process the helper made shows in an interval
 * line with "exited": true, a reused PID once per process (two
 * start_ns); the exec'd ones named "true"; the cgroup's summary row
 * within 2% of its cpu.stat usage_usec.
 */
#include "itest.h"

#include "model/entries.h" /* TD_FOLDED_ID, struct td_key */
#include <linux/bpf.h>
#include <linux/types.h>
#include <math.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#define MAX_TASKS_C   1024 /* -c: only the churn's entries */
#define MAX_TASKS_ALL 2048 /* system-wide: and one per process already there */
#define CHURN_LIVE    1024 /* the churn's own entries live at once, at most */
#define RSS_LIMIT_KB  (64 * 1024)
#define TOLERANCE_PCT 2.0
#define START_MS      5000
#define CHURN_MS      12000
#define CHURN_LIMIT   40000 /* the helper's wall-time limit */
#define SETTLE_MS     1600  /* > 3 intervals: the last exits are reported, then evicted */
#define STOP_MS	      10000
#define SAMPLE_MS     20

/* What the helper is asked to make (see helpers/churn.c). */
#define PROCS	6000
#define THREADS 4000
#define EXECS	600
#define REUSES	300
#define MOVERS	600
#define WAVES	24

#define STR(x)	     stringify(x)
#define stringify(x) #x

struct run {
	bool done;
	bool system_wide;
	int max_tasks;
	const char *skip;
	char error[PATH_MAX + 1024];
	long long wall_ms;

	char cgroup[PATH_MAX];
	char moved[PATH_MAX + 8]; /* cgroup/moved, where the movers go */
	uint64_t cgroup_id, moved_id;
	uint64_t usage_usec; /* the cgroup's cpu.stat usage_usec, after less before */
	uint64_t steal_ns;   /* the hypervisor's over the same time (itest_steal_ns) */

	pid_t helper;
	int helper_exit;
	char *helper_out, *helper_err;
	long processes, threads, execs, reused, moved_procs, natural, failed;

	int exit_code; /* tdtrace's, after SIGINT */
	char *out, *err;
	json_t *lines;
	int bad_line;
	long maxrss_kb;	  /* wait4's ru_maxrss (see check_bounded) */
	long hwm_kb;	  /* its VmHWM, read until it exited */
	long map_size;	  /* td_entries' max_entries, as the kernel has it */
	long map_peak;	  /* most entries seen in it at once */
	long churn_peak;  /* most of those in the churn's two cgroups */
	long map_after;	  /* entries left once the churn had settled */
	long churn_after; /* of those, the churn's */
	int map_samples;
};

static struct run run_cgroup, run_system;
static char skip_reason[PATH_MAX + 1024];

/* ------------------------------------------------------- the BPF map */

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* tdtrace's td_entries map, opened by id from its fdinfo; -1 if not found. */
static int open_entries_map(pid_t pid, struct bpf_map_info *info)
{
	struct itest_bpf_ids ids;

	if (itest_bpf_ids_of(pid, &ids))
		return -1;
	for (int i = 0; i < ids.nr_maps; i++) {
		union bpf_attr attr;
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.map_id = ids.map[i];
		fd = sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr);
		if (fd < 0)
			continue;
		memset(info, 0, sizeof(*info));
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = fd;
		attr.info.info_len = sizeof(*info);
		attr.info.info = (uintptr_t)info;
		if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) && !strcmp(info->name, "td_entries") &&
		    info->key_size == sizeof(struct td_key))
			return fd;
		close(fd);
	}
	return -1;
}

/* Read the whole map a bucket at a time, as the loader does: how many entries, or -1. */
static long read_entries(int fd, const struct bpf_map_info *info, struct td_key *keys, char *vals)
{
	__u64 batch = 0;
	long done = 0;

	for (bool first = true;; first = false) {
		union bpf_attr attr;
		long err;

		memset(&attr, 0, sizeof(attr));
		attr.batch.map_fd = fd;
		attr.batch.in_batch = first ? 0 : (uintptr_t)&batch;
		attr.batch.out_batch = (uintptr_t)&batch;
		attr.batch.keys = (uintptr_t)(keys + done);
		attr.batch.values = (uintptr_t)(vals + done * info->value_size);
		attr.batch.count = info->max_entries - done;
		err = sys_bpf(BPF_MAP_LOOKUP_BATCH, &attr);
		if (err && errno != ENOENT)
			return -1;
		done += attr.batch.count;
		if (err || done >= (long)info->max_entries)
			return done;
	}
}

/* VmHWM of a live process in KiB, or -1. */
static long vm_hwm_kb(pid_t pid)
{
	char file[64], *text, *p;
	long kb = -1;

	snprintf(file, sizeof(file), "/proc/%d/status", (int)pid);
	text = itest_read_file(file);
	p = text ? strstr(text, "\nVmHWM:") : NULL;
	if (p)
		sscanf(p, "\nVmHWM: %ld", &kb);
	free(text);
	return kb;
}

struct watcher {
	int fd; /* td_entries, or -1 */
	struct bpf_map_info info;
	struct td_key *keys;
	char *vals;
};

/* One sample of the map and of tdtrace's memory. */
static void sample(struct run *r, struct watcher *w, pid_t td)
{
	long n = w->fd >= 0 ? read_entries(w->fd, &w->info, w->keys, w->vals) : -1;
	long hwm = vm_hwm_kb(td), churn = 0;

	if (n >= 0) {
		for (long i = 0; i < n; i++)
			churn += w->keys[i].cgroup_id == r->cgroup_id ||
				 w->keys[i].cgroup_id == r->moved_id;
		r->map_samples++;
		r->map_after = n;
		r->churn_after = churn;
		if (n > r->map_peak)
			r->map_peak = n;
		if (churn > r->churn_peak)
			r->churn_peak = churn;
	}
	if (hwm > r->hwm_kb)
		r->hwm_kb = hwm;
}

/* Sample until the helper exits (0), or until @ms have passed (-ETIMEDOUT). */
static int watch_until_exit(struct run *r, struct watcher *w, pid_t td, struct itest_proc *h,
			    long ms)
{
	long long end = itest_now_ms() + ms;

	for (;;) {
		sample(r, w, td);
		if (itest_poll_exit(h))
			return 0;
		if (itest_now_ms() >= end)
			return -ETIMEDOUT;
		itest_sleep_ms(SAMPLE_MS);
	}
}

static void watch_for(struct run *r, struct watcher *w, pid_t td, long ms)
{
	long long end = itest_now_ms() + ms;

	while (itest_now_ms() < end) {
		sample(r, w, td);
		itest_sleep_ms(SAMPLE_MS);
	}
}

/*
 * SIGINT, then reap. VmHWM is read until the process is gone, so that it
 * covers the summary too. Returns the exit code, or -1.
 */
static int stop_tdtrace(struct run *r, struct itest_proc *p)
{
	long long end = itest_now_ms() + STOP_MS;
	struct rusage ru;

	kill(p->pid, SIGINT);
	for (;;) {
		long hwm = vm_hwm_kb(p->pid);
		pid_t got = wait4(p->pid, &p->status, WNOHANG, &ru);

		if (hwm > r->hwm_kb)
			r->hwm_kb = hwm;
		if (got == p->pid) {
			p->reaped = true;
			itest_untrack(p->pid);
			r->maxrss_kb = ru.ru_maxrss;
			return itest_exit_code(p);
		}
		if (itest_now_ms() >= end)
			return -1;
		itest_sleep_ms(2);
	}
}

/* ------------------------------------------------------------ the run */

static void parse_helper(struct run *r)
{
	const char *s = r->helper_out ? strstr(r->helper_out, "churn processes") : NULL;

	if (!s || sscanf(s,
			 "churn processes %ld threads %ld execs %ld reused %ld moved %ld "
			 "natural %ld failed %ld",
			 &r->processes, &r->threads, &r->execs, &r->reused, &r->moved_procs,
			 &r->natural, &r->failed) != 7)
		snprintf(r->error, sizeof(r->error), "churn printed no summary line; stderr: %s",
			 r->helper_err ? r->helper_err : "");
}

/* Run the helper in r->cgroup while tdtrace (td) runs; fills r. Returns 0 or -1. */
static int churn(struct run *r, struct itest_proc *td)
{
	/* argv[0] is filled in below. */
	char *argv[] = { NULL,	      "-p", STR(PROCS),	 "-t", STR(THREADS),  "-e",
			 STR(EXECS),  "-r", STR(REUSES), "-m", r->moved,      "-M",
			 STR(MOVERS), "-w", STR(WAVES),	 "-d", STR(CHURN_MS), NULL };
	struct watcher w = { .fd = -1 };
	uint64_t before = 0, after = 0;
	struct itest_proc h;
	int err;

	argv[0] = (char *)itest_helper_path("churn");
	w.fd = open_entries_map(td->pid, &w.info);
	if (w.fd >= 0) {
		r->map_size = w.info.max_entries;
		w.keys = calloc(w.info.max_entries, sizeof(*w.keys));
		w.vals = calloc(w.info.max_entries, w.info.value_size);
	}
	err = itest_spawn(&h, argv, ITEST_STDIN_PIPE);
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot start %s: %s", argv[0],
			 strerror(-err));
		goto out;
	}
	r->helper = h.pid;
	err = itest_cgroup_move(r->cgroup, h.pid);
	if (!err)
		err = itest_cgroup_usage_usec(r->cgroup, &before);
	r->steal_ns = itest_steal_ns();
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot move churn into %s: %s", r->cgroup,
			 strerror(-err));
		goto out;
	}
	if (write(h.in_pipe, "g", 1) != 1) {
		snprintf(r->error, sizeof(r->error), "cannot start churn: %s", strerror(errno));
		goto out;
	}
	if (watch_until_exit(r, &w, td->pid, &h, CHURN_LIMIT)) {
		snprintf(r->error, sizeof(r->error), "churn did not finish in %d ms", CHURN_LIMIT);
		goto out;
	}
	/* Every process of the subtree is reaped: its usage is final. */
	err = itest_cgroup_usage_usec(r->cgroup, &after);
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot read %s/cpu.stat: %s", r->cgroup,
			 strerror(-err));
		goto out;
	}
	r->usage_usec = after - before;
	r->steal_ns = itest_steal_ns() - r->steal_ns;
	r->helper_exit = itest_exit_code(&h);
	r->helper_out = itest_stdout(&h);
	r->helper_err = itest_stderr(&h);
	parse_helper(r);
	/* Let the last exits be reported, and their entries leave the map. */
	watch_for(r, &w, td->pid, SETTLE_MS);
out:
	if (w.fd >= 0)
		close(w.fd); /* before tdtrace exits: the map must not outlive it */
	free(w.keys);
	free(w.vals);
	itest_proc_release(&h);
	return r->error[0] ? -1 : 0;
}

/* The cgroup and its child "moved"; 0, or -1 with r->skip or r->error set. */
static int make_cgroups(struct run *r)
{
	char mnt[PATH_MAX];
	int err;

	if (itest_cgroup2_mount(mnt, sizeof(mnt))) {
		r->skip = "no cgroup v2 mounted (the churn runs in a cgroup of its own)";
		return -1;
	}
	err = itest_cgroup_make(r->system_wide ? "tdtrace-churn-all" : "tdtrace-churn-c", r->cgroup,
				sizeof(r->cgroup));
	if (err == -EROFS || err == -EACCES || err == -EPERM) {
		snprintf(skip_reason, sizeof(skip_reason), "cannot make a cgroup under %s: %s", mnt,
			 strerror(-err));
		r->skip = skip_reason;
		return -1;
	}
	snprintf(r->moved, sizeof(r->moved), "%s/moved", r->cgroup);
	if (!err)
		err = itest_cgroup_mkdir(r->moved);
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot make cgroup %s: %s", r->moved,
			 strerror(-err));
		return -1;
	}
	r->cgroup_id = itest_inode(r->cgroup);
	r->moved_id = itest_inode(r->moved);
	return 0;
}

static void remove_cgroups(struct run *r)
{
	if (r->moved[0])
		itest_cgroup_remove(r->moved);
	if (r->cgroup[0])
		itest_cgroup_remove(r->cgroup);
}

/* Processes on the machine now: each may need an entry of its own. */
static int count_processes(void)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	int n = 0;

	while (proc && (d = readdir(proc)))
		n += atoi(d->d_name) > 0;
	if (proc)
		closedir(proc);
	return n;
}

static void do_run(struct run *r, bool system_wide)
{
	const char *args[16] = { "--software", "--json", "-I", "500", "--max-tasks" };
	long long t0 = itest_now_ms();
	char max_tasks[16];
	struct itest_proc td;
	int err;

	if (r->done)
		return;
	r->done = true;
	r->system_wide = system_wide;
	r->max_tasks = system_wide ? MAX_TASKS_ALL + count_processes() : MAX_TASKS_C;
	snprintf(max_tasks, sizeof(max_tasks), "%d", r->max_tasks);
	r->exit_code = r->helper_exit = -1;
	if (!itest_is_root()) {
		r->skip = "needs root to load BPF programs, make cgroups and choose PIDs; "
			  "run with sudo";
		return;
	}
	if (make_cgroups(r))
		return;
	args[5] = max_tasks;
	if (!system_wide) {
		args[6] = "-c";
		args[7] = r->cgroup;
	}

	err = itest_tdtrace_start(&td, 0, START_MS, args);
	if (err == -ECHILD) {
		if (itest_early_exit(&td, skip_reason, sizeof(skip_reason), r->error,
				     sizeof(r->error)))
			r->skip = skip_reason;
		remove_cgroups(r);
		return;
	}
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot start %s: %s", itest_tdtrace_path(),
			 strerror(-err));
		itest_proc_release(&td);
		remove_cgroups(r);
		return;
	}

	churn(r, &td);
	r->exit_code = stop_tdtrace(r, &td);
	r->out = itest_stdout(&td);
	r->err = itest_stderr(&td);
	r->lines = itest_parse_jsonl(r->out, &r->bad_line);
	itest_proc_release(&td);
	/* Only now: tdtrace names the cgroups by path when it prints the summary. */
	remove_cgroups(r);
	r->wall_ms = itest_now_ms() - t0;
}

static struct run *get_run(struct run *r, bool system_wide)
{
	do_run(r, system_wide);
	if (r->skip)
		itest_skip("%s\n", r->skip);
	if (r->error[0])
		fail_msg("setting up the churn run: %s", r->error);
	if (r->exit_code != 0)
		fail_msg("tdtrace exited %d after SIGINT (want 0); stderr: %.2000s", r->exit_code,
			 r->err ? r->err : "");
	if (r->bad_line)
		fail_msg("stdout line %d is not a JSON object", r->bad_line);
	return r;
}

static const char *run_name(const struct run *r)
{
	return r->system_wide ? "system-wide" : "-c";
}

/* The run a test reads, its initial state: made on first use. */
static const struct run *run_of(void **state)
{
	struct run *r = *state;

	return get_run(r, r == &run_system);
}

static bool in_churn(const struct run *r, const json_t *o)
{
	long long id = itest_jint(o, "cgroup_id");

	return id == (long long)r->cgroup_id || id == (long long)r->moved_id;
}

/* ---------------------------------------------------------- the checks */

/* The workload is what the helper was asked for, and PIDs were reused. */
static void test_workload(void **state)
{
	const struct run *r = run_of(state);

	print_message("%s: churn made %ld processes (%ld exec'd, %ld moved), %ld threads; "
		      "%ld PIDs reused by clone3(set_tid), %ld by the kernel on its own; %ld "
		      "failed; the run took %lld ms\n",
		      run_name(r), r->processes, r->execs, r->moved_procs, r->threads, r->reused,
		      r->natural, r->failed, r->wall_ms);
	if (r->helper_err && *r->helper_err)
		print_message("%s: churn's stderr: %s", run_name(r), r->helper_err);
	assert_int_equal(r->helper_exit, 0);
	assert_int_equal(r->failed, 0);
	assert_int_equal(r->processes, PROCS);
	assert_int_equal(r->threads, THREADS);
	assert_int_equal(r->execs, EXECS);
	assert_int_equal(r->moved_procs, MOVERS);
	/* Otherwise nothing below says anything about PID reuse. */
	assert_int_equal(r->reused, REUSES);
}

static long long cpu_clock(const json_t *o, const char *obj)
{
	return itest_jcount(o, obj, "cpu-clock");
}

/*
 * Every system line says conserved, with no drops; and each interval's
 * process lines (and cgroup lines' self_counts) plus overflow plus
 * untraced add up to its system line, recomputed here.
 */
static void test_conservation(void **state)
{
	const struct run *r = run_of(state);
	size_t n = json_array_size(r->lines), nr_intervals = 0;
	long long *procs = calloc(n + 2, sizeof(*procs));
	long long *cgroups = calloc(n + 2, sizeof(*cgroups));
	const json_t **sys = calloc(n + 2, sizeof(*sys));
	const json_t *o;
	size_t i;

	assert_non_null(procs);
	assert_non_null(cgroups);
	assert_non_null(sys);
	/* Index n + 1 is the summary. */
	json_array_foreach(r->lines, i, o)
	{
		long long k = itest_jis(o, "phase", "summary") ? (long long)n + 1
							       : itest_jint(o, "interval");
		long long c = cpu_clock(o, "counts");

		if (k < 1 || k > (long long)n + 1 || c < 0)
			fail_msg("line %zu: interval %lld, counts %lld", i + 1, k, c);
		if (itest_jis(o, "type", "system")) {
			if (sys[k])
				fail_msg("interval %lld has two system lines", k);
			sys[k] = o;
		} else if (itest_jis(o, "type", "process")) {
			procs[k] += c;
		} else if (itest_jis(o, "type", "cgroup")) {
			cgroups[k] += cpu_clock(o, "self_counts");
		}
	}
	for (size_t k = 1; k <= n + 1; k++) {
		const char *what = k > n ? "summary" : "interval";
		long long all, untraced, task_over, cg_over;

		if (!sys[k])
			continue;
		nr_intervals += k <= n;
		all = cpu_clock(sys[k], "counts");
		untraced = cpu_clock(sys[k], "untraced");
		task_over = cpu_clock(sys[k], "task_overflow");
		cg_over = cpu_clock(sys[k], "cgroup_overflow");
		if (!json_is_true(json_object_get(sys[k], "conserved")))
			fail_msg("%s: %s %zu: \"conserved\" is not true", run_name(r), what, k);
		if (procs[k] + task_over + untraced != all ||
		    cgroups[k] + cg_over + untraced != all)
			fail_msg("%s: %s %zu: processes %lld, cgroups %lld, task_overflow %lld, "
				 "cgroup_overflow %lld, untraced %lld; system %lld",
				 run_name(r), what, k, procs[k], cgroups[k], task_over, cg_over,
				 untraced, all);
		if (itest_jint(sys[k], "task_drops") != 0 ||
		    itest_jint(sys[k], "cgroup_drops") != 0)
			fail_msg("%s: %s %zu: task_drops %lld, cgroup_drops %lld (want 0: the "
				 "map never fills)",
				 run_name(r), what, k, itest_jint(sys[k], "task_drops"),
				 itest_jint(sys[k], "cgroup_drops"));
	}
	print_message("%s: %zu intervals and the summary conserved, recomputed from the "
		      "lines too; task_drops 0 throughout\n",
		      run_name(r), nr_intervals);
	/* 12 s of churn and 1.6 s of settling at 500 ms: about 27 intervals. */
	assert_true(nr_intervals >= (CHURN_MS + SETTLE_MS) / 500 - 2);
	assert_non_null(sys[n + 1]);
	free(procs);
	free(cgroups);
	free(sys);
}

/*
 * Memory: the map never full, the churn's part of it bounded by two
 * intervals' worth, the summary's rows bounded, tdtrace's RSS small.
 */
static void test_bounded(void **state)
{
	const struct run *r = run_of(state);
	long summary_rows = 0, exited_rows = 0, folded_rows = 0, folded_pid = -1;
	const json_t *o;
	size_t i;

	json_array_foreach(r->lines, i, o)
	{
		if (!itest_jis(o, "phase", "summary") || !itest_jis(o, "type", "process"))
			continue;
		summary_rows++;
		if (itest_jis(o, "comm", "[exited]") && itest_jint(o, "start_ns") == 0) {
			folded_rows++;
			folded_pid = itest_jint(o, "pid");
		} else if (json_is_true(json_object_get(o, "exited"))) {
			exited_rows++;
		}
	}
	print_message("%s: td_entries holds %ld: at most %ld entries seen at once (%ld of "
		      "them the churn's) in %d samples; %ld left after settling (%ld the "
		      "churn's)\n",
		      run_name(r), r->map_size, r->map_peak, r->churn_peak, r->map_samples,
		      r->map_after, r->churn_after);
	print_message("%s: summary: %ld process rows, %ld of them exited, %ld folded (pid "
		      "%ld)\n",
		      run_name(r), summary_rows, exited_rows, folded_rows, folded_pid);
	print_message("%s: tdtrace peak RSS (VmHWM) %ld KiB, limit %d KiB; wait4's ru_maxrss "
		      "%ld KiB\n",
		      run_name(r), r->hwm_kb, RSS_LIMIT_KB, r->maxrss_kb);

	assert_int_equal(r->map_size, r->max_tasks);
	assert_true(r->map_samples > 100);
	/* A wave alone is 250 processes: a peak below that, and the map went unread. */
	assert_true(r->churn_peak >= PROCS / WAVES);
	assert_true(r->churn_peak < CHURN_LIVE);
	assert_true(r->map_peak < r->map_size);
	/* Every task of the churn has exited: none of its entries may stay. */
	assert_int_equal(r->churn_after, 0);
	/*
	 * The run's total keeps --max-tasks exited entries and folds the
	 * rest, after each interval; the summary adds the final read's, at
	 * most a map's worth. With -c that is none: the churn was over.
	 */
	assert_true(exited_rows <= r->max_tasks + (r->system_wide ? r->map_size : 0));
	assert_int_equal(folded_rows, 1);
	/* Not pid 0: that is the idle tasks'. */
	assert_int_equal(folded_pid, TD_FOLDED_ID);
	/*
	 * Not ru_maxrss: it also counts this test's own image, which the
	 * child held between fork and exec (exec keeps the larger peak), and
	 * that is 30 MiB once the first run's output is parsed.
	 */
	assert_true(r->hwm_kb > 0);
	if (getenv("ASAN_OPTIONS"))
		print_message("%s: a sanitized tdtrace (make sanitize): its shadow memory and "
			      "quarantine put it past any RSS limit\n",
			      run_name(r));
	else
		assert_true(r->hwm_kb < RSS_LIMIT_KB);
}

struct proc_id {
	long long pid, start_ns;
};

static int cmp_proc_id(const void *a, const void *b)
{
	const struct proc_id *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

static int cmp_ll(const void *a, const void *b)
{
	const long long *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Sort and drop duplicates; returns the new count. */
static size_t uniq_procs(struct proc_id *v, size_t n)
{
	size_t out = 0;

	qsort(v, n, sizeof(*v), cmp_proc_id);
	for (size_t i = 0; i < n; i++)
		if (!out || cmp_proc_id(&v[out - 1], &v[i]))
			v[out++] = v[i];
	return out;
}

/*
 * Every process made in the churn's cgroups (the helper's children and
 * the helper) has an interval line with "exited": true there: each PID
 * as many times, with distinct start_ns, as it was given out.
 */
static void test_exited(void **state)
{
	const struct run *r = run_of(state);
	size_t n = json_array_size(r->lines), nr_exited = 0, nr_true = 0, nr_made = 0;
	struct proc_id *exited = calloc(n + 1, sizeof(*exited));
	struct proc_id *named_true = calloc(n + 1, sizeof(*named_true));
	long long *made = calloc(PROCS + 2, sizeof(*made));
	long reuses_seen = 0, missing = 0, extra = 0;
	const json_t *o;
	const char *p;
	size_t i, j;

	assert_non_null(exited);
	assert_non_null(named_true);
	assert_non_null(made);
	json_array_foreach(r->lines, i, o)
	{
		struct proc_id id = { itest_jint(o, "pid"), itest_jint(o, "start_ns") };

		if (!itest_jis(o, "phase", "interval") || !itest_jis(o, "type", "process") ||
		    !in_churn(r, o) || !json_is_true(json_object_get(o, "exited")))
			continue;
		exited[nr_exited++] = id;
		if (itest_jis(o, "comm", "true"))
			named_true[nr_true++] = id;
	}
	nr_exited = uniq_procs(exited, nr_exited);
	nr_true = uniq_procs(named_true, nr_true);

	/* What the helper made: "pid N" once per process; and the helper itself. */
	for (p = r->helper_out; p && (p = strstr(p, "pid ")); p++)
		if ((p == r->helper_out || p[-1] == '\n') && nr_made < PROCS + 1)
			made[nr_made++] = atoll(p + 4);
	made[nr_made++] = r->helper;
	qsort(made, nr_made, sizeof(*made), cmp_ll);

	/* Both in PID order: as many exited processes per PID as it was given out. */
	for (i = 0, j = 0; i < nr_made;) {
		long long pid = made[i];
		long times = 0, rows = 0;

		for (; i < nr_made && made[i] == pid; i++)
			times++;
		for (; j < nr_exited && exited[j].pid < pid; j++)
			extra++;
		for (; j < nr_exited && exited[j].pid == pid; j++)
			rows++;
		if (rows < times)
			missing += times - rows;
		else
			extra += rows - times;
		if (times > 1 && rows >= times)
			reuses_seen += times - 1;
	}
	extra += nr_exited - j;
	print_message("%s: %zu processes made in the churn's cgroups; %zu exited processes in "
		      "interval lines there (%ld missing, %ld unknown); reused PIDs seen as "
		      "distinct processes: %ld; exec'd ones named \"true\": %zu\n",
		      run_name(r), nr_made, nr_exited, missing, extra, reuses_seen, nr_true);
	assert_int_equal(nr_made, PROCS + 1);
	assert_int_equal(missing, 0);
	assert_int_equal(extra, 0);
	assert_int_equal(reuses_seen, r->reused + r->natural);
	assert_int_equal(nr_true, EXECS);
	free(exited);
	free(named_true);
	free(made);
}

static double error_pct(double got, double want)
{
	return want > 0 ? 100.0 * (got - want) / want : INFINITY;
}

/* The cgroup's summary row (its subtree) against the kernel's usage_usec. */
static void test_cgroup_usage(void **state)
{
	const struct run *r = run_of(state);
	const json_t *row = NULL, *o;
	double ns, want, err;
	size_t i;

	json_array_foreach(r->lines, i, o)
	{
		if (itest_jis(o, "phase", "summary") && itest_jis(o, "type", "cgroup") &&
		    itest_jint(o, "cgroup_id") == (long long)r->cgroup_id) {
			if (row)
				fail_msg("two summary rows for cgroup id %llu",
					 (unsigned long long)r->cgroup_id);
			row = o;
		}
	}
	if (!row)
		fail_msg("%s: no summary cgroup row with id %llu", run_name(r),
			 (unsigned long long)r->cgroup_id);
	ns = itest_jnum(row, "cpu_ns");
	want = r->usage_usec * 1000.0;
	err = error_pct(ns, want);
	print_message("%s: cgroup %s: cpu_ns %.0f, usage_usec*1000 %.0f: error %+.3f%% "
		      "(tolerance %.2f%% with the hypervisor's steal)\n",
		      run_name(r), itest_jstr(row, "cgroup"), ns, want, err,
		      itest_tolerance_pct(TOLERANCE_PCT, want, r->steal_ns));
	/* 6,000 processes take more than a few ms: a tiny reference proves little. */
	assert_true(want > 100e6);
	assert_true(fabs(err) <= itest_tolerance_pct(TOLERANCE_PCT, want, r->steal_ns));
}

static void free_run(struct run *r)
{
	free(r->helper_out);
	free(r->helper_err);
	free(r->out);
	free(r->err);
	json_decref(r->lines);
	memset(r, 0, sizeof(*r));
}

/* The helper's cgroups, children first, before itest_cleanup's. */
static int teardown(void **state)
{
	itest_kill_children();
	remove_cgroups(&run_cgroup);
	remove_cgroups(&run_system);
	itest_cleanup();
	return 0;
}

static int group_teardown(void **state)
{
	teardown(state);
	free_run(&run_cgroup);
	free_run(&run_system);
	return 0;
}

int main(void)
{
	/* Each check on each run, which the test gets as its state. */
	const struct CMUnitTest tests[] = {
		{ "-c: workload", test_workload, NULL, teardown, &run_cgroup },
		{ "-c: conservation", test_conservation, NULL, teardown, &run_cgroup },
		{ "-c: bounded", test_bounded, NULL, teardown, &run_cgroup },
		{ "-c: exited", test_exited, NULL, teardown, &run_cgroup },
		{ "-c: cgroup usage", test_cgroup_usage, NULL, teardown, &run_cgroup },
		{ "system-wide: workload", test_workload, NULL, teardown, &run_system },
		{ "system-wide: conservation", test_conservation, NULL, teardown, &run_system },
		{ "system-wide: bounded", test_bounded, NULL, teardown, &run_system },
		{ "system-wide: exited", test_exited, NULL, teardown, &run_system },
		{ "system-wide: cgroup usage", test_cgroup_usage, NULL, teardown, &run_system },
	};

	return cmocka_run_group_tests(tests, NULL, group_teardown);
}
