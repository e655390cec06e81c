// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel rows of the PMU model table (user/model/models_intel.c):
 * every row well formed and compiling at levels 1 and 2 and in its plain
 * form; model_find() recognising each row; and decode vectors for one row
 * of each kind, the expected values worked out by hand from perf's
 * formula text in the comments beside them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/decode.h"
#include "model/decoder.h"

static int event_index(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nr_events; i++)
		if (!strcmp(m->events[i].name, name))
			return i;
	fail_msg("%s/%s: no event %s", m->name, m->pmu, name);
	return -1;
}

static int metric_index(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nr_metrics; i++)
		if (!strcmp(m->metrics[i].name, name))
			return i;
	fail_msg("%s/%s: no metric %s", m->name, m->pmu, name);
	return -1;
}

/*
 * The common node a metric is shown as: its own name without "tma_",
 * but for the E-core front-end split, which perf names ifetch_* and which
 * is the fetch_* node of every other row.
 */
static const char *expected_node(const char *metric)
{
	static const struct {
		const char *metric, *node;
	} renamed[] = {
		{ "tma_ifetch_latency", "fetch_latency" },
		{ "tma_ifetch_bandwidth", "fetch_bandwidth" },
	};

	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (!strcmp(metric, renamed[i].metric))
			return renamed[i].node;
	return metric + strlen("tma_");
}

static bool in_list(const char *name, const char *const *list, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

static void init_or_fail(struct td_decoder *d, const struct pmu_model *m, int level,
			 const bool *opened, bool smt)
{
	char err[256];

	if (td_decoder_init(d, m, level, opened, smt, err, sizeof(err)))
		fail_msg("%s/%s level %d: %s", m->name, m->pmu, level, err);
}

/* 1. Every row well formed. */
static void check_row(const struct pmu_model *m)
{
	bool opened[MODEL_MAX_EVENTS];
	int gp[MODEL_MAX_GROUPS] = { 0 };
	int last_group = 0;
	bool has_correction = false;
	struct td_decoder d;

	assert_non_null(m->name);
	assert_string_equal(m->vendor, "GenuineIntel");
	assert_int_equal(m->family, 6);
	assert_true(m->cpu_models[0] != 0);
	assert_true(m->nr_events > 0 && m->nr_events <= MODEL_MAX_EVENTS);
	assert_true(m->nr_metrics > 0 && m->nr_metrics <= MODEL_MAX_METRICS);
	assert_true(m->gp_counters > 0);
	assert_non_null(m->source);
	/* Every row names the perf file it was checked against. */
	assert_non_null(strstr(m->source, "tools/perf/pmu-events/arch/x86/"));
	assert_non_null(strstr(m->source, m->name));
	/* Every file read tags its level-1 and level-2 nodes so. */
	assert_non_null(m->perf_groups);
	assert_string_equal(m->perf_groups, "TopdownL1,TopdownL2");
	assert_string_equal(m->verified, "not on hardware");
	assert_int_equal(!!m->core, strcmp(m->pmu, "cpu") != 0);
	for (int i = 0; i < m->nr_events; i++) {
		const struct model_event *e = &m->events[i];

		for (int j = 0; j < i; j++)
			if (!strcmp(m->events[j].name, e->name))
				fail_msg("%s/%s: event %s twice", m->name, m->pmu, e->name);
		assert_true(e->group >= 0 && e->group < MODEL_MAX_GROUPS);
		/* Groups in table order: a group's first event, its leader, comes first. */
		if (e->group < last_group)
			fail_msg("%s/%s: %s of group %d after group %d", m->name, m->pmu, e->name,
				 e->group, last_group);
		last_group = e->group;
		assert_true(e->sysfs || e->config);
		if (!(e->flags & MODEL_EV_FIXED))
			gp[e->group]++;
		/* Level 1 lives in group 0 or in groups without level-2 events. */
		if (e->flags & MODEL_EV_CORRECTION) {
			has_correction = true;
			assert_int_equal(e->group, 0);
		}
	}
	for (int g = 0; g < MODEL_MAX_GROUPS; g++)
		if (gp[g] > m->gp_counters)
			fail_msg("%s/%s: group %d needs %d generic counters of %d", m->name, m->pmu,
				 g, gp[g], m->gp_counters);
	/* PERF_METRICS rows: slots leads group 0. */
	if (m->requires) {
		assert_string_equal(m->events[0].sysfs, "slots");
		assert_int_equal(m->events[0].group, 0);
	}
	for (int i = 0; i < m->nr_metrics; i++) {
		const struct model_metric *mm = &m->metrics[i];

		assert_true(mm->level >= 0 && mm->level <= 2);
		if (mm->level == 0) {
			assert_null(mm->node);
			continue;
		}
		assert_non_null(mm->node);
		assert_string_equal(mm->node, expected_node(mm->name));
		/* Level 1 is always a common node; level 2 is one, or its own name. */
		if (mm->level == 1)
			assert_true(in_list(mm->node, td_l1_nodes, TD_NR_L1));
		else if (!in_list(mm->node, td_l2_nodes, TD_NR_L2))
			assert_string_equal(mm->node, mm->name + strlen("tma_"));
		if (mm->level == 2)
			assert_int_equal(m->metrics[metric_index(m, mm->parent)].level, 1);
		else
			assert_null(mm->parent);
	}

	/* Level 2, everything opened: every level-1 and level-2 metric computed. */
	init_or_fail(&d, m, 2, NULL, true);
	assert_false(d.plain);
	assert_string_equal(m->metrics[d.slots].name, m->slots);
	for (int i = 0; i < m->nr_metrics; i++)
		if (m->metrics[i].level && !d.computed[i])
			fail_msg("%s/%s: %s not computed at level 2", m->name, m->pmu,
				 m->metrics[i].name);

	/* Level 1, level-2 events not opened: every level-1 metric computed. */
	for (int i = 0; i < m->nr_events; i++)
		opened[i] = !(m->events[i].flags & MODEL_EV_L2);
	init_or_fail(&d, m, 1, opened, false);
	for (int i = 0; i < m->nr_metrics; i++) {
		if (m->metrics[i].level == 1 && !d.computed[i])
			fail_msg("%s/%s: %s not computed at level 1", m->name, m->pmu,
				 m->metrics[i].name);
		if (m->metrics[i].level == 2 && d.computed[i])
			fail_msg("%s/%s: %s computed at level 1", m->name, m->pmu,
				 m->metrics[i].name);
	}

	/* Correction events not opened: the plain forms compile, at both levels. */
	if (!has_correction)
		return;
	for (int i = 0; i < m->nr_events; i++)
		opened[i] = !(m->events[i].flags & MODEL_EV_CORRECTION);
	init_or_fail(&d, m, 2, opened, true);
	assert_true(d.plain);
	for (int i = 0; i < m->nr_metrics; i++)
		if (m->metrics[i].level && !d.computed[i])
			fail_msg("%s/%s: %s not computed in plain form", m->name, m->pmu,
				 m->metrics[i].name);
	for (int i = 0; i < m->nr_events; i++)
		opened[i] = !(m->events[i].flags & (MODEL_EV_CORRECTION | MODEL_EV_L2));
	init_or_fail(&d, m, 1, opened, true);
	assert_true(d.plain);
}

static void test_rows_well_formed(void **state)
{
	(void)state;
	/*
	 * 4 group A + 5 group B + 2 group C + 4 E-core + 3 E-core only + 3
	 * Skylake-class + 5 Haswell/Broadwell
	 */
	assert_int_equal(nr_intel_models, 26);
	for (int i = 0; i < nr_intel_models; i++)
		check_row(&intel_models[i]);
	/* One row per (directory, PMU). */
	for (int i = 0; i < nr_intel_models; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(intel_models[i].name, intel_models[j].name) &&
			    !strcmp(intel_models[i].pmu, intel_models[j].pmu))
				fail_msg("%s/%s twice", intel_models[i].name, intel_models[i].pmu);
}

/* 2. Recognition. */
static void expect_find(int model, int stepping, const char *pmu, const char *name)
{
	const struct pmu_model *m = model_find("GenuineIntel", 6, model, stepping, pmu);

	if (!m)
		fail_msg("model 0x%x stepping %d on %s: no row, expected %s", model, stepping, pmu,
			 name);
	assert_string_equal(m->name, name);
	assert_string_equal(m->pmu, pmu);
}

static void test_model_find(void **state)
{
	(void)state;
	expect_find(0x7e, 5, "cpu", "icelake");
	expect_find(0x7d, 0, "cpu", "icelake");
	expect_find(0x6a, 6, "cpu", "icelakex");
	expect_find(0x6c, 1, "cpu", "icelakex");
	expect_find(0x8c, 1, "cpu", "tigerlake");
	expect_find(0x8d, 1, "cpu", "tigerlake");
	expect_find(0xa7, 1, "cpu", "rocketlake");
	expect_find(0x8f, 8, "cpu", "sapphirerapids");
	expect_find(0xcf, 2, "cpu", "emeraldrapids");
	expect_find(0xad, 1, "cpu", "graniterapids");
	expect_find(0xae, 1, "cpu", "graniterapids");
	expect_find(0xbd, 1, "cpu_core", "lunarlake");
	expect_find(0xbd, 1, "cpu_atom", "lunarlake");
	expect_find(0xc6, 2, "cpu_core", "arrowlake");
	expect_find(0xc5, 2, "cpu_atom", "arrowlake");
	/* Raptor Lake is perf's alderlake directory. */
	expect_find(0xb7, 1, "cpu_core", "alderlake");
	expect_find(0xbf, 2, "cpu_atom", "alderlake");
	expect_find(0x97, 2, "cpu_core", "alderlake");
	expect_find(0xaa, 4, "cpu_core", "meteorlake");
	expect_find(0xaa, 4, "cpu_atom", "meteorlake");
	expect_find(0x9e, 10, "cpu", "skylake");
	expect_find(0x8e, 12, "cpu", "skylake");
	expect_find(0xa5, 3, "cpu", "skylake");
	/* 0x55: Skylake-SP steppings 0-4, Cascade Lake (and Cooper Lake) 5-15. */
	expect_find(0x55, 4, "cpu", "skylakex");
	expect_find(0x55, 0, "cpu", "skylakex");
	expect_find(0x55, 5, "cpu", "cascadelakex");
	expect_find(0x55, 7, "cpu", "cascadelakex");
	expect_find(0x55, 11, "cpu", "cascadelakex");

	/* Parts with E-cores only: PMU cpu (mapfile.csv v7.3). */
	expect_find(0xaf, 3, "cpu", "sierraforest");
	expect_find(0xb6, 1, "cpu", "grandridge");
	expect_find(0xbe, 0, "cpu", "alderlaken");
	assert_null(model_find("GenuineIntel", 6, 0xaf, 3, "cpu_atom"));
	assert_null(model_find("GenuineIntel", 6, 0xaf, 3, "cpu")->core);
	/* Haswell (3C|45|46), Haswell-EP 3F, Broadwell (3D|47), -EP 4F, -DE 56. */
	expect_find(0x3c, 3, "cpu", "haswell");
	expect_find(0x45, 1, "cpu", "haswell");
	expect_find(0x46, 1, "cpu", "haswell");
	expect_find(0x3f, 2, "cpu", "haswellx");
	expect_find(0x3d, 4, "cpu", "broadwell");
	expect_find(0x47, 1, "cpu", "broadwell");
	expect_find(0x4f, 1, "cpu", "broadwellx");
	expect_find(0x56, 3, "cpu", "broadwellde");

	/* The hybrid rows differ by PMU: P-core and E-core formulas. */
	assert_string_equal(model_find("GenuineIntel", 6, 0x9a, 3, "cpu_core")->core, "P-core");
	assert_string_equal(model_find("GenuineIntel", 6, 0x9a, 3, "cpu_atom")->core, "E-core");
	assert_string_equal(model_find("GenuineIntel", 6, 0x9a, 3, "cpu_atom")->slots,
			    "tma_info_core_slots");
	/* A hybrid model has no "cpu" PMU row, nor a non-hybrid one an atom row. */
	assert_null(model_find("GenuineIntel", 6, 0x9a, 3, "cpu"));
	assert_null(model_find("GenuineIntel", 6, 0x8f, 8, "cpu_atom"));
	/* Unknown: another model, family or vendor. */
	assert_null(model_find("GenuineIntel", 6, 0x3a, 9, "cpu")); /* Ivy Bridge */
	/* Panther Lake and Nova Lake: perf knows them, with no TopDown metrics (no row). */
	assert_null(model_find("GenuineIntel", 6, 0xcc, 1, "cpu_core"));
	assert_null(model_find("GenuineIntel", 18, 0x01, 1, "cpu_core"));
	assert_string_equal(model_find_no_topdown("GenuineIntel", 6, 0xcc)->name, "pantherlake");
	assert_string_equal(model_find_no_topdown("GenuineIntel", 6, 0xe5)->name, "pantherlake");
	assert_string_equal(model_find_no_topdown("GenuineIntel", 18, 0x03)->name, "novalake");
	assert_null(model_find_no_topdown("GenuineIntel", 6, 0x3c));
	assert_null(model_find_no_topdown("GenuineIntel", 18, 0x02));
	assert_null(model_find_no_topdown("AuthenticAMD", 6, 0xcc));
	assert_null(model_find("GenuineIntel", 6, 0x00, 0, "cpu"));
	assert_null(model_find("GenuineIntel", 15, 0x7e, 5, "cpu"));
	assert_null(model_find("AuthenticAMD", 6, 0x7e, 5, "cpu"));

	assert_string_equal(model_by_name("alderlake", "cpu_atom")->pmu, "cpu_atom");
	assert_string_equal(model_by_name("cascadelakex", NULL)->name, "cascadelakex");
}

/* 3. Decode vectors. */
#define EPS 1e-9

struct count {
	const char *event;
	double value;
};

struct decoded {
	const struct pmu_model *m;
	struct td_decoder d;
	double out[MODEL_MAX_METRICS];
};

/*
 * Decode @counts on row (@name, @pmu) at level 2, with every event opened
 * but those named in @closed (NULL-terminated, or NULL).
 */
static void decode(struct decoded *r, const char *name, const char *pmu, const struct count *counts,
		   int nr, const char *const *closed, bool smt)
{
	double values[MODEL_MAX_EVENTS];
	bool opened[MODEL_MAX_EVENTS];

	r->m = model_by_name(name, pmu);
	assert_non_null(r->m);
	for (int i = 0; i < r->m->nr_events; i++) {
		opened[i] = true;
		values[i] = NAN;
	}
	for (int i = 0; closed && closed[i]; i++)
		opened[event_index(r->m, closed[i])] = false;
	for (int i = 0; i < nr; i++)
		values[event_index(r->m, counts[i].event)] = counts[i].value;
	for (int i = 0; i < r->m->nr_events; i++)
		if (opened[i] && isnan(values[i]))
			fail_msg("%s/%s: test gives no count for %s", name, pmu,
				 r->m->events[i].name);
	init_or_fail(&r->d, r->m, 2, opened, smt);
	td_decoder_eval(&r->d, values, r->out);
}

static void expect(const struct decoded *r, const char *metric, double want)
{
	double got = r->out[metric_index(r->m, metric)];

	if (!(fabs(got - want) < EPS))
		fail_msg("%s/%s %s = %.15g, expected %.15g", r->m->name, r->m->pmu, metric, got,
			 want);
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/*
 * Group A, icelake. S = 1000; R 300, B 100, F 250, K 350 (T = 1000);
 * UOP_DROPPING D = 20; CLEARS_COUNT C = 10.
 */
static const struct count icl_counts[] = {
	{ "slots", 1000 },
	{ "topdown-retiring", 300 },
	{ "topdown-bad-spec", 100 },
	{ "topdown-fe-bound", 250 },
	{ "topdown-be-bound", 350 },
	{ "INT_MISC.UOP_DROPPING", 20 },
	{ "INT_MISC.CLEARS_COUNT", 10 },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 30 },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", 30 },
	{ "MACHINE_CLEARS.COUNT", 10 },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 200 },
	{ "EXE_ACTIVITY.BOUND_ON_STORES", 40 },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", 300 },
	{ "EXE_ACTIVITY.1_PORTS_UTIL", 100 },
	{ "EXE_ACTIVITY.2_PORTS_UTIL", 80 },
	{ "UOPS_RETIRED.SLOTS", 400 },
	{ "UOPS_ISSUED.ANY", 500 },
	{ "IDQ.MS_UOPS", 50 },
	{ "UOPS_DECODED.DEC0", 60 },
	{ "UOPS_DECODED.DEC0,cmask=1", 20 },
	{ "IDQ.MITE_UOPS", 200 },
};

static const char *const icl_models[] = { "icelake", "icelakex", "tigerlake", "rocketlake" };

static void test_decode_group_a(void **state)
{
	static const char *const no_dropping[] = { "INT_MISC.UOP_DROPPING", NULL };
	struct count c[N(icl_counts)];
	struct decoded r;

	(void)state;
	/* perf v7.3's text is the same on the four models of the group. */
	for (size_t i = 0; i < sizeof(icl_models) / sizeof(icl_models[0]); i++) {
		decode(&r, icl_models[i], "cpu", icl_counts, N(icl_counts), NULL, true);
		expect(&r, "tma_frontend_bound", 0.23);	      /* 250/1000 - 20/1000 */
		expect(&r, "tma_backend_bound", 0.40);	      /* 350/1000 + 5*10/1000 */
		expect(&r, "tma_retiring", 0.30);	      /* 300/1000 */
		expect(&r, "tma_bad_speculation", 0.07);      /* max(1 - (.23 + .40 + .30), 0) */
		expect(&r, "tma_fetch_latency", 0.13);	      /* (5*30 - 20)/1000 */
		expect(&r, "tma_fetch_bandwidth", 0.10);      /* max(0, .23 - .13) */
		expect(&r, "tma_branch_mispredicts", 0.0525); /* 30/(30+10) * .07 */
		expect(&r, "tma_machine_clears", 0.0175);     /* max(0, .07 - .0525) */
		/* (200+40) / (300 + (100 + .3*80) + 40) * .40 = 240/464 * .4 = 96/464 */
		expect(&r, "tma_memory_bound", 96.0 / 464.0);
		expect(&r, "tma_core_bound", 0.4 - 96.0 / 464.0); /* max(0, .4 - 96/464) */
		/*
		 * tma_microcode_sequencer = UOPS_RETIRED.SLOTS / UOPS_ISSUED.ANY *
		 * IDQ.MS_UOPS / tma_info_thread_slots = 400/500 * 50/1000 = .04;
		 * heavy: .04 + .3*(60-20)/200 = .10 (perf's text before v7.3,
		 * tma_retiring * slots / UOPS_ISSUED.ANY * ..., gave .03 and .09).
		 */
		expect(&r, "tma_microcode_sequencer", 0.04);
		expect(&r, "tma_heavy_operations", 0.10);
		expect(&r, "tma_light_operations", 0.20); /* max(0, .30 - .10) */
	}
	/* Microcode's share follows retired slots, not PERF_METRICS' retiring. */
	memcpy(c, icl_counts, sizeof(c));
	c[15].value = 250; /* UOPS_RETIRED.SLOTS: 250/500 * 50/1000 = .025 */
	decode(&r, "tigerlake", "cpu", c, N(c), NULL, true);
	expect(&r, "tma_microcode_sequencer", 0.025);
	expect(&r, "tma_heavy_operations", 0.085); /* .025 + .06 */
	expect(&r, "tma_light_operations", 0.215); /* max(0, .30 - .085) */

	/* Clamps: R 400, B 0 (T still 1000); Z 60. */
	memcpy(c, icl_counts, sizeof(c));
	c[1].value = 400; /* topdown-retiring */
	c[2].value = 0;	  /* topdown-bad-spec */
	c[7].value = 60;  /* CYCLES_0_UOPS_DELIV */
	decode(&r, "icelake", "cpu", c, N(c), NULL, true);
	expect(&r, "tma_bad_speculation", 0);  /* max(1 - (.23 + .40 + .40), 0) = max(-.03, 0) */
	expect(&r, "tma_fetch_latency", 0.28); /* (5*60 - 20)/1000 */
	expect(&r, "tma_fetch_bandwidth", 0);  /* max(0, .23 - .28) */
	expect(&r, "tma_machine_clears", 0);   /* max(0, 0 - 0) */

	/* The backend's clears term: INT_MISC.CLEARS_COUNT by name on every model. */
	decode(&r, "icelake", "cpu", icl_counts, N(icl_counts), NULL, true);
	assert_non_null(strstr(r.m->metrics[metric_index(r.m, "tma_backend_bound")].expr,
			       "+ 5 * INT_MISC.CLEARS_COUNT / tma_info_thread_slots"));
	memcpy(c, icl_counts, sizeof(c));
	c[6].value = 30; /* CLEARS_COUNT 30: 350/1000 + 5*30/1000 = .50 */
	decode(&r, "icelakex", "cpu", c, N(c), NULL, true);
	expect(&r, "tma_backend_bound", 0.50);
	expect(&r, "tma_bad_speculation", 0);		   /* max(1 - (.23 + .50 + .30), 0) */
	expect(&r, "tma_core_bound", 0.5 - 120.0 / 464.0); /* 240/464 * .5 = 120/464 */

	/* UOP_DROPPING not opened: every metric in its plain form. */
	decode(&r, "icelake", "cpu", icl_counts, N(icl_counts), no_dropping, true);
	assert_true(r.d.plain);
	expect(&r, "tma_frontend_bound", 0.25); /* 250/1000 */
	expect(&r, "tma_backend_bound", 0.35);	/* 350/1000: no CLEARS term either */
	expect(&r, "tma_retiring", 0.30);
	expect(&r, "tma_bad_speculation", 0.10); /* max(1 - .90, 0) */
	expect(&r, "tma_fetch_latency", 0.15);	 /* 5*30/1000 */
	expect(&r, "tma_fetch_bandwidth", 0.10); /* max(0, .25 - .15) */
}

/*
 * Group B. S = 1200; R 360, B 120, F 300, K 420 (T = 1200); heavy 60,
 * mispredict 90, fetch-lat 180, mem-bound 240; UOP_DROPPING 24.
 */
static const struct count glc_counts[] = {
	{ "slots", 1200 },
	{ "topdown-retiring", 360 },
	{ "topdown-bad-spec", 120 },
	{ "topdown-fe-bound", 300 },
	{ "topdown-be-bound", 420 },
	{ "topdown-heavy-ops", 60 },
	{ "topdown-br-mispredict", 90 },
	{ "topdown-fetch-lat", 180 },
	{ "topdown-mem-bound", 240 },
	{ "INT_MISC.UOP_DROPPING", 24 },
};

static void check_glc(const char *name, const char *pmu)
{
	static const char *const no_dropping[] = { "INT_MISC.UOP_DROPPING", NULL };
	struct count c[N(glc_counts)];
	struct decoded r;

	decode(&r, name, pmu, glc_counts, N(glc_counts), NULL, true);
	expect(&r, "tma_frontend_bound", 0.23);	     /* 300/1200 - 24/1200 = .25 - .02 */
	expect(&r, "tma_backend_bound", 0.35);	     /* 420/1200 */
	expect(&r, "tma_retiring", 0.30);	     /* 360/1200 */
	expect(&r, "tma_bad_speculation", 0.12);     /* max(1 - (.23 + .35 + .30), 0) */
	expect(&r, "tma_heavy_operations", 0.05);    /* 60/1200 */
	expect(&r, "tma_light_operations", 0.25);    /* max(0, .30 - .05) */
	expect(&r, "tma_branch_mispredicts", 0.075); /* 90/1200 */
	expect(&r, "tma_machine_clears", 0.045);     /* max(0, .12 - .075) */
	expect(&r, "tma_fetch_latency", 0.13);	     /* 180/1200 - .02 */
	expect(&r, "tma_fetch_bandwidth", 0.10);     /* max(0, .23 - .13) */
	expect(&r, "tma_memory_bound", 0.20);	     /* 240/1200 */
	expect(&r, "tma_core_bound", 0.15);	     /* max(0, .35 - .20) */

	/* Clamp: mispredict 180 > bad speculation. */
	memcpy(c, glc_counts, sizeof(c));
	c[6].value = 180;
	decode(&r, name, pmu, c, N(c), NULL, true);
	expect(&r, "tma_branch_mispredicts", 0.15); /* 180/1200 */
	expect(&r, "tma_machine_clears", 0);	    /* max(0, .12 - .15) */

	/* Plain: dropped uops stay in frontend and fetch latency. */
	decode(&r, name, pmu, glc_counts, N(glc_counts), no_dropping, true);
	assert_true(r.d.plain);
	expect(&r, "tma_frontend_bound", 0.25);	 /* 300/1200 */
	expect(&r, "tma_bad_speculation", 0.10); /* max(1 - (.25 + .35 + .30), 0) */
	expect(&r, "tma_fetch_latency", 0.15);	 /* 180/1200 */
	expect(&r, "tma_fetch_bandwidth", 0.10); /* max(0, .25 - .15) */
	expect(&r, "tma_machine_clears", 0.025); /* max(0, .10 - .075) */
}

static void test_decode_group_b(void **state)
{
	(void)state;
	check_glc("sapphirerapids", "cpu");
	check_glc("alderlake", "cpu_core");
}

/* Group C, lunarlake P-core. S = 800; R 400, B 80, F 160, K 160 (T = 800). */
static void test_decode_group_c(void **state)
{
	struct count c[] = {
		{ "slots", 800 },
		{ "topdown-retiring", 400 },
		{ "topdown-bad-spec", 80 },
		{ "topdown-fe-bound", 160 },
		{ "topdown-be-bound", 160 },
		{ "topdown-heavy-ops", 40 },
		{ "topdown-br-mispredict", 60 },
		{ "topdown-fetch-lat", 100 },
		{ "topdown-mem-bound", 120 },
	};
	struct decoded r;

	(void)state;
	decode(&r, "lunarlake", "cpu_core", c, N(c), NULL, true);
	assert_false(r.d.plain);
	expect(&r, "tma_retiring", 0.5);	     /* 400/800 */
	expect(&r, "tma_bad_speculation", 0.1);	     /* 80/800, the field itself */
	expect(&r, "tma_frontend_bound", 0.2);	     /* 160/800 */
	expect(&r, "tma_backend_bound", 0.2);	     /* 160/800 */
	expect(&r, "tma_heavy_operations", 0.05);    /* 40/800 */
	expect(&r, "tma_light_operations", 0.45);    /* max(0, .5 - .05) */
	expect(&r, "tma_branch_mispredicts", 0.075); /* 60/800 */
	expect(&r, "tma_machine_clears", 0.025);     /* max(0, .1 - .075) */
	expect(&r, "tma_fetch_latency", 0.125);	     /* 100/800 */
	expect(&r, "tma_fetch_bandwidth", 0.075);    /* max(0, .2 - .125) */
	expect(&r, "tma_memory_bound", 0.15);	     /* 120/800 */
	expect(&r, "tma_core_bound", 0.05);	     /* max(0, .2 - .15) */

	/*
	 * Every Lion Cove fraction is over the four fields' sum, not slots:
	 * with S = 1000 and T still 800 every node is unchanged: 400/800 =
	 * .5, ... (older perf text added "+ 0 * slots": the same values).
	 */
	c[0].value = 1000;
	decode(&r, "lunarlake", "cpu_core", c, N(c), NULL, true);
	expect(&r, "tma_info_thread_slots", 1000);
	expect(&r, "tma_retiring", 0.5);	     /* 400/800 */
	expect(&r, "tma_bad_speculation", 0.1);	     /* 80/800 */
	expect(&r, "tma_frontend_bound", 0.2);	     /* 160/800 */
	expect(&r, "tma_backend_bound", 0.2);	     /* 160/800 */
	expect(&r, "tma_heavy_operations", 0.05);    /* 40/800 */
	expect(&r, "tma_branch_mispredicts", 0.075); /* 60/800 */
	expect(&r, "tma_fetch_latency", 0.125);	     /* 100/800 */
	expect(&r, "tma_memory_bound", 0.15);	     /* 120/800 */
	c[0].value = 800;

	c[8].value = 200; /* mem-bound 200/800 = .25 > backend .2 */
	decode(&r, "arrowlake", "cpu_core", c, N(c), NULL, true);
	expect(&r, "tma_memory_bound", 0.25);
	expect(&r, "tma_core_bound", 0); /* max(0, .2 - .25) */
}

/*
 * perf v7.3's text for the Lion Cove rows: each PERF_METRICS fraction is
 * the field over the four fields' sum and nothing more (lnl-metrics.json
 * and arl-metrics.json; older text added "+ 0 * slots").
 */
static void test_lion_cove_text(void **state)
{
	static const char *const names[] = { "lunarlake", "arrowlake" };
	static const char sum[] = " / (topdown\\-fe\\-bound + topdown\\-bad\\-spec + "
				  "topdown\\-retiring + topdown\\-be\\-bound)";

	(void)state;
	for (size_t n = 0; n < N(names); n++) {
		const struct pmu_model *m = model_by_name(names[n], "cpu_core");
		int fractions = 0;

		assert_non_null(m);
		for (int i = 0; i < m->nr_metrics; i++) {
			const char *e = m->metrics[i].expr;
			size_t len = strlen(e), tail = strlen(sum);

			if (!strstr(e, "topdown\\-"))
				continue;
			fractions++;
			/* "topdown\\-<field>" and the sum: no other term. */
			if (len < tail || strcmp(e + len - tail, sum) ||
			    strspn(e, "topdown\\-abcdefghijklmnopqrstuvwxyz") != len - tail)
				fail_msg("%s: %s is not one field over the sum: %s", m->name,
					 m->metrics[i].name, e);
		}
		/* fe, be, retiring, bad spec, fetch lat, mispredict, mem bound, heavy */
		assert_int_equal(fractions, 8);
	}
}

/*
 * E-cores: perf's tma_ifetch_latency / tma_ifetch_bandwidth are the
 * fetch_latency / fetch_bandwidth nodes; tma_resource_bound is a node of
 * its own, not one of the common eight.
 */
static void test_ecore_nodes(void **state)
{
	(void)state;
	for (int i = 0; i < nr_intel_models; i++) {
		const struct pmu_model *m = &intel_models[i];

		if (strcmp(m->pmu, "cpu_atom"))
			continue;
		assert_string_equal(m->metrics[metric_index(m, "tma_ifetch_latency")].node,
				    "fetch_latency");
		assert_string_equal(m->metrics[metric_index(m, "tma_ifetch_bandwidth")].node,
				    "fetch_bandwidth");
		assert_string_equal(m->metrics[metric_index(m, "tma_resource_bound")].node,
				    "resource_bound");
		assert_false(in_list("resource_bound", td_l2_nodes, TD_NR_L2));
	}
}

/* E-cores: cycles 1000, so width 5 / 6 / 8 gives 5000 / 6000 / 8000 slots. */
static void test_decode_gracemont(void **state)
{
	static const struct count c[] = {
		{ "CPU_CLK_UNHALTED.CORE", 1000 },
		{ "TOPDOWN_FE_BOUND.ALL", 1000 },
		{ "TOPDOWN_BE_BOUND.ALL", 1500 },
		{ "TOPDOWN_RETIRING.ALL", 2000 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 600 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 400 },
		{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", 300 },
		{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 200 },
		{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", 500 },
	};
	/* ADL's E-cores, and Alder Lake-N's on PMU cpu (adln-metrics.json, the same text). */
	static const char *const rows[][2] = { { "alderlake", "cpu_atom" },
					       { "alderlaken", "cpu" } };
	struct decoded r;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		decode(&r, rows[i][0], rows[i][1], c, N(c), NULL, false);
		expect(&r, "tma_frontend_bound", 0.2); /* 1000/5000 */
		expect(&r, "tma_backend_bound", 0.3);  /* 1500/5000 */
		expect(&r, "tma_retiring", 0.4);       /* 2000/5000 */
		/* the remainder: (5000 - (1000 + 1500 + 2000)) / 5000 */
		expect(&r, "tma_bad_speculation", 0.1);
		expect(&r, "tma_ifetch_latency", 0.12);	    /* 600/5000 */
		expect(&r, "tma_ifetch_bandwidth", 0.08);   /* 400/5000 */
		expect(&r, "tma_branch_mispredicts", 0.06); /* 300/5000 */
		expect(&r, "tma_machine_clears", 0.04);	    /* 200/5000 */
		expect(&r, "tma_core_bound", 0.1);	    /* 500/5000 */
		expect(&r, "tma_resource_bound", 0.2);	    /* .3 - .1 */
	}
}

static void test_decode_crestmont(void **state)
{
	static const struct count c[] = {
		{ "CPU_CLK_UNHALTED.CORE", 1000 },
		{ "TOPDOWN_FE_BOUND.ALL_P", 1200 },
		{ "TOPDOWN_BE_BOUND.ALL_P", 1800 },
		{ "TOPDOWN_RETIRING.ALL_P", 2400 },
		{ "TOPDOWN_BAD_SPECULATION.ALL_P", 600 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 900 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 300 },
		{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", 450 },
		{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 150 },
		{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", 2100 },
	};
	/* MTL's E-cores; Sierra Forest and Grand Ridge, Crestmont only (srf/grr-metrics.json). */
	static const char *const rows[][2] = {
		{ "meteorlake", "cpu_atom" },
		{ "sierraforest", "cpu" },
		{ "grandridge", "cpu" },
	};
	struct decoded r;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		decode(&r, rows[i][0], rows[i][1], c, N(c), NULL, false);
		expect(&r, "tma_frontend_bound", 0.2);	     /* 1200/6000 */
		expect(&r, "tma_backend_bound", 0.3);	     /* 1800/6000 */
		expect(&r, "tma_retiring", 0.4);	     /* 2400/6000 */
		expect(&r, "tma_bad_speculation", 0.1);	     /* 600/6000, counted */
		expect(&r, "tma_ifetch_latency", 0.15);	     /* 900/6000 */
		expect(&r, "tma_ifetch_bandwidth", 0.05);    /* 300/6000 */
		expect(&r, "tma_branch_mispredicts", 0.075); /* 450/6000 */
		expect(&r, "tma_machine_clears", 0.025);     /* 150/6000 */
		expect(&r, "tma_core_bound", 0.35);	     /* 2100/6000 */
		/* no clamp in perf's formula: .3 - .35 */
		expect(&r, "tma_resource_bound", -0.05);
	}
}

static void test_decode_skymont(void **state)
{
	static const struct count c[] = {
		{ "CPU_CLK_UNHALTED.CORE", 1000 },
		{ "TOPDOWN_FE_BOUND.ALL", 1600 },
		{ "TOPDOWN_BE_BOUND.ALL_P", 2400 },
		{ "TOPDOWN_RETIRING.ALL", 3200 },
		{ "TOPDOWN_BAD_SPECULATION.ALL_P", 800 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 1000 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 600 },
		{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", 500 },
		{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 300 },
		{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", 800 },
	};
	struct decoded r;

	(void)state;
	decode(&r, "lunarlake", "cpu_atom", c, N(c), NULL, false);
	expect(&r, "tma_frontend_bound", 0.2);	      /* 1600/8000 */
	expect(&r, "tma_backend_bound", 0.3);	      /* 2400/8000 */
	expect(&r, "tma_retiring", 0.4);	      /* 3200/8000 */
	expect(&r, "tma_bad_speculation", 0.1);	      /* 800/8000 */
	expect(&r, "tma_ifetch_latency", 0.125);      /* 1000/8000 */
	expect(&r, "tma_ifetch_bandwidth", 0.075);    /* 600/8000 */
	expect(&r, "tma_branch_mispredicts", 0.0625); /* 500/8000 */
	expect(&r, "tma_machine_clears", 0.0375);     /* 300/8000 */
	expect(&r, "tma_core_bound", 0.1);	      /* 800/8000 */
	expect(&r, "tma_resource_bound", 0.2);	      /* .3 - .1 */
	/* arrowlake's E-core shares Skymont's arrays. */
	decode(&r, "arrowlake", "cpu_atom", c, N(c), NULL, false);
	expect(&r, "tma_bad_speculation", 0.1);
}

/*
 * Skylake-class. THREAD 1000, ONE_THREAD_ACTIVE 200, REF_XCLK 400: not
 * #core_wide, so core clocks = 1000/2 * (1 + 200/400) = 750, slots 3000.
 * IDQ not delivered 600, issued 1500, retire slots 1200, recovery 50,
 * recovery _ANY 80; macro-fused 150, instructions 1000.
 */
static const struct count skl_counts[] = {
	{ "CPU_CLK_UNHALTED.THREAD", 1000 },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", 600 },
	{ "UOPS_ISSUED.ANY", 1500 },
	{ "UOPS_RETIRED.RETIRE_SLOTS", 1200 },
	{ "INT_MISC.RECOVERY_CYCLES", 50 },
	{ "INT_MISC.RECOVERY_CYCLES_ANY", 80 },
	{ "CPU_CLK_UNHALTED.THREAD_ANY", 1900 },
	{ "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", 200 },
	{ "CPU_CLK_UNHALTED.REF_XCLK", 400 },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 90 },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", 30 },
	{ "MACHINE_CLEARS.COUNT", 10 },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 200 },
	{ "EXE_ACTIVITY.BOUND_ON_STORES", 40 },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", 300 },
	{ "EXE_ACTIVITY.1_PORTS_UTIL", 100 },
	{ "EXE_ACTIVITY.2_PORTS_UTIL", 80 },
	{ "UOPS_RETIRED.MACRO_FUSED", 150 },
	{ "INST_RETIRED.ANY", 1000 },
};

static void test_decode_skylake(void **state)
{
	struct count c[N(skl_counts)];
	struct decoded r;
	double be;

	(void)state;
	/* SMT on: recovery = 80/2 = 40 (THREAD_ANY unused: #core_wide is 0). */
	decode(&r, "skylake", "cpu", skl_counts, N(skl_counts), NULL, true);
	expect(&r, "tma_info_thread_slots", 3000);
	expect(&r, "tma_frontend_bound", 0.2); /* 600/3000 */
	/* (1500 - 1200 + 4*40)/3000 = 460/3000 */
	expect(&r, "tma_bad_speculation", 460.0 / 3000.0);
	expect(&r, "tma_retiring", 0.4); /* 1200/3000 */
	/* 1 - .2 - (1500 + 160)/3000 */
	be = 1 - 0.2 - 1660.0 / 3000.0;
	expect(&r, "tma_backend_bound", be);
	expect(&r, "tma_fetch_latency", 0.12);	 /* 4*90/3000 */
	expect(&r, "tma_fetch_bandwidth", 0.08); /* .2 - .12 */
	/* 30/(30+10) * 460/3000 */
	expect(&r, "tma_branch_mispredicts", 0.75 * 460.0 / 3000.0);
	expect(&r, "tma_machine_clears", 0.25 * 460.0 / 3000.0);
	/* (200+40) / (300 + (100 + .4*80) + 40) * be = 240/472 * be */
	expect(&r, "tma_memory_bound", 240.0 / 472.0 * be);
	expect(&r, "tma_core_bound", be - 240.0 / 472.0 * be);
	/* perf's text (skl/skx/clx-metrics.json): (1200 + 150 - 1000)/3000; .4 less that */
	expect(&r, "tma_heavy_operations", 350.0 / 3000.0);
	expect(&r, "tma_light_operations", 0.4 - 350.0 / 3000.0);

	/* SMT off: recovery = 50; slots still 3000. */
	decode(&r, "skylakex", "cpu", skl_counts, N(skl_counts), NULL, false);
	expect(&r, "tma_bad_speculation", 500.0 / 3000.0); /* (300 + 200)/3000 */
	expect(&r, "tma_backend_bound", 1 - 0.2 - 1700.0 / 3000.0);
	expect(&r, "tma_heavy_operations", 350.0 / 3000.0);

	/* No clamps before PERF_METRICS: fetch latency over frontend goes negative. */
	memcpy(c, skl_counts, sizeof(c));
	c[9].value = 200; /* 4*200/3000 = .26667 */
	decode(&r, "cascadelakex", "cpu", c, N(c), NULL, true);
	expect(&r, "tma_fetch_bandwidth", 0.2 - 800.0 / 3000.0);
	expect(&r, "tma_light_operations", 850.0 / 3000.0);
}

#define NR_HSW_FROM_SKL 12 /* skl_counts up to MACHINE_CLEARS.COUNT */

/*
 * Haswell and Broadwell's memory_bound and core_bound, perf v7.3's text
 * (hsw/hsx-metrics.json, bdw/bdx/bdwde-metrics.json): the level-1 and
 * shared level-2 counts above (slots 3000, backend 740/3000 with SMT on,
 * 700/3000 off; fetch latency .12 > .1, so RS_EVENTS.EMPTY_CYCLES counts),
 * stalls 300 (Haswell's STALLS_LDM_PENDING, Broadwell's STALLS_MEM_ANY),
 * store-buffer stalls 50, cycles without execution 400 (CYCLES_NO_EXECUTE,
 * STALLS_TOTAL), cycles executing 1, 2, 3 uops or more 900, 600, 350, RS
 * empty 60, instructions 1500 (IPC 1.5: the 2-uop cycles are taken).
 */
enum {
	HSW_STALLS = NR_HSW_FROM_SKL + 1,
	HSW_NO_EXEC,
	HSW_GE1,
	HSW_GE2,
	HSW_GE3,
	HSW_INST,
	HSW_SB,
	HSW_RS,
	NR_HSW_MEM
};

static void hsw_memory_counts(struct count *c, bool broadwell)
{
	static const char *const names[2][5] = {
		{ "CYCLE_ACTIVITY.STALLS_LDM_PENDING", "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE",
		  "UOPS_EXECUTED.CORE,cmask=1", "UOPS_EXECUTED.CORE,cmask=2",
		  "UOPS_EXECUTED.CORE,cmask=3" },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY.STALLS_TOTAL",
		  "UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", "UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC",
		  "UOPS_EXECUTED.CYCLES_GE_3_UOPS_EXEC" },
	};
	static const double values[5] = { 300, 400, 900, 600, 350 };

	memcpy(c, skl_counts, NR_HSW_FROM_SKL * sizeof(c[0]));
	c[NR_HSW_FROM_SKL] = (struct count){ "IDQ.MS_UOPS", 150 };
	for (int i = 0; i < 5; i++)
		c[HSW_STALLS + i] = (struct count){ names[broadwell][i], values[i] };
	c[HSW_INST] = (struct count){ "INST_RETIRED.ANY", 1500 };
	c[HSW_SB] = (struct count){ "RESOURCE_STALLS.SB", 50 };
	c[HSW_RS] = (struct count){ "RS_EVENTS.EMPTY_CYCLES", 60 };
}

/*
 * Haswell and Broadwell, perf v7.3's text (hsw/bdw-metrics.json): the
 * Skylake vector's level-1 and shared level-2 counts (slots 3000), backend
 * the remainder, and the heavy/light split: IDQ.MS_UOPS 150.
 */
static void test_decode_haswell(void **state)
{
	static const char *const rows[] = { "haswell", "haswellx", "broadwell", "broadwellx",
					    "broadwellde" };
	struct count c[NR_HSW_MEM];
	struct decoded r;

	(void)state;
	assert_string_equal(skl_counts[NR_HSW_FROM_SKL - 1].event, "MACHINE_CLEARS.COUNT");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		hsw_memory_counts(c, !strncmp(rows[i], "broadwell", 9));
		/* SMT on: recovery 80/2 = 40. */
		decode(&r, rows[i], "cpu", c, N(c), NULL, true);
		expect(&r, "tma_info_thread_slots", 3000);
		expect(&r, "tma_frontend_bound", 0.2); /* 600/3000 */
		/* (1500 - 1200 + 4*40)/3000 */
		expect(&r, "tma_bad_speculation", 460.0 / 3000.0);
		expect(&r, "tma_retiring", 0.4); /* 1200/3000 */
		/* 1 - (.2 + 460/3000 + .4) = 740/3000 */
		expect(&r, "tma_backend_bound", 740.0 / 3000.0);
		/* 4 * min(1000, 90)/3000 on Haswell, 4 * 90/3000 on Broadwell */
		expect(&r, "tma_fetch_latency", 0.12);
		expect(&r, "tma_fetch_bandwidth", 0.08);
		expect(&r, "tma_branch_mispredicts", 0.75 * 460.0 / 3000.0);
		expect(&r, "tma_machine_clears", 0.25 * 460.0 / 3000.0);
		/* 1200/1500 * 150/3000 */
		expect(&r, "tma_heavy_operations", 0.04);
		expect(&r, "tma_light_operations", 0.36);
		/* SMT off: recovery 50, (300 + 200)/3000; backend 1 - (.2 + 500/3000 + .4). */
		decode(&r, rows[i], "cpu", c, N(c), NULL, false);
		expect(&r, "tma_bad_speculation", 500.0 / 3000.0);
		expect(&r, "tma_backend_bound", 700.0 / 3000.0);
	}

	/* More cycles without a uop than clocks (multiplexed): Haswell takes the clocks. */
	hsw_memory_counts(c, false);
	c[9].value = 1200;
	decode(&r, "haswellx", "cpu", c, N(c), NULL, true);
	expect(&r, "tma_fetch_latency", 4000.0 / 3000.0); /* 4 * min(1000, 1200) */
	expect(&r, "tma_fetch_bandwidth", 0.2 - 4000.0 / 3000.0);
	hsw_memory_counts(c, true);
	c[9].value = 1200;
	decode(&r, "broadwellx", "cpu", c, N(c), NULL, true);
	expect(&r, "tma_fetch_latency", 4800.0 / 3000.0); /* 4 * 1200 */
}

static void test_decode_haswell_memory(void **state)
{
	static const char *const rows[] = { "haswell", "haswellx", "broadwell", "broadwellx",
					    "broadwellde" };
	/*
	 * Each case from hsw_memory_counts() with these counts changed, and
	 * memory_bound's fraction of the backend: Haswell's (min() on the
	 * stalls, the core's uop cycles halved with SMT on), Broadwell's.
	 */
	static const struct {
		bool smt;
		double inst, no_uop, stalls, no_exec; /* no_uop: ..CYCLES_0_UOPS_DELIV.CORE */
		double hsw_num, hsw_den, bdw_num, bdw_den;
	} cases[] = {
		/*
		 * SMT on, IPC 1.5: 2-uop cycles; fetch latency .12 > .1: RS term.
		 * Haswell (min(1000, 300) + 50) / (min(1000, 400) + (900 - 600)/2
		 * - 60 + 50); Broadwell (300 + 50) / (400 + 900 - 600 - 60 + 50).
		 */
		{ true, 1500, 90, 300, 400, 350, 540, 350, 690 },
		/* SMT off: Haswell as Broadwell, 350 / (400 + 300 - 60 + 50). */
		{ false, 1500, 90, 300, 400, 350, 690, 350, 690 },
		/* IPC 2 > 1.8: 3-uop cycles, 400 + 550/2 - 10; 400 + 550 - 10. */
		{ true, 2000, 90, 300, 400, 350, 665, 350, 940 },
		/* Fetch latency 4 * 60/3000 = .08: no RS term, 400 + 275 + 50; 400 + 550 + 50. */
		{ true, 2000, 60, 300, 400, 350, 725, 350, 1000 },
		/*
		 * Stalls above the clocks (multiplexed), SMT off: Haswell's min()
		 * takes 1000 for both, 1050 / (1000 + 550 + 50); Broadwell
		 * 1250 / (1100 + 550 + 50).
		 */
		{ false, 2000, 60, 1200, 1100, 1050, 1600, 1250, 1700 },
	};
	struct count c[NR_HSW_MEM];
	struct decoded r;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		bool bdw = !strncmp(rows[i], "broadwell", 9);

		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			double be = (cases[k].smt ? 740.0 : 700.0) / 3000.0;
			double mem = bdw ? cases[k].bdw_num / cases[k].bdw_den
					 : cases[k].hsw_num / cases[k].hsw_den;

			hsw_memory_counts(c, bdw);
			c[HSW_INST].value = cases[k].inst;
			c[9].value = cases[k].no_uop;
			c[HSW_STALLS].value = cases[k].stalls;
			c[HSW_NO_EXEC].value = cases[k].no_exec;
			decode(&r, rows[i], "cpu", c, N(c), NULL, cases[k].smt);
			expect(&r, "tma_memory_bound", mem * be);
			expect(&r, "tma_core_bound", be - mem * be);
		}
	}
}

/*
 * arm64: rows by MIDR (mapfile.csv's, any variant and revision) whatever
 * the core PMU's name; cores with STALL_SLOT events but no perf TopDown
 * formulas are known, with no row.
 */
static void test_model_find_midr(void **state)
{
	static const struct {
		unsigned long long midr;
		const char *name;
	} want[] = {
		{ 0x410fd490, "neoverse-n2-v2" },	  /* N2 r0p0 */
		{ 0x00000000410fd493, "neoverse-n2-v2" }, /* N2 r0p3 */
		{ 0x410fd4f1, "neoverse-n2-v2" },	  /* V2 r0p1 */
		{ 0x411fd401, "neoverse-v1" },		  /* V1 r1p1 */
		{ 0x410fd8e0, "neoverse-n3" },
		{ 0x412fd831, "neoverse-v3" },
		{ 0x4e0f0100, "t410" },
		{ 0x481fd011, "hip08" },
		{ 0xc00fac30, "ampereone" },
		{ 0xc01fac41, "ampereonex" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct pmu_model *m = model_find_midr(want[i].midr);

		if (!m || strcmp(m->name, want[i].name))
			fail_msg("MIDR 0x%llx: %s, expected %s", want[i].midr, m ? m->name : "none",
				 want[i].name);
		assert_string_equal(m->pmu, "armv8_pmuv3_0");
		assert_string_equal(model_by_name(want[i].name, "armv8_pmuv3_0")->name, m->name);
	}
	assert_null(model_find_midr(0x410fd0c0)); /* Neoverse N1: no STALL_SLOT, no row */
	assert_null(model_find_midr(0x420fd490)); /* another implementer's part 0xd49 */
	assert_null(model_find_midr(0));
	/* The x86 lookups never see an arm64 row, nor the MIDR lookup an x86 one. */
	assert_null(model_find("", 0, 0, 0, "armv8_pmuv3_0"));
	assert_string_equal(model_find_no_topdown_midr(0x411fd410)->name, "cortex-a78");
	assert_string_equal(model_find_no_topdown_midr(0x410fd4c0)->name, "cortex-x1");
	assert_string_equal(model_find_no_topdown_midr(0x460f0030)->name, "monaka");
	assert_null(model_find_no_topdown_midr(0x410fd490)); /* N2 has a row */
	assert_null(model_find_no_topdown_midr(0x410fd050)); /* Cortex-A55: no STALL_SLOT */
	assert_null(model_find_no_topdown("", 0, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_find_midr),
		cmocka_unit_test(test_rows_well_formed), cmocka_unit_test(test_model_find),
		cmocka_unit_test(test_decode_group_a),	 cmocka_unit_test(test_decode_group_b),
		cmocka_unit_test(test_decode_group_c),	 cmocka_unit_test(test_decode_gracemont),
		cmocka_unit_test(test_decode_crestmont), cmocka_unit_test(test_decode_skymont),
		cmocka_unit_test(test_decode_skylake),	 cmocka_unit_test(test_decode_haswell),
		cmocka_unit_test(test_decode_haswell_memory),
		cmocka_unit_test(test_lion_cove_text),	 cmocka_unit_test(test_ecore_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
