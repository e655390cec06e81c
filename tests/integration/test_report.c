// SPDX-License-Identifier: GPL-2.0
/*
 * tdtrace report: recorded lines decoded again by build/tdtrace with the
 * real model rows. Vectors for amdzen4, amdzen5 and sapphirerapids, worked
 * out by hand from perf's formula text (the same arithmetic as
 * tests/unit/test_models_amd.c and test_models.c, here through the whole
 * command: JSON in, counter set rebuilt, formulas, JSON out); a line
 * without a model, an unknown model and a torn line are refused with the
 * line number. Needs no root and no PMU.
 */
#include "itest.h"
#include <math.h>

#define RUN_MS 5000

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

/* Run "tdtrace report ARGS FILE" on @text; its stdout, stderr and exit code. */
static int report(const char *text, bool json, char **out, char **err)
{
	char path[] = "/tmp/tdtrace-report-XXXXXX";
	const char *args[] = { "report", json ? "--json" : path, json ? path : NULL, NULL };
	int fd = mkstemp(path), ret;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	itest_proc_release(&child);
	ret = itest_tdtrace_run(&child, 0, RUN_MS, args);
	unlink(path);
	if (ret)
		fail_msg("cannot run %s report: %s", itest_tdtrace_path(), strerror(-ret));
	*out = itest_stdout(&child);
	*err = itest_stderr(&child);
	ret = itest_exit_code(&child);
	itest_proc_release(&child);
	return ret;
}

static void expect(json_t *o, const char *name, double percent)
{
	json_t *v = json_object_get(o, name);

	if (!json_is_number(v))
		fail_msg("%s: not a number in the decoded line", name);
	if (fabs(json_number_value(v) - percent) > 1e-9)
		fail_msg("%s = %.12g, expected %.12g", name, json_number_value(v), percent);
}

static json_t *one_line(const char *out)
{
	json_error_t e;
	json_t *o = json_loads(out, JSON_DISABLE_EOF_CHECK, &e);

	if (!json_is_object(o))
		fail_msg("not a JSON line: %s (%s)", out, e.text);
	return o;
}

/*
 * Zen 4, cycles 1000: slots 6000. frontend 1200/6000 = 20 %, bad spec
 * (2700 - 2400)/6000 = 5 %, backend 1500/6000 = 25 %, SMT 600/6000 = 10 %,
 * retiring 2400/6000 = 40 %. Level 2: latency 6*150/6000 = 15 %, bandwidth
 * (1200 - 900)/6000 = 5 %, mispredicts 5 * 30/40 = 3.75 %, restarts
 * 5 * 10/40 = 1.25 %, memory 25 * 200/500 = 10 %, cpu 25 * 0.6 = 15 %,
 * fastpath 40 * (1 - 600/2400) = 30 %, microcode 40 * 0.25 = 10 %.
 */
static const char zen4_line[] =
	"{\"schema\":2,\"type\":\"process\",\"phase\":\"interval\",\"interval\":1,"
	"\"mode\":\"topdown\",\"model\":\"amdzen4\",\"pmu\":\"cpu\",\"smt_on\":true,"
	"\"pid\":42,\"comm\":\"app\",\"time_enabled_ns\":1000,\"time_running_ns\":1000,"
	"\"counts\":{\"ls_not_halted_cyc\":1000,"
	"\"de_no_dispatch_per_slot.no_ops_from_frontend\":1200,"
	"\"de_src_op_disp.all\":2700,\"ex_ret_ops\":2400,"
	"\"de_no_dispatch_per_slot.backend_stalls\":1500,"
	"\"de_no_dispatch_per_slot.smt_contention\":600,\"ex_ret_brn_misp\":30,"
	"\"resyncs_or_nc_redirects\":10,\"ex_no_retire.load_not_complete\":200,"
	"\"ex_no_retire.not_complete\":500,"
	"\"de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6\":150,"
	"\"ex_ret_ucode_ops\":600}}\n";

static void test_amdzen4(void **state)
{
	char *out, *err;
	json_t *o;

	(void)state;
	assert_int_equal(report(zen4_line, true, &out, &err), 0);
	o = one_line(out);
	expect(o, "slots", 6000);
	expect(o, "frontend_bound", 20);
	expect(o, "bad_speculation", 5);
	expect(o, "backend_bound", 25);
	expect(o, "smt_contention", 10);
	expect(o, "retiring", 40);
	expect(o, "frontend_bound_latency", 15);
	expect(o, "frontend_bound_bandwidth", 5);
	expect(o, "bad_speculation_mispredicts", 3.75);
	expect(o, "bad_speculation_pipeline_restarts", 1.25);
	expect(o, "backend_bound_memory", 10);
	expect(o, "backend_bound_cpu", 15);
	expect(o, "retiring_fastpath", 30);
	expect(o, "retiring_microcode", 10);
	/* Everything else of the line is kept. */
	assert_int_equal(json_integer_value(json_object_get(o, "pid")), 42);
	json_decref(o);
	free(out);
	free(err);
}

/*
 * Zen 5, cycles 1000: slots 8000, counted half the time (enabled 2000,
 * running 1000): every count doubles, fractions do not change, slots
 * are 16000. frontend 2000/8000 = 25 %, bad spec 400/8000 = 5 %, backend
 * 1600/8000 = 20 %, retiring 3200/8000 = 40 %; no smt_contention count
 * (the watchdog took its counter): null. Level 1 only: no level-2 event.
 */
static const char zen5_line[] =
	"{\"schema\":2,\"type\":\"cgroup\",\"phase\":\"summary\",\"interval\":3,"
	"\"mode\":\"topdown\",\"model\":\"amdzen5\",\"pmu\":\"cpu\",\"smt_on\":false,"
	"\"cgroup\":\"/a\",\"time_enabled_ns\":2000,\"time_running_ns\":1000,"
	"\"counts\":{\"ls_not_halted_cyc\":1000,"
	"\"de_no_dispatch_per_slot.no_ops_from_frontend\":2000,"
	"\"de_src_op_disp.all\":3600,\"ex_ret_ops\":3200,"
	"\"de_no_dispatch_per_slot.backend_stalls\":1600}}\n";

static void test_amdzen5_level1_multiplexed(void **state)
{
	char *out, *err;
	json_t *o;

	(void)state;
	assert_int_equal(report(zen5_line, true, &out, &err), 0);
	o = one_line(out);
	expect(o, "slots", 16000);
	expect(o, "frontend_bound", 25);
	expect(o, "bad_speculation", 5);
	expect(o, "backend_bound", 20);
	expect(o, "retiring", 40);
	assert_true(json_is_null(json_object_get(o, "smt_contention")));
	assert_null(json_object_get(o, "frontend_bound_by_latency"));
	json_decref(o);
	free(out);
	free(err);
	/* The table form names the interval, the model and the row. */
	assert_int_equal(report(zen5_line, false, &out, &err), 0);
	assert_non_null(strstr(out, "summary 3, model amdzen5, level 1"));
	assert_non_null(strstr(out, "cgroup /a"));
	free(out);
	free(err);
}

/*
 * sapphirerapids: slots 1000; fe 300, bad 50, ret 400, be 250 (sum 1000);
 * UOP_DROPPING 20. tma_frontend_bound = 300/1000 - 20/1000 = 28 %,
 * tma_backend_bound = 250/1000 = 25 %, tma_retiring = 40 %,
 * tma_bad_speculation = max(1 - (0.28 + 0.25 + 0.40), 0) = 7 %.
 */
static const char spr_line[] =
	"{\"schema\":2,\"type\":\"system\",\"phase\":\"interval\",\"interval\":1,"
	"\"mode\":\"topdown\",\"model\":\"sapphirerapids\",\"pmu\":\"cpu\",\"smt_on\":true,"
	"\"time_enabled_ns\":5,\"time_running_ns\":5,"
	"\"counts\":{\"slots\":1000,\"topdown-retiring\":400,\"topdown-bad-spec\":50,"
	"\"topdown-fe-bound\":300,\"topdown-be-bound\":250,"
	"\"INT_MISC.UOP_DROPPING\":20}}\n";

static void test_sapphirerapids(void **state)
{
	char *out, *err;
	json_t *o;

	(void)state;
	assert_int_equal(report(spr_line, true, &out, &err), 0);
	o = one_line(out);
	expect(o, "tma_frontend_bound", 28);
	expect(o, "tma_backend_bound", 25);
	expect(o, "tma_retiring", 40);
	expect(o, "tma_bad_speculation", 7);
	json_decref(o);
	free(out);
	free(err);
}

/* Refusals: one line each, naming the file's line, exit 1. */
static void test_refused(void **state)
{
	static const char *const bad[][2] = {
		{ "{\"schema\":1,\"type\":\"system\",\"counts\":{}}\n", ":1: schema 1, not 2" },
		{ "\n{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\",\"model\":\"nolake\","
		  "\"counts\":{}}\n",
		  ":2: unknown model 'nolake'" },
		{ "{\"schema\":2,\"type\":\"sys", ":1: not a JSON object" },
	};
	char *out, *err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(report(bad[i][0], true, &out, &err), 1);
		if (!err || !strstr(err, bad[i][1]))
			fail_msg("stderr '%s' (stdout '%s') does not say '%s'", err, out,
				 bad[i][1]);
		assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
		free(out);
		free(err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_amdzen4, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amdzen5_level1_multiplexed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sapphirerapids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
