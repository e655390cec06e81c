// SPDX-License-Identifier: GPL-2.0
/*
 * One leader read per switch, metric members read directly (issue 4).
 * Without a PMU the same path is exercised with eagerly updated software
 * events as members: what tdtrace charges a process for page faults, read
 * directly from the member events, must match the kernel's own count for
 * that process; a lazily updated member (cpu-clock, task-clock) is read
 * with the helper, decided per slot; and a stale or zero direct read must
 * make the start-up self-check fall back to one helper call per event.
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

/*
 * Start tdtrace with @members, which must be read directly (said on
 * stderr), run the faulter under it and stop tdtrace: the faulter's pid
 * in *@pid, its own page faults (minflt + majflt) returned.
 */
static long long faulter_under(const char *members, pid_t *pid)
{
	char *argv[] = { (char *)itest_helper_path("faulter"), "-w", "20000", NULL };
	struct itest_proc f;
	long long kernel;
	char *err;

	start_td(members);
	err = itest_stderr(&td);
	print_message("%s", err);
	assert_non_null(strstr(err, "members read directly"));
	free(err);
	assert_int_equal(itest_spawn(&f, argv, ITEST_STDIN_PIPE), 0);
	assert_int_equal(write(f.in_pipe, "g", 1), 1);
	assert_int_equal(itest_wait_nowait(&f, 10000), 0);
	kernel = faults_of(f.pid); /* a zombie: final, not reaped yet */
	*pid = f.pid;
	itest_wait(&f, 1000);
	itest_proc_release(&f);
	return kernel;
}

/*
 * The faulter's page faults, read as @members say, as tdtrace charges
 * them against the kernel's count (within 2%), and every page fault of
 * the system accounted for: processes + overflow + untraced.
 */
static void faults_match_kernel(const char *members)
{
	long long kernel = -1, charged = -1, sys = -1, procs = 0, over = 0, untraced = 0;
	json_t *lines, *o;
	pid_t pid;
	char *out;
	int code, bad;
	size_t i;

	kernel = faulter_under(members, &pid);
	code = itest_signal_and_wait(&td, SIGINT, STOP_MS);
	out = itest_stdout(&td);
	lines = itest_parse_jsonl(out, &bad);
	json_array_foreach(lines, i, o)
	{
		if (!itest_jis(o, "phase", "summary"))
			continue;
		if (itest_jis(o, "type", "process")) {
			procs += itest_jcount(o, "counts", "page-faults");
			if (itest_jint(o, "pid") == pid)
				charged = itest_jcount(o, "counts", "page-faults");
		} else if (itest_jis(o, "type", "system")) {
			sys = itest_jcount(o, "counts", "page-faults");
			over = itest_jcount(o, "task_overflow", "page-faults");
			untraced = itest_jcount(o, "untraced", "page-faults");
		}
	}
	print_message(
		"faulter %d: page faults charged %lld (%s), kernel minflt+majflt %lld: %+.3f%%; "
		"system %lld = processes %lld + overflow %lld + untraced %lld\n",
		(int)pid, charged, members, kernel,
		kernel > 0 ? 100.0 * (charged - kernel) / kernel : 0.0, sys, procs, over, untraced);
	assert_int_equal(code, 0);
	assert_int_equal(bad, 0);
	assert_true(kernel >= PAGES);
	assert_true(fabs((double)(charged - kernel)) <= 0.02 * kernel);
	assert_true(procs + over + untraced == sys);
	json_decref(lines);
	free(out);
	itest_proc_release(&td);
}

static void test_direct_members_match_kernel(void **state)
{
	faults_match_kernel("page-faults,context-switches");
}

/*
 * Five groups, TD_MAX_GROUPS (Haswell's and Broadwell's rows need them):
 * cpu-clock leading context-switches (read directly), then four groups of
 * one, page-faults leading the fifth: its counts and its group's times
 * are the last of each CPU's slots.
 */
static void test_fifth_group_matches_kernel(void **state)
{
	faults_match_kernel(
		"context-switches/cpu-migrations/emulation-faults/task-clock/page-faults");
}

/* voluntary + nonvoluntary context switches of a zombie, from /proc/PID/status. */
static long long switches_of(pid_t pid)
{
	char path[64], line[256];
	long long v = -1, n = -1, x;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "voluntary_ctxt_switches: %lld", &x) == 1)
			v = x;
		else if (sscanf(line, "nonvoluntary_ctxt_switches: %lld", &x) == 1)
			n = x;
	}
	fclose(f);
	return v < 0 || n < 0 ? -1 : v + n;
}

#define HOPS	  400
#define HOP_PAGES 50

/*
 * Two groups in the one perf event array: cpu-clock leading
 * context-switches (read directly), then page-faults leading
 * cpu-migrations (read directly after it). The hopper moves from CPU to
 * CPU, so its counts come from every slot of every CPU. What is charged
 * to it must match the kernel's own counts of the process:
 * - page faults, from the group 1 leader: minflt + majflt, at least
 *   HOPS * HOP_PAGES = 20000 (one per page touched), within 1%;
 * - context switches, from a group 0 member: the counter moves just
 *   after sched_switch, so each switch into the hopper lands in the
 *   hopper's slice; switches in = switches out = voluntary +
 *   nonvoluntary, at least HOPS (one sleep per hop), give or take the
 *   exit's last switch: within 2 + 0.5%.
 * Every counter, cpu-migrations too, must add up: system = processes +
 * task overflow + untraced.
 */
static void test_groups_match_kernel(void **state)
{
	static const char *const names[] = { "cpu-clock", "context-switches", "page-faults",
					     "cpu-migrations" };
	char hops[16], pages[16];
	char *argv[] = { (char *)itest_helper_path("hopper"), "-w", hops, pages, NULL };
	long long faults = -1, switches = -1, charged_faults = -1, charged_switches = -1;
	long long sys[4] = { 0 }, procs[4] = { 0 }, over[4] = { 0 }, untraced[4] = { 0 };
	struct itest_proc h;
	json_t *lines, *o;
	char *out, *err;
	int code, bad;
	size_t i;

	snprintf(hops, sizeof(hops), "%d", HOPS);
	snprintf(pages, sizeof(pages), "%d", HOP_PAGES);
	start_td("context-switches/page-faults,cpu-migrations");
	err = itest_stderr(&td);
	print_message("%s", err);
	/* 2 members per CPU, both eagerly updated: direct reads are sound. */
	assert_non_null(strstr(err, "members read directly"));
	free(err);

	assert_int_equal(itest_spawn(&h, argv, ITEST_STDIN_PIPE), 0);
	assert_int_equal(write(h.in_pipe, "g", 1), 1);
	assert_int_equal(itest_wait_nowait(&h, 10000), 0);
	faults = faults_of(h.pid); /* a zombie: final, not reaped yet */
	switches = switches_of(h.pid);
	itest_wait(&h, 1000);
	assert_int_equal(itest_exit_code(&h), 0);

	code = itest_signal_and_wait(&td, SIGINT, STOP_MS);
	out = itest_stdout(&td);
	lines = itest_parse_jsonl(out, &bad);
	json_array_foreach(lines, i, o)
	{
		if (!itest_jis(o, "phase", "summary"))
			continue;
		for (int k = 0; k < 4; k++) {
			if (itest_jis(o, "type", "process")) {
				procs[k] += itest_jcount(o, "counts", names[k]);
			} else if (itest_jis(o, "type", "system")) {
				sys[k] = itest_jcount(o, "counts", names[k]);
				over[k] = itest_jcount(o, "task_overflow", names[k]);
				untraced[k] = itest_jcount(o, "untraced", names[k]);
			}
		}
		if (itest_jis(o, "type", "process") && itest_jint(o, "pid") == h.pid) {
			charged_faults = itest_jcount(o, "counts", "page-faults");
			charged_switches = itest_jcount(o, "counts", "context-switches");
		}
	}
	print_message("hopper %d: page faults charged %lld, kernel %lld; context switches "
		      "charged %lld, kernel %lld\n",
		      (int)h.pid, charged_faults, faults, charged_switches, switches);
	assert_int_equal(code, 0);
	assert_int_equal(bad, 0);
	assert_true(faults >= HOPS * HOP_PAGES);
	assert_true(switches >= HOPS);
	assert_true(fabs((double)(charged_faults - faults)) <= 0.01 * faults);
	assert_true(fabs((double)(charged_switches - switches)) <= 2 + 0.005 * switches);
	for (int k = 0; k < 4; k++) {
		print_message("%s: system %lld = processes %lld + overflow %lld + untraced %lld\n",
			      names[k], sys[k], procs[k], over[k], untraced[k]);
		assert_true(sys[k] > 0);
		assert_true(procs[k] + over[k] + untraced[k] == sys[k]);
	}
	json_decref(lines);
	free(out);
	itest_proc_release(&h);
	itest_proc_release(&td);
}

/*
 * The read is decided per slot: page-faults and context-switches (counted
 * as they happen) are read directly, task-clock (brought up to date only
 * on a read, as a generic hardware counter is) with the helper, so the
 * self-check passes and task-clock still counts: the system's task-clock
 * is the system's cpu-clock (the leader's), within 2%, not a stale count.
 */
static void test_direct_decided_per_slot(void **state)
{
	long long kernel, charged = -1, cpu = -1, task = -1;
	json_t *lines, *o;
	pid_t pid;
	char *out;
	int code, bad;
	size_t i;

	/* context-switches: the loader's own sleeps between self-checks move it. */
	kernel = faulter_under("page-faults,context-switches,task-clock", &pid);
	code = itest_signal_and_wait(&td, SIGINT, STOP_MS);
	out = itest_stdout(&td);
	lines = itest_parse_jsonl(out, &bad);
	json_array_foreach(lines, i, o)
	{
		if (!itest_jis(o, "phase", "summary"))
			continue;
		if (itest_jis(o, "type", "process") && itest_jint(o, "pid") == pid)
			charged = itest_jcount(o, "counts", "page-faults");
		if (itest_jis(o, "type", "system")) {
			cpu = itest_jcount(o, "counts", "cpu-clock");
			task = itest_jcount(o, "counts", "task-clock");
		}
	}
	print_message("faulter %d: page faults charged %lld, kernel %lld; system cpu-clock %lld "
		      "ns, task-clock %lld ns\n",
		      (int)pid, charged, kernel, cpu, task);
	assert_int_equal(code, 0);
	assert_int_equal(bad, 0);
	assert_true(kernel >= PAGES);
	assert_true(fabs((double)(charged - kernel)) <= 0.02 * kernel);
	assert_true(cpu > 0);
	assert_true(fabs((double)(task - cpu)) <= 0.02 * cpu);
	json_decref(lines);
	free(out);
	itest_proc_release(&td);
}

/* The self-check refuses direct reads for @members: one helper call each, said. */
static void expect_fallback(const char *members)
{
	char *err;
	int code;

	start_td(members);
	err = itest_stderr(&td);
	print_message("%s", err);
	assert_non_null(strstr(err, "one helper call each"));
	code = itest_signal_and_wait(&td, SIGINT, STOP_MS);
	assert_int_equal(code, 0);
	free(err);
	itest_proc_release(&td);
}

/* A member whose count is 0 both ways proves nothing: no direct reads on it. */
static void test_zero_member_proves_nothing(void **state)
{
	expect_fallback("emulation-faults");
}

/*
 * cpu-clock's count moves only when read: read directly all the same
 * ('!'), it is stale, so the self-check says no.
 */
static void test_stale_member_falls_back(void **state)
{
	expect_fallback("cpu-clock!");
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
		cmocka_unit_test_teardown(test_fifth_group_matches_kernel, teardown),
		cmocka_unit_test_teardown(test_stale_member_falls_back, teardown),
		cmocka_unit_test_teardown(test_direct_decided_per_slot, teardown),
		cmocka_unit_test_teardown(test_zero_member_proves_nothing, teardown),
		cmocka_unit_test_teardown(test_groups_match_kernel, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
