// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_attr construction from discovered PMUs (the fixtures in
 * tests/fixtures/sysfs) and for --software. Run from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "host/pmu.h"
#include "model/counters.h"

#define FIXTURES "tests/fixtures/sysfs"

#define TD_READ_FORMAT                                                                             \
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_GROUP)

static struct pmu_info *discover(const char *root)
{
	struct pmu_info *info = calloc(1, sizeof(*info));

	assert_non_null(info);
	assert_int_equal(pmu_discover(root, info), 0);
	return info;
}

/* What every TopDown attr must be: counting only, in the PMU's type. */
static void assert_topdown_set(const struct counter_set *set, __u32 type, int nr)
{
	static const struct perf_event_attr zero;
	int i;

	assert_int_equal(set->nr, nr);
	assert_false(set->software);
	for (i = 0; i < nr; i++) {
		const struct perf_event_attr *a = &set->attr[i];

		assert_int_equal(a->type, type);
		assert_int_equal(a->size, sizeof(*a));
		/* slots 0x400, then the metrics 0x8000 + role offset. */
		assert_int_equal(a->config, i == TD_SLOTS ? 0x400 : 0x8000 + ((i - 1) << 8));
		assert_int_equal(a->config1, 0);
		assert_int_equal(a->config2, 0);
		assert_int_equal(a->read_format, TD_READ_FORMAT);
		assert_int_equal(a->sample_period, 0);
		assert_int_equal(a->sample_type, 0);
		assert_int_equal(a->freq, 0);
		assert_int_equal(a->inherit, 0);
		assert_int_equal(a->pinned, 0);
		assert_int_equal(a->exclusive, 0);
		/* Leader starts disabled; members follow it. */
		assert_int_equal(a->disabled, i == TD_SLOTS);
		assert_non_null(set->name[i]);
		assert_string_equal(set->name[i], pmu_event_names[i]);
	}
	for (; i < TD_MAX_COUNTERS; i++) {
		assert_memory_equal(&set->attr[i], &zero, sizeof(zero));
		assert_null(set->name[i]);
	}
}

static void test_icelake(void **state)
{
	struct pmu_info *pmu = discover(FIXTURES "/icelake");
	struct counter_set set;

	(void)state;
	memset(&set, 0xa5, sizeof(set));
	assert_int_equal(counters_topdown(pmu, &set), 0);
	assert_int_equal(set.level, 1);
	assert_topdown_set(&set, 4, 5);
	assert_string_equal(set.name[TD_SLOTS], "slots");
	assert_string_equal(set.name[TD_BE_BOUND], "topdown-be-bound");
	assert_int_equal(set.attr[TD_RETIRING].config, 0x8000);
	assert_int_equal(set.attr[TD_BE_BOUND].config, 0x8300);
	free(pmu);
}

static void test_sapphirerapids(void **state)
{
	struct pmu_info *pmu = discover(FIXTURES "/sapphirerapids");
	struct counter_set set;

	(void)state;
	memset(&set, 0xa5, sizeof(set));
	assert_int_equal(counters_topdown(pmu, &set), 0);
	assert_int_equal(set.level, 2);
	assert_topdown_set(&set, 4, 9);
	assert_int_equal(set.attr[TD_HEAVY_OPS].config, 0x8400);
	assert_int_equal(set.attr[TD_MEM_BOUND].config, 0x8700);
	assert_string_equal(set.name[TD_MEM_BOUND], "topdown-mem-bound");
	free(pmu);
}

static void test_alderlake(void **state)
{
	struct pmu_info *pmu = discover(FIXTURES "/alderlake");
	struct counter_set set;

	(void)state;
	/* The cpu_core type, not cpu_atom's 8. */
	assert_int_equal(counters_topdown(pmu, &set), 0);
	assert_topdown_set(&set, 4, 9);
	free(pmu);
}

static void test_vm(void **state)
{
	struct pmu_info *pmu = discover(FIXTURES "/vm");
	struct counter_set set;

	(void)state;
	assert_int_equal(counters_topdown(pmu, &set), -ENODEV);
	assert_int_equal(set.nr, 0);
	free(pmu);
}

/* Config words come from discovery, not from numbers in counters.c. */
static void test_from_pmu_info(void **state)
{
	struct pmu_info *pmu = calloc(1, sizeof(*pmu));
	struct counter_set set;
	int i;

	(void)state;
	assert_non_null(pmu);
	pmu->type = 42;
	pmu->level = 1;
	for (i = 0; i < TD_NR_ROLES; i++) {
		pmu->events[i].present = true;
		pmu->events[i].config[0] = 0x1000 + i;
		pmu->events[i].config[1] = 0x2000 + i;
		pmu->events[i].config[2] = 0x3000 + i;
	}
	assert_int_equal(counters_topdown(pmu, &set), 0);
	/* Level 1 ignores L2 events even if they are there. */
	assert_int_equal(set.nr, 5);
	for (i = 0; i < set.nr; i++) {
		assert_int_equal(set.attr[i].type, 42);
		assert_int_equal(set.attr[i].config, 0x1000 + i);
		assert_int_equal(set.attr[i].config1, 0x2000 + i);
		assert_int_equal(set.attr[i].config2, 0x3000 + i);
	}
	assert_int_equal(set.attr[TD_HEAVY_OPS].config, 0);
	free(pmu);
}

static void test_software(void **state)
{
	static const struct perf_event_attr zero;
	struct counter_set set;
	const struct perf_event_attr *a = &set.attr[TD_SLOTS];
	int i;

	(void)state;
	memset(&set, 0xa5, sizeof(set));
	counters_software(&set);
	assert_int_equal(set.nr, 1);
	assert_int_equal(set.level, 0);
	assert_true(set.software);
	assert_int_equal(a->type, PERF_TYPE_SOFTWARE);
	assert_int_equal(a->size, sizeof(*a));
	assert_int_equal(a->config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(a->read_format,
			 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING);
	assert_int_equal(a->disabled, 1);
	assert_int_equal(a->sample_period, 0);
	assert_int_equal(a->inherit, 0);
	assert_int_equal(a->pinned, 0);
	assert_string_equal(set.name[TD_SLOTS], "cpu-clock");
	for (i = 1; i < TD_MAX_COUNTERS; i++) {
		assert_memory_equal(&set.attr[i], &zero, sizeof(zero));
		assert_null(set.name[i]);
	}
}

/*
 * --test-members: cpu-clock leads group 0; '/' starts a group led by the
 * next event. "context-switches/page-faults,cpu-migrations" is, by hand:
 *   0 cpu-clock        group 0, leads, starts disabled
 *   1 context-switches group 0, member (enabled, follows its leader)
 *   2 page-faults      group 1, leads, starts disabled
 *   3 cpu-migrations   group 1, member
 */
static void test_software_member_groups(void **state)
{
	static const __u64 config[] = { PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
					 PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CPU_MIGRATIONS };
	static const int group[] = { 0, 0, 1, 1 };
	static const bool leads[] = { true, false, true, false };
	struct counter_set set;
	char many[1024] = "";

	(void)state;
	assert_int_equal(
		counters_software_members(&set, "context-switches/page-faults,cpu-migrations"), 0);
	assert_int_equal(set.nr, 4);
	assert_int_equal(counters_nr_groups(&set), 2);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(set.attr[i].type, PERF_TYPE_SOFTWARE);
		assert_int_equal(set.attr[i].config, config[i]);
		assert_int_equal(set.group[i], group[i]);
		assert_int_equal(counters_leads(&set, i), leads[i]);
		assert_int_equal(set.attr[i].disabled, leads[i]);
	}

	/* No '/': one group, as before. */
	assert_int_equal(counters_software_members(&set, "page-faults,cpu-migrations"), 0);
	assert_int_equal(set.nr, 3);
	assert_int_equal(counters_nr_groups(&set), 1);
	assert_false(counters_leads(&set, 2));

	/* Four groups at most; a '/' needs an event after it. */
	assert_int_equal(
		counters_software_members(&set, "page-faults/cpu-clock/cpu-clock/cpu-clock"), 0);
	assert_int_equal(counters_nr_groups(&set), 4);
	assert_int_equal(counters_leads(&set, 3), true);
	assert_int_equal(counters_software_members(&set, "page-faults/cpu-clock/cpu-clock/cpu-clock/"
							 "cpu-clock"),
			 -EINVAL);
	assert_int_equal(counters_software_members(&set, "page-faults/"), -EINVAL);
	assert_int_equal(counters_software_members(&set, "page-faults//cpu-clock"), -EINVAL);

	/* 23 members fill the 24 slots; one more does not fit. */
	for (int i = 0; i < TD_MAX_COUNTERS - 1; i++)
		strcat(many, i ? ",page-faults" : "page-faults");
	assert_int_equal(counters_software_members(&set, many), 0);
	assert_int_equal(set.nr, TD_MAX_COUNTERS);
	strcat(many, ",page-faults");
	assert_int_equal(counters_software_members(&set, many), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icelake),	      cmocka_unit_test(test_sapphirerapids),
		cmocka_unit_test(test_alderlake),     cmocka_unit_test(test_vm),
		cmocka_unit_test(test_from_pmu_info), cmocka_unit_test(test_software),
		cmocka_unit_test(test_software_member_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
