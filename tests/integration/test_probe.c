// SPDX-License-Identifier: GPL-2.0
/*
 * tdtrace --probe --json --sysfs-root on every fixture machine: the model
 * each core PMU is recognised as (perf's name), its level, what it leaves
 * out and why (the NMI watchdog on AMD), and, for this VM, that there is
 * no core PMU, said with the vendor and family. No root, no PMU needed.
 */
#include "itest.h"

#define FIXTURES "tests/fixtures/sysfs"

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

static json_t *probe(const char *fixture)
{
	char root[256], *out, *err;
	const char *args[] = { "--probe", "--json", "--sysfs-root", root, NULL };
	json_error_t e;
	json_t *o;

	snprintf(root, sizeof(root), FIXTURES "/%s", fixture);
	itest_proc_release(&td);
	assert_int_equal(itest_tdtrace_run(&td, 0, 5000, args), 0);
	out = itest_stdout(&td);
	err = itest_stderr(&td);
	if (itest_exit_code(&td) != 0)
		fail_msg("--probe on %s: exit %d, %s", fixture, itest_exit_code(&td), err);
	o = json_loads(out, 0, &e);
	if (!o)
		fail_msg("--probe --json on %s is not JSON: %s (%s)", fixture, out, e.text);
	free(out);
	free(err);
	return o;
}

/* The model on @pmu, or NULL. */
static const json_t *pmu_of(const json_t *o, const char *pmu)
{
	const json_t *p;
	size_t i;

	json_array_foreach(
		json_object_get(o, "pmus"), i,
		p) if (!strcmp(json_string_value(json_object_get(p, "pmu")), pmu)) return p;
	return NULL;
}

/* How many counting groups PMU @p of --probe --json opens. */
static long long groups_of(const json_t *p)
{
	long long groups = 0;
	const json_t *e;
	size_t j;

	json_array_foreach(json_object_get(p, "events"), j, e)
		if (itest_jint(e, "group") + 1 > groups)
			groups = itest_jint(e, "group") + 1;
	return groups;
}

static void test_every_fixture(void **state)
{
	static const struct {
		const char *fixture, *pmu, *model;
		int level;
	} want[] = {
		{ "icelake", "cpu", "icelake", 2 },
		{ "icelakex", "cpu", "icelakex", 2 },
		{ "sapphirerapids", "cpu", "sapphirerapids", 2 },
		{ "alderlake", "cpu_core", "alderlake", 2 },
		{ "alderlake", "cpu_atom", "alderlake", 2 },
		{ "meteorlake", "cpu_core", "meteorlake", 2 },
		{ "meteorlake", "cpu_atom", "meteorlake", 2 },
		{ "lunarlake", "cpu_core", "lunarlake", 2 },
		{ "lunarlake", "cpu_atom", "lunarlake", 2 },
		/* SMT and the NMI watchdog: cycles lose fixed counter 1, into group 4. */
		{ "skylake", "cpu", "skylake", 2 },
		{ "skylakex", "cpu", "skylakex", 2 },
		{ "skylakex-nowatchdog", "cpu", "skylakex", 2 },
		{ "cascadelakex", "cpu", "cascadelakex", 2 },
		{ "cascadelakex-smt", "cpu", "cascadelakex", 2 },
		{ "amdzen4", "cpu", "amdzen4", 2 },
		{ "amdzen4-nowatchdog", "cpu", "amdzen4", 2 },
		{ "amdzen5", "cpu", "amdzen5", 2 },
		{ "amdzen6", "cpu", "amdzen6", 2 },
		{ "sierraforest", "cpu", "sierraforest", 2 },
		{ "grandridge", "cpu", "grandridge", 2 },
		{ "alderlaken", "cpu", "alderlaken", 2 },
		{ "haswell", "cpu", "haswell", 2 },
		{ "haswellx", "cpu", "haswellx", 2 },
		{ "broadwell", "cpu", "broadwell", 2 },
		{ "broadwellx", "cpu", "broadwellx", 2 },
		{ "broadwellde", "cpu", "broadwellde", 2 },
	};
	/* SMT on in these fixtures: per-task fractions approximate, as on Skylake. */
	static const char *const smt_approximate[] = { "skylakex", "haswell", "haswellx",
						       "broadwell", "broadwellx" };
	/* SMT off (Broadwell-DE's fixture) or none (E-cores only). */
	static const char *const smt_exact[] = { "cascadelakex", "broadwellde", "sierraforest",
						 "grandridge", "alderlaken" };

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		json_t *o = probe(want[i].fixture);
		const json_t *p = pmu_of(o, want[i].pmu);
		const char *version;

		if (!p)
			fail_msg("%s: no PMU %s in --probe", want[i].fixture, want[i].pmu);
		print_message("%-20s %-9s %s, level %lld, %zu events%s%s\n", want[i].fixture,
			      want[i].pmu, json_string_value(json_object_get(p, "model")),
			      itest_jint(p, "level"), json_array_size(json_object_get(p, "events")),
			      *json_string_value(json_object_get(p, "left_out")) ? ", left out: "
										 : "",
			      json_string_value(json_object_get(p, "left_out")));
		assert_string_equal(json_string_value(json_object_get(p, "model")), want[i].model);
		assert_int_equal(itest_jint(p, "level"), want[i].level);
		assert_true(json_is_true(json_object_get(o, "topdown")));
		/* Every row names the pmu-events version its formulas follow. */
		version = json_string_value(json_object_get(p, "pmu_events"));
		if (!version || strcmp(version, "perf v7.3-rc7"))
			fail_msg("%s/%s: pmu_events %s, not perf v7.3-rc7", want[i].fixture,
				 want[i].pmu, version ? version : "(none)");
		/* AMD with the NMI watchdog on: SMT contention gives way, and says so. */
		if (!strcmp(want[i].fixture, "amdzen4"))
			assert_non_null(strstr(json_string_value(json_object_get(p, "left_out")),
					       "the NMI watchdog holds a counter"));
		/* Skylake-X has SMT on in its fixture, Cascade Lake off: said per model. */
		for (size_t j = 0; j < sizeof(smt_approximate) / sizeof(smt_approximate[0]); j++)
			if (!strcmp(want[i].fixture, smt_approximate[j]))
				assert_true(json_is_true(json_object_get(p, "smt_approximate")));
		for (size_t j = 0; j < sizeof(smt_exact) / sizeof(smt_exact[0]); j++)
			if (!strcmp(want[i].fixture, smt_exact[j]))
				assert_true(json_is_false(json_object_get(p, "smt_approximate")));
		/*
		 * Level 2, nothing left out, in 5 groups either way: group 4
		 * holds INST_RETIRED.ANY (perf's IPC on Haswell, heavy
		 * operations on Skylake) and, with the watchdog, what group 0
		 * has no counter left for.
		 */
		if (!strncmp(want[i].fixture, "skylake", 7) ||
		    !strncmp(want[i].fixture, "cascadelakex", 12) ||
		    !strncmp(want[i].fixture, "haswell", 7) ||
		    !strncmp(want[i].fixture, "broadwell", 9)) {
			bool hsw = want[i].fixture[0] == 'h' || want[i].fixture[0] == 'b';
			const json_t *ev = json_object_get(p, "events");
			size_t n = json_array_size(ev);

			assert_int_equal(n, hsw ? 21 : 19);
			assert_int_equal(groups_of(p), 5);
			assert_string_equal(json_string_value(json_object_get(p, "left_out")), "");
			/* Skylake's last two: tma_heavy_operations' (pipeline.json). */
			if (!hsw) {
				const json_t *fused = json_array_get(ev, n - 2);
				const json_t *inst = json_array_get(ev, n - 1);

				assert_string_equal(itest_jstr(fused, "name"),
						    "UOPS_RETIRED.MACRO_FUSED");
				assert_string_equal(itest_jstr(fused, "config"), "0x4c2");
				assert_int_equal(itest_jint(fused, "group"), 4);
				assert_string_equal(itest_jstr(inst, "name"), "INST_RETIRED.ANY");
				assert_string_equal(itest_jstr(inst, "config"), "0xc0");
				assert_int_equal(itest_jint(inst, "group"), 4);
			}
		}
		if (!strcmp(want[i].fixture, "amdzen4-nowatchdog"))
			assert_string_equal(json_string_value(json_object_get(p, "left_out")), "");
		json_decref(o);
	}
}

/* The text form names the version too, beside the files the row cites. */
static void test_text_names_version(void **state)
{
	const char *args[] = { "--probe", "--sysfs-root", FIXTURES "/icelake", NULL };
	char *out, *err;

	(void)state;
	itest_proc_release(&td);
	assert_int_equal(itest_tdtrace_run(&td, 0, 5000, args), 0);
	out = itest_stdout(&td);
	err = itest_stderr(&td);
	assert_int_equal(itest_exit_code(&td), 0);
	if (!strstr(out,
		    "formulas: perf's TopdownL1,TopdownL2, pmu-events of perf v7.3-rc7 "
		    "(perf v7.3-rc7 tools/perf/pmu-events/arch/x86/icelake/icl-metrics.json @ "))
		fail_msg("--probe does not name the version and file: %s", out);
	free(out);
	free(err);
}

/* This machine's kind: a Zen 5 guest without PMU passthrough, said so. */
static void test_vm(void **state)
{
	json_t *o = probe("vm");
	const char *why = json_string_value(json_object_get(o, "why"));

	(void)state;
	assert_true(json_is_false(json_object_get(o, "topdown")));
	assert_int_equal(json_array_size(json_object_get(o, "pmus")), 0);
	assert_non_null(why);
	assert_non_null(strstr(why, "AMD family 0x1a"));
	assert_non_null(strstr(why, "Zen 5"));
	assert_non_null(strstr(why, "no core PMU"));
	json_decref(o);
}

/*
 * Panther Lake and Nova Lake: perf knows them (mapfile.csv) but has no
 * TopDown metrics for them yet. --probe says so for each core PMU, with
 * no guessed row, and exits as on any CPU without a model; a run without
 * --software is refused with the same reason (exit 2).
 */
static void test_no_topdown_yet(void **state)
{
	static const struct {
		const char *fixture, *cpu, *dir;
	} parts[] = {
		{ "pantherlake", "Panther Lake", "pantherlake" },
		{ "novalake", "Nova Lake", "novalake" },
	};
	char root[256], want[128], *out, *err;
	const char *args[] = { "--sysfs-root", root, "-d", "1", NULL };

	(void)state;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		json_t *o = probe(parts[i].fixture);
		const char *why = json_string_value(json_object_get(o, "why"));
		const json_t *note;
		size_t j;

		snprintf(want, sizeof(want), "perf has no TopDown formulas for %s (%s) yet",
			 parts[i].cpu, parts[i].dir);
		print_message("%s: %s\n", parts[i].fixture, why);
		assert_true(json_is_false(json_object_get(o, "topdown")));
		assert_int_equal(json_array_size(json_object_get(o, "pmus")), 0);
		assert_non_null(why);
		assert_non_null(strstr(why, want));
		/* Both core types are left out, each for that reason. */
		assert_int_equal(json_array_size(json_object_get(o, "left_out")), 2);
		json_array_foreach(json_object_get(o, "left_out"), j, note)
			assert_non_null(strstr(json_string_value(note), want));
		json_decref(o);

		snprintf(root, sizeof(root), FIXTURES "/%s", parts[i].fixture);
		itest_proc_release(&td);
		assert_int_equal(itest_tdtrace_run(&td, 0, 5000, args), 0);
		out = itest_stdout(&td);
		err = itest_stderr(&td);
		assert_int_equal(itest_exit_code(&td), 2);
		assert_non_null(strstr(err, want));
		assert_non_null(strstr(err, "use --software"));
		free(out);
		free(err);
	}
}

/*
 * arm64 fixtures: each PMU's model by MIDR, level 1, its cpuid and
 * slots_per_cycle (perf's #slots); with the NMI watchdog holding the
 * cycle counter (V1's fixture) one event is counted in a group of its own.
 * A DynamIQ part of Cortex-A55 and Cortex-A78 clusters: perf has no
 * TopDown for either, and says which has the STALL_SLOT events.
 */
static void test_arm64(void **state)
{
	static const struct {
		const char *fixture, *model, *cpuid;
		long long slots, events, groups, level;
	} want[] = {
		{ "neoverse-n2-v2", "neoverse-n2-v2", "0x00000000410fd492", 5, 7, 1, 1 },
		{ "neoverse-v1", "neoverse-v1", "0x00000000411fd401", 8, 7, 2, 1 },
		{ "neoverse-n3", "neoverse-n3", "0x00000000410fd8e0", 5, 7, 1, 1 },
		{ "neoverse-v3", "neoverse-v3", "0x00000000410fd830", 10, 7, 1, 1 },
		/* no CPU_CYCLES: the watchdog's cycle counter leaves its six alone */
		{ "t410", "t410", "0x000000004e0f0100", 10, 6, 1, 1 },
		/* level 2 in a group of its own; no caps/slots (its text writes 4) */
		{ "hip08", "hip08", "0x00000000480fd010", 0, 10, 2, 2 },
		/* level 2 in groups 1 and 2 */
		{ "ampereone", "ampereone", "0x00000000c00fac31", 4, 10, 3, 2 },
	};
	const json_t *p;

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		json_t *o = probe(want[i].fixture);

		p = pmu_of(o, "armv8_pmuv3_0");
		if (!p)
			fail_msg("%s: no PMU armv8_pmuv3_0 in --probe", want[i].fixture);
		assert_true(json_is_true(json_object_get(o, "topdown")));
		assert_string_equal(json_string_value(json_object_get(p, "model")), want[i].model);
		assert_int_equal(itest_jint(p, "level"), want[i].level);
		assert_string_equal(json_string_value(json_object_get(p, "cpuid")), want[i].cpuid);
		assert_int_equal(itest_jint(p, "slots_per_cycle"), want[i].slots);
		assert_int_equal(json_array_size(json_object_get(p, "events")), want[i].events);
		assert_int_equal(groups_of(p), want[i].groups);
		json_decref(o);
	}

	json_t *o = probe("cortex-a78");
	const char *why = json_string_value(json_object_get(o, "why"));

	print_message("cortex-a78: %s\n", why);
	assert_true(json_is_false(json_object_get(o, "topdown")));
	assert_int_equal(json_array_size(json_object_get(o, "left_out")), 2);
	assert_non_null(strstr(json_string_value(json_array_get(json_object_get(o, "left_out"), 0)),
			       "no TopDown model for arm64 MIDR 0x412fd050 on armv8_cortex_a55"));
	assert_non_null(strstr(json_string_value(json_array_get(json_object_get(o, "left_out"), 1)),
			       "no TopDown model for arm64 MIDR 0x411fd410 on armv8_cortex_a78: perf "
			       "has no TopDown formulas for Arm Cortex-A78 (cortex-a78) yet, as of "
			       "its pmu-events v7.3, though the core has the STALL_SLOT events"));
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_fixture, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_names_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_topdown_yet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm64, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
