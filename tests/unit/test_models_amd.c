// SPDX-License-Identifier: GPL-2.0
/*
 * The AMD rows of the PMU model table (user/model/models_amd.c): every row
 * well formed and compiling at levels 1 and 2, level 1 without the
 * optional smt_contention event; the raw configs against EventSelect and
 * UMask packed by hand; model_find() against perf's mapfile.csv ranges;
 * and decode vectors for both rows at both levels, including d_ratio's
 * zero denominators, the expected values worked out by hand from perf's
 * formula text in the comments beside them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "model/decoder.h"

#define EPS 1e-12

static const struct pmu_model *row(const char *name)
{
	const struct pmu_model *m = model_by_name(name, "cpu");

	if (!m)
		fail_msg("no row %s", name);
	return m;
}

static int event_index(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nr_events; i++)
		if (!strcmp(m->events[i].name, name))
			return i;
	fail_msg("%s: no event %s", m->name, name);
	return -1;
}

static int metric_index(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nr_metrics; i++)
		if (!strcmp(m->metrics[i].name, name))
			return i;
	fail_msg("%s: no metric %s", m->name, name);
	return -1;
}

static void init_or_fail(struct td_decoder *d, const struct pmu_model *m, int level,
			 const bool *opened, bool smt)
{
	char err[256];

	if (td_decoder_init(d, m, level, opened, smt, err, sizeof(err)))
		fail_msg("%s level %d: %s", m->name, level, err);
}

/* 1. Every row well formed. */
static void check_row(const struct pmu_model *m)
{
	bool seen_group[MODEL_MAX_GROUPS] = { false };
	int per_group[MODEL_MAX_GROUPS] = { 0 };
	int required[MODEL_MAX_GROUPS] = { 0 };
	bool opened[MODEL_MAX_EVENTS];
	double counts[MODEL_MAX_EVENTS], out[MODEL_MAX_METRICS];
	struct td_decoder d;
	int smt_event, smt_metric, last_group = 0;

	assert_string_equal(m->vendor, "AuthenticAMD");
	assert_string_equal(m->pmu, "cpu");
	assert_null(m->requires);
	assert_null(m->core);
	assert_int_equal(m->gp_counters, 6);
	assert_string_equal(m->slots, "total_dispatch_slots");
	assert_true(m->smt_approximate);
	assert_non_null(m->source);
	assert_string_equal(m->verified, "not on hardware");
	assert_true(m->cpu_model_ranges[0].last != 0);
	assert_true(m->nr_events > 0 && m->nr_events <= MODEL_MAX_EVENTS);
	assert_true(m->nr_metrics > 0 && m->nr_metrics <= MODEL_MAX_METRICS);

	/* Group 0 is level 1 and is led by the cycles event. */
	assert_string_equal(m->events[0].name, "ls_not_halted_cyc");
	assert_int_equal(m->events[0].group, 0);
	for (int i = 0; i < m->nr_events; i++) {
		const struct model_event *e = &m->events[i];

		assert_true(e->group >= 0 && e->group < MODEL_MAX_GROUPS);
		/* Groups in table order, so each one's first event, its leader, comes first. */
		assert_true(e->group >= last_group);
		last_group = e->group;
		/* Level 1 in group 0 only; level 2 never beside it. */
		assert_int_equal(!!(e->flags & MODEL_EV_L2), e->group > 0);
		/* AMD: raw configs on generic counters, nothing from sysfs. */
		assert_null(e->sysfs);
		assert_true(e->config != 0);
		assert_false(e->flags & (MODEL_EV_FIXED | MODEL_EV_CORRECTION));
		seen_group[e->group] = true;
		per_group[e->group]++;
		required[e->group] += !(e->flags & MODEL_EV_OPTIONAL);
		for (int j = 0; j < i; j++) {
			assert_string_not_equal(m->events[j].name, e->name);
			assert_true(m->events[j].config != e->config);
		}
	}
	for (int g = 0; g < MODEL_MAX_GROUPS; g++) {
		/* No gap in the group numbers. */
		if (g > 0 && seen_group[g])
			assert_true(seen_group[g - 1]);
		/* Each group fits the 6 counters, and without its optional events the 5
		 * the NMI watchdog leaves. */
		assert_true(per_group[g] <= m->gp_counters);
		assert_true(required[g] <= m->gp_counters - 1);
	}
	assert_int_equal(per_group[0], 6);
	/* perf's PipelineL2 needs 12 distinct events in all. */
	assert_int_equal(m->nr_events, 12);

	for (int i = 0; i < m->nr_metrics; i++) {
		const struct model_metric *mm = &m->metrics[i];

		assert_true(mm->level >= 0 && mm->level <= 2);
		assert_non_null(mm->expr);
		assert_null(mm->plain);
		if (mm->level == 0)
			assert_null(mm->node);
		else
			assert_non_null(mm->node);
		if (mm->level == 2) {
			int p = metric_index(m, mm->parent);

			assert_int_equal(m->metrics[p].level, 1);
		} else {
			assert_null(mm->parent);
		}
		for (int j = 0; j < i; j++) {
			assert_string_not_equal(m->metrics[j].name, mm->name);
			if (mm->node && m->metrics[j].node)
				assert_string_not_equal(m->metrics[j].node, mm->node);
		}
	}

	/* Everything compiles at both levels and is computed. */
	for (int level = 1; level <= 2; level++) {
		init_or_fail(&d, m, level, NULL, true);
		assert_false(d.plain);
		assert_int_equal(d.slots, metric_index(m, "total_dispatch_slots"));
		for (int i = 0; i < m->nr_metrics; i++)
			assert_int_equal(d.computed[i], m->metrics[i].level <= level);
	}

	/* Level 1 without smt_contention (the watchdog's counter taken): only that is NaN. */
	smt_event = event_index(m, "de_no_dispatch_per_slot.smt_contention");
	smt_metric = metric_index(m, "smt_contention");
	for (int i = 0; i < m->nr_events; i++) {
		opened[i] = i != smt_event && !(m->events[i].flags & MODEL_EV_L2);
		counts[i] = 100;
	}
	counts[event_index(m, "ls_not_halted_cyc")] = 1000;
	init_or_fail(&d, m, 1, opened, true);
	td_decoder_eval(&d, counts, out);
	for (int i = 0; i < m->nr_metrics; i++) {
		if (m->metrics[i].level > 1)
			continue;
		if (i == smt_metric)
			assert_true(isnan(out[i]));
		else
			assert_false(isnan(out[i]));
	}
}

static void test_rows_well_formed(void **state)
{
	(void)state;
	assert_int_equal(nr_amd_models, 3);
	for (int i = 0; i < nr_amd_models; i++) {
		check_row(&amd_models[i]);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(amd_models[i].name, amd_models[j].name);
		for (int j = 0; j < nr_intel_models; j++)
			assert_string_not_equal(amd_models[i].name, intel_models[j].name);
	}
	assert_string_equal(row("amdzen4")->name, "amdzen4");
	assert_int_equal(row("amdzen4")->family, 0x19);
	assert_int_equal(row("amdzen5")->family, 0x1a);
	assert_int_equal(row("amdzen6")->family, 0x1a);
}

/*
 * 2. Raw configs, packed by hand: EventSelect bits 7:0 at config 7:0 and
 * bits 11:8 at 35:32, UMask at 15:8, cmask at 31:24 (perf's JSON gives
 * EventCode and UMask).
 */
static void expect_config(const struct pmu_model *m, const char *name, __u64 config)
{
	if (m->events[event_index(m, name)].config != config)
		fail_msg("%s %s: config 0x%llx, want 0x%llx", m->name, name,
			 (unsigned long long)m->events[event_index(m, name)].config,
			 (unsigned long long)config);
}

static void check_common_configs(const struct pmu_model *m)
{
	expect_config(m, "ls_not_halted_cyc", 0x76); /* 0x076 */
	/* 0x1a0 / 0x01: 1 << 32 | 0x01 << 8 | 0xa0 */
	expect_config(m, "de_no_dispatch_per_slot.no_ops_from_frontend", 0x1000001a0ULL);
	expect_config(m, "de_src_op_disp.all", 0x7aa); /* 0x0aa / 0x07 */
	expect_config(m, "ex_ret_ops", 0xc1);	       /* 0x0c1 */
	/* 0x1a0 / 0x1e: 1 << 32 | 0x1e << 8 | 0xa0 */
	expect_config(m, "de_no_dispatch_per_slot.backend_stalls", 0x100001ea0ULL);
	/* 0x1a0 / 0x60: 1 << 32 | 0x60 << 8 | 0xa0 */
	expect_config(m, "de_no_dispatch_per_slot.smt_contention", 0x1000060a0ULL);
	expect_config(m, "ex_ret_brn_misp", 0xc3);		    /* 0x0c3 */
	expect_config(m, "ex_no_retire.load_not_complete", 0xa2d6); /* 0x0d6 / 0xa2 */
	expect_config(m, "ex_no_retire.not_complete", 0x02d6);	    /* 0x0d6 / 0x02 */
	expect_config(m, "ex_ret_ucode_ops", 0x1000000c2ULL);	    /* 0x1c2: 1 << 32 | 0xc2 */
}

static void test_configs(void **state)
{
	const struct pmu_model *z4 = row("amdzen4"), *z5 = row("amdzen5"), *z6 = row("amdzen6");

	(void)state;
	check_common_configs(z4);
	check_common_configs(z5);
	check_common_configs(z6);
	/* 0x1a0 / 0x01, cmask 6: 1 << 32 | 6 << 24 | 0x01 << 8 | 0xa0 */
	expect_config(z4, "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6", 0x1060001a0ULL);
	expect_config(z4, "resyncs_or_nc_redirects", 0x96); /* 0x096 */
	/* cmask 8: 1 << 32 | 8 << 24 | 0x01 << 8 | 0xa0 */
	expect_config(z5, "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8", 0x1080001a0ULL);
	expect_config(z5, "bp_redirects.resync", 0x019f); /* 0x09f / 0x01 */
	/* Zen 6 (amdzen6/decode.json, branch-prediction.json): Zen 5's codes, resync renamed. */
	expect_config(z6, "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8", 0x1080001a0ULL);
	expect_config(z6, "bp_fe_redir.resync", 0x019f); /* 0x09f / 0x01 */
}

/* 3. Recognised by vendor, family and model as perf's mapfile.csv says. */
static void test_model_find(void **state)
{
	const struct pmu_model *z4 = row("amdzen4"), *z5 = row("amdzen5"), *z6 = row("amdzen6");

	(void)state;
	/* Zen 4: Genoa 0x11, Storm Peak 0x18, Raphael 0x61, Phoenix 0x74, Bergamo 0xa0. */
	assert_ptr_equal(model_find("AuthenticAMD", 0x19, 0x11, 1, "cpu"), z4);
	assert_ptr_equal(model_find("AuthenticAMD", 0x19, 0x10, 0, "cpu"), z4);
	assert_ptr_equal(model_find("AuthenticAMD", 0x19, 0x18, 1, "cpu"), z4);
	assert_ptr_equal(model_find("AuthenticAMD", 0x19, 0x61, 2, "cpu"), z4);
	assert_ptr_equal(model_find("AuthenticAMD", 0x19, 0x74, 1, "cpu"), z4);
	assert_ptr_equal(model_find("AuthenticAMD", 0x19, 0xa0, 1, "cpu"), z4);
	/* Zen 3 / 3+ (amdzen3, not in this table): 0x00-0x0f, 0x20-0x2f, 0x40-0x5f. */
	assert_null(model_find("AuthenticAMD", 0x19, 0x01, 1, "cpu"));
	assert_null(model_find("AuthenticAMD", 0x19, 0x0f, 1, "cpu"));
	assert_null(model_find("AuthenticAMD", 0x19, 0x21, 0, "cpu"));
	assert_null(model_find("AuthenticAMD", 0x19, 0x44, 1, "cpu"));
	assert_null(model_find("AuthenticAMD", 0x19, 0x5f, 1, "cpu"));
	/* Zen 5: Turin 0x02 (this machine) and 0x11, Strix Point 0x24, Granite Ridge 0x44,
	 * Krackan 0x60, Strix Halo 0x70; both ends of the first range. */
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x02, 1, "cpu"), z5);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x11, 0, "cpu"), z5);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x24, 0, "cpu"), z5);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x44, 0, "cpu"), z5);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x60, 0, "cpu"), z5);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x70, 0, "cpu"), z5);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x00, 0, "cpu"), z5);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x2f, 0, "cpu"), z5);
	/*
	 * Zen 6: every other model of family 0x1a (mapfile.csv v7.3), the
	 * ends of each range; the kernel's Zen 6 models 0x50-0x5f, 0x80-0xaf,
	 * 0xc0-0xcf among them.
	 */
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x30, 0, "cpu"), z6);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x3f, 0, "cpu"), z6);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x50, 0, "cpu"), z6);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x5f, 0, "cpu"), z6);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x80, 0, "cpu"), z6);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0xc4, 0, "cpu"), z6);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0xff, 0, "cpu"), z6);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x4f, 0, "cpu"), z5);
	assert_ptr_equal(model_find("AuthenticAMD", 0x1a, 0x7f, 0, "cpu"), z5);
	/* Zen 2 and other vendors, PMUs. */
	assert_null(model_find("AuthenticAMD", 0x17, 0x31, 0, "cpu"));
	assert_null(model_find("GenuineIntel", 0x19, 0x11, 1, "cpu"));
	assert_null(model_find("AuthenticAMD", 0x19, 0x11, 1, "cpu_core"));
	assert_null(model_find("HygonGenuine", 0x18, 0x01, 1, "cpu"));
}

/* 4. Decode vectors. */
struct count {
	const char *event;
	double value;
};

static void decode(const struct pmu_model *m, int level, const struct count *c, int n, double *out)
{
	double counts[MODEL_MAX_EVENTS];
	struct td_decoder d;

	for (int i = 0; i < m->nr_events; i++)
		counts[i] = NAN; /* any event the vector forgets poisons its metrics */
	for (int i = 0; i < n; i++)
		counts[event_index(m, c[i].event)] = c[i].value;
	init_or_fail(&d, m, level, NULL, true);
	td_decoder_eval(&d, counts, out);
}

static void expect(const struct pmu_model *m, const double *out, const char *metric, double want)
{
	double got = out[metric_index(m, metric)];

	if (!(fabs(got - want) < EPS))
		fail_msg("%s %s = %.15g, want %.15g", m->name, metric, got, want);
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/*
 * Zen 4. cycles 1000: total_dispatch_slots = 6 * 1000 = 6000.
 * frontend_bound  = 1200 / 6000 = 0.2
 * bad_speculation = (2700 - 2400) / 6000 = 300 / 6000 = 0.05
 * backend_bound   = 1500 / 6000 = 0.25
 * smt_contention  = 600 / 6000 = 0.1
 * retiring        = 2400 / 6000 = 0.4      (sum 1.0)
 * Level 2:
 * frontend_bound_latency   = (6 * 150) / 6000 = 900 / 6000 = 0.15
 * frontend_bound_bandwidth = (1200 - 6 * 150) / 6000 = 300 / 6000 = 0.05
 * bad_speculation_mispredicts       = 0.05 * 30 / (30 + 10) = 1.5 / 40 = 0.0375
 * bad_speculation_pipeline_restarts = 0.05 * 10 / 40 = 0.5 / 40 = 0.0125
 * backend_bound_memory = 0.25 * (200 / 500) = 0.25 * 0.4 = 0.1
 * backend_bound_cpu    = 0.25 * (1 - 0.4) = 0.15
 * retiring_fastpath    = 0.4 * (1 - 600 / 2400) = 0.4 * 0.75 = 0.3
 * retiring_microcode   = 0.4 * 0.25 = 0.1
 */
static const struct count zen4_counts[] = {
	{ "ls_not_halted_cyc", 1000 },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", 1200 },
	{ "de_src_op_disp.all", 2700 },
	{ "ex_ret_ops", 2400 },
	{ "de_no_dispatch_per_slot.backend_stalls", 1500 },
	{ "de_no_dispatch_per_slot.smt_contention", 600 },
	{ "ex_ret_brn_misp", 30 },
	{ "resyncs_or_nc_redirects", 10 },
	{ "ex_no_retire.load_not_complete", 200 },
	{ "ex_no_retire.not_complete", 500 },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6", 150 },
	{ "ex_ret_ucode_ops", 600 },
};

static void test_zen4_vector(void **state)
{
	const struct pmu_model *m = row("amdzen4");
	double out[MODEL_MAX_METRICS];

	(void)state;
	decode(m, 1, zen4_counts, N(zen4_counts), out);
	expect(m, out, "total_dispatch_slots", 6000);
	expect(m, out, "frontend_bound", 0.2);
	expect(m, out, "bad_speculation", 0.05);
	expect(m, out, "backend_bound", 0.25);
	expect(m, out, "smt_contention", 0.1);
	expect(m, out, "retiring", 0.4);
	assert_true(isnan(out[metric_index(m, "frontend_bound_latency")])); /* level 1 only */

	decode(m, 2, zen4_counts, N(zen4_counts), out);
	expect(m, out, "frontend_bound", 0.2);
	expect(m, out, "frontend_bound_latency", 0.15);
	expect(m, out, "frontend_bound_bandwidth", 0.05);
	expect(m, out, "bad_speculation_mispredicts", 0.0375);
	expect(m, out, "bad_speculation_pipeline_restarts", 0.0125);
	expect(m, out, "backend_bound_memory", 0.1);
	expect(m, out, "backend_bound_cpu", 0.15);
	expect(m, out, "retiring_fastpath", 0.3);
	expect(m, out, "retiring_microcode", 0.1);
}

/*
 * Zen 5. cycles 1000: total_dispatch_slots = 8 * 1000 = 8000.
 * frontend_bound  = 2000 / 8000 = 0.25
 * bad_speculation = (3600 - 3200) / 8000 = 400 / 8000 = 0.05
 * backend_bound   = 1600 / 8000 = 0.2
 * smt_contention  = 800 / 8000 = 0.1
 * retiring        = 3200 / 8000 = 0.4      (sum 1.0)
 * Level 2:
 * frontend_bound_by_latency   = (8 * 150) / 8000 = 1200 / 8000 = 0.15
 * frontend_bound_by_bandwidth = (2000 - 1200) / 8000 = 0.1
 * bad_speculation_from_mispredicts       = 0.05 * 45 / (45 + 5) = 2.25 / 50 = 0.045
 * bad_speculation_from_pipeline_restarts = 0.05 * 5 / 50 = 0.25 / 50 = 0.005
 * backend_bound_by_memory = 0.2 * (300 / 400) = 0.2 * 0.75 = 0.15
 * backend_bound_by_cpu    = 0.2 * (1 - 0.75) = 0.05
 * retiring_from_fastpath  = 0.4 * (1 - 800 / 3200) = 0.4 * 0.75 = 0.3
 * retiring_from_microcode = 0.4 * 0.25 = 0.1
 * (A Zen 4 row's 6-wide slots would give frontend_bound 2000 / 6000 instead.)
 */
static const struct count zen5_counts[] = {
	{ "ls_not_halted_cyc", 1000 },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", 2000 },
	{ "de_src_op_disp.all", 3600 },
	{ "ex_ret_ops", 3200 },
	{ "de_no_dispatch_per_slot.backend_stalls", 1600 },
	{ "de_no_dispatch_per_slot.smt_contention", 800 },
	{ "ex_ret_brn_misp", 45 },
	{ "bp_redirects.resync", 5 },
	{ "ex_no_retire.load_not_complete", 300 },
	{ "ex_no_retire.not_complete", 400 },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8", 150 },
	{ "ex_ret_ucode_ops", 800 },
};

/*
 * Zen 6 (amdzen6/pipeline.json) has Zen 5's text, its resyncs named
 * bp_fe_redir.resync: the same vector gives the same values.
 */
static void test_zen5_vector(void **state)
{
	static const char *const rows[][2] = { { "amdzen5", "bp_redirects.resync" },
					       { "amdzen6", "bp_fe_redir.resync" } };
	struct count c[N(zen5_counts)];
	double out[MODEL_MAX_METRICS];

	(void)state;
	memcpy(c, zen5_counts, sizeof(c));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pmu_model *m = row(rows[i][0]);

		c[7].event = rows[i][1]; /* the resyncs */
		decode(m, 1, c, N(c), out);
		expect(m, out, "total_dispatch_slots", 8000);
		expect(m, out, "frontend_bound", 0.25);
		expect(m, out, "bad_speculation", 0.05);
		expect(m, out, "backend_bound", 0.2);
		expect(m, out, "smt_contention", 0.1);
		expect(m, out, "retiring", 0.4);

		decode(m, 2, c, N(c), out);
		expect(m, out, "frontend_bound_by_latency", 0.15);
		expect(m, out, "frontend_bound_by_bandwidth", 0.1);
		expect(m, out, "bad_speculation_from_mispredicts", 0.045);
		expect(m, out, "bad_speculation_from_pipeline_restarts", 0.005);
		expect(m, out, "backend_bound_by_memory", 0.15);
		expect(m, out, "backend_bound_by_cpu", 0.05);
		expect(m, out, "retiring_from_fastpath", 0.3);
		expect(m, out, "retiring_from_microcode", 0.1);
	}
}

/*
 * d_ratio(a, 0) is 0, not NaN (perf's choice), so zero denominators give
 * numbers. Zen 4, cycles 1000 (slots 6000) but no branch events, no
 * no-retire cycles and nothing retired:
 * frontend_bound  = 600 / 6000 = 0.1
 * bad_speculation = (300 - 0) / 6000 = 0.05
 * backend_bound   = 3000 / 6000 = 0.5
 * smt_contention  = 0 / 6000 = 0
 * retiring        = 0 / 6000 = 0
 * frontend_bound_latency   = (6 * 0) / 6000 = 0
 * frontend_bound_bandwidth = (600 - 0) / 6000 = 0.1
 * bad_speculation_mispredicts       = d_ratio(0.05 * 0, 0 + 0) = 0
 * bad_speculation_pipeline_restarts = d_ratio(0.05 * 0, 0) = 0
 * backend_bound_memory = 0.5 * d_ratio(0, 0) = 0.5 * 0 = 0
 * backend_bound_cpu    = 0.5 * (1 - 0) = 0.5
 * retiring_fastpath    = 0 * (1 - d_ratio(0, 0)) = 0
 * retiring_microcode   = 0 * 0 = 0
 */
static void test_zero_denominators(void **state)
{
	const struct pmu_model *m = row("amdzen4");
	const struct count c[] = {
		{ "ls_not_halted_cyc", 1000 },
		{ "de_no_dispatch_per_slot.no_ops_from_frontend", 600 },
		{ "de_src_op_disp.all", 300 },
		{ "ex_ret_ops", 0 },
		{ "de_no_dispatch_per_slot.backend_stalls", 3000 },
		{ "de_no_dispatch_per_slot.smt_contention", 0 },
		{ "ex_ret_brn_misp", 0 },
		{ "resyncs_or_nc_redirects", 0 },
		{ "ex_no_retire.load_not_complete", 0 },
		{ "ex_no_retire.not_complete", 0 },
		{ "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6", 0 },
		{ "ex_ret_ucode_ops", 0 },
	};
	double out[MODEL_MAX_METRICS];

	(void)state;
	decode(m, 2, c, N(c), out);
	expect(m, out, "frontend_bound", 0.1);
	expect(m, out, "bad_speculation", 0.05);
	expect(m, out, "backend_bound", 0.5);
	expect(m, out, "smt_contention", 0);
	expect(m, out, "retiring", 0);
	expect(m, out, "frontend_bound_latency", 0);
	expect(m, out, "frontend_bound_bandwidth", 0.1);
	expect(m, out, "bad_speculation_mispredicts", 0);
	expect(m, out, "bad_speculation_pipeline_restarts", 0);
	expect(m, out, "backend_bound_memory", 0);
	expect(m, out, "backend_bound_cpu", 0.5);
	expect(m, out, "retiring_fastpath", 0);
	expect(m, out, "retiring_microcode", 0);
}

/*
 * A task that never ran on the core in the interval: every count 0, so
 * slots = 8 * 0 = 0 and every level-1 d_ratio(0, 0) = 0; level 2 is
 * 0 * ... = 0, backend_bound_by_cpu = 0 * (1 - 0) = 0. Numbers, not NaN.
 */
static void test_all_zero(void **state)
{
	const struct pmu_model *m = row("amdzen5");
	double counts[MODEL_MAX_EVENTS] = { 0 }, out[MODEL_MAX_METRICS];
	struct td_decoder d;

	(void)state;
	init_or_fail(&d, m, 2, NULL, false);
	td_decoder_eval(&d, counts, out);
	for (int i = 0; i < m->nr_metrics; i++)
		if (!(out[i] == 0))
			fail_msg("%s = %g, want 0", m->metrics[i].name, out[i]);
}

/*
 * Level 1 with smt_contention not opened, Zen 5 vector: smt_contention is
 * NaN, the others as in test_zen5_vector (0.25, 0.05, 0.2, 0.4).
 */
static void test_zen5_without_smt_event(void **state)
{
	const struct pmu_model *m = row("amdzen5");
	double counts[MODEL_MAX_EVENTS], out[MODEL_MAX_METRICS];
	bool opened[MODEL_MAX_EVENTS];
	struct td_decoder d;

	(void)state;
	for (int i = 0; i < m->nr_events; i++) {
		opened[i] = !(m->events[i].flags & (MODEL_EV_L2 | MODEL_EV_OPTIONAL));
		counts[i] = NAN;
	}
	for (int i = 0; i < N(zen5_counts); i++)
		counts[event_index(m, zen5_counts[i].event)] = zen5_counts[i].value;
	init_or_fail(&d, m, 1, opened, true);
	td_decoder_eval(&d, counts, out);
	assert_false(d.computed[metric_index(m, "smt_contention")]);
	assert_true(isnan(out[metric_index(m, "smt_contention")]));
	expect(m, out, "frontend_bound", 0.25);
	expect(m, out, "bad_speculation", 0.05);
	expect(m, out, "backend_bound", 0.2);
	expect(m, out, "retiring", 0.4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_well_formed),
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_model_find),
		cmocka_unit_test(test_zen4_vector),
		cmocka_unit_test(test_zen5_vector),
		cmocka_unit_test(test_zero_denominators),
		cmocka_unit_test(test_all_zero),
		cmocka_unit_test(test_zen5_without_smt_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
