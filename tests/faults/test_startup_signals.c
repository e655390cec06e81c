// SPDX-License-Identifier: GPL-2.0
/*
 * Signals at any moment of start-up: SIGINT or SIGTERM sent while tdtrace
 * is still opening counters and loading (slow with a large --max-tasks)
 * end the run cleanly: exit 0 as documented, nothing left attached, and
 * an -o file either absent or holding whole JSON lines. Delays are counted
 * from the moment tdtrace holds the stop signals, in main right after it
 * has checked for `tdtrace report` (ticker_hold_signals, user/tdtrace.c):
 * before that the dynamic loader maps libbpf, libelf and zlib, and a
 * signal there takes its default action, as for any program. Needs root
 * and BPF; skips without.
 */
#include "itest.h"

#define END_MS	20000
#define HOLD_MS 200 /* the loader maps libbpf, libelf, zlib: a few ms */

static struct itest_proc td;

static int setup(void **state)
{
	itest_proc_init(&td);
	return 0;
}

static int teardown(void **state)
{
	itest_proc_release(&td);
	itest_cleanup();
	return 0;
}

/*
 * Wait until tdtrace holds its stop signals: they show as blocked in
 * /proc/PID/status (SigBlk) once main has called ticker_hold_signals.
 */
static long long wait_own_code(pid_t pid)
{
	unsigned long long want = 1ULL << (SIGINT - 1) | 1ULL << (SIGTERM - 1);
	long long start = itest_now_ms(), end = start + 10000;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	while (itest_now_ms() < end) {
		char *text = itest_read_file(path), *p = text ? strstr(text, "SigBlk:") : NULL;
		unsigned long long blk = p ? strtoull(p + 7, NULL, 16) : 0;

		free(text);
		if ((blk & want) == want)
			return itest_now_ms() - start;
		usleep(100);
	}
	fail_msg("tdtrace held no stop signal within 10 s");
	return -1;
}

/* Every line of @path parses as a whole JSON object; the last is a summary. */
static void assert_whole_lines(const char *path)
{
	char *text = itest_read_file(path);
	json_t *lines;
	int bad = 0;

	if (!text)
		return; /* never created: fine */
	lines = itest_parse_jsonl(text, &bad);
	if (bad || (*text && text[strlen(text) - 1] != '\n'))
		fail_msg("%s: %d lines cut or broken:\n%s", path, bad, text);
	if (*text &&
	    !itest_jis(json_array_get(lines, json_array_size(lines) - 1), "phase", "summary"))
		fail_msg("%s: no summary at the end", path);
	json_decref(lines);
	free(text);
}

static void test_stop_signals_during_startup(void **state)
{
	static const int delays_ms[] = { 0, 1, 5, 10, 20, 40, 80, 150, 300, 600, 1000, 2000 };
	static const int sigs[] = { SIGTERM, SIGINT };
	char out_path[64] = "/tmp/tdtrace-startup-XXXXXX", skip[512], error[512];
	int failures = 0, runs = 0;
	long long worst = 0;

	itest_require_root();
	/* Learn once that tdtrace can run here at all. */
	{
		static const char *const args[] = { "--software", "-d", "0.2", NULL };

		if (itest_tdtrace_run(&td, 0, END_MS, args) == 0 && itest_exit_code(&td) == 1 &&
		    itest_early_exit(&td, skip, sizeof(skip), error, sizeof(error)))
			itest_skip("%s", skip);
		itest_proc_release(&td);
	}
	assert_non_null(mkdtemp(out_path));
	strcat(out_path, "/out.jsonl");
	for (size_t d = 0; d < sizeof(delays_ms) / sizeof(delays_ms[0]); d++) {
		for (int with_o = 0; with_o < 2; with_o++) {
			const char *args[] = {
				"--software",	      "--json", "--max-tasks", "400000",
				with_o ? "-o" : NULL, out_path, NULL
			};
			int sig = sigs[(d + with_o) % 2], code;
			long long held;
			char *argv[16];

			unlink(out_path);
			itest_tdtrace_argv(argv, 16, args);
			assert_int_equal(itest_spawn(&td, argv, 0), 0);
			held = wait_own_code(td.pid);
			/* From the start, not once set up: a large --max-tasks takes seconds. */
			if (held > HOLD_MS)
				fail_msg("stop signals held only %lld ms after the start", held);
			worst = held > worst ? held : worst;
			itest_sleep_ms(delays_ms[d]);
			code = itest_signal_and_wait(&td, sig, END_MS);
			runs++;
			if (code != 0) {
				char *e = itest_stderr(&td);

				print_message("FAIL %s after %d ms%s: exit %d: %s", strsignal(sig),
					      delays_ms[d], with_o ? " with -o" : "", code, e);
				free(e);
				failures++;
			}
			if (with_o)
				assert_whole_lines(out_path);
			itest_proc_release(&td);
		}
	}
	unlink(out_path);
	*strrchr(out_path, '/') = '\0';
	rmdir(out_path);
	print_message("%d stops during start-up, %d failed; signals held at most %lld ms after "
		      "the spawn\n",
		      runs, failures, worst);
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stop_signals_during_startup, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
