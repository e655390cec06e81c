// SPDX-License-Identifier: GPL-2.0
/*
 * One leader read per switch, metric members read directly (issue 4).
 * Without a PMU the same path is exercised with eagerly updated software
 * events as members: what tdtrace charges a process for page faults, read
 * directly from the member events, must match the kernel's own count for
 * that process; and a lazily updated member (cpu-clock) must make the
 * start-up self-check fall back to one helper call per event.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include "itest.h"

#define START_MS 5000
#define STOP_MS	 5000
#define PAGES	 20000

/* minflt + majflt of a zombie, from /proc/PID/stat. */
static long long faults_of(pid_t pid)
{
	char path[64], buf[4096], *p;
	long long minflt = -1, majflt = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	/* After "(comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %lld %*u %lld", &minflt, &majflt) != 2)
		return -1;
	return minflt + majflt;
}

static struct itest_proc td;

static void start_td(const char *members)
{
	char opt[128];
	const char *args[] = { opt, "--json", "-I", "500", NULL };
	int err;

	itest_require_root();
	snprintf(opt, sizeof(opt), "--test-members=%s", members);
	err = itest_tdtrace_start(&td, 0, START_MS, args);
	if (err == -ECHILD) {
		char *e = itest_stderr(&td);

		if (itest_exit_code(&td) == 1 && e && (strstr(e, "BPF") || strstr(e, "BTF")))
			itest_skip("tdtrace cannot load BPF here: %s", e);
		fail_msg("tdtrace exited %d before counting: %s", itest_exit_code(&td), e);
	}
	if (err)
		fail_msg("tdtrace did not start counting: %s", strerror(-err));
}

static void test_direct_members_match_kernel(void **state)
{
	char *argv[] = { (char *)itest_helper_path("faulter"), "-w", "20000", NULL };
	long long kernel = -1, charged = -1, sys = -1, procs = 0, over = 0, untraced = 0;
	struct itest_proc f;
	json_t *lines, *o;
	char *out, *err;
	int code, bad;
	size_t i;

	start_td("page-faults,context-switches");
	err = itest_stderr(&td);
	print_message("%s", err);
	assert_non_null(strstr(err, "members read directly"));
	free(err);

	assert_int_equal(itest_spawn(&f, argv, ITEST_STDIN_PIPE), 0);
	assert_int_equal(write(f.in_pipe, "g", 1), 1);
	assert_int_equal(itest_wait_nowait(&f, 10000), 0);
	kernel = faults_of(f.pid); /* a zombie: final, not reaped yet */
	itest_wait(&f, 1000);

	code = itest_signal_and_wait(&td, SIGINT, STOP_MS);
	out = itest_stdout(&td);
	lines = itest_parse_jsonl(out, &bad);
	json_array_foreach(lines, i, o)
	{
		if (!itest_jis(o, "phase", "summary"))
			continue;
		if (itest_jis(o, "type", "process")) {
			procs += itest_jcount(o, "counts", "page-faults");
			if (itest_jint(o, "pid") == f.pid)
				charged = itest_jcount(o, "counts", "page-faults");
		} else if (itest_jis(o, "type", "system")) {
			sys = itest_jcount(o, "counts", "page-faults");
			over = itest_jcount(o, "task_overflow", "page-faults");
			untraced = itest_jcount(o, "untraced", "page-faults");
		}
	}
	print_message(
		"faulter %d: page faults charged %lld (read directly), kernel minflt+majflt "
		"%lld: %+.3f%%; system %lld = processes %lld + overflow %lld + untraced %lld\n",
		(int)f.pid, charged, kernel, kernel > 0 ? 100.0 * (charged - kernel) / kernel : 0.0,
		sys, procs, over, untraced);
	assert_int_equal(code, 0);
	assert_int_equal(bad, 0);
	assert_true(kernel >= PAGES);
	assert_true(fabs((double)(charged - kernel)) <= 0.02 * kernel);
	assert_true(procs + over + untraced == sys);
	json_decref(lines);
	free(out);
	itest_proc_release(&f);
	itest_proc_release(&td);
}

static void test_stale_member_falls_back(void **state)
{
	char *err;
	int code;

	start_td("cpu-clock");
	err = itest_stderr(&td);
	print_message("%s", err);
	/* cpu-clock's count moves only when read: a direct read is stale, so no. */
	assert_non_null(strstr(err, "one helper call each"));
	code = itest_signal_and_wait(&td, SIGINT, STOP_MS);
	assert_int_equal(code, 0);
	free(err);
	itest_proc_release(&td);
}

static int teardown(void **state)
{
	if (td.pid > 0 && !td.reaped) {
		kill(td.pid, SIGKILL);
		itest_wait(&td, 2000);
	}
	itest_proc_release(&td);
	memset(&td, 0, sizeof(td));
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_direct_members_match_kernel, teardown),
		cmocka_unit_test_teardown(test_stale_member_falls_back, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
