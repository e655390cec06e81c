// SPDX-License-Identifier: GPL-2.0
/*
 * --format=perf-json and -x SEP against perf itself: Debian's perf stat
 * (6.1) counts cpu-clock here system-wide (-a), per thread (--per-thread)
 * and per cgroup (-G /). For each of the three, a line of tdtrace
 * --software about the same kind of entity (the machine, a process, a
 * cgroup) must have the same keys, in the same order, with the same JSON
 * types, or in CSV the same number of fields and the interval padded
 * alike; every line only keys from perf's JSON linter
 * (tools/perf/tests/shell/lib/perf_json_output_lint.py). With
 * TDTRACE_PERF_JSON_LINT naming that script (the kernel's, not shipped
 * here), it is run on tdtrace's lines too. Needs root and BPF for
 * tdtrace; skips without perf.
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

	/* -e first: perf's -G needs it before ("must define events before cgroups"). */
	snprintf(cmd, sizeof(cmd), "perf stat -a -e cpu-clock %s -I 300 sleep 0.35 2>&1", args);
	p = popen(cmd, "r");
	m = open_memstream(&out, &len);
	assert_non_null(p);
	while ((c = fgetc(p)) != EOF)
		fputc(c, m);
	pclose(p);
	fclose(m);
	return out;
}

/* The first line of @out holding @needle (NULL: the first line), cut at its end. */
static char *line_with(char *out, const char *needle)
{
	for (char *line = out; line && *line;) {
		char *nl = strchr(line, '\n');

		if (!needle || (strstr(line, needle) && (!nl || strstr(line, needle) < nl))) {
			char *copy = strndup(line, nl ? (size_t)(nl - line) : strlen(line));

			assert_non_null(copy);
			return copy;
		}
		line = nl ? nl + 1 : NULL;
	}
	fail_msg("no line with '%s' in:\n%s", needle, out);
	return NULL;
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

/* perf's and tdtrace's line about one kind of entity: same keys, order and types. */
static void same_shape(const char *perf_args, char *perf_out, char *out, const char *needle)
{
	char theirs[512], ours[512], *a = line_with(perf_out, needle), *b = line_with(out, needle);

	(void)perf_args;
	shape(a, theirs, sizeof(theirs));
	shape(b, ours, sizeof(ours));
	print_message("perf %s:\n  %s\n  %s\ntdtrace:\n  %s\n  %s\n", perf_args, a, theirs, b,
		      ours);
	assert_string_equal(ours, theirs);
	free(a);
	free(b);
}

/* perf's own linter, when its path is given: all lines, and the machine's with --interval. */
static void perf_lint(const char *out)
{
	const char *lint = getenv("TDTRACE_PERF_JSON_LINT");
	char path[] = "/tmp/test_perf_formats.XXXXXX", cmd[512];
	FILE *f;
	int fd;

	if (!lint || !*lint) {
		print_message("TDTRACE_PERF_JSON_LINT not set: perf's linter not run\n");
		return;
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(out, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 '%s' --file %s >/dev/null", lint, path);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd),
		 "grep -v '\"thread\"\\|\"cgroup\"' %s | python3 '%s' --interval >/dev/null", path,
		 lint);
	assert_int_equal(system(cmd), 0);
	unlink(path);
	print_message("perf's linter: passed (%s)\n", lint);
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
	char *perf, *out, *copy;
	int lines = 0;

	(void)state;
	if (!have_perf())
		itest_skip("perf cannot count cpu-clock here (Debian: linux-perf)");
	out = tdtrace_says("--format", "perf-json");
	perf = perf_says("-j");
	same_shape("-j", perf, out, NULL);
	free(perf);
	perf = perf_says("-j --per-thread");
	same_shape("-j --per-thread", perf, out, "\"thread\"");
	free(perf);
	perf = perf_says("-j -G /");
	same_shape("-j -G /", perf, out, "\"cgroup\"");
	free(perf);

	copy = strdup(out);
	for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
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
		assert_true(json_is_string(json_object_get(o, "counter-value")));
		json_decref(o);
		lines++;
	}
	assert_true(lines > 2);
	free(copy);
	perf_lint(out);
	free(out);
}

static int fields(const char *line, char sep)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == sep;
	return n;
}

/*
 * perf's and tdtrace's CSV line about one kind of entity (the first line
 * of each holding @needle; NULL: the first line): as many fields, padded
 * alike.
 */
static void same_columns(const char *perf_args, char *perf_out, char *out, const char *needle)
{
	char *a = line_with(perf_out, needle), *b = line_with(out, needle);

	print_message("perf %s:\n  %s\ntdtrace:\n  %s\n", perf_args, a, b);
	assert_int_equal(fields(b, ';'), fields(a, ';'));
	assert_int_equal(strspn(b, " "), strspn(a, " "));
	free(a);
	free(b);
}

static void test_perf_csv(void **state)
{
	char *perf, *out;

	(void)state;
	if (!have_perf())
		itest_skip("perf cannot count cpu-clock here (Debian: linux-perf)");
	out = tdtrace_says("-x", ";");
	perf = perf_says("-x ';'");
	same_columns("-x ';'", perf, out, NULL);
	free(perf);
	/*
	 * A process: perf's comm-pid column. perf --per-thread's lines are all
	 * threads; tdtrace's first after the machine's is its largest process.
	 */
	perf = perf_says("-x ';' --per-thread");
	same_columns("-x ';' --per-thread", perf, strchr(out, '\n') + 1, NULL);
	free(perf);
	/* a cgroup: its column after the event */
	perf = perf_says("-x ';' -G /");
	same_columns("-x ';' -G /", perf, out, ";cpu-clock;/");
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
