// SPDX-License-Identifier: GPL-2.0
/*
 * The command line contract of build/tdtrace: exit codes, one-line errors
 * on stderr with nothing on stdout, --help/--version/--probe, and clean
 * exits (summary printed, BPF objects released) on SIGINT, SIGTERM, a
 * closed stdout and SIGKILL. The tests that load BPF or drop privileges
 * need root and skip without it.
 */
#include "itest.h"

#define RUN_MS	 5000 /* a tdtrace that should exit on its own */
#define START_MS 5000
#define STOP_MS	 5000
#define GONE_MS	 3000

#define FIXTURES "tests/fixtures/sysfs"

/* The child of the running test: the teardown kills and reaps it. */
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

static void require_fixture(const char *dir)
{
	if (access(dir, R_OK))
		fail_msg("%s: %s (run the tests from the repository root)", dir, strerror(errno));
}

/* Run tdtrace to its end; returns its stdout and stderr (caller frees). */
static int run(const char *const args[], int flags, char **out, char **err)
{
	struct itest_proc *p = &child;
	int ret;

	itest_proc_release(p);
	ret = itest_tdtrace_run(p, flags, RUN_MS, args);
	if (ret == -ETIMEDOUT)
		fail_msg("%s %s ... still running after %d ms", itest_tdtrace_path(), args[0],
			 RUN_MS);
	if (ret)
		fail_msg("cannot run %s: %s", itest_tdtrace_path(), strerror(-ret));
	*out = itest_stdout(p);
	*err = itest_stderr(p);
	ret = itest_exit_code(p);
	itest_proc_release(p);
	return ret;
}

/* ------------------------------------------------------------------ 1 */

struct bad_cmdline {
	const char *args[4];
	const char *names; /* what the error line must name */
};

/* Each must exit 2 with one "tdtrace: ..." line naming `names`, and no stdout. */
static const struct bad_cmdline bad_cmdlines[] = {
	{ { "-I", "0" }, "--interval" },
	{ { "-I", "abc" }, "--interval" },
	{ { "-I", "10x" }, "--interval" },
	{ { "-I", "" }, "--interval" },
	{ { "-I", "-5" }, "--interval" },
	{ { "--top", "-3" }, "--top" },
	{ { "--top", "0" }, "--top" },
	{ { "-n", "abc" }, "--top" },
	{ { "-d", "0" }, "--duration" },
	{ { "-d", "-1" }, "--duration" },
	{ { "-d", "abc" }, "--duration" },
	{ { "--bogus" }, "--bogus" },
	{ { "-x" }, "-x" },
	{ { "-I" }, "-I" },
	{ { "--software", "extra" }, "extra" },
	{ { "--max-tasks", "0" }, "--max-tasks" },
};

static void test_bad_command_lines(void **state)
{
	size_t nr = sizeof(bad_cmdlines) / sizeof(bad_cmdlines[0]);
	int failures = 0;

	for (size_t i = 0; i < nr; i++) {
		const struct bad_cmdline *b = &bad_cmdlines[i];
		char shown[128] = "";
		char *out, *err;
		int code;

		for (int a = 0; b->args[a]; a++)
			snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), " '%s'",
				 b->args[a]);
		code = run(b->args, 0, &out, &err);
		if (code != 2 || *out || !itest_one_error_line(err) || !strstr(err, b->names)) {
			print_message(
				"FAIL tdtrace%s: exit %d (want 2), stdout %zu bytes (want 0), "
				"stderr (want one 'tdtrace: ' line naming %s): %s",
				shown, code, strlen(out), b->names, err);
			failures++;
		} else {
			print_message("ok   tdtrace%s -> 2: %s", shown, err);
		}
		free(out);
		free(err);
	}
	assert_int_equal(failures, 0);
}

/* ------------------------------------------------------------------ 2 */

static void test_help_and_version(void **state)
{
	const char *help[] = { "--help", NULL }, *version[] = { "--version", NULL };
	char *out, *err;

	assert_int_equal(run(help, 0, &out, &err), 0);
	assert_non_null(strstr(out, "Usage:"));
	assert_non_null(strstr(out, "Examples:"));
	assert_string_equal(err, "");
	free(out);
	free(err);

	assert_int_equal(run(version, 0, &out, &err), 0);
	print_message("--version: %s", out);
	assert_non_null(strstr(out, "tdtrace"));
	assert_string_equal(err, "");
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ 3 */

static void test_no_pmu_without_software(void **state)
{
	const char *args[] = { "--sysfs-root", FIXTURES "/vm", "-d", "1", NULL };
	char *out, *err;
	int code;

	require_fixture(FIXTURES "/vm");
	code = run(args, 0, &out, &err);
	print_message("exit %d: %s", code, err);
	assert_int_equal(code, 2);
	assert_string_equal(out, "");
	assert_true(itest_one_error_line(err));
	assert_non_null(strstr(err, "Icelake"));
	assert_non_null(strstr(err, "--software"));
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ 4 */

static void test_probe(void **state)
{
	const char *spr[] = { "--probe", "--sysfs-root", FIXTURES "/sapphirerapids", NULL };
	const char *vm[] = { "--probe", "--sysfs-root", FIXTURES "/vm", NULL };
	char *out, *err;

	require_fixture(FIXTURES "/sapphirerapids");
	require_fixture(FIXTURES "/vm");
	assert_int_equal(run(spr, 0, &out, &err), 0);
	print_message("--probe sapphirerapids:\n%s", out);
	assert_non_null(strstr(out, "level 2"));
	free(out);
	free(err);

	assert_int_equal(run(vm, 0, &out, &err), 0);
	print_message("--probe vm:\n%s", out);
	assert_non_null(strstr(out, "no TopDown"));
	assert_null(strstr(out, "level 2"));
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ 5 */

static void test_not_root(void **state)
{
	const char *args[] = { "--software", "-d", "1", NULL };
	char *out, *err;
	int code;

	itest_require_root(); /* to become nobody */
	code = run(args, ITEST_DROP_ROOT, &out, &err);
	print_message("as uid 65534: exit %d: %s", code, err);
	if (code == 125 || code == 127)
		fail_msg("could not drop privileges or exec %s as nobody (exit %d)",
			 itest_tdtrace_path(), code);
	assert_int_equal(code, 1);
	assert_string_equal(out, "");
	assert_true(itest_one_error_line(err));
	assert_true(strstr(err, "root") || strstr(err, "CAP_BPF"));
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ 6 */

/*
 * Hybrid part (fake Alder Lake sysfs): the E-cores are named once as left
 * out. Opening cpu_core's events then fails on a machine without that PMU:
 * exit 1, nothing on stdout.
 */
static void test_hybrid_ecores_named(void **state)
{
	const char *args[] = { "--sysfs-root", "tests/fixtures/sysfs/alderlake", "-d", "1", NULL };
	char *out, *err;
	int code;

	itest_require_root();
	code = run(args, 0, &out, &err);
	print_message("exit %d: %s", code, err);
	assert_non_null(strstr(err, "leaving out CPUs 16-23: not covered by PMU cpu_core"));
	assert_non_null(strstr(err, "E-cores"));
	/* On a real hybrid part it counts (0); on these machines the open fails (1). */
	assert_true(code == 0 || code == 1);
	if (code == 1)
		assert_string_equal(out, "");
	free(out);
	free(err);
}

static void test_missing_btf(void **state)
{
	const char *args[] = { "--software", "--btf", "/nonexistent/vmlinux", "-d", "1", NULL };
	char *out, *err;
	int code;

	itest_require_root();
	code = run(args, 0, &out, &err);
	print_message("exit %d: %s", code, err);
	assert_int_equal(code, 1);
	assert_string_equal(out, "");
	assert_true(itest_one_error_line(err));
	assert_non_null(strstr(err, "BTF"));
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ 7 */

/* Start tdtrace into child; skip if it cannot load BPF here. */
static struct itest_proc *start(const char *const args[], int flags)
{
	struct itest_proc *p = &child;
	int err;

	itest_require_root();
	itest_proc_release(p);
	err = itest_tdtrace_start(p, flags, START_MS, args);
	if (err == -ECHILD) {
		char *e = itest_stderr(p);

		if (itest_exit_code(p) == 1 && e && (strstr(e, "BPF") || strstr(e, "BTF")))
			itest_skip("tdtrace --software cannot load BPF here: %s", e);
		fail_msg("tdtrace exited %d before counting: %s", itest_exit_code(p), e);
	}
	if (err)
		fail_msg("tdtrace did not start counting: %s", strerror(-err));
	return p;
}

static void test_sigterm_json_summary(void **state)
{
	const char *args[] = { "--software", "--json", "-I", "200", NULL };
	struct itest_proc *p = start(args, 0);
	int code, bad, systems = 0, nr_procs = 0;
	json_t *lines, *o;
	char *out, *err;
	size_t i;

	itest_sleep_ms(300);
	code = itest_signal_and_wait(p, SIGTERM, STOP_MS);
	out = itest_stdout(p);
	err = itest_stderr(p);
	lines = itest_parse_jsonl(out, &bad);
	json_array_foreach(lines, i, o)
	{
		if (!itest_jis(o, "phase", "summary"))
			continue;
		systems += itest_jis(o, "type", "system");
		nr_procs += itest_jis(o, "type", "process");
	}
	print_message("SIGTERM: exit %d, %zu JSON lines, summary: %d system, %d process\n", code,
		      json_array_size(lines), systems, nr_procs);
	if (code != 0)
		fail_msg("exit %d after SIGTERM (want 0); stderr: %s", code, err);
	assert_int_equal(bad, 0);
	assert_int_equal(systems, 1);
	assert_true(nr_procs > 0);
	json_decref(lines);
	free(out);
	free(err);
}

/* --self-stats: the summary says how often the program ran and for how long. */
static void test_self_stats(void **state)
{
	const char *args[] = { "--software", "--json", "--self-stats", "-I", "200", NULL };
	struct itest_proc *p = start(args, 0);
	long long runs = -1, ns = -1;
	int code, bad;
	json_t *lines, *o;
	char *out, *err;
	size_t i;

	itest_sleep_ms(400);
	code = itest_signal_and_wait(p, SIGINT, STOP_MS);
	out = itest_stdout(p);
	err = itest_stderr(p);
	lines = itest_parse_jsonl(out, &bad);
	json_array_foreach(lines, i, o)
	{
		if (itest_jis(o, "phase", "summary") && itest_jis(o, "type", "system")) {
			runs = itest_jint(o, "self_switch_runs");
			ns = itest_jint(o, "self_switch_ns");
		}
		/* Only the summary carries it. */
		if (itest_jis(o, "phase", "interval"))
			assert_null(json_object_get(o, "self_switch_runs"));
	}
	print_message("--self-stats: %lld runs, %lld ns (%.0f ns per run)\n", runs, ns,
		      runs > 0 ? (double)ns / runs : 0.0);
	if (code != 0)
		fail_msg("exit %d; stderr: %s", code, err);
	assert_int_equal(bad, 0);
	assert_true(runs > 0);
	assert_true(ns > 0);
	json_decref(lines);
	free(out);
	free(err);
}

static void test_sigint_table_summary(void **state)
{
	const char *args[] = { "--software", "-I", "200", NULL };
	struct itest_proc *p = start(args, 0);
	char *out, *err;
	int code;

	itest_sleep_ms(300);
	code = itest_signal_and_wait(p, SIGINT, STOP_MS);
	out = itest_stdout(p);
	err = itest_stderr(p);
	print_message("SIGINT: exit %d, %zu bytes of table\n", code, strlen(out));
	if (code != 0)
		fail_msg("exit %d after SIGINT (want 0); stderr: %s", code, err);
	assert_non_null(strstr(out, "summary"));
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ 8 */

/* Read from fd until a newline; returns what was read (caller frees), or NULL. */
static char *read_line(int fd, long timeout_ms)
{
	long long end = itest_now_ms() + timeout_ms;
	char *buf = calloc(1, 65536);
	size_t len = 0;

	while (buf && !memchr(buf, '\n', len) && len < 65535) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = end - itest_now_ms();
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			break;
		n = read(fd, buf + len, 65535 - len);
		if (n <= 0)
			break;
		len += n;
	}
	if (buf && !memchr(buf, '\n', len)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void test_reader_goes_away(void **state)
{
	const char *args[] = { "--software", "--json", "-I", "200", NULL };
	struct itest_proc *p = start(args, ITEST_STDOUT_PIPE);
	struct itest_bpf_ids ids;
	char left[1024], *line, *err;
	json_error_t je;
	json_t *first;
	long long t0;
	int code, n;

	assert_int_equal(itest_td_ids_of(p->pid, &ids), 0);
	line = read_line(p->out_pipe, 3000);
	if (!line)
		fail_msg("no line on stdout within 3 s");
	*strchr(line, '\n') = '\0';
	first = json_loads(line, 0, &je);
	print_message("first line: %.100s...\n", line);
	assert_true(json_is_object(first));
	json_decref(first);
	free(line);

	/* The reader goes away, like `tdtrace --json | head -1`. */
	close(p->out_pipe);
	p->out_pipe = -1;
	t0 = itest_now_ms();
	code = itest_wait(p, STOP_MS) ? -1 : itest_exit_code(p);
	err = itest_stderr(p);
	if (!err)
		fail_msg("cannot read tdtrace's stderr");
	print_message("exit %d, %lld ms after the pipe closed; stderr: %s", code,
		      itest_now_ms() - t0, err);
	if (code != 0)
		fail_msg("exit %d after stdout's reader went away (want 0)", code);
	assert_null(strstr(err, "failed"));
	free(err);

	if (!itest_have_bpftool())
		itest_skip("bpftool is not installed: cannot check the BPF objects\n");
	n = itest_wait_td_gone(&ids, GONE_MS, left, sizeof(left));
	print_message("td_ objects left after %d ms: %d %s\n", GONE_MS, n, left);
	assert_int_equal(n, 0);
}

/* ------------------------------------------------------------------ 9 */

static void test_sigkill_releases_bpf(void **state)
{
	const char *args[] = { "--software", "--json", "-I", "200", NULL };
	struct itest_proc *p = start(args, 0);
	struct itest_bpf_ids ids;
	char left[1024];
	int code, n;

	if (!itest_have_bpftool())
		itest_skip("bpftool is not installed: cannot check the BPF objects\n");
	assert_int_equal(itest_td_ids_of(p->pid, &ids), 0);
	itest_sleep_ms(200);
	code = itest_signal_and_wait(p, SIGKILL, STOP_MS);
	assert_int_equal(code, 128 + SIGKILL);
	n = itest_wait_td_gone(&ids, GONE_MS, left, sizeof(left));
	print_message("held %d program and %d map ids; td_ left after SIGKILL: %d %s\n",
		      ids.nr_progs, ids.nr_maps, n, left);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_command_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_and_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_pmu_without_software, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_btf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigterm_json_summary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigint_table_summary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hybrid_ecores_named, setup, teardown),
		cmocka_unit_test_setup_teardown(test_self_stats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reader_goes_away, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigkill_releases_bpf, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
