// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_attr from discovered PMUs (the fixtures in tests/fixtures/sysfs)
 * and their model rows, and for --software. Run from the repository root.
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
#include "model/models.h"

#define FIXTURES "tests/fixtures/sysfs"

#define TD_READ_FORMAT                                                                             \
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_GROUP)

static struct cpu_pmus *discover(const char *root)
{
	struct cpu_pmus *cpu = calloc(1, sizeof(*cpu));

	assert_non_null(cpu);
	assert_int_equal(pmu_discover_all(root, cpu), 0);
	return cpu;
}

static const struct core_pmu *pmu_named(const struct cpu_pmus *cpu, const char *name)
{
	for (int i = 0; i < cpu->nr_pmus; i++)
		if (!strcmp(cpu->pmu[i].name, name))
			return &cpu->pmu[i];
	fail_msg("no PMU %s", name);
	return NULL;
}

/* What every attr must be: counting only, in the PMU's type; leaders wait. */
static void assert_counting(const struct counter_set *set, __u32 type)
{
	for (int i = 0; i < set->nr; i++) {
		const struct perf_event_attr *a = &set->attr[i];

		assert_int_equal(a->type, type);
		assert_int_equal(a->size, sizeof(*a));
		assert_int_equal(a->read_format, TD_READ_FORMAT);
		assert_int_equal(a->sample_period, 0);
		assert_int_equal(a->sample_type, 0);
		assert_int_equal(a->freq, 0);
		assert_int_equal(a->inherit, 0);
		assert_int_equal(a->pinned, 0);
		assert_int_equal(a->exclusive, 0);
		assert_int_equal(a->disabled, i == 0 || set->group[i] != set->group[i - 1]);
		assert_non_null(set->name[i]);
	}
}

/*
 * Sapphire Rapids from its fixture: slots and the eight metric events from
 * sysfs (0x400, 0x8000 .. 0x8700), UOP_DROPPING raw (0x10ad), one group.
 */
static void test_sapphirerapids(void **state)
{
	struct cpu_pmus *cpu = discover(FIXTURES "/sapphirerapids");
	const struct pmu_model *m =
		model_find(cpu->vendor, cpu->family, cpu->model, cpu->stepping, "cpu");
	struct counter_set set;
	char err[256];

	(void)state;
	assert_non_null(m);
	assert_string_equal(m->name, "sapphirerapids");
	memset(&set, 0xa5, sizeof(set));
	assert_int_equal(
		counters_from_model(m, pmu_named(cpu, "cpu"), 2, false, &set, err, sizeof(err)), 0);
	assert_int_equal(set.level, 2);
	assert_int_equal(set.nr, 10);
	assert_int_equal(set.nr_groups, 1);
	assert_counting(&set, 4);
	assert_int_equal(set.attr[0].config, 0x400);
	for (int i = 1; i < 9; i++)
		assert_int_equal(set.attr[i].config, 0x8000 + ((i - 1) << 8));
	assert_string_equal(set.name[9], "INT_MISC.UOP_DROPPING");
	assert_int_equal(set.attr[9].config, 0x10ad);
	free(cpu);
}

/* Alder Lake: the P-core set in cpu_core's type, the E-core set in cpu_atom's. */
static void test_alderlake(void **state)
{
	struct cpu_pmus *cpu = discover(FIXTURES "/alderlake");
	const struct core_pmu *core = pmu_named(cpu, "cpu_core"),
			      *atom = pmu_named(cpu, "cpu_atom");
	struct counter_set set;
	char err[256];

	(void)state;
	assert_int_equal(counters_from_model(model_find(cpu->vendor, cpu->family, cpu->model,
							cpu->stepping, "cpu_core"),
					     core, 2, false, &set, err, sizeof(err)),
			 0);
	assert_counting(&set, core->type);
	assert_int_equal(counters_from_model(model_find(cpu->vendor, cpu->family, cpu->model,
							cpu->stepping, "cpu_atom"),
					     atom, 2, false, &set, err, sizeof(err)),
			 0);
	assert_counting(&set, atom->type);
	assert_true(core->type != atom->type);
	free(cpu);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sapphirerapids),
		cmocka_unit_test(test_alderlake),
		cmocka_unit_test(test_software),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
