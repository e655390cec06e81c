// SPDX-License-Identifier: GPL-2.0
/*
 * tdtrace stopped (SIGSTOP) for three intervals, then continued (SIGCONT),
 * as a job-control stop or a debugger would do. Its BPF programs keep
 * charging while it is stopped; the interval after the stop must cover the
 * stopped time (its duration_s, measured, not planned), the run goes on,
 * every interval is conserved, and a process that spins across the stop
 * gets the CPU time the kernel says it had (/proc/PID/schedstat) within
 * 2%. SIGTERM then ends the run with its summary and exit 0, and nothing
 * stays attached. Needs root and BPF; skips without.
 */
#include "faults.h"

#define INTERVAL_MS  200
#define STOP_MS	     (3 * INTERVAL_MS)
#define SPIN_S	     "1.5" /* CPU seconds: spans the stop (at 0.6 to 1.2 s) */
/* A spinner niced with the test may wait for CPU on a busy machine. */
#define SPIN_WAIT_MS 20000
#define END_MS	     10000

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

static void test_stop_then_continue(void **state)
{
	static const char *const args[] = { "--software", "--json", "-I", "200", NULL };
	char *spin_argv[] = { (char *)itest_helper_path("spin"), "-w", SPIN_S, NULL };
	uint64_t base_ns = 0, end_ns = 0, want_ns;
	double longest = 0, stop_s = STOP_MS / 1000.0, gap;
	long long got_ns, stopped_at = -1;
	struct itest_bpf_ids ids;
	int code, after = 0;
	json_t *lines, *o;
	char *out, *err;
	size_t i;

	/* The spinner waits on stdin: it is charged nothing before tdtrace counts. */
	assert_int_equal(itest_spawn(&load, spin_argv, ITEST_STDIN_PIPE), 0);
	fault_start(&td, 0, args, &ids);
	assert_int_equal(itest_schedstat_ns(load.pid, &base_ns), 0);
	assert_int_equal(write(load.in_pipe, "g", 1), 1);

	itest_sleep_ms(3 * INTERVAL_MS);
	assert_int_equal(kill(td.pid, SIGSTOP), 0);
	itest_sleep_ms(STOP_MS);
	assert_int_equal(kill(td.pid, SIGCONT), 0);

	/* The spinner ends; kept a zombie, its schedstat is final and readable. */
	if (itest_wait_nowait(&load, SPIN_WAIT_MS))
		fail_msg("spin %s did not end within %d ms", SPIN_S, SPIN_WAIT_MS);
	assert_int_equal(itest_schedstat_ns(load.pid, &end_ns), 0);
	itest_sleep_ms(2 * INTERVAL_MS); /* a couple more intervals: it goes on */
	code = itest_signal_and_wait(&td, SIGTERM, END_MS);
	out = itest_stdout(&td);
	err = itest_stderr(&td);
	if (code != 0)
		fail_msg("exit %d after SIGTERM (want 0); stderr: %s", code, err);

	lines = fault_lines(out);
	/*
	 * The interval read after SIGCONT covers the stop: tdtrace sleeps on
	 * CLOCK_MONOTONIC, which runs on while it is stopped, and measures
	 * each duration. Find the longest interval, and check that the
	 * elapsed times have no hole (each line's elapsed_s is the previous
	 * one's plus its own duration_s): nothing of the stop went uncovered.
	 */
	{
		double prev = 0;

		json_array_foreach(lines, i, o)
		{
			double d, e;

			if (!itest_jis(o, "type", "system") || !itest_jis(o, "phase", "interval"))
				continue;
			d = itest_jnum(o, "duration_s");
			e = itest_jnum(o, "elapsed_s");
			gap = e - prev - d;
			if (gap > 0.005 || gap < -0.005)
				fail_msg("interval %lld: elapsed %.3f s, previous %.3f s, but "
					 "duration "
					 "%.3f s: %.3f s uncovered",
					 itest_jint(o, "interval"), e, prev, d, gap);
			if (d > longest) {
				longest = d;
				stopped_at = itest_jint(o, "interval");
			}
			if (stopped_at > 0 && itest_jint(o, "interval") > stopped_at)
				after++;
			prev = e;
		}
	}
	print_message("longest interval %lld: %.3f s (stopped %.3f s), %d intervals after it\n",
		      stopped_at, longest, stop_s, after);
	if (longest < stop_s)
		fail_msg("no interval covers the %.3f s stop: the longest is %.3f s", stop_s,
			 longest);
	if (after < 1)
		fail_msg("no interval after the stop: the run did not go on");

	/* The spinner's whole-run CPU time against the kernel's (summary line). */
	o = fault_find(lines, "process", "summary", load.pid);
	if (!o)
		fail_msg("no summary line for spin (pid %d)", (int)load.pid);
	got_ns = itest_jint(o, "cpu_ns");
	want_ns = end_ns - base_ns;
	print_message("spin pid %d: tdtrace %lld ns, schedstat %llu ns (%+.2f%%)\n", (int)load.pid,
		      got_ns, (unsigned long long)want_ns,
		      100.0 * ((double)got_ns - want_ns) / want_ns);
	assert_true(want_ns > 1000000000ULL); /* it did spin */
	if (got_ns < want_ns * 0.98 || got_ns > want_ns * 1.02)
		fail_msg("spin's CPU time is off by more than 2%%: %lld ns against %llu ns", got_ns,
			 (unsigned long long)want_ns);
	if (!fault_find(lines, "system", "summary", 0))
		fail_msg("no summary after SIGTERM");
	json_decref(lines);
	free(out);
	free(err);
	fault_assert_detached(&ids);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stop_then_continue, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
