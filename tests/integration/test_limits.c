// SPDX-License-Identifier: GPL-2.0
/*
 * Open-file limits: tdtrace holds one descriptor per counter per CPU (9 a
 * CPU at TopDown level 2: some 2,000 on a 224-CPU server) and raises its
 * soft RLIMIT_NOFILE to what the run needs, up to the hard limit; below
 * that it exits 1 naming the number. Needs root and BPF; skips without.
 */
#include "itest.h"
#include <sys/resource.h>

#define RUN_MS	8000
#define PRLIMIT "/usr/bin/prlimit"

static struct itest_proc child;

static int setup(void **state)
{
	itest_proc_init(&child);
	return 0;
}

static int teardown(void **state)
{
	itest_proc_release(&child);
	itest_cleanup();
	return 0;
}

/*
 * Run tdtrace under the limits @soft / @hard (0: the test's own hard
 * limit), set by prlimit(1) in the process that then execs it: lowering a
 * limit needs no privilege. Returns the exit code; *out, *err its output.
 */
static int run_limited(rlim_t soft, rlim_t hard, const char *const args[], char **out, char **err)
{
	char *argv[40], limit[64];
	struct rlimit own;
	int n = 0, ret;

	if (access(PRLIMIT, X_OK))
		itest_skip("%s: %s (util-linux)", PRLIMIT, strerror(errno));
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &own), 0);
	snprintf(limit, sizeof(limit), "--nofile=%llu:%llu", (unsigned long long)soft,
		 (unsigned long long)(hard ? hard : own.rlim_max));
	argv[n++] = PRLIMIT;
	argv[n++] = limit;
	itest_tdtrace_argv(argv + n, 40 - n, args);
	itest_proc_release(&child);
	ret = itest_run(&child, argv, 0, RUN_MS);
	if (ret)
		fail_msg("cannot run %s: %s", itest_tdtrace_path(), strerror(-ret));
	*out = itest_stdout(&child);
	*err = itest_stderr(&child);
	return itest_exit_code(&child);
}

/* The number tdtrace says it needs, from its error line; 0 if none. */
static unsigned long needed_in(const char *err)
{
	const char *p = strstr(err, "needs ");

	return p ? strtoul(p + 6, NULL, 10) : 0;
}

/* ulimit -S -n 30 used to stop even --software ("Too many open files"). */
static void test_low_soft_limit_raised(void **state)
{
	static const char *const args[] = { "--software", "--json", "-d", "1", NULL };
	char *out, *err;
	int bad = 0, code;
	json_t *lines;

	itest_require_root();
	code = run_limited(30, 0, args, &out, &err);
	if (code == 1 && strstr(err, "BPF") && !strstr(err, "open files"))
		itest_skip("tdtrace --software cannot load its BPF programs here: %s", err);
	if (code)
		fail_msg("exit %d under ulimit -S -n 30: %s", code, err);
	lines = itest_parse_jsonl(out, &bad);
	assert_int_equal(bad, 0);
	assert_true(json_array_size(lines) >= 2);
	json_decref(lines);
	free(out);
	free(err);
}

/*
 * A hard limit too low: exit 1, one line that names the number needed;
 * and that number is enough (a run with exactly that limit works).
 */
static void test_hard_limit_names_the_need(void **state)
{
	static const char *const args[] = { "--software", "--per-cgroup", "-d", "1", NULL };
	char *out, *err;
	unsigned long need;
	int code;

	itest_require_root();
	code = run_limited(30, 30, args, &out, &err);
	assert_int_equal(code, 1);
	if (!itest_one_error_line(err) || !strstr(err, "the hard limit is 30") ||
	    !strstr(err, "LimitNOFILE="))
		fail_msg("unexpected error: %s", err);
	assert_string_equal(out, "");
	need = needed_in(err);
	assert_true(need > 30);
	free(out);
	free(err);

	code = run_limited(need, need, args, &out, &err);
	if (code)
		fail_msg("exit %d with the %lu files it asked for: %s", code, need, err);
	free(out);
	free(err);

	code = run_limited(need - 1, need - 1, args, &out, &err);
	assert_int_equal(code, 1);
	assert_int_equal(needed_in(err), need);
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_low_soft_limit_raised, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hard_limit_names_the_need, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
