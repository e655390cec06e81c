// SPDX-License-Identifier: GPL-2.0
/*
 * A full map: tdtrace --max-tasks 16 (the least it takes) while 200 short
 * processes come and go (churn, 10 waves over a second), on top of the
 * machine's own tasks. Slices that find no free entry go to the overflow
 * entry (README, JSON lines: task_drops, task_overflow): the system lines
 * must say task_drops > 0, with cgroup_drops equal to it (one map holds
 * both), and every interval must still be conserved, since overflow is
 * part of the sum. The summary adds every interval's drops (and those of
 * the last slices after the last interval, so at least their sum). -d
 * ends the run: exit 0. Nothing stays attached. Needs root and BPF; skips
 * without.
 */
#include "faults.h"

#define END_MS 10000

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

static void test_map_full(void **state)
{
	static const char *const args[] = { "--software", "--json",	 "-I", "200", "-d",
					    "3",	  "--max-tasks", "16", NULL };
	/* 200 processes, 50 of them exec /bin/true; no threads, no forced PID reuse. */
	char *churn_argv[] = { (char *)itest_helper_path("churn"),
			       "-p",
			       "200",
			       "-t",
			       "0",
			       "-e",
			       "50",
			       "-r",
			       "0",
			       "-w",
			       "10",
			       "-d",
			       "1000",
			       NULL };
	long long drops = 0, sum = 0, overflow = 0;
	struct itest_bpf_ids ids;
	json_t *lines, *o;
	char *out, *err;
	int code, full = 0;
	size_t i;

	assert_int_equal(itest_spawn(&load, churn_argv, ITEST_STDIN_PIPE), 0);
	fault_start(&td, 0, args, &ids);
	assert_int_equal(write(load.in_pipe, "g", 1), 1);
	if (itest_wait(&load, END_MS))
		fail_msg("churn did not end within %d ms", END_MS);
	assert_int_equal(itest_exit_code(&load), 0);

	code = itest_wait(&td, END_MS) ? -1 : itest_exit_code(&td);
	out = itest_stdout(&td);
	err = itest_stderr(&td);
	if (!err)
		fail_msg("cannot read tdtrace's stderr");
	if (code != 0)
		fail_msg("exit %d after -d 3 with a full map (want 0); stderr: %s", code, err);
	if (strstr(err, "failed") || strstr(err, "missing"))
		fail_msg("a full map is not a failure; stderr: %s", err);

	lines = fault_lines(out);
	json_array_foreach(lines, i, o)
	{
		if (!itest_jis(o, "type", "system"))
			continue;
		drops = itest_jint(o, "task_drops");
		if (drops < 0 || itest_jint(o, "cgroup_drops") != drops)
			fail_msg("%s %lld: task_drops %lld, cgroup_drops %lld: want equal counts",
				 itest_jstr(o, "phase"), itest_jint(o, "interval"), drops,
				 itest_jint(o, "cgroup_drops"));
		if (itest_jis(o, "phase", "summary"))
			break;
		sum += drops;
		full += drops > 0;
		overflow += itest_jcount(o, "task_overflow", "cpu-clock");
	}
	o = fault_find(lines, "system", "summary", 0);
	if (!o)
		fail_msg("no summary line");
	print_message("%d of %d intervals dropped slices, %lld in all (%lld ns to overflow); "
		      "summary: %lld\n",
		      full, fault_nr_intervals(lines), sum, overflow, drops);
	if (!full)
		fail_msg("no interval says task_drops > 0 with --max-tasks 16 and 200 processes");
	if (overflow <= 0)
		fail_msg("slices were dropped but no CPU time went to task_overflow");
	if (drops < sum)
		fail_msg("the summary says %lld drops, the intervals %lld", drops, sum);
	json_decref(lines);
	free(out);
	free(err);
	fault_assert_detached(&ids);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_map_full, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
