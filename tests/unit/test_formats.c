// SPDX-License-Identifier: GPL-2.0
/*
 * perf's and toplev's formats (user/output/perf_json.c, perf_csv.c,
 * perf_rows.c, toplev_csv.c), line for line, for reports made here.
 *
 * TopDown, testlake row at level 2. The machine and cgroup /a counted
 * slots 5000, retiring 2000, bad spec 500, fe 1000, be 1500, heavy 800,
 * mispredict 300, fetch lat 600, mem 900, their group running the whole
 * 1000 ns it was enabled: level 1 is 40/10/20/30 %, level 2 heavy 16,
 * light 40-16 = 24, mispredicts 6, clears 10-6 = 4, fetch latency 12,
 * bandwidth 20-12 = 8, memory 18, core 30-18 = 12 (each node its event
 * over slots, each sibling its parent less the measured child). Process
 * web (pid 42) was counted 400 of 1000 ns, so perf scales its counts by
 * 2.5: slots 2000 -> 5000, retiring 801 -> 2002.5, mem 360 -> 900 (18 %
 * of 5000), 40.00 % running.
 *
 * --software: cpu-clock, 1.5e9 ns in a 1 s interval: 1500 msec, 1.5 CPUs
 * utilized; a cgroup whose counter never ran: perf's "<not counted>".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/perf_csv.h"
#include "output/perf_json.h"
#include "output/toplev_csv.h"
#include <jansson.h>
#include "testlake.h"

/* gcc 12 takes open_memstream's buffer, returned here, for a dangling local. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

static struct counter_set cs;
static struct td_decoding dec;
static struct report_config cfg;
static struct td_cpu_totals totals;
static struct td_counts web_counts, cg_counts;
static struct task_sample web;
static struct row task, cg;
static struct report r;

static void topdown(void)
{
	static const __u64 v[] = { 5000, 2000, 500, 1000, 1500, 800, 300, 600, 900 };
	static const __u64 w[] = { 2000, 801, 200, 400, 600, 320, 120, 240, 360 };
	char err[128];

	assert_int_equal(testlake_counters(2, &cs), 0);
	assert_int_equal(td_decoding_init(&dec, &cs, false, err, sizeof(err)), 0);
	cfg = (struct report_config){ .counters = &cs, .decoding = &dec };
	memset(&totals, 0, sizeof(totals));
	memcpy(totals.all.count, v, sizeof(v));
	totals.all.enabled_ns[0] = totals.all.running_ns[0] = 1000;
	r = (struct report){ .cfg = &cfg, .totals = &totals, .elapsed_s = 2.0, .duration_s = 1.0 };
	td_decode(&dec, &totals.all, &r.system);

	memset(&web_counts, 0, sizeof(web_counts));
	memcpy(web_counts.count, w, sizeof(w));
	web_counts.enabled_ns[0] = 1000;
	web_counts.running_ns[0] = 400;
	memset(&web, 0, sizeof(web));
	web.key.id = 42;
	memcpy(web.val.comm, "web", 3);
	task = (struct row){ .c = &web_counts, .task = &web };
	td_decode(&dec, &web_counts, &task.m);
	r.tasks = &task;
	r.nr_tasks = 1;

	cg_counts = totals.all;
	cg = (struct row){ .c = &cg_counts, .cgroup = "/a", .cgroup_id = 9, .m = r.system };
	r.cgroups = &cg;
	r.nr_cgroups = 1;
}

static void software(void)
{
	counters_software(&cs);
	assert_int_equal(td_decoding_init(&dec, &cs, false, NULL, 0), 0);
	cfg = (struct report_config){ .counters = &cs, .decoding = &dec };
	memset(&totals, 0, sizeof(totals));
	totals.all.count[0] = 1500000000;
	r = (struct report){ .cfg = &cfg, .totals = &totals, .elapsed_s = 1.0, .duration_s = 1.0 };
	td_decode(&dec, &totals.all, &r.system);
	/* Enabled, never running: perf's "<not counted>". */
	memset(&cg_counts, 0, sizeof(cg_counts));
	cg_counts.enabled_ns[0] = 1000;
	cg = (struct row){ .c = &cg_counts, .cgroup = "/idle.slice", .cgroup_id = 9 };
	td_decode(&dec, &cg_counts, &cg.m);
	r.cgroups = &cg;
	r.nr_cgroups = 1;
}

enum fmt { PERF_JSON, PERF_CSV, PERF_CSV_SEMI, TOPLEV };

static char *made(enum fmt which)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	switch (which) {
	case PERF_JSON:
		output_perf_json(f, &r);
		break;
	case PERF_CSV:
		output_perf_csv(f, &r, ",");
		break;
	case PERF_CSV_SEMI:
		output_perf_csv(f, &r, ";");
		break;
	case TOPLEV:
		toplev_header(f);
		output_toplev_csv(f, &r);
		break;
	}
	fclose(f);
	return buf;
}

/* The machine's lines: the nine counters, then the twelve metrics of levels 1 and 2. */
static void test_perf_json_machine(void **state)
{
#define CL(value, event)                                                                           \
	"{\"interval\" : 2.000000000, \"counter-value\" : \"" value "\", \"unit\" : \"\", "        \
	"\"event\" : \"" event "\", \"event-runtime\" : 1000, \"pcnt-running\" : 100.00, "         \
	"\"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n"
#define ML(value, name)                                                                            \
	"{\"interval\" : 2.000000000, \"metric-value\" : " value ", \"metric-unit\" : \"%  " name  \
	"\"}\n"
	static const char want[] = CL("5000.000000", "slots") CL("2000.000000", "topdown-retiring")
		CL("500.000000", "topdown-bad-spec") CL("1000.000000", "topdown-fe-bound")
			CL("1500.000000", "topdown-be-bound") CL("800.000000", "topdown-heavy-ops")
				CL("300.000000", "topdown-br-mispredict")
					CL("600.000000", "topdown-fetch-lat")
						CL("900.000000", "topdown-mem-bound")
		/* level 1, then level 2, in the model's order */
		ML("40.000000", "tma_retiring") ML("10.000000", "tma_bad_speculation") ML(
			"20.000000", "tma_frontend_bound") ML("30.000000", "tma_backend_bound")
			ML("16.000000", "tma_heavy_operations")
				ML("24.000000", "tma_light_operations") ML("6.000000",
									   "tma_branch_mispredicts")
					ML("4.000000", "tma_machine_clears") ML("12.000000",
										"tma_fetch_latency")
						ML("8.000000", "tma_fetch_bandwidth")
							ML("18.000000", "tma_memory_bound")
								ML("12.000000", "tma_core_bound");
#undef CL
#undef ML
	char *s;

	(void)state;
	topdown();
	s = made(PERF_JSON);
	assert_int_equal(strncmp(s, want, strlen(want)), 0);
	free(s);
}

static void test_perf_json_entities(void **state)
{
	char *s;

	(void)state;
	topdown();
	s = made(PERF_JSON);
	/* A process: perf --per-thread's "thread" after the interval; counts scaled by 2.5. */
	assert_non_null(strstr(s,
			       "{\"interval\" : 2.000000000, \"thread\" : \"web-42\", "
			       "\"counter-value\" : \"2002.500000\", \"unit\" : \"\", \"event\" : "
			       "\"topdown-retiring\", \"event-runtime\" : 400, \"pcnt-running\" : "
			       "40.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n"));
	assert_non_null(strstr(s, "{\"interval\" : 2.000000000, \"thread\" : \"web-42\", "
				  "\"metric-value\" : 18.000000, \"metric-unit\" : \"%  "
				  "tma_memory_bound\"}\n"));
	/* A cgroup: perf -G's place, after the event. */
	assert_non_null(strstr(s, "{\"interval\" : 2.000000000, \"counter-value\" : "
				  "\"2000.000000\", \"unit\" : \"\", \"event\" : "
				  "\"topdown-retiring\", \"cgroup\" : \"/a\", \"event-runtime\" : "
				  "1000, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, "
				  "\"metric-unit\" : \"\"}\n"));
	assert_non_null(strstr(s, "{\"interval\" : 2.000000000, \"cgroup\" : \"/a\", "
				  "\"metric-value\" : 20.000000, \"metric-unit\" : \"%  "
				  "tma_frontend_bound\"}\n"));
	free(s);

	/* A hybrid part's report: perf names the events by their PMU. */
	cfg.pmu = "cpu_core";
	s = made(PERF_JSON);
	assert_non_null(strstr(s, "\"event\" : \"cpu_core/topdown-mem-bound/\""));
	free(s);

	/* The run's summary: perf -I prints none. */
	r.summary = true;
	s = made(PERF_JSON);
	assert_string_equal(s, "");
	free(s);
}

/*
 * The rules of perf's JSON linter (tools/perf/tests/shell/lib/
 * perf_json_output_lint.py), and perf's key order, on every line: keys
 * from the linter's set only, in the order perf prints them;
 * "counter-value" a string holding a number or "<not counted>";
 * "metric-value" a number next to its "metric-unit", which is "", perf's
 * "CPUs utilized" or "%  tma_..." (scale, two spaces, perf's metric name);
 * a line without an entity 8 keys (counter) or at most 7 with a metric
 * (the linter's --interval counts).
 */
static bool one_of(const char *s, const char *const *set, size_t n, size_t *at)
{
	for (; *at < n; (*at)++)
		if (!strcmp(set[*at], s))
			return true;
	return false;
}

/* What breaks the rules in @line, or NULL; @why holds the reason. */
static const char *lint_line(const char *line, char *why, size_t size)
{
	static const char *const order[] = {
		"interval",	 "cpu",		 "core",	"socket",	    "die",
		"node",		 "cache",	 "cluster",	"thread",	    "counters",
		"counter-value", "unit",	 "event",	"cgroup",	    "event-runtime",
		"pcnt-running",	 "metric-value", "metric-unit", "metric-threshold",
	};
	json_t *o = json_loads(line, JSON_PRESERVE_ORDER, NULL), *v;
	const char *key, *unit, *cv;
	size_t at = 0, nr = 0;
	char *end;

	if (!o)
		return "not JSON";
	*why = '\0';
	json_object_foreach(o, key, v)
	{
		if (!one_of(key, order, sizeof(order) / sizeof(order[0]), &at)) {
			snprintf(why, size, "key '%s' not perf's, or out of perf's order", key);
			break;
		}
		nr++;
	}
	cv = json_string_value(json_object_get(o, "counter-value"));
	v = json_object_get(o, "metric-value");
	unit = json_string_value(json_object_get(o, "metric-unit"));
	if (*why)
		;
	else if (json_object_get(o, "counter-value") && !cv)
		snprintf(why, size, "counter-value is not a string");
	else if (cv && strcmp(cv, "<not counted>") && strcmp(cv, "<not supported>") &&
		 (strtod(cv, &end), *end || end == cv))
		snprintf(why, size, "counter-value is not a number");
	else if (!json_is_number(v) || !unit)
		snprintf(why, size, "no numeric metric-value with a metric-unit");
	else if (*unit && strcmp(unit, "CPUs utilized") &&
		 (strncmp(unit, "%  tma_", 7) ||
		  strspn(unit + 7, "abcdefghijklmnopqrstuvwxyz_") != strlen(unit + 7)))
		snprintf(why, size, "metric-unit '%s' is not perf's", unit);
	else if (!json_object_get(o, "thread") && !json_object_get(o, "cgroup") &&
		 !(cv ? nr == 8 : nr <= 7))
		snprintf(why, size, "%zu keys: not what the linter allows with --interval", nr);
	json_decref(o);
	return *why ? why : NULL;
}

/* Every line of @out by the rules, failing on the first that breaks one. */
static void lint(const char *out)
{
	char *copy = strdup(out), *save = NULL, why[128];
	int lines = 0;

	assert_non_null(copy);
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (lint_line(line, why, sizeof(why)))
			fail_msg("%s: %s", why, line);
		lines++;
	}
	assert_true(lines > 0);
	free(copy);
}

static void test_perf_json_lint(void **state)
{
	static const char *const bad[] = {
		"{\"interval\" : 1.0, \"pid\" : 3, \"metric-value\" : 1, \"metric-unit\" : \"\"}",
		"{\"counter-value\" : \"1\", \"interval\" : 1.0, \"metric-value\" : 1, "
		"\"metric-unit\" : \"\"}",
		"{\"interval\" : 1.0, \"counter-value\" : 5.0, \"unit\" : \"\", \"event\" : \"a\", "
		"\"event-runtime\" : 1, \"pcnt-running\" : 100, \"metric-value\" : 0, "
		"\"metric-unit\" : \"\"}",
		"{\"interval\" : 1.0, \"counter-value\" : \"5,0\", \"unit\" : \"\", \"event\" : "
		"\"a\", \"event-runtime\" : 1, \"pcnt-running\" : 100, \"metric-value\" : 0, "
		"\"metric-unit\" : \"\"}",
		"{\"interval\" : 1.0, \"metric-value\" : \"4\", \"metric-unit\" : \"%  tma_x\"}",
		"{\"interval\" : 1.0, \"metric-value\" : 4, \"metric-unit\" : \"% tma_x\"}",
		"{\"interval\" : 1.0, \"metric-value\" : 4, \"metric-unit\" : \"%  Retiring\"}",
	};
	char why[128];
	char *s;

	(void)state;
	topdown();
	s = made(PERF_JSON);
	lint(s);
	free(s);
	software();
	s = made(PERF_JSON);
	lint(s);
	free(s);
	/* The rules can fail: a foreign key, out of order, a number or a comma for a count, bad
	 * units. */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!lint_line(bad[i], why, sizeof(why)))
			fail_msg("passed: %s", bad[i]);
}

static void test_perf_csv(void **state)
{
	char *s;

	(void)state;
	topdown();
	s = made(PERF_CSV);
	/* Whole numbers without decimals, as perf -x prints counts; no metric: two empty fields. */
	assert_non_null(strstr(s, "     2.000000000,5000,,slots,1000,100.00,,\n"
				  "     2.000000000,2000,,topdown-retiring,1000,100.00,,\n"));
	/* Metrics after the counters: value, unit, event, run time, percent empty; one decimal. */
	assert_non_null(strstr(s, "     2.000000000,900,,topdown-mem-bound,1000,100.00,,\n"
				  "     2.000000000,,,,,,40.0,%  tma_retiring\n"
				  "     2.000000000,,,,,,10.0,%  tma_bad_speculation\n"));
	assert_non_null(strstr(s, "     2.000000000,,,,,,12.0,%  tma_core_bound\n"));
	/* A process: the thread column; a scaled count with a fraction keeps two decimals. */
	assert_non_null(strstr(s,
			       "     2.000000000,web-42,5000,,slots,400,40.00,,\n"
			       "     2.000000000,web-42,2002.50,,topdown-retiring,400,40.00,,\n"));
	assert_non_null(strstr(s, "     2.000000000,web-42,,,,,,18.0,%  tma_memory_bound\n"));
	/* A cgroup: its column after the event, on metric lines too. */
	assert_non_null(strstr(s, "     2.000000000,2000,,topdown-retiring,/a,1000,100.00,,\n"));
	assert_non_null(strstr(s, "     2.000000000,,,,/a,,,20.0,%  tma_frontend_bound\n"));
	free(s);

	/* Another separator, and a name that holds it: perf does not quote, so '_'. */
	memcpy(web.val.comm, "w;b", 3);
	s = made(PERF_CSV_SEMI);
	assert_non_null(
		strstr(s, "     2.000000000;w_b-42;2002.50;;topdown-retiring;400;40.00;;\n"));
	assert_null(strchr(s, ','));
	free(s);

	/* A cgroup path is a name from the system too: separator and newline as '_'. */
	cg.cgroup = "/a,b\nc;d";
	s = made(PERF_CSV);
	assert_non_null(
		strstr(s, "     2.000000000,2000,,topdown-retiring,/a_b_c;d,1000,100.00,,\n"));
	assert_non_null(strstr(s, "     2.000000000,,,,/a_b_c;d,,,20.0,%  tma_frontend_bound\n"));
	free(s);
	s = made(PERF_CSV_SEMI);
	assert_non_null(
		strstr(s, "     2.000000000;2000;;topdown-retiring;/a,b_c_d;1000;100.00;;\n"));
	free(s);

	r.summary = true;
	s = made(PERF_CSV);
	assert_string_equal(s, "");
	free(s);
}

static void test_perf_software(void **state)
{
	char *s;

	(void)state;
	software();
	s = made(PERF_JSON);
	/* As perf stat -j -a -e cpu-clock -I writes it here (6.1), and its never-run form. */
	assert_string_equal(
		s,
		"{\"interval\" : 1.000000000, \"counter-value\" : \"1500.000000\", \"unit\" : "
		"\"msec\", \"event\" : \"cpu-clock\", \"event-runtime\" : 1500000000, "
		"\"pcnt-running\" : 100.00, \"metric-value\" : 1.500000, \"metric-unit\" : \"CPUs "
		"utilized\"}\n"
		"{\"interval\" : 1.000000000, \"counter-value\" : \"<not counted>\", \"unit\" : "
		"\"msec\", \"event\" : \"cpu-clock\", \"cgroup\" : \"/idle.slice\", "
		"\"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, "
		"\"metric-unit\" : \"\"}\n");
	free(s);
	s = made(PERF_CSV);
	assert_string_equal(s,
			    "     1.000000000,1500.00,msec,cpu-clock,1500000000,100.00,1.500,"
			    "CPUs utilized\n"
			    "     1.000000000,<not counted>,msec,cpu-clock,/idle.slice,0,100.00,,"
			    "\n");
	free(s);
}

static void test_toplev_csv(void **state)
{
#define NODE(area, value) "2.000000000,C0," area "," value ",% Slots,,,,100.0,,\n"
	static const char want[] =
		"Timestamp,CPUs,Area,Value,Unit,Description,Sample,Stddev,Multiplex,Bottleneck,"
		"Idle\n" NODE("Retiring", "40.00") NODE("Bad_Speculation",
							"10.00") NODE("Frontend_Bound", "20.00")
			NODE("Backend_Bound", "30.00") NODE("Retiring.Heavy_Operations", "16.00")
				NODE("Retiring.Light_Operations",
				     "24.00") NODE("Bad_Speculation.Branch_Mispredicts", "6.00")
					NODE("Bad_Speculation.Machine_Clears",
					     "4.00") NODE("Frontend_Bound.Fetch_Latency", "12.00")
						NODE("Frontend_Bound.Fetch_Bandwidth", "8.00") NODE(
							"Backend_Bound.Memory_Bound", "18.00")
							NODE("Backend_Bound.Core_Bound", "12.00");
#undef NODE
	char *s;

	(void)state;
	topdown();
	s = made(TOPLEV);
	assert_string_equal(s, want);
	free(s);
	r.summary = true;
	s = made(TOPLEV);
	assert_string_equal(s, "Timestamp,CPUs,Area,Value,Unit,Description,Sample,Stddev,"
			       "Multiplex,Bottleneck,Idle\n");
	free(s);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t size = 0;

	if (!f)
		return NULL;
	assert_true(getdelim(&buf, &size, '\0', f) >= 0);
	fclose(f);
	return buf;
}

static const char header[] =
	"Timestamp,CPUs,Area,Value,Unit,Description,Sample,Stddev,Multiplex,Bottleneck,Idle\n";

/* -o DIR/: a file per entity, headed once, two intervals; a new run empties them. */
static void test_toplev_split_dir(void **state)
{
	char dir[] = "/tmp/test_formats.XXXXXX", target[64], path[128], err[256], *s, *line;
	struct toplev_split sp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(target, sizeof(target), "%s/out/", dir); /* made, as it ends in '/' */
	topdown();
	for (int run = 0; run < 2; run++) {
		assert_int_equal(toplev_split_init(&sp, target, err, sizeof(err)), 0);
		for (int i = 1; i <= 2; i++) {
			r.elapsed_s = i;
			assert_int_equal(toplev_split_write(&sp, &r, 10, err, sizeof(err)), 0);
		}
		toplev_split_free(&sp);
	}
	snprintf(path, sizeof(path), "%ssystem.csv", target);
	s = slurp(path);
	assert_non_null(s);
	assert_int_equal(strncmp(s, header, strlen(header)), 0);
	assert_null(strstr(s + 1, "Timestamp")); /* one header: the second run emptied it */
	assert_non_null(strstr(s, "1.000000000,C0,Retiring,40.00,% Slots,,,,100.0,,\n"));
	assert_non_null(
		strstr(s, "2.000000000,C0,Backend_Bound.Core_Bound,12.00,% Slots,,,,100.0,,\n"));
	line = strstr(s, "2.000000000,C0,Retiring,");
	assert_non_null(line);
	assert_null(strstr(line + 1, "2.000000000,C0,Retiring,")); /* the first run's are gone */
	free(s);
	/* The process, counted 40 % of the time: toplev's Multiplex column. */
	snprintf(path, sizeof(path), "%sprocess-web-42.csv", target);
	s = slurp(path);
	assert_non_null(s);
	assert_non_null(
		strstr(s, "2.000000000,C0,Backend_Bound.Memory_Bound,18.00,% Slots,,,,40.0,,\n"));
	free(s);
	snprintf(path, sizeof(path), "%scgroup_a.csv", target);
	s = slurp(path);
	assert_non_null(s);
	assert_non_null(strstr(s, "1.000000000,C0,Frontend_Bound,20.00,% Slots,,,,100.0,,\n"));
	free(s);

	/* --top 0 rows: only the machine's file. A PREFIX: PREFIX-system.csv. */
	snprintf(target, sizeof(target), "%s/run", dir);
	assert_int_equal(toplev_split_init(&sp, target, err, sizeof(err)), 0);
	assert_int_equal(toplev_split_write(&sp, &r, 0, err, sizeof(err)), 0);
	toplev_split_free(&sp);
	snprintf(path, sizeof(path), "%s-system.csv", target);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s-cgroup_a.csv", target);
	assert_int_equal(access(path, F_OK), -1);

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

static void test_toplev_split_errors(void **state)
{
	char err[256] = "";
	struct toplev_split sp;

	(void)state;
	/* A prefix in a directory that is not there: said now, not at the first interval. */
	assert_int_equal(toplev_split_init(&sp, "/nonexistent-td/run", err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "failed to use /nonexistent-td/run as a file prefix: "
				 "/nonexistent-td/: No such file or directory");
	assert_int_equal(toplev_split_init(&sp, "/nonexistent-td/a/", err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "failed to make directory /nonexistent-td/a/: No such file or "
				 "directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_json_machine),
		cmocka_unit_test(test_perf_json_entities),
		cmocka_unit_test(test_perf_json_lint),
		cmocka_unit_test(test_perf_csv),
		cmocka_unit_test(test_perf_software),
		cmocka_unit_test(test_toplev_csv),
		cmocka_unit_test(test_toplev_split_dir),
		cmocka_unit_test(test_toplev_split_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
