// SPDX-License-Identifier: GPL-2.0
/*
 * Targets: -c (cgroup v2 subtrees), -p (processes and what they fork),
 * -- COMMAND, and the rows they select (--per-cgroup, --depth), checked
 * end to end against the kernel's own accounting: a cgroup's cpu.stat
 * usage_usec, /proc/PID[/task/TID]/schedstat. Needs root.
 *
 * Tests 7 and 8 move a running task into, and between, traced cgroups:
 * the slice in progress at the move must be split where cpu.stat splits it.
 *
 * Each test records what it saw while children run, reaps everything, and
 * asserts afterwards; the teardown kills whatever is left and removes the
 * cgroups, deepest first.
 */
#include "itest.h"

#include <math.h>
#include <sched.h>

#define TOLERANCE_PCT 2.0
#define START_MS      5000
#define SPIN_MS	      20000 /* a spinner's wall-time limit */
#define STOP_MS	      5000
#define GONE_MS	      3000

/* --------------------------------------------------------------- state */

/* tdtrace of the running test, and what it printed. */
static struct itest_proc td;
static char *td_out, *td_err;
static json_t *td_lines;
static int td_bad;

/* Helper processes of the running test. */
#define MAX_PROCS 8
static struct itest_proc procs[MAX_PROCS];
static int nr_procs;

/* Cgroups made by the running test, parents first (removed in reverse). */
#define MAX_CGS 8
static char cgs[MAX_CGS][PATH_MAX + 128];
static int nr_cgs;

static char mnt[PATH_MAX];

/* The test process's CPU affinity, when a test pinned it (restored after). */
static cpu_set_t saved_affinity;
static bool affinity_saved;

/* Forget what a previous tdtrace run of this test printed. */
static void td_reset(void)
{
	itest_proc_release(&td);
	free(td_out);
	free(td_err);
	json_decref(td_lines);
	td_out = td_err = NULL;
	td_lines = NULL;
	td_bad = 0;
}

static int setup(void **state)
{
	itest_proc_init(&td);
	td_out = td_err = NULL;
	td_lines = NULL;
	td_bad = 0;
	nr_procs = 0;
	nr_cgs = 0;
	return 0;
}

static int teardown(void **state)
{
	if (affinity_saved && sched_setaffinity(0, sizeof(saved_affinity), &saved_affinity))
		print_message("cannot restore the CPU affinity: %s\n", strerror(errno));
	affinity_saved = false;
	itest_proc_release(&td);
	for (int i = 0; i < nr_procs; i++)
		itest_proc_release(&procs[i]);
	itest_kill_children();
	for (int i = nr_cgs - 1; i >= 0; i--) {
		int err = itest_cgroup_remove(cgs[i]);

		if (err)
			print_message("cannot remove %s: %s\n", cgs[i], strerror(-err));
	}
	itest_cleanup();
	td_reset();
	nr_procs = nr_cgs = 0;
	return 0;
}

/* ------------------------------------------------------------- helpers */

static double error_pct(double got, double want)
{
	return want > 0 ? 100.0 * (got - want) / want : INFINITY;
}

/* Root, a writable cgroup2 mount: else skip. Fills mnt. */
static void require_cgroups(void)
{
	char probe[PATH_MAX + 64];
	int err;

	itest_require_root();
	if (itest_cgroup2_mount(mnt, sizeof(mnt)))
		itest_skip("no cgroup v2 mounted\n");
	snprintf(probe, sizeof(probe), "%s/tdtrace-tgt-probe-%d", mnt, (int)getpid());
	err = itest_cgroup_mkdir(probe);
	if (err)
		itest_skip("cannot make a cgroup under %s: %s\n", mnt, strerror(-err));
	rmdir(probe);
}

/* Make <mount>/tdtrace-tgt-<pid>[/sub]; rel (may be NULL) gets the mount-relative path. */
static const char *make_cg(const char *sub, char *rel, size_t len)
{
	char *path;
	int err;

	if (nr_cgs >= MAX_CGS)
		fail_msg("too many cgroups");
	path = cgs[nr_cgs];
	snprintf(path, sizeof(cgs[0]), "%s/tdtrace-tgt-%d%s%s", mnt, (int)getpid(), sub ? "/" : "",
		 sub ? sub : "");
	err = itest_cgroup_mkdir(path);
	if (err)
		fail_msg("cannot make cgroup %s: %s", path, strerror(-err));
	nr_cgs++;
	if (rel)
		snprintf(rel, len, "%s", path + strlen(mnt) + 1);
	return path;
}

/* A cgroup's usage_usec, or fail. */
static uint64_t usage_usec(const char *path)
{
	uint64_t u = 0;
	int err = itest_cgroup_usage_usec(path, &u);

	if (err)
		fail_msg("cannot read %s/cpu.stat: %s", path, strerror(-err));
	return u;
}

/* Start tdtrace with args; skip if it cannot load BPF here, fail otherwise. */
/* The hypervisor's steal when the test's tdtrace (or workload) started: see tolerance(). */
static uint64_t steal_at_start;

/*
 * Percent allowed against the kernel's accounting of @want_ns: 2%, plus
 * what the hypervisor stole since the test started (itest_steal_ns: the
 * kernel leaves it out, cpu-clock does not).
 */
static double tolerance(double want_ns)
{
	return itest_tolerance_pct(TOLERANCE_PCT, want_ns, itest_steal_ns() - steal_at_start);
}

static void td_start(const char *const args[])
{
	int err;

	steal_at_start = itest_steal_ns();
	err = itest_tdtrace_start(&td, 0, START_MS, args);

	if (err == -ECHILD) {
		char *e = itest_stderr(&td);

		if (itest_exit_code(&td) == 1 && e && (strstr(e, "BPF") || strstr(e, "BTF")))
			itest_skip("tdtrace --software cannot load BPF here: %s", e);
		fail_msg("tdtrace exited %d before counting; stderr: %s", itest_exit_code(&td),
			 e ? e : "");
	}
	if (err)
		fail_msg("tdtrace did not start counting: %s", strerror(-err));
}

/* Collect what tdtrace printed, once it has exited. */
static void td_collect(void)
{
	td_out = itest_stdout(&td);
	td_err = itest_stderr(&td);
	td_lines = itest_parse_jsonl(td_out, &td_bad);
}

/* SIGINT tdtrace and collect; returns its exit code (-1: did not exit). */
static int td_stop(void)
{
	int code = itest_signal_and_wait(&td, SIGINT, STOP_MS);

	td_collect();
	return code;
}

/*
 * Wait until @p is spin itself (exec done), asleep on its stdin. The kernel
 * charges a task's runtime to a cgroup when it brings it up to date (a
 * tick, a switch, a read of its own CPU time), to the cgroup the task is in
 * by then: for a task moved while on a CPU, cpu.stat gives the new cgroup
 * the runtime since the last update (up to a tick, more when the tick is
 * late), where tdtrace splits at the move. Moved asleep, both agree.
 */
static void wait_asleep(struct itest_proc *p)
{
	long long end = itest_now_ms() + START_MS;
	char file[64], *text, *paren;

	snprintf(file, sizeof(file), "/proc/%d/stat", (int)p->pid);
	for (;;) {
		text = itest_read_file(file);
		paren = text ? strrchr(text, ')') : NULL;
		/* "PID (COMM) STATE ...": S once it waits in read(). */
		if (paren && strstr(text, "(spin)") && paren[1] == ' ' && paren[2] == 'S') {
			free(text);
			return;
		}
		free(text);
		if (itest_now_ms() > end)
			fail_msg("%d did not wait on its stdin in %d ms", (int)p->pid, START_MS);
		itest_sleep_ms(1);
	}
}

/*
 * Wait until @p has used @ns of CPU since @base_ns (schedstat). A spinner
 * that calls clock_gettime(CLOCK_THREAD_CPUTIME_ID) as spin does has its
 * runtime brought up to date at every call, so cpu.stat splits a move of it
 * where tdtrace does.
 */
static void wait_cpu(struct itest_proc *p, uint64_t base_ns, uint64_t ns)
{
	long long end = itest_now_ms() + SPIN_MS;
	uint64_t now = 0;

	for (;;) {
		if (itest_schedstat_ns(p->pid, &now))
			fail_msg("cannot read /proc/%d/schedstat", (int)p->pid);
		if (now - base_ns >= ns)
			return;
		if (itest_now_ms() > end)
			fail_msg("%d used %llu ns of CPU in %d ms, not %llu", (int)p->pid,
				 (unsigned long long)(now - base_ns), SPIN_MS,
				 (unsigned long long)ns);
		itest_sleep_ms(5);
	}
}

/*
 * Spawn `spin -w SECONDS [THREADS]` waiting on stdin; optionally move it to
 * cgroup, once it sleeps there (see wait_asleep).
 */
static struct itest_proc *spinner(const char *seconds, const char *threads, const char *cgroup)
{
	char *argv[] = { (char *)itest_helper_path("spin"), "-w", (char *)seconds, (char *)threads,
			 NULL };
	struct itest_proc *p;
	int err;

	if (nr_procs >= MAX_PROCS)
		fail_msg("too many helper processes");
	p = &procs[nr_procs++];
	err = itest_spawn(p, argv, ITEST_STDIN_PIPE);
	if (err)
		fail_msg("cannot start %s: %s", argv[0], strerror(-err));
	if (cgroup) {
		wait_asleep(p);
		err = itest_cgroup_move(cgroup, p->pid);
		if (err)
			fail_msg("cannot move %d into %s: %s", (int)p->pid, cgroup, strerror(-err));
	}
	return p;
}

static void go(struct itest_proc *p)
{
	if (write(p->in_pipe, "g", 1) != 1)
		fail_msg("cannot release %d: %s", (int)p->pid, strerror(errno));
}

/* Wait for p to exit, read its (final) schedstat as a zombie, then reap it. */
static uint64_t finish(struct itest_proc *p)
{
	uint64_t ns = 0;
	int err;

	if (itest_wait_nowait(p, SPIN_MS))
		fail_msg("%d did not finish in %d ms", (int)p->pid, SPIN_MS);
	err = itest_schedstat_ns(p->pid, &ns);
	if (err)
		fail_msg("cannot read /proc/%d/schedstat: %s", (int)p->pid, strerror(-err));
	itest_wait(p, 1000);
	if (itest_exit_code(p) != 0)
		fail_msg("helper %d exited %d", (int)p->pid, itest_exit_code(p));
	return ns;
}

static bool is_summary(const json_t *o, const char *type)
{
	return itest_jis(o, "phase", "summary") && itest_jis(o, "type", type);
}

/* The summary row of type whose key is v, NULL if none; fails on two. */
static const json_t *find_row(const char *type, const char *key, long long v)
{
	const json_t *found = NULL, *o;
	size_t i;

	json_array_foreach(td_lines, i, o)
	{
		if (!is_summary(o, type) || itest_jint(o, key) != v)
			continue;
		if (found)
			fail_msg("two summary %s rows with %s %lld", type, key, v);
		found = o;
	}
	return found;
}

static const json_t *row(const char *type, const char *key, long long v)
{
	const json_t *o = find_row(type, key, v);

	if (!o)
		fail_msg("no summary %s row with %s %lld; stdout begins:\n%.2000s", type, key, v,
			 td_out);
	return o;
}

static const json_t *system_row(void)
{
	const json_t *found = NULL, *o;
	size_t i;

	json_array_foreach(td_lines, i, o)
	{
		if (is_summary(o, "system"))
			found = o;
	}
	if (!found)
		fail_msg("no summary system row; stdout begins:\n%.2000s", td_out);
	return found;
}

static int count_summary(const char *type)
{
	const json_t *o;
	size_t i;
	int n = 0;

	json_array_foreach(td_lines, i, o)
	{
		n += is_summary(o, type);
	}
	return n;
}

/* Is the row's "cgroup" (mount-relative) rel itself or below it? */
static bool cgroup_within(const json_t *o, const char *rel)
{
	const char *c = itest_jstr(o, "cgroup");
	size_t n = strlen(rel);

	if (!c)
		return false;
	while (*c == '/')
		c++;
	return !strncmp(c, rel, n) && (c[n] == '\0' || c[n] == '/');
}

/* Sum of self_counts over cgroup rows + cgroup_overflow + untraced == system counts. */
static void assert_cgroup_conservation(void)
{
	const json_t *sys = system_row(), *o;
	long long self = 0, all = itest_jcount(sys, "counts", "cpu-clock");
	long long over = itest_jcount(sys, "cgroup_overflow", "cpu-clock");
	long long untraced = itest_jcount(sys, "untraced", "cpu-clock");
	size_t i;

	json_array_foreach(td_lines, i, o)
	{
		if (is_summary(o, "cgroup"))
			self += itest_jcount(o, "self_counts", "cpu-clock");
	}
	print_message("conservation: cgroups' self %lld + cgroup_overflow %lld + untraced %lld "
		      "= %lld, system %lld\n",
		      self, over, untraced, self + over + untraced, all);
	assert_true(all > 0 && over >= 0 && untraced >= 0);
	assert_true(self + over + untraced == all);
}

/* ------------------------------------------------------------------ 1 */

/*
 * -c on a two-level tree; a spinner moved from a/a1 to b mid-run. Every
 * row holds its subtree and matches cpu.stat; nothing outside -c shows.
 * Two spinners, tdtrace and this test share the CPUs here, so the spinner
 * is switched out often and the move rarely splits a long slice: test 8
 * makes sure it does.
 */
static void test_cgroup_nested_and_moves(void **state)
{
	char rel[PATH_MAX + 128];
	const char *top, *a, *a1, *b;
	struct itest_proc *s1, *s2;
	uint64_t ss1, ss2, u_top, u_a, u_a1, u_b;
	struct {
		const char *name, *path;
		uint64_t usec;
		double ns, err;
	} cg[4];
	const json_t *o;
	int outside = 0, code, err;
	size_t i;

	require_cgroups();
	top = make_cg(NULL, rel, sizeof(rel));
	a = make_cg("a", NULL, 0);
	a1 = make_cg("a/a1", NULL, 0);
	b = make_cg("b", NULL, 0);

	{
		const char *args[] = { "--software", "--json", "-c", rel, "-I", "500", NULL };

		td_start(args);
	}
	s1 = spinner("1.5", NULL, a1);
	s2 = spinner("1.5", NULL, b);
	if (itest_schedstat_ns(s1->pid, &ss1))
		fail_msg("cannot read /proc/%d/schedstat", (int)s1->pid);
	go(s1);
	go(s2);
	/*
	 * 0.6 s of CPU in a1, not of wall time: on a busy machine a wall-time
	 * wait leaves a1 a third of that, and a 2% tolerance of a small reference.
	 */
	wait_cpu(s1, ss1, 600000000);
	err = itest_cgroup_move(b, s1->pid);
	if (err)
		fail_msg("cannot move %d to %s: %s", (int)s1->pid, b, strerror(-err));
	ss1 = finish(s1);
	ss2 = finish(s2);
	u_top = usage_usec(top);
	u_a = usage_usec(a);
	u_a1 = usage_usec(a1);
	u_b = usage_usec(b);
	code = td_stop();
	if (code != 0)
		fail_msg("tdtrace exited %d after SIGINT (want 0); stderr: %s", code, td_err);
	if (td_bad)
		fail_msg("stdout line %d is not JSON", td_bad);

	print_message("spinners: %d (a/a1 then b) schedstat %llu, %d (b) schedstat %llu\n",
		      (int)s1->pid, (unsigned long long)ss1, (int)s2->pid, (unsigned long long)ss2);
	cg[0].name = rel, cg[0].path = top, cg[0].usec = u_top;
	cg[1].name = "a", cg[1].path = a, cg[1].usec = u_a;
	cg[2].name = "a/a1", cg[2].path = a1, cg[2].usec = u_a1;
	cg[3].name = "b", cg[3].path = b, cg[3].usec = u_b;
	for (int k = 0; k < 4; k++) {
		const json_t *r = row("cgroup", "cgroup_id", (long long)itest_inode(cg[k].path));

		cg[k].ns = itest_jnum(r, "cpu_ns");
		cg[k].err = error_pct(cg[k].ns, cg[k].usec * 1000.0);
		print_message("cgroup %-28s depth %lld: cpu_ns %12.0f, self %12lld, "
			      "usage_usec*1000 %12.0f: error %+.3f%%\n",
			      itest_jstr(r, "cgroup"), itest_jint(r, "depth"), cg[k].ns,
			      itest_jcount(r, "self_counts", "cpu-clock"), cg[k].usec * 1000.0,
			      cg[k].err);
	}
	print_message("parent %.0f vs a + b %.0f: error %+.3f%%\n", cg[0].ns, cg[1].ns + cg[3].ns,
		      error_pct(cg[0].ns, cg[1].ns + cg[3].ns));

	json_array_foreach(td_lines, i, o)
	{
		if (itest_jis(o, "type", "cgroup") && !cgroup_within(o, rel)) {
			print_message("%s row outside -c %s: %s (id %lld)\n",
				      itest_jstr(o, "phase"), rel, itest_jstr(o, "cgroup"),
				      itest_jint(o, "cgroup_id"));
			outside++;
		}
	}

	/* Said when an error is large: switches this kernel made without the tracepoint. */
	print_message("unseen_switches %lld\n", itest_jint(system_row(), "unseen_switches"));
	assert_int_equal(outside, 0);
	assert_cgroup_conservation();
	assert_true(json_is_true(json_object_get(system_row(), "filtered")));
	/* The references themselves: both spun, the mover split across a1 and b. */
	assert_true(u_a1 > 200000 && u_b > 2000000);
	for (int k = 0; k < 4; k++)
		if (fabs(cg[k].err) > tolerance(cg[k].usec * 1000.0))
			fail_msg("cgroup %s: cpu_ns %.0f vs usage_usec*1000 %.0f: %+.3f%% "
				 "(tolerance %.1f%%)",
				 cg[k].name, cg[k].ns, cg[k].usec * 1000.0, cg[k].err,
				 tolerance(cg[k].usec * 1000.0));
	assert_true(fabs(error_pct(cg[0].ns, cg[1].ns + cg[3].ns)) <= 1.0);
}

/* ------------------------------------------------------------------ 2 */

struct tree {
	pid_t pid, child[2];
	uint64_t base_ns; /* the forker's own schedstat before it was released */
	uint64_t proc_ns; /* its threads' schedstat once done, minus base_ns */
	uint64_t child_ns[2];
	int nr_threads;
};

/*
 * Run forker under `tdtrace --software --json -p PID [extra]`: reads the
 * tree's schedstat while everything in it is done but not reaped, lets it
 * exit, and waits for tdtrace to stop by itself.
 */
static void run_forker(struct tree *t, const char *extra)
{
	char *argv[] = { (char *)itest_helper_path("forker"), "0.8", "0.5", NULL };
	struct itest_proc *f;
	char pid[16], *out = NULL;
	long long end;
	int err;

	if (access(argv[0], X_OK))
		fail_msg("%s: %s (build it: make build/tests/forker)", argv[0], strerror(errno));
	steal_at_start = itest_steal_ns();
	memset(t, 0, sizeof(*t));
	if (nr_procs >= MAX_PROCS)
		fail_msg("too many helper processes");
	f = &procs[nr_procs++];
	err = itest_spawn(f, argv, ITEST_STDIN_PIPE);
	if (err)
		fail_msg("cannot start %s: %s", argv[0], strerror(-err));
	t->pid = f->pid;
	snprintf(pid, sizeof(pid), "%d", (int)f->pid);
	{
		const char *args[] = {
			"--software", "--json", "-I", "500", "-p", pid, extra, NULL
		};

		td_start(args);
	}
	/* It is blocked on stdin: this much it spent before tdtrace counted. */
	if (itest_schedstat_ns(f->pid, &t->base_ns))
		fail_msg("cannot read /proc/%d/schedstat", (int)f->pid);
	go(f);

	end = itest_now_ms() + SPIN_MS;
	for (;;) {
		free(out);
		out = itest_stdout(f);
		if (out && sscanf(out, "ready %d %d", &t->child[0], &t->child[1]) == 2)
			break;
		if (itest_poll_exit(f) || itest_now_ms() >= end)
			fail_msg("forker exited or did not get ready (exit %d, stdout '%s')",
				 itest_exit_code(f), out ? out : "");
		itest_sleep_ms(5);
	}
	free(out);
	/* Threads blocked for good, children zombies: every figure is final. */
	err = itest_schedstat_process_ns(f->pid, &t->proc_ns, &t->nr_threads);
	if (err)
		fail_msg("cannot read /proc/%d/task/*/schedstat: %s", (int)f->pid, strerror(-err));
	t->proc_ns -= t->base_ns;
	for (int k = 0; k < 2; k++)
		if (itest_schedstat_ns(t->child[k], &t->child_ns[k]))
			fail_msg("cannot read /proc/%d/schedstat", (int)t->child[k]);
	go(f); /* reap the children and exit */
	if (itest_wait(f, 5000))
		fail_msg("forker did not exit");
	if (itest_exit_code(f) != 0)
		fail_msg("forker exited %d", itest_exit_code(f));

	/* tdtrace stops by itself once the -p process has gone. */
	err = itest_wait(&td, STOP_MS);
	td_collect();
	if (err)
		fail_msg("tdtrace still running %d ms after process %d exited; stderr: %s", STOP_MS,
			 (int)t->pid, td_err);
	print_message("forker %d: %d threads, %llu ns (less %llu before the start); "
		      "children %d %llu ns, %d %llu ns\n",
		      (int)t->pid, t->nr_threads, (unsigned long long)t->proc_ns,
		      (unsigned long long)t->base_ns, (int)t->child[0],
		      (unsigned long long)t->child_ns[0], (int)t->child[1],
		      (unsigned long long)t->child_ns[1]);
	print_message("tdtrace exited %d on its own; stderr: %s", itest_exit_code(&td), td_err);
	if (itest_exit_code(&td) != 0)
		fail_msg("tdtrace exited %d (want 0)", itest_exit_code(&td));
	if (td_bad)
		fail_msg("stdout line %d is not JSON", td_bad);
	assert_non_null(strstr(td_err, "exited"));
	assert_int_equal(t->nr_threads, 3);
	/* It did spin: 2 x 0.8 s in threads, 2 x 0.5 s in children. */
	assert_true(t->proc_ns > 1500000000ULL);
	assert_true(t->child_ns[0] > 450000000ULL && t->child_ns[1] > 450000000ULL);
}

static void test_pid_tree(void **state)
{
	struct tree t;
	double sum = 0, want, err;
	const json_t *sys;
	const char *rowname[] = { "parent", "child 1", "child 2" };
	pid_t pids[3];
	uint64_t refs[3];

	itest_require_root();
	run_forker(&t, NULL);
	pids[0] = t.pid, pids[1] = t.child[0], pids[2] = t.child[1];
	refs[0] = t.proc_ns, refs[1] = t.child_ns[0], refs[2] = t.child_ns[1];
	for (int k = 0; k < 3; k++) {
		const json_t *r = row("process", "pid", pids[k]);
		double ns = itest_jnum(r, "cpu_ns");

		print_message("%-7s %d (%s, exited %s): cpu_ns %.0f, schedstat %llu: %+.3f%%\n",
			      rowname[k], (int)pids[k], itest_jstr(r, "comm"),
			      json_is_true(json_object_get(r, "exited")) ? "true" : "false", ns,
			      (unsigned long long)refs[k], error_pct(ns, refs[k]));
		sum += ns;
	}
	want = (double)t.proc_ns + t.child_ns[0] + t.child_ns[1];
	err = error_pct(sum, want);
	sys = system_row();
	print_message("process rows %.0f vs the tree's schedstat %.0f: error %+.3f%% "
		      "(tolerance %.2f%%, with the hypervisor's steal); follow_drops %lld\n",
		      sum, want, err, tolerance(want), itest_jint(sys, "follow_drops"));
	assert_int_equal(count_summary("process"), 3);
	assert_true(fabs(err) <= tolerance(want));
	assert_int_equal(itest_jint(sys, "follow_drops"), 0);
	assert_true(json_is_true(json_object_get(sys, "filtered")));
}

static void test_pid_no_children(void **state)
{
	const json_t *r;
	struct tree t;
	double ns;

	itest_require_root();
	run_forker(&t, "--no-children");
	r = row("process", "pid", t.pid);
	ns = itest_jnum(r, "cpu_ns");
	print_message("--no-children: parent cpu_ns %.0f vs schedstat %llu: %+.3f%%; "
		      "child rows: %s, %s; %d process rows\n",
		      ns, (unsigned long long)t.proc_ns, error_pct(ns, t.proc_ns),
		      find_row("process", "pid", t.child[0]) ? "present" : "absent",
		      find_row("process", "pid", t.child[1]) ? "present" : "absent",
		      count_summary("process"));
	assert_null(find_row("process", "pid", t.child[0]));
	assert_null(find_row("process", "pid", t.child[1]));
	assert_int_equal(count_summary("process"), 1);
	assert_true(fabs(error_pct(ns, t.proc_ns)) <= tolerance(t.proc_ns));
}

/* ------------------------------------------------------------------ 3 */

/* Run `tdtrace --software --json -- argv...` to its end; returns its exit code. */
static int run_command(char *const cmd[])
{
	const char *args[24] = { "--software", "--json", "--" };
	int n = 3, err;

	for (int k = 0; cmd[k] && n < 23; k++)
		args[n++] = cmd[k];
	args[n] = NULL;
	td_reset();
	err = itest_tdtrace_run(&td, 0, 15000, args);
	if (err)
		fail_msg("tdtrace -- %s: %s", cmd[0],
			 err == -ETIMEDOUT ? "still running after 15 s" : strerror(-err));
	td_collect();
	return itest_exit_code(&td);
}

static void test_command(void **state)
{
	char *exit7[] = { "/bin/sh", "-c", "exit 7", NULL };
	char *term[] = { "/bin/sh", "-c", "kill -TERM $$", NULL };
	char script[PATH_MAX + 128];
	char *forks[] = { "/bin/sh", "-c", script, NULL };
	const json_t *sh = NULL, *sp = NULL, *o;
	long long spin_ns = 0;
	int code, tid;
	double ns;
	size_t i;
	char *line;

	itest_require_root();
	code = run_command(exit7);
	print_message("-- sh -c 'exit 7': exit %d, %d summary system rows\n", code,
		      count_summary("system"));
	if (code == 1 && strstr(td_err, "BPF"))
		itest_skip("tdtrace cannot load BPF here: %s", td_err);
	assert_int_equal(code, 7);
	assert_int_equal(count_summary("system"), 1);

	code = run_command(term);
	print_message("-- sh -c 'kill -TERM $$': exit %d, %d summary system rows\n", code,
		      count_summary("system"));
	assert_int_equal(code, 128 + SIGTERM);
	assert_int_equal(count_summary("system"), 1);

	/* spin reports its own CPU time; on stderr, to keep stdout JSON only. */
	snprintf(script, sizeof(script), "/bin/true; %s 0.2 >&2", itest_helper_path("spin"));
	code = run_command(forks);
	for (line = td_err; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : 0)
		if (sscanf(line, "thread %d %lld", &tid, &spin_ns) == 2)
			break;
	json_array_foreach(td_lines, i, o)
	{
		if (!is_summary(o, "process"))
			continue;
		if (itest_jis(o, "comm", "sh"))
			sh = o;
		if (itest_jis(o, "comm", "spin"))
			sp = o;
	}
	print_message("-- sh -c '/bin/true; spin 0.2': exit %d; rows: sh %s, spin %s\n", code,
		      sh ? "present" : "absent", sp ? "present" : "absent");
	assert_int_equal(code, 0);
	if (td_bad)
		fail_msg("stdout line %d is not JSON:\n%s", td_bad, td_out);
	assert_non_null(sh);
	assert_non_null(sp);
	ns = itest_jnum(sp, "cpu_ns");
	print_message("spin %lld (sh %lld): cpu_ns %.0f vs 0.2 s: %+.3f%%; spin measured "
		      "%lld ns itself: %+.3f%%\n",
		      itest_jint(sp, "pid"), itest_jint(sh, "pid"), ns, error_pct(ns, 2e8), spin_ns,
		      error_pct(ns, spin_ns));
	assert_true(fabs(error_pct(ns, 2e8)) <= 5.0);
	assert_true(json_is_true(json_object_get(sp, "exited")));
	assert_true(json_is_true(json_object_get(system_row(), "filtered")));
}

/* ------------------------------------------------------------------ 4 */

static void test_per_cgroup_depth(void **state)
{
	const char *args[] = { "--software", "--json", "--per-cgroup", "--depth",
			       "1",	     "-I",     "500",	       NULL };
	char rel[PATH_MAX + 128];
	const char *top, *a1, *b;
	struct itest_proc *s1, *s2;
	const json_t *o, *r;
	int deeper = 0, code, others = 0;
	uint64_t u_top;
	double ns, err;
	size_t i;

	require_cgroups();
	top = make_cg(NULL, rel, sizeof(rel));
	make_cg("a", NULL, 0);
	a1 = make_cg("a/a1", NULL, 0);
	b = make_cg("b", NULL, 0);
	td_start(args);
	s1 = spinner("0.5", NULL, a1);
	s2 = spinner("0.5", NULL, b);
	go(s1);
	go(s2);
	finish(s1);
	finish(s2);
	u_top = usage_usec(top);
	code = td_stop();
	if (code != 0)
		fail_msg("tdtrace exited %d after SIGINT (want 0); stderr: %s", code, td_err);
	if (td_bad)
		fail_msg("stdout line %d is not JSON", td_bad);

	json_array_foreach(td_lines, i, o)
	{
		const char *c = itest_jstr(o, "cgroup");

		if (!itest_jis(o, "type", "cgroup"))
			continue;
		/* depth 1 = one path component below the root. */
		if (itest_jint(o, "depth") > 1 || (c && strchr(c + (*c == '/'), '/'))) {
			print_message("row deeper than --depth 1: %s, depth %lld\n", c,
				      itest_jint(o, "depth"));
			deeper++;
		}
		if (is_summary(o, "cgroup") && itest_jint(o, "depth") == 1)
			others++;
	}
	r = row("cgroup", "cgroup_id", (long long)itest_inode(top));
	ns = itest_jnum(r, "cpu_ns");
	err = error_pct(ns, u_top * 1000.0);
	print_message("--per-cgroup --depth 1: %d process, %d thread, %d cgroup summary rows "
		      "(%d at depth 1)\n",
		      count_summary("process"), count_summary("thread"), count_summary("cgroup"),
		      others);
	print_message("%s (depth %lld): cpu_ns %.0f vs subtree usage_usec*1000 %.0f: %+.3f%%\n",
		      itest_jstr(r, "cgroup"), itest_jint(r, "depth"), ns, u_top * 1000.0, err);

	json_array_foreach(td_lines, i, o)
	{
		if (itest_jis(o, "type", "process") || itest_jis(o, "type", "thread"))
			fail_msg("--per-cgroup printed a %s line: %.300s", itest_jstr(o, "type"),
				 json_dumps(o, 0));
	}
	assert_true(count_summary("cgroup") > 0);
	assert_int_equal(deeper, 0);
	assert_int_equal(itest_jint(r, "depth"), 1);
	assert_null(find_row("cgroup", "cgroup_id", (long long)itest_inode(a1)));
	assert_null(find_row("cgroup", "cgroup_id", (long long)itest_inode(b)));
	assert_true(u_top > 900000);
	assert_true(fabs(err) <= tolerance(u_top * 1000.0));
	/* --per-cgroup without targets triggers on cgroup-switches (kernel 5.13+) */
	print_message("trigger: %s\n",
		      strstr(td_err, "at cgroup switches") ? "cgroup-switches" : "sched_switch");
	assert_non_null(strstr(td_err, "at cgroup switches"));
}

/* ------------------------------------------------------------------ 5 */

struct bad_target {
	const char *args[4];
	const char *names; /* what the one error line must name */
	bool v1;	   /* a cgroup v1 path: skip the case where it is not one */
	int code;	   /* the exit code */
};

static const struct bad_target bad_targets[] = {
	{ { "-p", "999999" }, "999999", false, 1 },
	{ { "-c", "/tdtrace-no-such-cgroup" }, "/tdtrace-no-such-cgroup", false, 1 },
	{ { "-c", "/sys/fs/cgroup/cpu" }, "/sys/fs/cgroup/cpu", true, 1 },
	{ { "-c", "../../etc" }, "../../etc", false, 1 },
	/* A COMMAND that cannot run: the shell's codes, not tdtrace's own 1. */
	{ { "--", "/nonexistent/cmd" }, "/nonexistent/cmd", false, 127 },
	{ { "--", "/etc/passwd" }, "/etc/passwd", false, 126 },
	{ { "--", "no-such-command-in-path" }, "no-such-command-in-path", false, 127 },
	{ { "--", "/tmp" }, "/tmp", false, 126 },
};

/* Is path a directory on a cgroup v1 (not cgroup2) filesystem? */
static bool is_cgroup_v1(const char *path)
{
	char *info = itest_read_file("/proc/self/mountinfo"), *line;
	bool v1 = false;

	for (line = info; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : 0) {
		char mp[PATH_MAX], fstype[64];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1 ||
		    sscanf(dash, " - %63s", fstype) != 1)
			continue;
		if (!strcmp(mp, path) && !strcmp(fstype, "cgroup"))
			v1 = true;
	}
	free(info);
	return v1;
}

static void test_bad_targets(void **state)
{
	size_t nr = sizeof(bad_targets) / sizeof(bad_targets[0]);
	bool bpftool = itest_have_bpftool();
	int failures = 0;

	itest_require_root();
	if (!bpftool)
		print_message("bpftool is not installed: BPF leftovers not checked\n");
	for (size_t k = 0; k < nr; k++) {
		const struct bad_target *b = &bad_targets[k];
		const char *args[8] = { "--software", "--json" };
		long long min_prog = 0, min_map = 0;
		char shown[128] = "", left[1024] = "";
		int n = 2, code, want, nleft = 0;

		for (int a = 0; b->args[a]; a++) {
			args[n++] = b->args[a];
			snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), " %s",
				 b->args[a]);
		}
		args[n] = NULL;
		if (b->v1 && !is_cgroup_v1(b->args[1])) {
			print_message("skip %s: not a cgroup v1 mount here\n", shown);
			continue;
		}
		if (bpftool) {
			min_prog = itest_bpf_max_id("prog");
			min_map = itest_bpf_max_id("map");
		}
		td_reset();
		if (itest_tdtrace_run(&td, 0, 5000, args))
			fail_msg("tdtrace%s did not exit within 5 s", shown);
		code = itest_exit_code(&td);
		td_collect();
		if (bpftool && min_prog >= 0 && min_map >= 0)
			nleft = itest_wait_td_orphans_gone(min_prog, min_map, GONE_MS, left,
							   sizeof(left));
		want = b->code;
		if (code != want || *td_out || !itest_one_error_line(td_err) ||
		    !strstr(td_err, b->names) || (b->v1 && !strstr(td_err, "v1")) || nleft) {
			print_message(
				"FAIL tdtrace%s: exit %d (want %d), stdout %zu bytes (want 0), "
				"td_ BPF objects left %d %s, stderr (want one 'tdtrace: ' "
				"line naming %s%s): %s",
				shown, code, want, strlen(td_out), nleft, left, b->names,
				b->v1 ? " and cgroup v1" : "", td_err);
			failures++;
		} else {
			print_message("ok   tdtrace%s -> %d: %s", shown, want, td_err);
		}
	}
	assert_int_equal(failures, 0);
}

/* ------------------------------------------------------------------ 6 */

static void test_cgroup_and_pid(void **state)
{
	char rel_in[PATH_MAX + 128], pids[64];
	const char *in, *out;
	struct itest_proc *s_in, *s_out;
	uint64_t ss_in, ss_out, base_in = 0;
	const json_t *r, *sys;
	double ns;
	int err;

	require_cgroups();
	make_cg(NULL, NULL, 0);
	in = make_cg("in", rel_in, sizeof(rel_in));
	out = make_cg("out", NULL, 0);
	s_in = spinner("0.4", NULL, in);
	s_out = spinner("0.4", NULL, out);
	snprintf(pids, sizeof(pids), "%d,%d", (int)s_in->pid, (int)s_out->pid);
	{
		const char *args[] = { "--software", "--json", "-I", "500", "-c",
				       rel_in,	     "-p",     pids, NULL };

		td_start(args);
	}
	/*
	 * Its CPU time from here: the spinner started (exec, the loader) before
	 * tdtrace counted, and waits on stdin, using no CPU, until go.
	 */
	assert_int_equal(itest_schedstat_ns(s_in->pid, &base_in), 0);
	go(s_in);
	go(s_out);
	ss_in = finish(s_in) - base_in;
	ss_out = finish(s_out);
	err = itest_wait(&td, STOP_MS);
	td_collect();
	if (err)
		fail_msg("tdtrace still running %d ms after both -p processes exited; stderr: %s",
			 STOP_MS, td_err);
	print_message("-c %s -p %s: tdtrace exited %d on its own; stderr: %s", rel_in, pids,
		      itest_exit_code(&td), td_err);
	assert_int_equal(itest_exit_code(&td), 0);
	if (td_bad)
		fail_msg("stdout line %d is not JSON", td_bad);

	r = row("process", "pid", s_in->pid);
	ns = itest_jnum(r, "cpu_ns");
	sys = system_row();
	print_message("inside: %d cpu_ns %.0f vs schedstat %llu: %+.3f%%; outside: %d "
		      "(schedstat %llu) row %s, cgroup row %s; untraced %lld\n",
		      (int)s_in->pid, ns, (unsigned long long)ss_in, error_pct(ns, ss_in),
		      (int)s_out->pid, (unsigned long long)ss_out,
		      find_row("process", "pid", s_out->pid) ? "PRESENT" : "absent",
		      find_row("cgroup", "cgroup_id", (long long)itest_inode(out)) ? "PRESENT"
										   : "absent",
		      itest_jcount(sys, "untraced", "cpu-clock"));
	assert_null(find_row("process", "pid", s_out->pid));
	assert_null(find_row("cgroup", "cgroup_id", (long long)itest_inode(out)));
	assert_int_equal(count_summary("process"), 1);
	assert_true(fabs(error_pct(ns, ss_in)) <= tolerance(ss_in));
	assert_true(itest_jcount(sys, "untraced", "cpu-clock") >= (long long)ss_out);
}

/* ------------------------------------------------------------------ 7 */

/*
 * A process that moves itself into the -c cgroup while running (what
 * `echo $$ > cgroup.procs; exec cmd` and container runtimes do) is charged
 * from the move on, not from the CPU's last read before it.
 */
static void test_cgroup_self_move(void **state)
{
	const char *args_tpl[] = { "--software", "--json", "-I", "2000", "-c", NULL, NULL };
	char rel[PATH_MAX + 128], script[3 * PATH_MAX];
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct itest_proc *p;
	const char *top;
	const json_t *r;
	uint64_t u, ss;
	double ns;
	int code;

	require_cgroups();
	top = make_cg(NULL, rel, sizeof(rel));
	args_tpl[5] = rel;
	td_start(args_tpl);
	snprintf(script, sizeof(script), "read x; echo $$ > %s/cgroup.procs && exec %s 0.3", top,
		 itest_helper_path("spin"));
	p = &procs[nr_procs++];
	if (itest_spawn(p, argv, ITEST_STDIN_PIPE))
		fail_msg("cannot start sh");
	/*
	 * Nothing traced runs meanwhile and no interval ends (-I 2000), so the
	 * CPU's last read is about this long before the move.
	 */
	itest_sleep_ms(900);
	if (write(p->in_pipe, "\n", 1) != 1)
		fail_msg("cannot release sh");
	ss = finish(p);
	u = usage_usec(top);
	code = td_stop();
	if (code != 0)
		fail_msg("tdtrace exited %d after SIGINT; stderr: %s", code, td_err);
	r = row("cgroup", "cgroup_id", (long long)itest_inode(top));
	ns = itest_jnum(r, "cpu_ns");
	print_message("moved itself in, then spun 0.3 s: cgroup cpu_ns %.0f vs usage_usec*1000 "
		      "%.0f: %+.3f%% (process schedstat %llu, including before the move)\n",
		      ns, u * 1000.0, error_pct(ns, u * 1000.0), (unsigned long long)ss);
	assert_true(u > 250000);
	assert_true(fabs(error_pct(ns, u * 1000.0)) <= tolerance(u * 1000.0));
}

/* ------------------------------------------------------------------ 8 */

/*
 * A task moved from one traced cgroup to another while it runs: the part
 * of its slice before the move belongs to the old cgroup (cpu.stat says
 * so), the rest to the new one. The spinner is pinned to one CPU and the
 * move is made from another, so that nothing switches it out at the move.
 */
static void test_cgroup_move_running(void **state)
{
	const char *args_tpl[] = { "--software", "--json", "-I", "5000", "-c", NULL, NULL };
	char rel[PATH_MAX + 128];
	const char *a, *b;
	struct itest_proc *s;
	cpu_set_t all, one;
	int cpus[2] = { -1, -1 }, n = 0, code;
	const char *names[2] = { "a", "b" };
	const char *paths[2];
	uint64_t u[2];
	double ns[2], err[2];

	require_cgroups();
	if (sched_getaffinity(0, sizeof(all), &all))
		fail_msg("sched_getaffinity: %s", strerror(errno));
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &all))
			cpus[n++] = c;
	if (n < 2)
		itest_skip("needs 2 CPUs (one to spin on, one to move the spinner from)\n");

	make_cg(NULL, rel, sizeof(rel));
	paths[0] = a = make_cg("a", NULL, 0);
	paths[1] = b = make_cg("b", NULL, 0);
	args_tpl[5] = rel;
	td_start(args_tpl);

	s = spinner("1.0", NULL, a);
	CPU_ZERO(&one);
	CPU_SET(cpus[1], &one);
	if (sched_setaffinity(s->pid, sizeof(one), &one))
		fail_msg("cannot pin %d to CPU %d: %s", (int)s->pid, cpus[1], strerror(errno));
	saved_affinity = all;
	affinity_saved = true;
	CPU_ZERO(&one);
	CPU_SET(cpus[0], &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		fail_msg("cannot pin the test to CPU %d: %s", cpus[0], strerror(errno));
	go(s);
	itest_sleep_ms(500);
	code = itest_cgroup_move(b, s->pid);
	if (code)
		fail_msg("cannot move %d to %s: %s", (int)s->pid, b, strerror(-code));
	finish(s);
	u[0] = usage_usec(a);
	u[1] = usage_usec(b);
	code = td_stop();
	if (code != 0)
		fail_msg("tdtrace exited %d after SIGINT; stderr: %s", code, td_err);
	for (int k = 0; k < 2; k++) {
		const json_t *r = row("cgroup", "cgroup_id", (long long)itest_inode(paths[k]));

		ns[k] = itest_jnum(r, "cpu_ns");
		err[k] = error_pct(ns[k], u[k] * 1000.0);
		print_message("spinner on CPU %d moved a -> b from CPU %d after 0.5 s: cgroup %s "
			      "cpu_ns %.0f vs usage_usec*1000 %.0f: %+.3f%%\n",
			      cpus[1], cpus[0], names[k], ns[k], u[k] * 1000.0, err[k]);
	}
	assert_true(u[0] > 200000 && u[1] > 200000);
	for (int k = 0; k < 2; k++)
		if (fabs(err[k]) > tolerance(u[k] * 1000.0))
			fail_msg("cgroup %s: %+.3f%% (tolerance %.1f%%)", names[k], err[k],
				 tolerance(u[k] * 1000.0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cgroup_nested_and_moves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pid_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pid_no_children, setup, teardown),
		cmocka_unit_test_setup_teardown(test_command, setup, teardown),
		cmocka_unit_test_setup_teardown(test_per_cgroup_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_targets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup_and_pid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup_self_move, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup_move_running, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
