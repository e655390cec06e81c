// SPDX-License-Identifier: GPL-2.0
/*
 * End to end: tdtrace --software attributes CPU time to the right process,
 * thread and cgroup, checked against the kernel's own accounting
 * (/proc/PID/schedstat, cgroup cpu.stat usage_usec), and its summary
 * conserves every count. Needs root.
 *
 * Two tdtrace runs, each made once and shared by the tests that read it:
 *   run A (per process): spin 1.5 s in cgroup A, then spin 2 x 0.8 s in
 *                        cgroup B;
 *   run B (--per-thread): spin 2 x 0.8 s in cgroup C.
 * The runs never assert while a child is alive: they record what they saw,
 * reap everything, and the tests assert on the record afterwards.
 */
#include "itest.h"

#include <math.h>

#define TOLERANCE_PCT 2.0
#define START_MS      5000
#define SPIN_MS	      20000 /* a spinner's wall-time limit */
#define STOP_MS	      5000
#define GONE_MS	      3000

struct spun {
	pid_t pid;
	char cgroup[PATH_MAX];
	uint64_t cgroup_id;    /* the directory's inode */
	uint64_t schedstat_ns; /* /proc/PID/schedstat of the zombie */
	uint64_t usage_usec;   /* the cgroup's cpu.stat after the exit */
	int exit_code;
	int nr_threads;
	pid_t tid[4];	     /* the spinning threads, as spin reported them */
	long long tid_ns[4]; /* their CPU time, as they measured it */
};

struct run {
	bool done;
	const char *skip;	     /* why the tests that need it skip, or NULL */
	char error[PATH_MAX + 1024]; /* what went wrong setting it up, or "" */
	int exit_code;		     /* tdtrace's, after SIGINT */
	char *out, *err;	     /* tdtrace's stdout and stderr */
	json_t *lines;		     /* stdout parsed */
	int bad_line;
	struct itest_bpf_ids ids; /* td_ objects tdtrace held while running */
	bool have_ids;
	int left; /* of those, how many remained GONE_MS after exit */
	char left_names[1024];
	struct spun spun[2];
	int nr_spun;
	uint64_t steal_ns; /* the hypervisor's, while the spinners ran (itest_steal_ns) */
};

static struct run run_a, run_b;
static char skip_reason[PATH_MAX + 1024];

/* Spin in a fresh cgroup; fills s. Returns 0, or -1 with run->error set. */
static int spin_in_cgroup(struct run *r, struct spun *s, const char *name, const char *seconds,
			  const char *threads)
{
	char *argv[] = { (char *)itest_helper_path("spin"), "-w", (char *)seconds, (char *)threads,
			 NULL };
	struct itest_proc p;
	char *out = NULL, *line;
	int err;

	memset(s, 0, sizeof(*s));
	s->exit_code = -1;
	err = itest_cgroup_make(name, s->cgroup, sizeof(s->cgroup));
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot make cgroup %s: %s", name,
			 strerror(-err));
		return -1;
	}
	s->cgroup_id = itest_inode(s->cgroup);

	err = itest_spawn(&p, argv, ITEST_STDIN_PIPE);
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot start %s: %s", argv[0],
			 strerror(-err));
		itest_proc_release(&p);
		return -1;
	}
	s->pid = p.pid;
	/* Into the cgroup while it waits on stdin, then let it go. */
	err = itest_cgroup_move(s->cgroup, p.pid);
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot move %d into %s: %s", (int)p.pid,
			 s->cgroup, strerror(-err));
		goto out;
	}
	if (write(p.in_pipe, "g", 1) != 1) {
		snprintf(r->error, sizeof(r->error), "cannot start spin: %s", strerror(errno));
		goto out;
	}
	if (itest_wait_nowait(&p, SPIN_MS)) {
		snprintf(r->error, sizeof(r->error), "spin %s %s did not finish in %d ms", seconds,
			 threads, SPIN_MS);
		goto out;
	}
	/* A zombie now: its schedstat is final, and it is not reaped yet. */
	err = itest_schedstat_ns(p.pid, &s->schedstat_ns);
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot read /proc/%d/schedstat: %s",
			 (int)p.pid, strerror(-err));
		goto out;
	}
	itest_wait(&p, 1000);
	s->exit_code = itest_exit_code(&p);
	err = itest_cgroup_usage_usec(s->cgroup, &s->usage_usec);
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot read %s/cpu.stat: %s", s->cgroup,
			 strerror(-err));
		goto out;
	}

	out = itest_stdout(&p);
	for (line = out; line && *line && s->nr_threads < 4; line = strchr(line, '\n')) {
		int tid;
		long long ns;

		if (*line == '\n')
			line++;
		if (sscanf(line, "thread %d %lld", &tid, &ns) == 2) {
			s->tid[s->nr_threads] = tid;
			s->tid_ns[s->nr_threads++] = ns;
		}
	}
	if (s->exit_code != 0)
		snprintf(r->error, sizeof(r->error), "spin exited %d", s->exit_code);
out:
	free(out);
	itest_proc_release(&p);
	return r->error[0] ? -1 : 0;
}

/*
 * Start tdtrace, spin in the given cgroups, SIGINT it, and record it all.
 * Skips (r->skip) when not root or when tdtrace cannot load BPF at all.
 */
static void do_run(struct run *r, bool per_thread)
{
	const char *args_proc[] = { "--software", "--json", "-I", "500", NULL };
	const char *args_thread[] = { "--software", "--json", "-I", "500", "--per-thread", NULL };
	char mnt[PATH_MAX];
	struct itest_proc td;
	int err;

	if (r->done)
		return;
	r->done = true;
	r->exit_code = -1;
	if (!itest_is_root()) {
		r->skip = "needs root to load BPF programs and to make cgroups; run with sudo";
		return;
	}
	if (itest_cgroup2_mount(mnt, sizeof(mnt))) {
		r->skip = "no cgroup v2 mounted (cgroup attribution needs one)";
		return;
	}
	/* A read-only cgroup2 mount (e.g. in a container) is the environment, not a bug. */
	err = itest_cgroup_make("tdtrace-itest-probe", mnt, sizeof(mnt));
	if (err == -EROFS || err == -EACCES || err == -EPERM) {
		snprintf(skip_reason, sizeof(skip_reason), "cannot make a cgroup (%s): %s", mnt,
			 strerror(-err));
		r->skip = skip_reason;
		return;
	}
	if (!err)
		itest_cgroup_remove(mnt);

	err = itest_tdtrace_start(&td, 0, START_MS, per_thread ? args_thread : args_proc);
	if (err == -ECHILD) {
		if (itest_early_exit(&td, skip_reason, sizeof(skip_reason), r->error,
				     sizeof(r->error)))
			r->skip = skip_reason;
		return;
	}
	if (err) {
		snprintf(r->error, sizeof(r->error), "cannot start %s: %s", itest_tdtrace_path(),
			 strerror(-err));
		itest_proc_release(&td);
		return;
	}
	r->have_ids = !itest_td_ids_of(td.pid, &r->ids);

	r->steal_ns = itest_steal_ns();
	if (per_thread) {
		r->nr_spun = 1;
		spin_in_cgroup(r, &r->spun[0], "tdtrace-itest-threads", "0.8", "2");
	} else {
		r->nr_spun = 2;
		if (!spin_in_cgroup(r, &r->spun[0], "tdtrace-itest-single", "1.5", "1"))
			spin_in_cgroup(r, &r->spun[1], "tdtrace-itest-multi", "0.8", "2");
	}

	r->steal_ns = itest_steal_ns() - r->steal_ns;
	if (r->steal_ns)
		print_message("the hypervisor stole %.3f s of CPU during the run: allowed on top\n",
			      r->steal_ns / 1e9);
	r->exit_code = itest_signal_and_wait(&td, SIGINT, STOP_MS);
	r->out = itest_stdout(&td);
	r->err = itest_stderr(&td);
	r->lines = itest_parse_jsonl(r->out, &r->bad_line);
	itest_proc_release(&td);
	/* Only now: tdtrace names the cgroups by path when it prints the summary. */
	for (int i = 0; i < r->nr_spun; i++)
		if (r->spun[i].cgroup[0])
			itest_cgroup_remove(r->spun[i].cgroup);

	if (r->have_ids)
		r->left =
			itest_wait_td_gone(&r->ids, GONE_MS, r->left_names, sizeof(r->left_names));
}

/* Run once, shared by the tests; skip or fail the calling test if it could not. */
static struct run *get_run(struct run *r, bool per_thread)
{
	do_run(r, per_thread);
	if (r->skip)
		itest_skip("%s\n", r->skip);
	if (r->error[0])
		fail_msg("setting up the tdtrace run: %s", r->error);
	if (r->exit_code != 0)
		fail_msg("tdtrace exited %d after SIGINT (want 0); stderr: %s", r->exit_code,
			 r->err ? r->err : "");
	return r;
}

static bool is_summary(const json_t *o, const char *type)
{
	return itest_jis(o, "phase", "summary") && itest_jis(o, "type", type);
}

/* The one summary row of the given type whose key equals v; fails on none or two. */
static const json_t *summary_row(const struct run *r, const char *type, const char *key,
				 long long v)
{
	const json_t *found = NULL, *o;
	size_t i;

	json_array_foreach(r->lines, i, o)
	{
		if (!is_summary(o, type) || itest_jint(o, key) != v)
			continue;
		if (found)
			fail_msg("two summary %s rows with %s %lld", type, key, v);
		found = o;
	}
	if (!found)
		fail_msg("no summary %s row with %s %lld; stdout begins:\n%.1000s", type, key, v,
			 r->out);
	return found;
}

static double error_pct(double got, double want)
{
	return want > 0 ? 100.0 * (got - want) / want : INFINITY;
}

/* 1. The spinner's process row matches its schedstat, its cgroup row usage_usec. */
static void test_process_and_cgroup_attribution(void **state)
{
	struct run *r = get_run(&run_a, false);
	const struct spun *s = &r->spun[0];
	const json_t *proc, *cg;
	double proc_ns, cg_ns, want_cg, proc_err, cg_err;

	proc = summary_row(r, "process", "pid", s->pid);
	cg = summary_row(r, "cgroup", "cgroup_id", (long long)s->cgroup_id);
	proc_ns = itest_jnum(proc, "cpu_ns");
	cg_ns = itest_jnum(cg, "cpu_ns");
	want_cg = s->usage_usec * 1000.0;
	proc_err = error_pct(proc_ns, s->schedstat_ns);
	cg_err = error_pct(cg_ns, want_cg);

	print_message("process %d (%s): cpu_ns %.0f, schedstat %llu: error %+.3f%%\n", (int)s->pid,
		      itest_jstr(proc, "comm"), proc_ns, (unsigned long long)s->schedstat_ns,
		      proc_err);
	print_message("cgroup %s (id %llu): cpu_ns %.0f, usage_usec*1000 %.0f: error %+.3f%%\n",
		      itest_jstr(cg, "cgroup"), (unsigned long long)s->cgroup_id, cg_ns, want_cg,
		      cg_err);

	/* It did spin: the references themselves are about 1.5 s. */
	assert_true(s->schedstat_ns > 1400000000ULL);
	assert_true(fabs(proc_err) <=
		    itest_tolerance_pct(TOLERANCE_PCT, s->schedstat_ns, r->steal_ns));
	assert_true(fabs(cg_err) <= itest_tolerance_pct(TOLERANCE_PCT, want_cg, r->steal_ns));
	/* exec renamed the row; the exit was seen; the cgroup is named by its path. */
	assert_string_equal(itest_jstr(proc, "comm"), "spin");
	assert_true(json_is_true(json_object_get(proc, "exited")));
	assert_int_equal(itest_jint(proc, "cgroup_id"), (long long)s->cgroup_id);
	assert_non_null(itest_jstr(cg, "cgroup"));
	assert_non_null(strstr(s->cgroup, itest_jstr(cg, "cgroup")));
}

/* 2. A two-thread spinner is one process row, matching its cgroup's usage. */
static void test_multithreaded_process(void **state)
{
	struct run *r = get_run(&run_a, false);
	const struct spun *s = &r->spun[1];
	const json_t *proc;
	double proc_ns, want, err;

	proc = summary_row(r, "process", "pid", s->pid); /* exactly one row */
	proc_ns = itest_jnum(proc, "cpu_ns");
	want = s->usage_usec * 1000.0;
	err = error_pct(proc_ns, want);
	print_message("process %d (2 threads): cpu_ns %.0f, cgroup usage_usec*1000 %.0f: "
		      "error %+.3f%%\n",
		      (int)s->pid, proc_ns, want, err);

	assert_true(want > 1500000000.0); /* 2 x 0.8 s */
	assert_true(fabs(err) <= itest_tolerance_pct(TOLERANCE_PCT, want, r->steal_ns));
	assert_true(json_is_true(json_object_get(proc, "exited")));
}

static const char *const known_types[] = { "system", "process", "thread", "cgroup" };

static bool known_type(const char *t)
{
	for (size_t i = 0; t && i < sizeof(known_types) / sizeof(known_types[0]); i++)
		if (!strcmp(t, known_types[i]))
			return true;
	return false;
}

/* 3. Every line is schema-2 JSON; the summary conserves every count exactly. */
static void test_summary_conservation(void **state)
{
	struct run *r = get_run(&run_a, false);
	long long sys = -1, task_over = -1, cg_over = -1, untraced = -1, procs = 0, cgroups = 0;
	long long unseen = -1, slices = -1;
	int nr_interval = 0, nr_systems = 0, nr_procs = 0, nr_cgroups = 0;
	bool idle_proc = false, idle_cg = false;
	const json_t *o;
	size_t i;

	if (r->bad_line)
		fail_msg("stdout line %d is not a JSON object:\n%s", r->bad_line, r->out);
	assert_true(json_array_size(r->lines) > 0);
	json_array_foreach(r->lines, i, o)
	{
		const char *type = itest_jstr(o, "type");
		long long c = itest_jcount(o, "counts", "cpu-clock");

		if (itest_jint(o, "schema") != 2 || !known_type(type))
			fail_msg("line %zu: schema %lld, type %s", i + 1, itest_jint(o, "schema"),
				 type ? type : "(none)");
		if (!itest_jis(o, "mode", "software"))
			fail_msg("line %zu: mode is not \"software\"", i + 1);
		if (c < 0)
			fail_msg("line %zu: no integer counts[\"cpu-clock\"]", i + 1);
		if (itest_jis(o, "phase", "interval")) {
			nr_interval++;
			continue;
		}
		if (!itest_jis(o, "phase", "summary"))
			fail_msg("line %zu: phase is neither interval nor summary", i + 1);
		if (!strcmp(type, "system")) {
			nr_systems++;
			sys = c;
			task_over = itest_jcount(o, "task_overflow", "cpu-clock");
			cg_over = itest_jcount(o, "cgroup_overflow", "cpu-clock");
			untraced = itest_jcount(o, "untraced", "cpu-clock");
			unseen = itest_jint(o, "unseen_switches");
			slices = itest_jint(o, "slices");
		} else if (!strcmp(type, "process")) {
			nr_procs++;
			procs += c;
			if (itest_jint(o, "pid") == 0 && json_is_true(json_object_get(o, "idle")))
				idle_proc = true;
		} else if (!strcmp(type, "cgroup")) {
			/* cgroup rows hold subtrees; self_counts partition the total. */
			nr_cgroups++;
			cgroups += itest_jcount(o, "self_counts", "cpu-clock");
			if (itest_jint(o, "cgroup_id") == 0)
				idle_cg = true;
		}
	}

	print_message("%d interval lines; summary: %d process rows, %d cgroup rows\n", nr_interval,
		      nr_procs, nr_cgroups);
	/* Switches the program did not see come in: a figure, not a fault (README). */
	print_message("unseen_switches %lld of %lld slices\n", unseen, slices);
	print_message("system %lld; processes %lld + task_overflow %lld = %lld; "
		      "cgroups %lld + cgroup_overflow %lld = %lld\n",
		      sys, procs, task_over, procs + task_over, cgroups, cg_over,
		      cgroups + cg_over);

	assert_true(nr_interval > 0);
	assert_int_equal(nr_systems, 1);
	assert_true(task_over >= 0 && cg_over >= 0);
	assert_true(unseen >= 0 && slices > 0 && unseen <= slices);
	assert_true(sys > 0);
	assert_true(idle_proc);
	assert_true(idle_cg);
	assert_int_equal(untraced, 0); /* nothing is filtered in this run */
	assert_true(procs + task_over + untraced == sys);
	assert_true(cgroups + cg_over + untraced == sys);
}

/* 4. --per-thread: the two spinning threads are two thread rows. */
static void test_per_thread(void **state)
{
	struct run *r = get_run(&run_b, true);
	const struct spun *s = &r->spun[0];
	double sum = 0, want, err;
	const json_t *o;
	size_t i;

	if (r->bad_line)
		fail_msg("stdout line %d is not a JSON object", r->bad_line);
	/* Per thread, there are no process lines. */
	json_array_foreach(r->lines, i, o)
	{
		if (itest_jis(o, "type", "process"))
			fail_msg("a process line in --per-thread output: line %zu", i + 1);
	}
	assert_int_equal(s->nr_threads, 2);
	for (int t = 0; t < 2; t++) {
		const json_t *row = summary_row(r, "thread", "tid", s->tid[t]);
		double ns = itest_jnum(row, "cpu_ns");

		print_message("thread %d of %d: cpu_ns %.0f (the thread measured %lld)\n",
			      (int)s->tid[t], (int)s->pid, ns, s->tid_ns[t]);
		assert_int_equal(itest_jint(row, "pid"), s->pid);
		assert_true(s->tid[t] != s->pid);
		/* Each row holds that thread's time, not its sibling's too. */
		assert_true(fabs(error_pct(ns, s->tid_ns[t])) <=
			    itest_tolerance_pct(TOLERANCE_PCT, s->tid_ns[t], r->steal_ns));
		sum += ns;
	}
	want = s->usage_usec * 1000.0;
	err = error_pct(sum, want);
	print_message("threads sum %.0f, cgroup usage_usec*1000 %.0f: error %+.3f%%\n", sum, want,
		      err);
	assert_true(fabs(err) <= itest_tolerance_pct(TOLERANCE_PCT, want, r->steal_ns));
}

/* 5. Once tdtrace has exited on SIGINT, none of its td_ programs or maps remains. */
static void test_bpf_released(void **state)
{
	struct run *r = get_run(&run_a, false);
	char others[1024];
	int n;

	if (!itest_have_bpftool())
		itest_skip("bpftool is not installed\n");
	assert_true(r->have_ids); /* it did hold td_ programs and maps */
	print_message(
		"tdtrace held %d BPF program ids and %d map ids; %d td_ remain after %d ms%s%s\n",
		r->ids.nr_progs, r->ids.nr_maps, r->left, GONE_MS, r->left ? ": " : "",
		r->left_names);
	n = itest_td_objects("prog", NULL, 0, others, sizeof(others));
	if (n > 0)
		print_message("td_ programs loaded by someone else: %s\n", others);
	assert_int_equal(r->left, 0);
	if (run_b.done && !run_b.skip && run_b.have_ids) {
		print_message("--per-thread run: %d remain%s%s\n", run_b.left,
			      run_b.left ? ": " : "", run_b.left_names);
		assert_int_equal(run_b.left, 0);
	}
}

static void free_run(struct run *r)
{
	free(r->out);
	free(r->err);
	json_decref(r->lines);
	memset(r, 0, sizeof(*r));
}

static int teardown(void **state)
{
	itest_cleanup();
	return 0;
}

static int group_teardown(void **state)
{
	itest_cleanup();
	free_run(&run_a);
	free_run(&run_b);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_process_and_cgroup_attribution, teardown),
		cmocka_unit_test_teardown(test_multithreaded_process, teardown),
		cmocka_unit_test_teardown(test_summary_conservation, teardown),
		cmocka_unit_test_teardown(test_per_thread, teardown),
		cmocka_unit_test_teardown(test_bpf_released, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, group_teardown);
}
