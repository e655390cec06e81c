// SPDX-License-Identifier: GPL-2.0
/*
 * --format=perf-json and -x SEP against perf itself: Debian's perf stat
 * (6.1) counts cpu-clock system-wide here, and its first line gives the
 * keys, their order and their JSON types, or the CSV's field count; the
 * system line of tdtrace --software must have the same, and every line
 * only keys from perf's JSON linter (tools/perf/tests/shell/lib/
 * perf_json_output_lint.py). Needs root and BPF for tdtrace; skips
 * without perf.
 */
#include "itest.h"

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

static char *perf_says(const char *args)
{
	char cmd[256], *out = NULL;
	size_t len = 0;
	FILE *p, *m;
	int c;

	snprintf(cmd, sizeof(cmd), "perf stat %s -a -e cpu-clock -I 300 sleep 0.35 2>&1", args);
	p = popen(cmd, "r");
	m = open_memstream(&out, &len);
	assert_non_null(p);
	while ((c = fgetc(p)) != EOF)
		fputc(c, m);
	pclose(p);
	fclose(m);
	return out;
}

static char *tdtrace_says(const char *a, const char *b)
{
	const char *args[] = { "--software", a, b, "-I", "300", "-d", "0.35", NULL };
	char *out, *err;

	itest_require_root();
	itest_proc_release(&td);
	assert_int_equal(itest_tdtrace_run(&td, 0, 5000, args), 0);
	out = itest_stdout(&td);
	err = itest_stderr(&td);
	if (itest_exit_code(&td) == 1 && strstr(err, "BPF"))
		itest_skip("tdtrace cannot load BPF here: %s", err);
	assert_int_equal(itest_exit_code(&td), 0);
	free(err);
	return out;
}

static bool have_perf(void)
{
	return !system("perf stat -e cpu-clock true >/dev/null 2>&1");
}

/* "key:type key:type ..." of one JSON object, in its order. */
static void shape(const char *line, char *buf, size_t size)
{
	json_error_t e;
	json_t *o = json_loads(line, JSON_DISABLE_EOF_CHECK | JSON_PRESERVE_ORDER, &e);
	const char *key;
	json_t *v;
	size_t n = 0;

	if (!o)
		fail_msg("not JSON: %s (%s)", line, e.text);
	buf[0] = '\0';
	json_object_foreach(o, key, v) n += snprintf(buf + n, size - n, "%s:%s ", key,
						     json_is_string(v)	  ? "s"
						     : json_is_integer(v) ? "i"
									  : "n");
	json_decref(o);
}

static void test_perf_json(void **state)
{
	static const char *const allowed[] = {
		"counters",	 "core",
		"counter-value", "cgroup",
		"cpu",		 "cache",
		"cluster",	 "die",
		"event",	 "event-runtime",
		"interval",	 "metric-unit",
		"metric-value",	 "metric-threshold",
		"metricgroup",	 "node",
		"pcnt-running",	 "socket",
		"thread",	 "unit",
	};
	char theirs[512], ours[512], *perf, *out;
	int lines = 0;

	(void)state;
	if (!have_perf())
		itest_skip("perf cannot count cpu-clock here (Debian: linux-perf)");
	perf = perf_says("-j");
	out = tdtrace_says("--format", "perf-json");
	shape(perf, theirs, sizeof(theirs));
	shape(out, ours, sizeof(ours));
	print_message("perf:    %s\ntdtrace: %s\n", theirs, ours);
	assert_string_equal(ours, theirs);
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		json_t *o = json_loads(line, 0, NULL);
		const char *key;
		json_t *v;

		assert_non_null(o);
		json_object_foreach(o, key, v)
		{
			bool ok = false;

			for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
				ok |= !strcmp(key, allowed[i]);
			if (!ok)
				fail_msg("key '%s' is not one of perf's: %s", key, line);
		}
		assert_true(json_is_string(json_object_get(o, "counter-value")) ||
			    !json_object_get(o, "counter-value"));
		json_decref(o);
		lines++;
	}
	assert_true(lines > 2);
	free(perf);
	free(out);
}

static int fields(const char *line, char sep)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == sep;
	return n;
}

static void test_perf_csv(void **state)
{
	char *perf, *out, *thread;

	(void)state;
	if (!have_perf())
		itest_skip("perf cannot count cpu-clock here (Debian: linux-perf)");
	perf = perf_says("-x ';'");
	out = tdtrace_says("-x", ";");
	print_message("perf:    %.*s\ntdtrace: %.*s\n", (int)strcspn(perf, "\n"), perf,
		      (int)strcspn(out, "\n"), out);
	/* The system line: perf -a's columns; a process line: one more (comm-pid). */
	assert_int_equal(fields(out, ';'), fields(perf, ';'));
	assert_int_equal(strspn(out, " "), strspn(perf, " ")); /* the interval, padded alike */
	thread = strchr(out, '\n') + 1;
	assert_int_equal(fields(thread, ';'), fields(perf, ';') + 1);
	free(perf);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_perf_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_perf_csv, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
