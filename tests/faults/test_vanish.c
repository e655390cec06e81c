// SPDX-License-Identifier: GPL-2.0
/*
 * Targets that vanish: a -c cgroup removed while tdtrace runs is said on
 * stderr and in JSON ("cgroups_removed"); when every -c cgroup is gone
 * the run ends, as it does when every -p process has exited, with the
 * summary and exit 0. Needs root, BPF and cgroup v2; skips without.
 */
#include "itest.h"

#define START_MS 5000
#define END_MS	 5000

static struct itest_proc td, load;

static int setup(void **state)
{
	itest_proc_init(&td);
	itest_proc_init(&load);
	return 0;
}

static int teardown(void **state)
{
	itest_proc_release(&td);
	itest_proc_release(&load);
	itest_cleanup();
	return 0;
}

/* Run `spin 0.3` in @cgroup to its end, so the cgroup has something charged and is empty again. */
static void spin_in(const char *cgroup)
{
	char *argv[] = { (char *)itest_helper_path("spin"), "-w", "0.3", NULL };

	itest_proc_release(&load);
	assert_int_equal(itest_spawn(&load, argv, ITEST_STDIN_PIPE), 0);
	assert_int_equal(itest_cgroup_move(cgroup, load.pid), 0);
	assert_int_equal(write(load.in_pipe, "g", 1), 1);
	assert_int_equal(itest_wait(&load, 10000), 0);
	assert_int_equal(itest_exit_code(&load), 0);
}

static void start(const char *const args[])
{
	char skip[512], error[512];
	int err = itest_tdtrace_start(&td, 0, START_MS, args);

	if (err == -ECHILD) {
		if (itest_early_exit(&td, skip, sizeof(skip), error, sizeof(error)))
			itest_skip("%s", skip);
		fail_msg("%s", error);
	}
	assert_int_equal(err, 0);
}

/* The "cgroups_removed" of the last line of @type "system" and @phase. */
static const json_t *removed_in(const json_t *lines, const char *phase)
{
	const json_t *found = NULL;
	size_t i;
	json_t *o;

	json_array_foreach(lines, i,
			   o) if (itest_jis(o, "type", "system") && itest_jis(o, "phase", phase))
		found = json_object_get(o, "cgroups_removed");
	return found;
}

static void assert_all_conserved(const json_t *lines)
{
	size_t i;
	json_t *o;

	json_array_foreach(lines, i, o) if (itest_jis(o, "type", "system") &&
					    !json_is_true(json_object_get(o, "conserved")))
		fail_msg("line %zu not conserved", i);
}

/* Both -c cgroups removed one after the other: said once each, then the run ends. */
static void test_removed_cgroups_end_the_run(void **state)
{
	char a[PATH_MAX], b[PATH_MAX], *out, *err;
	const char *args[] = { "--software", "--json", "-I", "200", "-c", a, "-c", b, NULL };
	const json_t *gone;
	json_t *lines;
	int bad = 0, code;

	itest_require_root();
	if (itest_cgroup_make("tdtrace-vanish-a", a, sizeof(a)) ||
	    itest_cgroup_make("tdtrace-vanish-b", b, sizeof(b)))
		itest_skip("no cgroup v2 to make test cgroups in");
	start(args);
	spin_in(a);
	assert_int_equal(itest_cgroup_remove(a), 0);
	itest_sleep_ms(500);
	/* One left: still running. */
	assert_false(itest_poll_exit(&td));
	spin_in(b);
	assert_int_equal(itest_cgroup_remove(b), 0);
	/* The last one gone: it ends by itself within an interval or two. */
	if (itest_wait(&td, END_MS))
		fail_msg("tdtrace still running %d ms after its last -c cgroup was removed",
			 END_MS);
	code = itest_exit_code(&td);
	out = itest_stdout(&td);
	err = itest_stderr(&td);
	assert_int_equal(code, 0);
	if (!strstr(err, "-vanish-a") || !strstr(err, "was removed") ||
	    !strstr(err, "every cgroup given with -c was removed"))
		fail_msg("stderr does not say so: %s", err);
	lines = itest_parse_jsonl(out, &bad);
	assert_int_equal(bad, 0);
	assert_all_conserved(lines);
	gone = removed_in(lines, "summary");
	assert_non_null(gone);
	assert_int_equal(json_array_size(gone), 2);
	assert_non_null(strstr(json_string_value(json_array_get(gone, 0)), "tdtrace-vanish-a"));
	assert_non_null(strstr(json_string_value(json_array_get(gone, 1)), "tdtrace-vanish-b"));
	json_decref(lines);
	free(out);
	free(err);
}

/* Without -c nothing is said, and nothing ends the run. */
static void test_no_targets_no_removed_field(void **state)
{
	static const char *const args[] = { "--software", "--json", "-d", "0.5", NULL };
	char *out;
	json_t *lines;
	int bad = 0;

	itest_require_root();
	start(args);
	assert_int_equal(itest_wait(&td, END_MS), 0);
	out = itest_stdout(&td);
	lines = itest_parse_jsonl(out, &bad);
	assert_int_equal(bad, 0);
	assert_null(removed_in(lines, "summary"));
	json_decref(lines);
	free(out);
}

/* spin_in, and the CPU time the spinner measured itself ("thread TID CPU_NS"). */
static long long spin_in_measured(const char *cgroup)
{
	long long tid, ns = -1;
	char *out;

	spin_in(cgroup);
	out = itest_stdout(&load);
	if (!out || sscanf(out, "thread %lld %lld", &tid, &ns) != 2)
		fail_msg("spin said '%s'", out ? out : "");
	free(out);
	return ns;
}

/* The summary's cpu_ns of process @pid. */
static long long summary_ns(const json_t *lines, pid_t pid)
{
	size_t i;
	json_t *o;

	json_array_foreach(lines, i,
			   o) if (itest_jis(o, "type", "process") &&
				  itest_jis(o, "phase", "summary") &&
				  itest_jint(o, "pid") == pid) return itest_jint(o, "cpu_ns");
	return -1;
}

/*
 * --wait-cgroup: the -c path does not exist at start; created, it is
 * traced (a spinner in it counted in full), removed, the run goes on, and
 * created again, it is traced again. Each step is said once.
 */
static void test_wait_cgroup(void **state)
{
	char a[PATH_MAX], *out, *err;
	const char *args[] = {
		"--software", "--json", "-I", "100", "-c", a, "--wait-cgroup", NULL
	};
	long long measured[2], got[2];
	pid_t pids[2];
	json_t *lines;
	int bad = 0, code;

	itest_require_root();
	if (itest_cgroup_make("tdtrace-wait", a, sizeof(a)))
		itest_skip("no cgroup v2 to make test cgroups in");
	assert_int_equal(itest_cgroup_remove(a), 0);
	start(args);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(itest_cgroup_make("tdtrace-wait", a, sizeof(a)), 0);
		itest_sleep_ms(400); /* noticed within an interval (100 ms) */
		measured[round] = spin_in_measured(a);
		pids[round] = load.pid;
		itest_sleep_ms(300);
		assert_int_equal(itest_cgroup_remove(a), 0);
		itest_sleep_ms(300);
		/* Gone, but the run goes on: it waits for the path. */
		if (itest_poll_exit(&td))
			fail_msg("tdtrace ended when its --wait-cgroup cgroup was removed");
	}
	code = itest_signal_and_wait(&td, SIGTERM, END_MS);
	out = itest_stdout(&td);
	err = itest_stderr(&td);
	assert_int_equal(code, 0);
	if (!strstr(err, "waiting for cgroup") || !strstr(err, "was created: traced from now") ||
	    !strstr(err, "was removed: waiting for it to be created again"))
		fail_msg("stderr does not say so: %s", err);
	{
		int created = 0;

		for (const char *q = err; (q = strstr(q, "was created")); q++)
			created++;
		assert_int_equal(created, 2); /* once per creation */
	}
	lines = itest_parse_jsonl(out, &bad);
	assert_int_equal(bad, 0);
	assert_all_conserved(lines);
	for (int round = 0; round < 2; round++) {
		got[round] = summary_ns(lines, pids[round]);
		print_message("round %d: spin %d: tdtrace %lld ns, spin measured %lld ns\n", round,
			      (int)pids[round], got[round], measured[round]);
		if (got[round] < measured[round] * 0.98 ||
		    got[round] > measured[round] * 1.02 + 2e6)
			fail_msg(
				"round %d: the spinner in the re-created cgroup was not counted in "
				"full",
				round);
	}
	json_decref(lines);
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_removed_cgroups_end_the_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_cgroup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_targets_no_removed_field, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
