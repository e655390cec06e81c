// SPDX-License-Identifier: GPL-2.0
/*
 * tdtrace report: recorded lines decoded again by build/tdtrace with the
 * real model rows. Vectors for amdzen4, amdzen5 and sapphirerapids, worked
 * out by hand from perf's formula text (the same arithmetic as
 * tests/unit/test_models_amd.c and test_models.c, here through the whole
 * command: JSON in, counter set rebuilt, formulas, JSON out). Every line
 * comes back or is refused with its line number: --software lines round
 * trip, bad lines of every kind say what is wrong. Stop signals, a closed
 * stdout and a full disk end it at once. Needs no root and no PMU (the
 * round trip of a real --software recording needs root and BPF).
 */
#include "itest.h"
#include <math.h>
#include <sys/stat.h>

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
/* tdtrace report [@mode] on @text; @mode NULL: the table. */
static int report_as(const char *text, const char *mode, char **out, char **err)
{
	char path[] = "/tmp/tdtrace-report-XXXXXX";
	const char *args[] = { "report", mode ? mode : path, mode ? path : NULL, NULL };
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

static int report(const char *text, bool json, char **out, char **err)
{
	return report_as(text, json ? "--json" : NULL, out, err);
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
 * A --region line (bpf/region.h) is a process line's counts with the
 * region's name and calls: the same decoding, its fields kept.
 */
static void test_region_line(void **state)
{
	static const char type[] = "\"type\":\"process\"";
	const char *at = strstr(zen4_line, type);
	char line[sizeof(zen4_line) + 64], *out, *err;
	json_t *o;

	(void)state;
	assert_non_null(at);
	snprintf(line, sizeof(line), "%.*s%s%s", (int)(at - zen4_line), zen4_line,
		 "\"type\":\"region\",\"region\":\"./prog:work\",\"calls\":7",
		 at + strlen(type));
	assert_int_equal(report(line, true, &out, &err), 0);
	o = one_line(out);
	expect(o, "slots", 6000);
	expect(o, "frontend_bound", 20);
	expect(o, "retiring_microcode", 10);
	assert_string_equal(json_string_value(json_object_get(o, "type")), "region");
	assert_string_equal(json_string_value(json_object_get(o, "region")), "./prog:work");
	assert_int_equal(json_integer_value(json_object_get(o, "calls")), 7);
	json_decref(o);
	free(out);
	free(err);
	/* The table names the region, the process and its name. */
	assert_int_equal(report(line, false, &out, &err), 0);
	assert_non_null(strstr(out, "region ./prog:work 42 app"));
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

/*
 * The pmu-events version: lines without it (before the field), with
 * another version's name, or null, all decode the same, and come back
 * naming the version of this build's formulas, which gave the metrics.
 */
static void test_pmu_events_version(void **state)
{
	static const char *const version[] = { "", "\"pmu_events\":\"perf v6.1\",",
					       "\"pmu_events\":null," };
	char buf[1024], *out, *err;
	const char *got;
	json_t *o;

	(void)state;
	for (size_t i = 0; i < sizeof(version) / sizeof(version[0]); i++) {
		snprintf(buf, sizeof(buf),
			 "{\"schema\":2,\"type\":\"system\",\"phase\":\"interval\","
			 "\"interval\":1,\"mode\":\"topdown\",\"model\":\"sapphirerapids\","
			 "\"pmu\":\"cpu\",%s\"smt_on\":true,\"time_enabled_ns\":5,"
			 "\"time_running_ns\":5,\"counts\":{\"slots\":1000,"
			 "\"topdown-retiring\":400,\"topdown-bad-spec\":50,"
			 "\"topdown-fe-bound\":300,\"topdown-be-bound\":250,"
			 "\"INT_MISC.UOP_DROPPING\":20}}\n",
			 version[i]);
		assert_int_equal(report(buf, true, &out, &err), 0);
		o = one_line(out);
		got = json_string_value(json_object_get(o, "pmu_events"));
		if (!got || strcmp(got, "perf v7.3-rc7"))
			fail_msg("pmu_events %s, not this build's perf v7.3-rc7: %s",
				 got ? got : "(none)", out);
		expect(o, "tma_frontend_bound", 28); /* as test_sapphirerapids */
		json_decref(o);
		free(out);
		free(err);
		/* The table form takes it too. */
		assert_int_equal(report(buf, false, &out, &err), 0);
		assert_non_null(strstr(out, "model sapphirerapids"));
		free(out);
		free(err);
	}
}

/* A line of @model on @pmu with @counts ("\"name\":value,..."), smt on, times equal. */
static char *line(const char *model, const char *pmu, const char *counts, char *buf, size_t size)
{
	snprintf(buf, size,
		 "{\"schema\":2,\"type\":\"system\",\"phase\":\"interval\",\"interval\":1,"
		 "\"mode\":\"topdown\",\"model\":\"%s\",\"pmu\":\"%s\",\"smt_on\":true,"
		 "\"time_enabled_ns\":9,\"time_running_ns\":9,\"counts\":{%s}}\n",
		 model, pmu, counts);
	return buf;
}

/*
 * One row of each other group through the whole command, with the vectors
 * of tests/unit/test_models.c (the arithmetic is in its comments):
 * icelake (group A: UOP_DROPPING and CLEARS_COUNT terms, level 2 from three
 * counting groups), lunarlake P-core (group C: plain fractions), alderlake
 * E-core (Gracemont: slots = 5 x core clocks), skylakex (no PERF_METRICS,
 * SMT on).
 */
static void test_other_groups(void **state)
{
	static const char *const icl[] = { "icelake", "icelakex", "tigerlake", "rocketlake" };
	char buf[2048], *out, *err;
	json_t *o;

	(void)state;
	/* Ice Lake's four models share perf v7.3's text. */
	for (size_t i = 0; i < sizeof(icl) / sizeof(icl[0]); i++) {
		line(icl[i], "cpu",
		     "\"slots\":1000,\"topdown-retiring\":300,\"topdown-bad-spec\":100,"
		     "\"topdown-fe-bound\":250,\"topdown-be-bound\":350,"
		     "\"INT_MISC.UOP_DROPPING\":20,\"INT_MISC.CLEARS_COUNT\":10,"
		     "\"IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE\":30,"
		     "\"BR_MISP_RETIRED.ALL_BRANCHES\":30,\"MACHINE_CLEARS.COUNT\":10,"
		     "\"CYCLE_ACTIVITY.STALLS_MEM_ANY\":200,\"EXE_ACTIVITY.BOUND_ON_STORES\":40,"
		     "\"CYCLE_ACTIVITY.STALLS_TOTAL\":300,\"EXE_ACTIVITY.1_PORTS_UTIL\":100,"
		     "\"EXE_ACTIVITY.2_PORTS_UTIL\":80,\"UOPS_RETIRED.SLOTS\":400,"
		     "\"UOPS_ISSUED.ANY\":500,\"IDQ.MS_UOPS\":50,\"UOPS_DECODED.DEC0\":60,"
		     "\"UOPS_DECODED.DEC0,cmask=1\":20,\"IDQ.MITE_UOPS\":200",
		     buf, sizeof(buf));
		assert_int_equal(report(buf, true, &out, &err), 0);
		o = one_line(out);
		expect(o, "tma_frontend_bound", 23);
		expect(o, "tma_backend_bound", 40);
		expect(o, "tma_retiring", 30);
		expect(o, "tma_bad_speculation", 7);
		expect(o, "tma_fetch_latency", 13);
		expect(o, "tma_branch_mispredicts", 5.25);
		expect(o, "tma_memory_bound", 9600.0 / 464.0);
		/* perf v7.3: microcode 400/500 * 50/1000 = 4 %; heavy 4 + 30 * 40/200 = 10 % */
		expect(o, "tma_heavy_operations", 10);
		expect(o, "tma_light_operations", 20);
		json_decref(o);
		free(out);
		free(err);
	}

	/* Lion Cove: every node its field over the four fields' sum. */
	line("lunarlake", "cpu_core",
	     "\"slots\":1000,\"topdown-retiring\":320,\"topdown-bad-spec\":80,"
	     "\"topdown-fe-bound\":240,\"topdown-be-bound\":160,\"topdown-heavy-ops\":40,"
	     "\"topdown-br-mispredict\":60,\"topdown-fetch-lat\":120,\"topdown-mem-bound\":100",
	     buf, sizeof(buf));
	assert_int_equal(report(buf, true, &out, &err), 0);
	o = one_line(out);
	expect(o, "tma_retiring", 40);	      /* 320/800 */
	expect(o, "tma_bad_speculation", 10); /* 80/800 */
	expect(o, "tma_frontend_bound", 30);  /* 240/800 */
	expect(o, "tma_backend_bound", 20);   /* 160/800 */
	expect(o, "tma_heavy_operations", 5); /* 40/800 */
	expect(o, "tma_fetch_latency", 15);   /* 120/800 */
	json_decref(o);
	free(out);
	free(err);

	/* Gracemont: slots 5 x 1000. */
	line("alderlake", "cpu_atom",
	     "\"CPU_CLK_UNHALTED.CORE\":1000,\"TOPDOWN_FE_BOUND.ALL\":1000,"
	     "\"TOPDOWN_BE_BOUND.ALL\":1500,\"TOPDOWN_RETIRING.ALL\":2000",
	     buf, sizeof(buf));
	assert_int_equal(report(buf, true, &out, &err), 0);
	o = one_line(out);
	expect(o, "tma_frontend_bound", 20);
	expect(o, "tma_backend_bound", 30);
	expect(o, "tma_retiring", 40);
	expect(o, "tma_bad_speculation", 10);
	json_decref(o);
	free(out);
	free(err);

	/*
	 * skylakex, SMT on: core clocks 1000/2 * (1 + 200/400) = 750, slots
	 * 3000; frontend 600/3000 = 20 %, retiring 1200/3000 = 40 %, bad
	 * speculation (1500 - 1200 + 4 * 80/2)/3000 = 460/3000.
	 */
	line("skylakex", "cpu",
	     "\"CPU_CLK_UNHALTED.THREAD\":1000,\"IDQ_UOPS_NOT_DELIVERED.CORE\":600,"
	     "\"UOPS_ISSUED.ANY\":1500,\"UOPS_RETIRED.RETIRE_SLOTS\":1200,"
	     "\"INT_MISC.RECOVERY_CYCLES\":50,\"INT_MISC.RECOVERY_CYCLES_ANY\":80,"
	     "\"CPU_CLK_UNHALTED.THREAD_ANY\":1900,\"CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE\":200,"
	     "\"CPU_CLK_UNHALTED.REF_XCLK\":400",
	     buf, sizeof(buf));
	assert_int_equal(report(buf, true, &out, &err), 0);
	o = one_line(out);
	expect(o, "slots", 3000);
	expect(o, "tma_frontend_bound", 20);
	expect(o, "tma_retiring", 40);
	expect(o, "tma_bad_speculation", 46000.0 / 3000.0);
	json_decref(o);
	free(out);
	free(err);
}

/*
 * The rows taken from perf v7.3's text (hsx, bdx, srf, grr, adln, amdzen6
 * metric files), one line each through the whole command; the arithmetic
 * is beside each (and in tests/unit/test_models*.c). Lines have SMT on.
 */
#define HSW_L1                                                                                     \
	"\"CPU_CLK_UNHALTED.THREAD\":1000,\"IDQ_UOPS_NOT_DELIVERED.CORE\":600,"                    \
	"\"UOPS_ISSUED.ANY\":1500,\"UOPS_RETIRED.RETIRE_SLOTS\":1200,"                             \
	"\"INT_MISC.RECOVERY_CYCLES\":50,\"INT_MISC.RECOVERY_CYCLES_ANY\":80,"                     \
	"\"CPU_CLK_UNHALTED.THREAD_ANY\":1900,\"CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE\":200,"         \
	"\"CPU_CLK_UNHALTED.REF_XCLK\":400,\"BR_MISP_RETIRED.ALL_BRANCHES\":30,"                   \
	"\"MACHINE_CLEARS.COUNT\":10,\"IDQ.MS_UOPS\":150,"
#define CMT_COUNTS                                                                                 \
	"\"CPU_CLK_UNHALTED.CORE\":1000,\"TOPDOWN_FE_BOUND.ALL_P\":1200,"                          \
	"\"TOPDOWN_BE_BOUND.ALL_P\":1800,\"TOPDOWN_RETIRING.ALL_P\":2400,"                         \
	"\"TOPDOWN_BAD_SPECULATION.ALL_P\":600,\"TOPDOWN_FE_BOUND.FRONTEND_LATENCY\":900,"         \
	"\"TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH\":300,"                                             \
	"\"TOPDOWN_BAD_SPECULATION.MISPREDICT\":450,"                                              \
	"\"TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS\":150,"                                          \
	"\"TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS\":2100"

static void test_added_rows(void **state)
{
	static const struct {
		const char *model, *counts;
		struct {
			const char *name;
			double percent;
		} want[12];
	} rows[] = {
		/*
		 * Core clocks 1000/2 * (1 + 200/400) = 750, slots 3000; bad
		 * speculation (1500 - 1200 + 4 * 80/2)/3000, backend the rest
		 * (740/3000); fetch latency 4 * min(1000, 90)/3000 = 12 %;
		 * heavy 1200/1500 * 150/3000 = 4 %.
		 */
		{ "haswellx",
		  HSW_L1 "\"IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE\":90",
		  { { "slots", 3000 },
		    { "tma_frontend_bound", 20 },
		    { "tma_bad_speculation", 46000.0 / 3000.0 },
		    { "tma_retiring", 40 },
		    { "tma_backend_bound", 74000.0 / 3000.0 },
		    { "tma_fetch_latency", 12 },
		    { "tma_fetch_bandwidth", 8 },
		    { "tma_branch_mispredicts", 0.75 * 46000.0 / 3000.0 },
		    { "tma_machine_clears", 0.25 * 46000.0 / 3000.0 },
		    { "tma_heavy_operations", 4 },
		    { "tma_light_operations", 36 } } },
		/* Cycles without a uop (1200) above the clocks (1000): Haswell bounds them. */
		{ "haswell",
		  HSW_L1 "\"IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE\":1200",
		  { { "tma_fetch_latency", 400000.0 / 3000.0 } } },
		/* ... Broadwell does not: 4 * 1200/3000. */
		{ "broadwellx",
		  HSW_L1 "\"IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE\":1200",
		  { { "tma_backend_bound", 74000.0 / 3000.0 },
		    { "tma_fetch_latency", 160 },
		    { "tma_fetch_bandwidth", 20 - 160 },
		    { "tma_heavy_operations", 4 } } },
		{ "broadwell",
		  HSW_L1 "\"IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE\":90",
		  { { "tma_fetch_latency", 12 } } },
		{ "broadwellde",
		  HSW_L1 "\"IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE\":90",
		  { { "tma_retiring", 40 } } },
		/*
		 * memory_bound, SMT on, fetch latency 12 % > 10 %, IPC 1500/1000:
		 * Haswell (min(1000, 300) + 50) / (min(1000, 400) + (900 - 600)/2
		 * - 60 + 50) = 350/540 of the backend (740/3000); core the rest.
		 */
		{ "haswellx",
		  HSW_L1 "\"IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE\":90,"
			 "\"CYCLE_ACTIVITY.STALLS_LDM_PENDING\":300,\"RESOURCE_STALLS.SB\":50,"
			 "\"CYCLE_ACTIVITY.CYCLES_NO_EXECUTE\":400,\"RS_EVENTS.EMPTY_CYCLES\":60,"
			 "\"UOPS_EXECUTED.CORE,cmask=1\":900,\"UOPS_EXECUTED.CORE,cmask=2\":600,"
			 "\"UOPS_EXECUTED.CORE,cmask=3\":350,\"INST_RETIRED.ANY\":1500",
		  { { "tma_memory_bound", 350.0 / 540.0 * 74000.0 / 3000.0 },
		    { "tma_core_bound", 190.0 / 540.0 * 74000.0 / 3000.0 } } },
		/* Broadwell per thread: (300 + 50) / (400 + 900 - 600 - 60 + 50) = 350/690. */
		{ "broadwellx",
		  HSW_L1 "\"IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE\":90,"
			 "\"CYCLE_ACTIVITY.STALLS_MEM_ANY\":300,\"RESOURCE_STALLS.SB\":50,"
			 "\"CYCLE_ACTIVITY.STALLS_TOTAL\":400,\"RS_EVENTS.EMPTY_CYCLES\":60,"
			 "\"UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC\":900,"
			 "\"UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC\":600,"
			 "\"UOPS_EXECUTED.CYCLES_GE_3_UOPS_EXEC\":350,\"INST_RETIRED.ANY\":1500",
		  { { "tma_memory_bound", 350.0 / 690.0 * 74000.0 / 3000.0 },
		    { "tma_core_bound", 340.0 / 690.0 * 74000.0 / 3000.0 } } },
		/* Crestmont, width 6: slots 6000; resource bound .3 - .35, unclamped. */
		{ "sierraforest",
		  CMT_COUNTS,
		  { { "slots", 6000 },
		    { "tma_frontend_bound", 20 },
		    { "tma_backend_bound", 30 },
		    { "tma_retiring", 40 },
		    { "tma_bad_speculation", 10 },
		    { "tma_ifetch_latency", 15 },
		    { "tma_ifetch_bandwidth", 5 },
		    { "tma_branch_mispredicts", 7.5 },
		    { "tma_machine_clears", 2.5 },
		    { "tma_core_bound", 35 },
		    { "tma_resource_bound", -5 } } },
		{ "grandridge", CMT_COUNTS, { { "tma_core_bound", 35 } } },
		/* Gracemont, width 5: slots 5000; bad speculation the remainder. */
		{ "alderlaken",
		  "\"CPU_CLK_UNHALTED.CORE\":1000,\"TOPDOWN_FE_BOUND.ALL\":1000,"
		  "\"TOPDOWN_BE_BOUND.ALL\":1500,\"TOPDOWN_RETIRING.ALL\":2000",
		  { { "slots", 5000 },
		    { "tma_frontend_bound", 20 },
		    { "tma_backend_bound", 30 },
		    { "tma_retiring", 40 },
		    { "tma_bad_speculation", 10 } } },
		/*
		 * Zen 6, width 8: slots 8000; mispredicts 5 * 30/40, restarts
		 * 5 * 10/40 (bp_fe_redir.resync), memory 20 * 200/500, latency
		 * 8 * 150/8000, microcode 40 * 800/3200.
		 */
		{ "amdzen6",
		  "\"ls_not_halted_cyc\":1000,"
		  "\"de_no_dispatch_per_slot.no_ops_from_frontend\":2000,"
		  "\"de_src_op_disp.all\":3600,\"ex_ret_ops\":3200,"
		  "\"de_no_dispatch_per_slot.backend_stalls\":1600,"
		  "\"de_no_dispatch_per_slot.smt_contention\":800,\"ex_ret_brn_misp\":30,"
		  "\"bp_fe_redir.resync\":10,\"ex_no_retire.load_not_complete\":200,"
		  "\"ex_no_retire.not_complete\":500,"
		  "\"de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8\":150,"
		  "\"ex_ret_ucode_ops\":800",
		  { { "slots", 8000 },
		    { "frontend_bound", 25 },
		    { "bad_speculation", 5 },
		    { "backend_bound", 20 },
		    { "smt_contention", 10 },
		    { "retiring", 40 },
		    { "frontend_bound_by_latency", 15 },
		    { "frontend_bound_by_bandwidth", 10 },
		    { "bad_speculation_from_mispredicts", 3.75 },
		    { "bad_speculation_from_pipeline_restarts", 1.25 },
		    { "backend_bound_by_memory", 8 },
		    { "retiring_from_microcode", 10 } } },
	};
	char buf[2048], *out, *err;
	json_t *o;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		line(rows[i].model, "cpu", rows[i].counts, buf, sizeof(buf));
		if (report(buf, true, &out, &err))
			fail_msg("%s: tdtrace report: %s", rows[i].model, err);
		o = one_line(out);
		assert_string_equal(json_string_value(json_object_get(o, "model")), rows[i].model);
		for (int j = 0; j < 12 && rows[i].want[j].name; j++)
			expect(o, rows[i].want[j].name, rows[i].want[j].percent);
		json_decref(o);
		free(out);
		free(err);
	}
}

/*
 * arm64 rows through the whole command, hand-worked from perf's text. N2
 * at r0p2 and r0p3 (its formulas test the revision): STALL_SLOT and
 * STALL_SLOT_FRONTEND less one per cycle before r0p3. #slots 5: slots
 * 5000; r0p3: frontend 1500/5000 - 10/1000, bad speculation 0.1 * (1 -
 * 2500/5000) + 4 * 10/1000, retiring 0.9 * 0.5, backend 1000/5000 - 3 *
 * 10/1000; r0p2: frontend 500/5000 - 0.01, the rest with 1500 stalled
 * slots. V1 (8 in its own text, #slots 8 in sbsa.json's). t410: CPU_SLOT
 * 10000. hip08 (fractions, 4 written in its text), level 2 from raw
 * events keyed "event=0x201d". AmpereOne and AmpereOneX, level 2.
 */
static void test_arm64_rows(void **state)
{
	static const struct {
		const char *model, *fields, *counts;
		struct {
			const char *name;
			double percent;
		} want[11];
	} rows[] = {
#define N2_COUNTS                                                                                  \
	"\"CPU_CYCLES\":1000,\"STALL_SLOT_FRONTEND\":1500,\"STALL_SLOT_BACKEND\":1000,"            \
	"\"STALL_SLOT\":2500,\"OP_RETIRED\":1800,\"OP_SPEC\":2000,\"BR_MIS_PRED\":10"
		{ "neoverse-n2-v2",
		  "\"slots_per_cycle\":5,\"cpuid\":\"0x00000000410fd493\",",
		  N2_COUNTS,
		  { { "slots", 5000 },
		    { "frontend_bound", 29 },
		    { "bad_speculation", 9 },
		    { "retiring", 45 },
		    { "backend_bound", 17 } } },
		{ "neoverse-n2-v2",
		  "\"slots_per_cycle\":5,\"cpuid\":\"0x00000000410fd492\",",
		  N2_COUNTS,
		  { { "frontend_bound", 9 },
		    { "bad_speculation", 11 },
		    { "retiring", 63 },
		    { "backend_bound", 17 } } },
		{ "neoverse-v1",
		  "\"slots_per_cycle\":8,\"cpuid\":\"0x00000000411fd401\",",
		  "\"CPU_CYCLES\":1000,\"STALL_SLOT_FRONTEND\":2400,\"STALL_SLOT_BACKEND\":1600,"
		  "\"STALL_SLOT\":4000,\"OP_RETIRED\":3600,\"OP_SPEC\":4000,\"BR_MIS_PRED\":10",
		  { { "slots", 8000 },
		    { "frontend_bound", 26 },
		    { "bad_speculation", 9 },
		    { "retiring", 45 },
		    { "backend_bound", 20 } } },
		{ "t410",
		  "\"slots_per_cycle\":10,\"cpuid\":\"0x000000004e0f0100\",",
		  "\"CPU_SLOT\":10000,\"STALL_SLOT_BACKEND\":2000,"
		  "\"STALL_SLOT_FRONTEND_WITHOUT_MISPRED\":1500,\"STALL_SLOT\":4000,"
		  "\"OP_RETIRED\":4500,\"OP_SPEC\":5000",
		  { { "slots", 10000 },
		    { "frontend_bound", 15 },
		    { "backend_bound", 20 },
		    { "retiring", 54 },
		    { "bad_speculation", 11 } } },
		{ "hip08",
		  "\"cpuid\":\"0x00000000480fd010\",",
		  "\"CPU_CYCLES\":1000,\"FETCH_BUBBLE\":800,\"INST_SPEC\":2000,"
		  "\"INST_RETIRED\":1600,\"event=0x201d\":100,\"BR_MIS_PRED\":30,"
		  "\"event=0x2013\":10,\"EXE_STALL_CYCLE\":300,\"MEM_STALL_ANYLOAD\":150,"
		  "\"event=0x7005\":50",
		  { { "slots", 4000 },
		    { "frontend_bound", 20 },
		    { "bad_speculation", 10 },
		    { "retiring", 40 },
		    { "backend_bound", 30 },
		    { "fetch_latency_bound", 10 },
		    { "fetch_bandwidth_bound", 10 },
		    { "branch_mispredicts", 7.5 },
		    { "machine_clears", 2.5 },
		    { "core_bound", 10 },
		    { "memory_bound", 20 } } },
		/*
		 * #slots 4: slots 4000; misspeculation 400/4000, retired
		 * 2000/4000, backend 1200/4000, frontend the rest; memory
		 * (50 + 150)/1000 and core 0.3 - 0.2 (fractions in perf);
		 * mispredicts 30/40 of 10; latency (80 - (440 - 0.1 * 4000)/4)
		 * /1000 (AmpereOneX: a fraction, its bandwidth 10 - 100 * it).
		 */
#define AMPERE_COUNTS                                                                              \
	"\"CPU_CYCLES\":1000,\"OP_SPEC\":2400,\"OP_RETIRED\":2000,\"STALL_SLOT_BACKEND\":1200,"   \
	"\"STALL_BACKEND_TLB\":50,\"STALL_BACKEND_CACHE\":150,\"BR_MIS_PRED_RETIRED\":30,"       \
	"\"GPC_FLUSH\":40,\"STALL_FRONTEND\":80,\"STALL_SLOT_FRONTEND\":440"
#define AMPERE_WANT                                                                                \
	{ { "slots", 4000 },                                                                       \
	  { "slots_lost_misspeculation_fraction", 10 },                                            \
	  { "retired_fraction", 50 },                                                              \
	  { "backend_bound", 30 },                                                                 \
	  { "frontend_bound", 10 },                                                                \
	  { "backend_memory", 20 },                                                                \
	  { "backend_core", 10 },                                                                  \
	  { "branch_mispredict", 7.5 },                                                            \
	  { "other_miss_pred", 2.5 },                                                              \
	  { "frontend_latency", 7 },                                                               \
	  { "frontend_bandwidth", 3 } }
		{ "ampereone", "\"slots_per_cycle\":4,\"cpuid\":\"0x00000000c00fac30\",",
		  AMPERE_COUNTS, AMPERE_WANT },
		{ "ampereonex", "\"slots_per_cycle\":4,\"cpuid\":\"0x00000000c00fac40\",",
		  AMPERE_COUNTS, AMPERE_WANT },
#undef AMPERE_WANT
#undef AMPERE_COUNTS
#undef N2_COUNTS
	};
	char buf[2048], *out, *err;
	json_t *o;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(buf, sizeof(buf),
			 "{\"schema\":2,\"type\":\"system\",\"phase\":\"interval\","
			 "\"interval\":1,\"mode\":\"topdown\",\"model\":\"%s\","
			 "\"pmu\":\"armv8_pmuv3_0\",\"smt_on\":false,%s\"time_enabled_ns\":9,"
			 "\"time_running_ns\":9,\"counts\":{%s}}\n",
			 rows[i].model, rows[i].fields, rows[i].counts);
		if (report(buf, true, &out, &err))
			fail_msg("%s: tdtrace report: %s", rows[i].model, err);
		o = one_line(out);
		assert_string_equal(json_string_value(json_object_get(o, "model")), rows[i].model);
		for (int j = 0; j < 11 && rows[i].want[j].name; j++)
			expect(o, rows[i].want[j].name, rows[i].want[j].percent);
		json_decref(o);
		free(out);
		free(err);
	}
}

/* Refusals: one line each, naming the file's line, exit 1. */
static void test_refused(void **state)
{
	static const char *const bad[][2] = {
		{ "{\"schema\":1,\"type\":\"system\",\"counts\":{}}\n", ":1: schema 1, not 2" },
		{ "\n{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\",\"model\":\"nolake\","
		  "\"counts\":{}}\n",
		  ":2: unknown model 'nolake'" },
		{ "{\"schema\":2,\"type\":\"sys", ":1: not one JSON object" },
		/* Item 5: no counts, a type that is not a string, an unknown mode. */
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\"}\n",
		  ":1: counts (none) is not an object" },
		{ "{\"schema\":2,\"type\":7,\"mode\":\"topdown\",\"counts\":{}}\n",
		  ":1: type 7 is not system, process, thread, cgroup or region" },
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"turbo\",\"counts\":{}}\n",
		  ":1: mode \"turbo\" is not topdown or software" },
		/* Item 6: trailing garbage, two records on one line. */
		{ "{\"schema\":2,\"type\":\"system\",\"counts\":{}} garbage}{\n",
		  ":1: not one JSON object: end of file expected" },
		{ "{\"schema\":2}{\"schema\":2}\n",
		  ":1: not one JSON object: end of file expected" },
		/* Item 7: duplicate keys, counts as an array, schema as a string, another PMU. */
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\",\"model\":\"amdzen5\","
		  "\"counts\":{\"ex_ret_ops\":1,\"ex_ret_ops\":2}}\n",
		  ":1: not one JSON object: duplicate object key" },
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\",\"model\":\"amdzen5\","
		  "\"counts\":[1,2]}\n",
		  ":1: counts [1,2] is not an object" },
		{ "{\"schema\":\"2\",\"type\":\"system\",\"counts\":{}}\n",
		  ":1: schema \"2\", not 2" },
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\","
		  "\"model\":\"sapphirerapids\",\"pmu\":\"cpu_atom\",\"counts\":{}}\n",
		  ":1: model 'sapphirerapids' has no row for PMU 'cpu_atom'" },
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"software\",\"counts\":{}}\n",
		  ":1: bad count for cpu-clock" },
		/* Times and SMT that would decode to garbage or to the wrong formula. */
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\",\"model\":\"amdzen5\","
		  "\"time_enabled_ns\":9,\"time_running_ns\":-5,\"counts\":{}}\n",
		  ":1: time_running_ns -5 is not an integer >= 0" },
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\",\"model\":\"amdzen5\","
		  "\"smt_on\":\"yes\",\"counts\":{}}\n",
		  ":1: smt_on \"yes\" is not true or false" },
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\",\"model\":\"amdzen5\","
		  "\"pmu_events\":[7,3],\"counts\":{}}\n",
		  ":1: pmu_events [7,3] is not a version's name or null" },
		/* arm64's fields: #slots a number >= 0, cpuid a MIDR's text. */
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\","
		  "\"model\":\"neoverse-n2-v2\",\"slots_per_cycle\":-5,\"counts\":{}}\n",
		  ":1: slots_per_cycle -5 is not a number >= 0" },
		{ "{\"schema\":2,\"type\":\"system\",\"mode\":\"topdown\","
		  "\"model\":\"neoverse-n2-v2\",\"cpuid\":7,\"counts\":{}}\n",
		  ":1: cpuid 7 is not a MIDR's text or null" },
		/* jansson quotes the bad token: the line's newline, a control byte (fuzz_report).
		 */
		{ "{\"a\":\"x\\\n", ":1: not one JSON object: invalid escape near '\"x\\'" },
		{ "{\"a\":\033[2J}\n", ":1: not one JSON object: invalid token near '\\x1b'" },
	};
	char *out, *err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(report(bad[i][0], true, &out, &err), 1);
		if (!err || !strstr(err, bad[i][1]))
			fail_msg("stderr '%s' (stdout '%s') does not say '%s'", err, out,
				 bad[i][1]);
		assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
		assert_null(strstr(err, "was not opened"));
		assert_null(strchr(err, '\033'));
		assert_string_equal(out, "");
		free(out);
		free(err);
	}
}

/*
 * Every line comes back or is refused, each refusal naming its line, and
 * the exit code says a line was refused: good and bad lines mixed, a bad
 * one first, a NUL byte in one (not a blank line).
 */
static void test_every_line_accounted(void **state)
{
	char text[4096], *out, *err, *p;
	int refused = 0;

	(void)state;
	snprintf(text, sizeof(text), "{\"schema\":2,\"type\":\"system\"}\n%s\n%s%.*s%c%s",
		 zen5_line, zen4_line, (int)strlen(zen5_line) - 1, zen5_line, '\0', "}\n");
	{
		/* The text holds a NUL: write it with its length. */
		char path[] = "/tmp/tdtrace-report-XXXXXX";
		const char *args[] = { "report", "--json", path, NULL };
		size_t len = strlen(text) + 3;
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, text, len), (ssize_t)len);
		close(fd);
		itest_proc_release(&child);
		assert_int_equal(itest_tdtrace_run(&child, 0, RUN_MS, args), 0);
		unlink(path);
		out = itest_stdout(&child);
		err = itest_stderr(&child);
		print_message("stdout:\n%sstderr:\n%s", out, err);
		assert_int_equal(itest_exit_code(&child), 1);
	}
	/* Lines 2 and 4 decode; 1 (no counts) and 5 (a NUL byte) are refused, by number. */
	assert_int_equal(itest_count_lines(out), 2);
	assert_non_null(strstr(err, ":1: counts (none)"));
	assert_non_null(strstr(err, ":5: a NUL byte at column"));
	for (p = err; (p = strchr(p, '\n')); p++)
		refused++;
	assert_int_equal(refused, 2);
	free(out);
	free(err);
}

/*
 * Never counted (enabled, running 0): slots null as the live output
 * writes it, not 0; the table shows '-'.
 */
static void test_never_counted(void **state)
{
	char text[2048], *out, *err, *at;
	json_t *o;

	(void)state;
	snprintf(text, sizeof(text), "%s", zen5_line);
	at = strstr(text, "\"time_running_ns\":1000");
	assert_non_null(at);
	memcpy(at, "\"time_running_ns\":   0", strlen("\"time_running_ns\":1000"));
	assert_int_equal(report(text, true, &out, &err), 0);
	o = one_line(out);
	if (!json_is_null(json_object_get(o, "slots")))
		fail_msg("slots %s for a line never counted (want null)",
			 json_dumps(json_object_get(o, "slots"), JSON_ENCODE_ANY));
	assert_true(json_is_null(json_object_get(o, "frontend_bound")));
	json_decref(o);
	free(out);
	free(err);
}

/* The table writes names as the live table does: control bytes as '?'. */
static void test_table_control_bytes(void **state)
{
	const char *comm = "\"comm\":\"app\"", *at = strstr(zen4_line, comm);
	char text[2048], *out, *err;

	(void)state;
	assert_non_null(at);
	snprintf(text, sizeof(text), "%.*s\"comm\":\"a\\u001b[2Jb\\nc\"%s", (int)(at - zen4_line),
		 zen4_line, at + strlen(comm));
	assert_int_equal(report(text, false, &out, &err), 0);
	print_message("%s", out);
	if (strchr(out, '\033'))
		fail_msg("an ESC byte reached the table");
	assert_non_null(strstr(out, "process 42 a?[2Jb?c"));
	free(out);
	free(err);
}

/* Three --software lines as tdtrace writes them: a system, a process, a cgroup. */
static const char software_lines[] =
	"{\"schema\":2,\"type\":\"system\",\"phase\":\"interval\",\"interval\":1,"
	"\"timestamp\":1795642011.1100743,\"elapsed_s\":1.001827096999932,"
	"\"duration_s\":1.001827096999932,\"mode\":\"software\",\"cpus\":2,"
	"\"untraced\":{\"cpu-clock\":0},\"slices\":273,\"time_enabled_ns\":2003575974,"
	"\"time_running_ns\":2003575974,\"multiplexed\":false,\"scale\":1,"
	"\"counts\":{\"cpu-clock\":2003575965},\"cpu_ns\":2003575965,\"cpu_pct\":199.992191}\n"
	"{\"schema\":2,\"type\":\"process\",\"phase\":\"interval\",\"interval\":1,"
	"\"mode\":\"software\",\"pid\":7,\"comm\":\"sh\",\"cgroup\":\"/a\",\"slices\":3,"
	"\"time_enabled_ns\":0,\"time_running_ns\":0,\"multiplexed\":false,\"scale\":1,"
	"\"counts\":{\"cpu-clock\":17800000},\"cpu_ns\":17800000,\"cpu_pct\":1.776}\n"
	"{\"schema\":2,\"type\":\"cgroup\",\"phase\":\"summary\",\"interval\":1,"
	"\"mode\":\"software\",\"cgroup_id\":9,\"cgroup\":\"/a\",\"slices\":3,"
	"\"counts\":{\"cpu-clock\":17800000},\"cpu_ns\":17800000,\"cpu_pct\":null}\n"
	/* a pod rolled up by --group-by=pod: no cgroup path, its label */
	"{\"schema\":2,\"type\":\"cgroup\",\"phase\":\"summary\",\"interval\":1,"
	"\"mode\":\"software\",\"cgroup_id\":4611686018427387905,\"cgroup\":null,"
	"\"label\":\"shop/web-1\",\"slices\":3,"
	"\"counts\":{\"cpu-clock\":17800000},\"cpu_ns\":17800000,\"cpu_pct\":null}\n";

/* --json gives back each line of @in, in order, with the same keys and values. */
static void assert_round_trip(const char *in, const char *out)
{
	int bad_in = 0, bad_out = 0;
	json_t *a = itest_parse_jsonl(in, &bad_in), *b = itest_parse_jsonl(out, &bad_out);

	assert_int_equal(bad_in + bad_out, 0);
	if (json_array_size(a) != json_array_size(b) || !json_array_size(a))
		fail_msg("%zu lines in, %zu lines out", json_array_size(a), json_array_size(b));
	for (size_t i = 0; i < json_array_size(a); i++)
		if (!json_equal(json_array_get(a, i), json_array_get(b, i)))
			fail_msg("line %zu differs:\n%s\n%s", i + 1,
				 json_dumps(json_array_get(a, i), 0),
				 json_dumps(json_array_get(b, i), 0));
	json_decref(a);
	json_decref(b);
}

/* Item 5: --software lines come back, line for line; the table has a row for each. */
static void test_software_lines(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(report(software_lines, true, &out, &err), 0);
	assert_string_equal(err, "");
	assert_round_trip(software_lines, out);
	free(out);
	free(err);
	assert_int_equal(report(software_lines, false, &out, &err), 0);
	print_message("%s", out);
	assert_non_null(strstr(out, "interval 1, software"));
	assert_non_null(strstr(out, "summary 1, software"));
	assert_non_null(strstr(out, "\nsystem "));
	assert_non_null(strstr(out, "\nprocess 7 sh "));
	assert_non_null(strstr(out, "\ncgroup /a "));
	assert_non_null(strstr(out, "\ncgroup shop/web-1 "));
	free(out);
	free(err);
}

/*
 * --format=toplev-csv has no rows for CPU time: each --software line is
 * refused by FILE:LINE, as the live tracer refuses the two together.
 */
static void test_software_toplev(void **state)
{
	char *out, *err;
	int lines = 0;

	(void)state;
	assert_int_equal(report_as(software_lines, "--format=toplev-csv", &out, &err), 1);
	print_message("%s", err);
	for (const char *l = software_lines; *l; l = strchr(l, '\n') + 1)
		lines += *l != '\n';
	assert_int_equal(itest_count_lines(err), lines);
	assert_non_null(strstr(err, ":1: a --software line has no TopDown nodes"));
	assert_int_equal(itest_count_lines(out), 1); /* the header only */
	free(out);
	free(err);
}

/* A real --software recording round trips (root and BPF; skips without). */
static void test_software_recording(void **state)
{
	char dir[] = "/tmp/tdtrace-report-XXXXXX", path[64], *text, *out, *err;
	const char *args[] = { "--software", "--json", "-d", "1", "-I", "500", "-o", path, NULL };
	int ret;

	(void)state;
	itest_require_root();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.jsonl", dir);
	itest_proc_release(&child);
	ret = itest_tdtrace_run(&child, 0, 10000, args);
	if (ret || itest_exit_code(&child)) {
		char *e = itest_stderr(&child);

		if (!ret && e && (strstr(e, "BPF") || strstr(e, "BTF")))
			itest_skip("tdtrace --software cannot load BPF here: %s", e);
		fail_msg("tdtrace --software: %d, exit %d: %s", ret, itest_exit_code(&child), e);
	}
	itest_proc_release(&child);
	text = itest_read_file(path);
	assert_non_null(text);
	assert_int_equal(report(text, true, &out, &err), 0);
	print_message("%d lines recorded, %d back\n", itest_count_lines(text),
		      itest_count_lines(out));
	assert_round_trip(text, out);
	free(out);
	free(err);
	unlink(path);
	rmdir(dir);
	free(text);
}

/*
 * Start "tdtrace report ARGS" reading a pipe that the test holds open
 * (so it never ends), with the default signal dispositions and no
 * blocked signal, whatever the test runner left.
 */
static void start_on_pipe(const char *const args[], int flags)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old[2];
	sigset_t none, mask;
	char *argv[16];

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, &mask);
	sigaction(SIGINT, &dfl, &old[0]);
	sigaction(SIGTERM, &dfl, &old[1]);
	itest_proc_release(&child);
	itest_tdtrace_argv(argv, 16, args);
	assert_int_equal(itest_spawn(&child, argv, flags | ITEST_STDIN_PIPE), 0);
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	sigprocmask(SIG_SETMASK, &mask, NULL);
}

/*
 * Item 3: `sleep 30 | tdtrace report` stops on SIGINT and SIGTERM at
 * once, as any filter does: killed by the signal (128 + its number, as
 * shells report it).
 */
static void test_stop_signals(void **state)
{
	static const char *const args[] = { "report", NULL };
	static const int sigs[] = { SIGINT, SIGTERM };

	(void)state;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		long long t0;
		int code;

		start_on_pipe(args, 0);
		/* One line in, so that it is reading, not starting. */
		assert_int_equal(write(child.in_pipe, zen5_line, strlen(zen5_line)),
				 (ssize_t)strlen(zen5_line));
		itest_sleep_ms(200);
		t0 = itest_now_ms();
		code = itest_signal_and_wait(&child, sigs[i], 2000);
		print_message("%s: exit %d after %lld ms\n", strsignal(sigs[i]), code,
			      itest_now_ms() - t0);
		if (code != 128 + sigs[i])
			fail_msg("tdtrace report on a pipe: exit %d %lld ms after %s (want %d)",
				 code, itest_now_ms() - t0, strsignal(sigs[i]), 128 + sigs[i]);
		itest_proc_release(&child);
	}
}

/*
 * Item 3: the reader goes away (`tdtrace report --json | head -1`): it
 * stops at once, though its input never ends: exit 0, nothing said; or 1
 * if a line was refused before.
 */
static void test_reader_goes_away(void **state)
{
	static const char *const args[] = { "report", "--json", NULL };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;

	(void)state;
	sigaction(SIGPIPE, &ign, &old); /* the test's own writes to it, once it left */
	for (int refused = 0; refused < 2; refused++) {
		long long t0;
		char *err;
		int code;

		start_on_pipe(args, ITEST_STDOUT_PIPE);
		close(child.out_pipe);
		child.out_pipe = -1;
		t0 = itest_now_ms();
		if (refused)
			assert_int_equal(write(child.in_pipe, "{}\n", 3), 3);
		/* Far more than a pipe's or stdio's buffer, while it runs. */
		for (int i = 0; i < 2000 && !itest_poll_exit(&child); i++)
			if (write(child.in_pipe, zen4_line, strlen(zen4_line)) < 0)
				break;
		code = itest_wait(&child, 3000) ? -1 : itest_exit_code(&child);
		err = itest_stderr(&child);
		print_message("exit %d %lld ms after the reader left; stderr: %s\n", code,
			      itest_now_ms() - t0, err ? err : "(none)");
		if (code != refused)
			fail_msg("exit %d after stdout's reader left (want %d within 3 s)", code,
				 refused);
		assert_int_equal(itest_count_lines(err ? err : ""), refused);
		free(err);
		itest_proc_release(&child);
	}
	sigaction(SIGPIPE, &old, NULL);
}

/* Item 3: output that cannot be written (> /dev/full): exit 1, one line that says why. */
static void test_full_disk(void **state)
{
	char path[] = "/tmp/tdtrace-report-XXXXXX", cmd[256];
	const char *modes[] = { "--json", "" };
	int fd = mkstemp(path);

	(void)state;
	if (access("/dev/full", W_OK))
		itest_skip("no /dev/full here: %s\n", strerror(errno));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, zen4_line, strlen(zen4_line)), (ssize_t)strlen(zen4_line));
	close(fd);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char *argv[] = { "/bin/sh", "-c", cmd, NULL }, *err;

		snprintf(cmd, sizeof(cmd), "exec %s report %s %s >/dev/full", itest_tdtrace_path(),
			 modes[i], path);
		itest_proc_release(&child);
		assert_int_equal(itest_run(&child, argv, 0, RUN_MS), 0);
		err = itest_stderr(&child);
		print_message("report %s > /dev/full: exit %d: %s", modes[i],
			      itest_exit_code(&child), err);
		assert_int_equal(itest_exit_code(&child), 1);
		assert_non_null(strstr(err, "failed to write the output: No space left on device"));
		assert_int_equal(itest_count_lines(err), 1);
		free(err);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_amdzen4, setup, teardown),
		cmocka_unit_test_setup_teardown(test_region_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amdzen5_level1_multiplexed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sapphirerapids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_added_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pmu_events_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm64_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_line_accounted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_never_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_control_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_software_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_software_toplev, setup, teardown),
		cmocka_unit_test_setup_teardown(test_software_recording, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_signals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reader_goes_away, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_disk, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
