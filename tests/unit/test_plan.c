// SPDX-License-Identifier: GPL-2.0
/*
 * The plan stage (user/model/plan.c): which counters from the options and
 * the discovered PMU, on which CPUs, and what it says when it leaves CPUs
 * out or finds no TopDown. Uses the fixtures in tests/fixtures/sysfs; run
 * from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host/pmu.h"
#include "host/preflight.h"
#include "model/decode.h"
#include "model/plan.h"
#include "model/replan.h"
#include "tdtrace/tdregion.h"

#define FIXTURES "tests/fixtures/sysfs"

struct fx {
	struct cpu_pmus *cpu;
	bool online[PMU_MAX_CPUS];
	struct options o;
	struct plan p;
	char *said; /* what the stage wrote on its error stream */
	size_t len;
};

static struct fx *fx_new(const char *fixture)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char *argv[] = { "tdtrace", NULL };

	assert_non_null(fx);
	fx->cpu = calloc(1, sizeof(*fx->cpu));
	assert_non_null(fx->cpu);
	assert_int_equal(pmu_discover_all(fixture, fx->cpu), 0);
	assert_true(read_online_cpus(fixture, fx->online, PMU_MAX_CPUS) > 0);
	assert_int_equal(options_parse(1, argv, &fx->o, stdout, stderr), OPTIONS_RUN);
	return fx;
}

/* plan_models on fx, what it says captured in fx->said. */
static int plan(struct fx *fx)
{
	FILE *f;
	int ret;

	free(fx->said);
	fx->said = NULL;
	f = open_memstream(&fx->said, &fx->len);
	assert_non_null(f);
	ret = plan_models(&fx->o, fx->cpu, fx->online, &fx->p, f);
	fclose(f);
	return ret;
}

static void fx_free(struct fx *fx)
{
	free(fx->said);
	free(fx->cpu);
	free(fx);
}

static int count(const bool *cpus)
{
	int n = 0;

	for (int i = 0; i < PMU_MAX_CPUS; i++)
		n += cpus[i];
	return n;
}

/* Ice Lake: model icelake on every online CPU, level 2 in three groups, nothing said. */
static void test_icelake_topdown_everywhere(void **state)
{
	struct fx *fx = fx_new(FIXTURES "/icelake");

	(void)state;
	assert_int_equal(plan(fx), 0);
	assert_int_equal(fx->len, 0);
	assert_int_equal(fx->p.nr_pmus, 1);
	assert_string_equal(fx->p.pmus[0].pmu, "cpu");
	assert_string_equal(fx->p.pmus[0].counters.model->name, "icelake");
	assert_int_equal(fx->p.pmus[0].counters.level, 2);
	assert_int_equal(fx->p.pmus[0].counters.nr_groups, 3);
	assert_false(fx->p.pmus[0].counters.software);
	assert_int_equal(count(fx->p.cpus), count(fx->online));
	assert_int_equal(fx->p.pmu_of[0], 0);
	assert_int_equal(fx->p.max_entries, fx->o.max_tasks);
	fx_free(fx);
}

/* Alder Lake: a model per core type, each on its own CPUs. */
static void test_hybrid_both_core_types(void **state)
{
	struct fx *fx = fx_new(FIXTURES "/alderlake");
	int core = 0, atom = 1;

	(void)state;
	assert_int_equal(plan(fx), 0);
	assert_int_equal(fx->p.nr_pmus, 2);
	if (strcmp(fx->p.pmus[0].pmu, "cpu_core"))
		core = 1, atom = 0;
	assert_string_equal(fx->p.pmus[core].pmu, "cpu_core");
	assert_string_equal(fx->p.pmus[core].core, "P-core");
	assert_string_equal(fx->p.pmus[atom].pmu, "cpu_atom");
	assert_string_equal(fx->p.pmus[atom].core, "E-core");
	assert_string_equal(fx->p.pmus[core].counters.model->name, "alderlake");
	assert_string_equal(fx->p.pmus[atom].counters.model->name, "alderlake");
	assert_int_equal(fx->p.pmus[core].nr_cpus, 16);
	assert_int_equal(fx->p.pmus[atom].nr_cpus, 8);
	assert_int_equal(fx->p.pmu_of[0], core);
	assert_int_equal(fx->p.pmu_of[15], core);
	assert_int_equal(fx->p.pmu_of[16], atom);
	assert_int_equal(fx->p.pmu_of[23], atom);
	assert_int_equal(fx->p.pmu_of[24], -1);
	fx_free(fx);
}

/* --software counts on every online CPU, hybrid or not. */
static void test_software_every_cpu(void **state)
{
	struct fx *fx = fx_new(FIXTURES "/alderlake");

	(void)state;
	fx->o.software = true;
	fx->o.per_cgroup = true;
	assert_int_equal(plan(fx), 0);
	assert_int_equal(fx->len, 0);
	assert_true(fx->p.pmus[0].counters.software);
	assert_int_equal(count(fx->p.cpus), 24);
	/* --per-cgroup: the map holds cgroups. */
	assert_int_equal(fx->p.max_entries, fx->o.max_cgroups);
	fx_free(fx);
}

/* No PMU (this very VM): a usage error that names the CPU, why, and the way out. */
static void test_no_pmu_says_why(void **state)
{
	struct fx *fx = fx_new(FIXTURES "/vm");

	(void)state;
	assert_int_equal(plan(fx), -ENODEV);
	assert_non_null(strstr(fx->said, "tdtrace: no TopDown counters on this CPU (AuthenticAMD, "
					 "AMD EPYC): AMD family 0x1a model 0x02 (Zen 5) guest: "
					 "the hypervisor exposes no core PMU"));
	assert_non_null(strstr(fx->said, "use --software"));
	assert_ptr_equal(strchr(fx->said, '\n'), fx->said + fx->len - 1); /* one line */
	/* Quiet for --probe: the same answer, nothing said. */
	assert_int_equal(plan_models(&fx->o, fx->cpu, fx->online, &fx->p, NULL), -ENODEV);
	fx_free(fx);
}

/* AMD Zen 4 with the NMI watchdog on: smt_contention left out, and said. */
static void test_amd_watchdog(void **state)
{
	struct fx *fx = fx_new(FIXTURES "/amdzen4");
	struct fx *off = fx_new(FIXTURES "/amdzen4-nowatchdog");

	(void)state;
	assert_int_equal(plan(fx), 0);
	assert_string_equal(fx->p.pmus[0].counters.model->name, "amdzen4");
	assert_non_null(strstr(fx->p.pmus[0].counters.left_out,
			       "de_no_dispatch_per_slot.smt_contention: the NMI watchdog holds a "
			       "counter"));
	assert_int_equal(plan(off), 0);
	assert_string_equal(off->p.pmus[0].counters.left_out, "");
	assert_int_equal(off->p.pmus[0].counters.nr, fx->p.pmus[0].counters.nr + 1);
	fx_free(fx);
	fx_free(off);
}

/* --test-members: a bad name is a usage error, a good list a software set. */
static void test_test_members(void **state)
{
	struct fx *fx = fx_new(FIXTURES "/vm");

	(void)state;
	fx->o.software = true;
	fx->o.test_members = "context-switches,no-such-event";
	assert_int_equal(plan(fx), -EINVAL);
	assert_non_null(strstr(
		fx->said, "invalid value 'context-switches,no-such-event' for --test-members"));
	fx->o.test_members = "context-switches,page-faults";
	assert_int_equal(plan(fx), 0);
	assert_int_equal(fx->p.pmus[0].counters.nr, 3);
	assert_true(fx->p.pmus[0].counters.software);
	fx_free(fx);
}

/*
 * Which members are read directly, per model row, on each fixture: only a
 * topdown-* metric event (by the sysfs name the row opens it by) in a
 * group led by slots. Worked out here from names; the plan decides from
 * the encodings. Returns how many direct slots the fixture's plan has.
 */
static int direct_slots(const char *fixture)
{
	struct fx *fx = fx_new(fixture);
	int direct = 0;

	assert_int_equal(plan(fx), 0);
	for (int k = 0; k < fx->p.nr_pmus; k++) {
		const struct counter_set *set = &fx->p.pmus[k].counters;
		const struct pmu_model *m = set->model;
		int lead = 0;

		for (int i = 0; i < set->nr; i++) {
			const char *sysfs = m->events[set->event[i]].sysfs;
			const char *lead_sysfs;
			bool want;

			if (counters_leads(set, i))
				lead = i;
			lead_sysfs = m->events[set->event[lead]].sysfs;
			want = i != lead && sysfs && !strncmp(sysfs, "topdown-", 8) && lead_sysfs &&
			       !strcmp(lead_sysfs, "slots");
			print_message("%s %s slot %d %s: %s\n", fixture + sizeof(FIXTURES),
				      fx->p.pmus[k].pmu, i, set->name[i],
				      set->direct[i] ? "direct" : "helper");
			assert_int_equal(set->direct[i], want);
			direct += set->direct[i];
		}
	}
	fx_free(fx);
	return direct;
}

/*
 * Direct member reads only where the kernel keeps count current: the 4 (or
 * 8) PERF_METRICS members of group 0 on Ice Lake and Golden Cove P-cores,
 * never INT_MISC.UOP_DROPPING or CLEARS_COUNT beside them, nothing of the
 * Ice Lake level-2 groups, and nothing at all on Skylake, E-cores or AMD.
 */
static void test_direct_reads_per_row(void **state)
{
	static const struct {
		const char *fixture;
		int direct;
	} rows[] = {
		{ FIXTURES "/icelake", 4 },	   { FIXTURES "/icelakex", 4 },
		{ FIXTURES "/sapphirerapids", 8 }, { FIXTURES "/alderlake", 8 },
		{ FIXTURES "/meteorlake", 8 },	   { FIXTURES "/lunarlake", 8 },
		{ FIXTURES "/skylake", 0 },	   { FIXTURES "/skylakex", 0 },
		{ FIXTURES "/cascadelakex", 0 },   { FIXTURES "/amdzen4", 0 },
		{ FIXTURES "/amdzen5", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_int_equal(direct_slots(rows[i].fixture), rows[i].direct);
}

/* --test-members: members counted as they happen are direct, cpu-clock not unless '!'. */
static void test_test_members_direct(void **state)
{
	struct fx *fx = fx_new(FIXTURES "/vm");
	const struct counter_set *set = &fx->p.pmus[0].counters;

	(void)state;
	fx->o.software = true;
	fx->o.test_members = "page-faults,cpu-clock/context-switches,emulation-faults";
	assert_int_equal(plan(fx), 0);
	assert_int_equal(set->nr, 5);
	assert_false(set->direct[0]); /* cpu-clock, leading */
	assert_true(set->direct[1]);  /* page-faults */
	assert_false(set->direct[2]); /* cpu-clock */
	assert_false(set->direct[3]); /* context-switches, leading group 1 */
	assert_true(set->direct[4]);  /* emulation-faults */
	fx->o.test_members = "cpu-clock!,page-faults";
	assert_int_equal(plan(fx), 0);
	assert_true(set->direct[1]);
	fx->o.test_members = "page-faults/cpu-clock!";
	assert_int_equal(plan(fx), -EINVAL); /* a leader is never read directly */
	fx->o.test_members = "cpu-clock!x";
	assert_int_equal(plan(fx), -EINVAL);
	fx_free(fx);
}

/* The most counters any one group of @set holds. */
static int widest_group(const struct counter_set *set)
{
	int most = 0;

	for (int g = 0; g < set->nr_groups; g++) {
		int n = 0;

		for (int i = 0; i < set->nr; i++)
			n += set->group[i] == g;
		if (n > most)
			most = n;
	}
	return most;
}

/*
 * @fixture planned with the NMI watchdog @watchdog (as its sysfs says):
 * level 2 in @groups groups of @nr counters, nothing left out.
 */
static struct fx *planned_level2(const char *fixture, int watchdog, int groups, int nr)
{
	struct fx *fx = fx_new(fixture);
	const struct counter_set *set = &fx->p.pmus[0].counters;

	assert_int_equal(fx->cpu->nmi_watchdog, watchdog);
	assert_int_equal(plan(fx), 0);
	print_message("%s: level %d, %d groups of %d counters; left out: %s\n",
		      fixture + sizeof(FIXTURES), set->level, set->nr_groups, set->nr,
		      set->left_out);
	assert_int_equal(set->level, 2);
	assert_int_equal(set->nr_groups, groups);
	assert_int_equal(set->nr, nr);
	assert_string_equal(set->left_out, "");
	return fx;
}

/*
 * Skylake-class with SMT on (4 generic counters a thread) and the NMI
 * watchdog holding fixed counter 1: CPU_CLK_UNHALTED.THREAD takes a
 * generic counter, so group 0's five events no longer fit together. The
 * plan moves its last into group 4's spare counter, beside
 * UOPS_RETIRED.MACRO_FUSED and INST_RETIRED.ANY (fixed counter 0), and
 * keeps level 2. Without the watchdog, the table's groups.
 */
static void test_skylake_watchdog(void **state)
{
	static const char *const on[] = { FIXTURES "/skylakex", FIXTURES "/cascadelakex-smt" };
	static const char *const off[] = { FIXTURES "/skylakex-nowatchdog",
					   FIXTURES "/cascadelakex" };

	(void)state;
	for (int f = 0; f < 2; f++) {
		struct fx *fx = planned_level2(on[f], 1, 5, 19);
		const struct counter_set *set = &fx->p.pmus[0].counters;

		assert_true(fx->cpu->smt_on);
		for (int g = 0; g < set->nr_groups; g++) {
			int generic = 0;

			/* All but INST_RETIRED.ANY: cycles too, the watchdog has fixed 1. */
			for (int i = 0; i < set->nr; i++)
				generic += set->group[i] == g && set->attr[i].config != 0x00c0;
			if (generic > 4)
				fail_msg("%s: group %d takes %d generic counters of 4",
					 on[f] + sizeof(FIXTURES), g, generic);
		}
		assert_string_equal(set->name[0], "CPU_CLK_UNHALTED.THREAD");
		/* The last of group 0 moved out, into group 4 before its own events. */
		assert_string_equal(set->name[16], "INT_MISC.RECOVERY_CYCLES");
		assert_int_equal(set->group[16], 4);
		assert_string_equal(set->name[17], "UOPS_RETIRED.MACRO_FUSED");
		assert_int_equal(set->group[17], 4);
		assert_string_equal(set->name[18], "INST_RETIRED.ANY");
		assert_int_equal(set->group[18], 4);
		/* libtdregion's snapshot: the counters and two times a group, 29 of 32. */
		assert_true(set->nr + 2 * set->nr_groups <= TDREGION_MAX_VALUES);
		fx_free(fx);

		fx = planned_level2(off[f], 0, 5, 19);
		set = &fx->p.pmus[0].counters;
		/* Cycles on fixed counter 1 beside four generic events. */
		assert_int_equal(widest_group(set), 5);
		assert_string_equal(set->name[4], "INT_MISC.RECOVERY_CYCLES");
		assert_int_equal(set->group[4], 0);
		assert_string_equal(set->name[17], "UOPS_RETIRED.MACRO_FUSED");
		assert_int_equal(set->group[17], 4);
		fx_free(fx);
	}
}

/*
 * @fixture planned without the watchdog (level 2 in 5 groups of @nr),
 * widened as before a run, the watchdog turned on into @r: the new plan
 * moves INT_MISC.RECOVERY_CYCLES from group 0 into group 4's spare
 * counter, beside events that counted with group 4's times so far. No
 * group's times can scale both, so level 2 regrouped is not exact: the
 * run switches to level 1 (that row's, with the watchdog), in the columns
 * it had, and says why; level 2 is null from then on
 * (test_replan_level2_null).
 */
static struct fx *switched_to_level1(const char *fixture, int nr, struct replan *r)
{
	struct fx *fx = fx_new(fixture);
	struct counter_set was;
	char instead[64];

	assert_int_equal(plan(fx), 0);
	was = fx->p.pmus[0].counters;
	assert_int_equal(was.level, 2);
	assert_int_equal(was.nr_groups, 5);
	assert_int_equal(was.nr, nr);
	replan_widen(&fx->o, fx->cpu, fx->online, &fx->p);
	assert_int_equal(fx->p.width.groups, 5); /* the switch needs no more */
	assert_int_equal(replan_watchdog(&fx->o, fx->cpu, fx->online, &fx->p, 1, r), REPLAN_SWITCH);
	print_message("%s, watchdog turned on: %s; left out: %s\n", fixture + sizeof(FIXTURES),
		      r->what, r->set[0].left_out);
	assert_non_null(strstr(r->what, "cpu: level 1 in "));
	snprintf(instead, sizeof(instead), " instead of level 2 in 5 groups of %d", nr);
	assert_non_null(strstr(r->what, instead));
	assert_int_equal(r->set[0].level, 2); /* the run's records keep their shape */
	for (int e = 0; e < r->set[0].model->nr_events; e++)
		assert_int_equal(r->set[0].opened[e],
				 !(r->set[0].model->events[e].flags & MODEL_EV_L2));
	assert_true(widest_group(&r->set[0]) <= 4);
	assert_non_null(strstr(r->set[0].left_out, "level 2: the NMI watchdog was turned on"));
	/* Each slot's counts so far, and its group's times, are its event's. */
	for (int s = 0; s < r->set[0].nr; s++) {
		int from = r->from_slot[0][s];

		assert_true(from >= 0);
		assert_int_equal(r->set[0].event[s], was.event[from]);
		assert_int_equal(r->times_from[0][r->set[0].group[s]], was.group[from]);
	}
	assert_true(r->set[0].nr_groups <= 5);
	return fx;
}

/*
 * Skylake-class, SMT on, planned without the NMI watchdog (level 2 in 5
 * groups of 19, group 0 on fixed counter 1 and 4 generic ones); the
 * watchdog is turned on during the run (the value read from the other
 * fixture's proc/sys/kernel/nmi_watchdog): group 0 would never be
 * scheduled again. As on Haswell, level 2 regrouped is not exact, so the
 * run switches to level 1 (switched_to_level1). Turned off again: level 2
 * has no columns left in the switched set, so a restart is said; on once
 * more, the same: a restart would count level 2 beside the watchdog.
 */
static void test_replan_watchdog_on(void **state)
{
	static const char *const off[] = { FIXTURES "/skylakex-nowatchdog",
					   FIXTURES "/cascadelakex" };
	static const char *const on[] = { FIXTURES "/skylakex", FIXTURES "/cascadelakex-smt" };
	static struct replan r;

	(void)state;
	for (int f = 0; f < 2; f++) {
		struct fx *fx;

		assert_int_equal(pmu_nmi_watchdog(on[f]), 1);
		fx = switched_to_level1(off[f], 19, &r);
		assert_int_equal(fx->p.pmus[0].counters.nr, 19); /* pure: the plan is untouched */
		replan_apply(&r, &fx->p);
		assert_true(fx->p.pmus[0].counters.nr < 19);
		assert_int_equal(replan_watchdog(&fx->o, fx->cpu, fx->online, &fx->p, 0, &r),
				 REPLAN_RESTART);
		print_message("%s, watchdog off again: %s\n", off[f] + sizeof(FIXTURES), r.what);
		assert_non_null(strstr(r.what, "cpu: level 2 in 5 groups of 19 counters instead of "
					       "level 1 in "));
		assert_int_equal(r.nr, 0);
		/* On again: a restart would count level 2 (5 groups of 19 fit beside it). */
		assert_int_equal(replan_watchdog(&fx->o, fx->cpu, fx->online, &fx->p, 1, &r),
				 REPLAN_RESTART);
		assert_non_null(strstr(r.what, "cpu: level 2 in 5 groups of 19 counters instead of "
					       "level 1 in "));
		fx_free(fx);
	}
}

/* Haswell and Broadwell (broadwellx's fixture: level 2 in 5 groups of 21): as Skylake. */
static void test_replan_haswell_level1(void **state)
{
	static struct replan r;

	(void)state;
	fx_free(switched_to_level1(FIXTURES "/broadwellx", 21, &r));
}

/*
 * Haswell and Broadwell: 19 generic events and two fixed ones in 5
 * groups, group 4 with a generic counter to spare beside INST_RETIRED.ANY
 * (fixed counter 0). With SMT on and the watchdog (haswell's fixture),
 * group 0's fifth generic event goes there rather than into a sixth group:
 * level 2 in 5 groups, no group with more than 4 generic events. Without
 * the watchdog (broadwellx's), the table's groups.
 */
static void test_haswell_groups(void **state)
{
	struct fx *fx = planned_level2(FIXTURES "/haswell", 1, 5, 21);
	const struct counter_set *set = &fx->p.pmus[0].counters;

	(void)state;
	assert_true(fx->cpu->smt_on);
	for (int g = 0; g < set->nr_groups; g++) {
		int generic = 0;

		/* All but INST_RETIRED.ANY (0x00c0): cycles too, the watchdog has fixed 1. */
		for (int i = 0; i < set->nr; i++)
			generic += set->group[i] == g && set->attr[i].config != 0x00c0;
		if (generic > 4)
			fail_msg("haswell: group %d takes %d generic counters of 4", g, generic);
	}
	/* INT_MISC.RECOVERY_CYCLES leads group 4, INST_RETIRED.ANY ends it. */
	assert_string_equal(set->name[16], "INT_MISC.RECOVERY_CYCLES");
	assert_int_equal(set->group[16], 4);
	assert_string_equal(set->name[20], "INST_RETIRED.ANY");
	assert_int_equal(set->group[20], 4);
	fx_free(fx);

	fx = planned_level2(FIXTURES "/broadwellx", 0, 5, 21);
	set = &fx->p.pmus[0].counters;
	assert_string_equal(set->name[4], "INT_MISC.RECOVERY_CYCLES");
	assert_int_equal(set->group[4], 0);
	assert_string_equal(set->name[17], "UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC");
	assert_int_equal(set->group[17], 4);
	fx_free(fx);
}

/* Planned with the watchdog on: turned off, a restart is said; Ice Lake never changes. */
static void test_replan_watchdog_off(void **state)
{
	struct fx *skx = fx_new(FIXTURES "/skylakex");
	struct fx *icl = fx_new(FIXTURES "/icelake");
	struct fx *zen = fx_new(FIXTURES "/amdzen4"), *hsw;
	static struct replan r;

	(void)state;
	assert_int_equal(plan(skx), 0);
	assert_int_equal(plan(icl), 0);
	assert_int_equal(plan(zen), 0);
	assert_int_equal(replan_watchdog(&skx->o, skx->cpu, skx->online, &skx->p, 1, &r),
			 REPLAN_SAME);
	assert_int_equal(replan_watchdog(&skx->o, skx->cpu, skx->online, &skx->p, 0, &r),
			 REPLAN_RESTART);
	/* As on Haswell: group 4's spare counter holds an event of group 0. */
	assert_string_equal(r.what, "cpu: level 2 in 5 groups of 19 counters instead of level 2 "
				    "in 5 groups of 19");
	/* AMD: smt_contention would fit again, but the run has no column for it. */
	assert_int_equal(replan_watchdog(&zen->o, zen->cpu, zen->online, &zen->p, 0, &r),
			 REPLAN_RESTART);
	assert_non_null(strstr(r.what, "cpu: level"));
	/* Haswell planned with it on: group 4's spare counter holds an event of group 0. */
	hsw = fx_new(FIXTURES "/haswell");
	assert_int_equal(plan(hsw), 0);
	assert_int_equal(replan_watchdog(&hsw->o, hsw->cpu, hsw->online, &hsw->p, 0, &r),
			 REPLAN_RESTART);
	assert_string_equal(r.what, "cpu: level 2 in 5 groups of 21 counters instead of level 2 "
				    "in 5 groups of 21");
	fx_free(hsw);
	/* Ice Lake's groups fit beside the watchdog either way. */
	assert_int_equal(replan_watchdog(&icl->o, icl->cpu, icl->online, &icl->p, 0, &r),
			 REPLAN_SAME);
	assert_int_equal(replan_watchdog(&icl->o, icl->cpu, icl->online, &icl->p, 1, &r),
			 REPLAN_SAME);
	/* --software counts no PMU event: nothing to re-plan. */
	skx->o.software = true;
	assert_int_equal(plan(skx), 0);
	assert_int_equal(replan_watchdog(&skx->o, skx->cpu, skx->online, &skx->p, 0, &r),
			 REPLAN_SAME);
	/* Tests' stand-in (--test-replan): software members, still a software set. */
	skx->o.test_members = "context-switches,page-faults/cpu-migrations";
	skx->o.test_replan = "context-switches/page-faults";
	assert_int_equal(plan(skx), 0);
	assert_int_equal(replan_watchdog(&skx->o, skx->cpu, skx->online, &skx->p, 0, &r),
			 REPLAN_SAME);
	assert_int_equal(replan_watchdog(&skx->o, skx->cpu, skx->online, &skx->p, 1, &r),
			 REPLAN_SWITCH);
	assert_true(r.set[0].software);
	assert_int_equal(r.set[0].nr, 3);
	assert_true(counters_leads(&r.set[0], 2)); /* page-faults in a group of its own */
	assert_string_equal(r.set[0].name[2], "page-faults");
	/* A group more than the run keeps times for: restart, unless widened before the run. */
	skx->o.test_members = "context-switches,page-faults";
	assert_int_equal(plan(skx), 0);
	assert_int_equal(replan_watchdog(&skx->o, skx->cpu, skx->online, &skx->p, 1, &r),
			 REPLAN_RESTART);
	skx->cpu->nmi_watchdog = 0; /* started with it off, as test_watchdog_replan's runs */
	replan_widen(&skx->o, skx->cpu, skx->online, &skx->p);
	assert_int_equal(skx->p.width.groups, 2);
	assert_int_equal(replan_watchdog(&skx->o, skx->cpu, skx->online, &skx->p, 1, &r),
			 REPLAN_SWITCH);
	assert_int_equal(r.set[0].nr_groups, 2);
	assert_int_equal(r.times_from[0][1], 0); /* page-faults counted in group 0 so far */
	fx_free(skx);
	fx_free(icl);
	fx_free(zen);
}

/*
 * AMD Zen 4 planned without the watchdog (level 1's six events in group
 * 0, on all six generic counters), turned on: the watchdog's cycles take
 * one, group 0 would never be scheduled. The run switches to the plan
 * without smt_contention. It was last of group 0: the slots after it
 * move down one, and the run's counts with them.
 */
static void test_replan_amd_on(void **state)
{
	struct fx *zen = fx_new(FIXTURES "/amdzen4-nowatchdog");
	static struct replan r;
	struct counter_set was;
	int gone = -1;

	(void)state;
	assert_int_equal(plan(zen), 0);
	was = zen->p.pmus[0].counters;
	assert_int_equal(replan_watchdog(&zen->o, zen->cpu, zen->online, &zen->p,
					 pmu_nmi_watchdog(FIXTURES "/amdzen4"), &r),
			 REPLAN_SWITCH);
	print_message("amdzen4, watchdog turned on: %s\n", r.what);
	assert_string_equal(r.what, "cpu: level 2 in 3 groups of 11 counters instead of level 2 "
				    "in 3 groups of 12");
	for (int s = 0; s < was.nr; s++)
		if (!strcmp(was.name[s], "de_no_dispatch_per_slot.smt_contention"))
			gone = s;
	assert_int_equal(gone, 5);
	assert_int_equal(r.set[0].nr, was.nr - 1);
	assert_true(widest_group(&r.set[0]) <= 5);
	for (int s = 0; s < r.set[0].nr; s++) {
		int from = r.from_slot[0][s];

		/* Every slot's counts so far are those of its event. */
		assert_int_equal(from, s < gone ? s : s + 1);
		assert_string_equal(r.set[0].name[s], was.name[from]);
		assert_int_equal(r.set[0].event[s], was.event[from]);
	}
	for (int g = 0; g < 3; g++)
		assert_int_equal(r.times_from[0][g], g);
	assert_non_null(strstr(r.set[0].left_out, "smt_contention"));
	/* Switched: on again is the plan; off, smt_contention needs a restart. */
	replan_apply(&r, &zen->p);
	assert_int_equal(replan_watchdog(&zen->o, zen->cpu, zen->online, &zen->p, 1, &r),
			 REPLAN_SAME);
	assert_int_equal(replan_watchdog(&zen->o, zen->cpu, zen->online, &zen->p, 0, &r),
			 REPLAN_RESTART);
	fx_free(zen);
}

/*
 * The switch in the run's totals: for the switched PMU's entries and
 * totals only, each slot's counts come from where its event was, and a
 * group index that meant another group takes the times of the group its
 * count was in so far.
 */
static void test_replan_carry(void **state)
{
	static struct replan r;
	struct entry e[2] = {};
	struct entry_set total = { .v = e, .nr = 2, .cap = 2 };

	(void)state;
	r.nr = 1;
	r.pmu[0] = 1;
	r.set[0].nr = 3;
	memset(r.times_from[0], -1, sizeof(r.times_from[0]));
	r.times_from[0][0] = 0;
	r.times_from[0][1] = 2;
	r.times_from[0][2] = 0;
	r.from_slot[0][0] = 0;
	r.from_slot[0][1] = 2; /* slots 1 and 2 swap */
	r.from_slot[0][2] = 1;
	for (int i = 0; i < 2; i++) {
		e[i].key.pmu = i;
		for (int s = 0; s < TD_MAX_COUNTERS; s++)
			e[i].c.count[s] = 10 + s;
		for (int g = 0; g < TD_MAX_GROUPS; g++) {
			e[i].c.enabled_ns[g] = 1000 + g;
			e[i].c.running_ns[g] = 100 + g;
		}
	}
	total.pmu_totals[1].all = e[1].c;
	total.totals.all = e[1].c;
	replan_carry(&r, 2, &total);
	assert_int_equal(e[1].c.count[0], 10);
	assert_int_equal(e[1].c.count[1], 12);
	assert_int_equal(e[1].c.count[2], 11);
	assert_int_equal(e[1].c.count[3], 13); /* past the new set: as it was */
	/* Groups 1 and 2 both read their sources before either was written. */
	assert_int_equal(e[1].c.enabled_ns[1], 1002);
	assert_int_equal(e[1].c.enabled_ns[2], 1000);
	assert_int_equal(e[1].c.running_ns[2], 100);
	assert_int_equal(e[1].c.enabled_ns[3], 1003);
	assert_int_equal(total.pmu_totals[1].all.running_ns[2], 100);
	assert_int_equal(total.pmu_totals[1].all.count[1], 12);
	/* Another PMU's entry, and the sum over both PMUs, keep theirs. */
	assert_int_equal(e[0].c.enabled_ns[2], 1002);
	assert_int_equal(e[0].c.count[1], 11);
	assert_int_equal(total.totals.all.running_ns[2], 102);
	/* One PMU: its totals are the machine's. */
	r.pmu[0] = 0;
	replan_carry(&r, 1, &total);
	assert_int_equal(e[0].c.running_ns[2], 100);
	assert_int_equal(total.totals.all.running_ns[2], 100);
	assert_int_equal(total.totals.all.count[2], 11);
}

/*
 * @fixture, planned and widened as tdtrace does before the run, switched
 * for the watchdog turned on; @c decoded with the switched set into @m.
 */
static struct fx *decoded_switched(const char *fixture, const struct td_counts *c,
				   struct td_metrics *m)
{
	struct fx *fx = fx_new(fixture);
	static struct replan r;
	struct td_decoding d;
	char err[200];

	assert_int_equal(plan(fx), 0);
	replan_widen(&fx->o, fx->cpu, fx->online, &fx->p);
	assert_int_equal(replan_watchdog(&fx->o, fx->cpu, fx->online, &fx->p, 1, &r),
			 REPLAN_SWITCH);
	replan_apply(&r, &fx->p);
	assert_int_equal(td_decoding_init(&d, &fx->p.pmus[0].counters, true, err, sizeof(err)), 0);
	td_decode(&d, c, m);
	assert_true(m->valid);
	assert_false(isnan(m->l1[TD_L1_RETIRING]));
	return fx;
}

/*
 * Decoded with a set switched to level 1 (Skylake-class, Haswell and
 * Broadwell), a count of the run says level 1 only: level 2 is null
 * (NaN), never a number from counts that do not cover the run, and still
 * there: the run's records keep their keys.
 */
static void test_replan_level2_null(void **state)
{
	struct td_metrics m;
	struct td_counts c = {};
	const struct pmu_model *model;
	struct fx *fx;

	(void)state;
	for (int s = 0; s < TD_MAX_COUNTERS; s++)
		c.count[s] = 1000 + 10 * s; /* level 2's slots too: counted before the switch */
	c.count[0] = 1000000;
	for (int g = 0; g < TD_MAX_GROUPS; g++)
		c.enabled_ns[g] = c.running_ns[g] = 1000;
	for (int f = 0; f < 2; f++) {
		fx = decoded_switched(f ? FIXTURES "/broadwellx" : FIXTURES "/skylakex-nowatchdog",
				      &c, &m);
		model = fx->p.pmus[0].counters.model;
		assert_int_equal(m.level, 2);
		for (int i = 0; i < TD_NR_L2; i++)
			assert_true(isnan(m.l2[i]));
		/* Nor in JSON's metrics by perf's name: each level-2 metric is there, null. */
		for (int i = 0; i < model->nr_metrics; i++)
			if (model->metrics[i].level == 2) {
				print_message("%s %s: %f\n", model->name, model->metrics[i].name,
					      m.value[i]);
				assert_true(isnan(m.value[i]));
			}
		fx_free(fx);
	}

	/* AMD: smt_contention, no longer opened, is null; the rest is counted. */
	fx = decoded_switched(FIXTURES "/amdzen4-nowatchdog", &c, &m);
	assert_true(isnan(m.l1[TD_L1_SMT_CONTENTION]));
	assert_false(isnan(m.l2[TD_L2_BR_MISPREDICT]));
	fx_free(fx);
}

/* The widest of @p's PMUs: what every count of its run fills. */
static void assert_width_is_widest(const struct plan *p)
{
	int counters = 0, groups = 0;

	for (int i = 0; i < p->nr_pmus; i++) {
		if (p->pmus[i].counters.nr > counters)
			counters = p->pmus[i].counters.nr;
		if (p->pmus[i].counters.nr_groups > groups)
			groups = p->pmus[i].counters.nr_groups;
	}
	assert_int_equal(p->width.counters, counters);
	assert_int_equal(p->width.groups, groups);
}

/*
 * Each plan says its own width, in the plan and nowhere else: three plans
 * in one process (Ice Lake, both Alder Lake core types, --software) keep
 * theirs. Alder Lake's P-cores count more than its E-cores.
 */
static void test_width(void **state)
{
	struct fx *icl = fx_new(FIXTURES "/icelake"), *adl = fx_new(FIXTURES "/alderlake"),
		  *sw = fx_new(FIXTURES "/alderlake");

	(void)state;
	sw->o.software = true;
	assert_int_equal(plan(icl), 0);
	assert_int_equal(plan(adl), 0);
	assert_int_equal(plan(sw), 0);
	assert_width_is_widest(&icl->p);
	assert_int_equal(icl->p.width.groups, 3);
	assert_width_is_widest(&adl->p);
	assert_int_equal(adl->p.nr_pmus, 2);
	assert_int_not_equal(adl->p.pmus[0].counters.nr, adl->p.pmus[1].counters.nr);
	assert_int_equal(sw->p.width.counters, 1);
	assert_int_equal(sw->p.width.groups, 1);
	fx_free(icl);
	fx_free(adl);
	fx_free(sw);
}

/* plan_models on a machine made here: the model table decides. */
struct models_fx {
	struct cpu_pmus cpu;
	bool online[PMU_MAX_CPUS];
	struct options o;
	struct plan p;
	char *said;
	size_t len;
	int ret;
};

static struct models_fx *models_fx(const char *vendor, int family, int model, int nr_pmus,
				   char **argv)
{
	struct models_fx *fx = calloc(1, sizeof(*fx));
	int argc = 0;

	assert_non_null(fx);
	strcpy(fx->cpu.vendor, vendor);
	strcpy(fx->cpu.model_name, "Test CPU");
	fx->cpu.family = family;
	fx->cpu.model = model;
	fx->cpu.nr_pmus = nr_pmus;
	for (int i = 0; i < nr_pmus; i++) {
		strcpy(fx->cpu.pmu[i].name, "cpu");
		fx->cpu.pmu[i].cpus[0] = fx->cpu.pmu[i].cpus[1] = true;
		fx->cpu.pmu[i].nr_cpus = 2;
	}
	strcpy(fx->cpu.why, "no core PMU: a VM without PMU passthrough");
	fx->online[0] = fx->online[1] = fx->online[2] = true;
	while (argv[argc])
		argc++;
	assert_int_equal(options_parse(argc, argv, &fx->o, stdout, stderr), OPTIONS_RUN);
	FILE *err = open_memstream(&fx->said, &fx->len);
	assert_non_null(err);
	fx->ret = plan_models(&fx->o, &fx->cpu, fx->online, &fx->p, err);
	fclose(err);
	return fx;
}

static void models_fx_free(struct models_fx *fx)
{
	free(fx->said);
	free(fx);
}

static void test_models_software(void **state)
{
	struct models_fx *fx =
		models_fx("AuthenticAMD", 0x1a, 0x2, 0, (char *[]){ "tdtrace", "-s", NULL });

	(void)state;
	assert_int_equal(fx->ret, 0);
	assert_string_equal(fx->said, "");
	assert_int_equal(fx->p.nr_pmus, 1);
	assert_string_equal(fx->p.pmus[0].pmu, "software");
	assert_int_equal(fx->p.pmus[0].nr_cpus, 3);
	assert_int_equal(fx->p.pmus[0].counters.nr, 1);
	for (int c = 0; c < 3; c++) {
		assert_true(fx->p.cpus[c]);
		assert_int_equal(fx->p.pmu_of[c], 0);
	}
	assert_false(fx->p.cpus[3]);
	assert_int_equal(fx->p.pmu_of[3], -1);
	models_fx_free(fx);
}

/* No core PMU: discovery's reason, and --software as the way out. */
static void test_models_no_pmu(void **state)
{
	struct models_fx *fx =
		models_fx("AuthenticAMD", 0x1a, 0x2, 0, (char *[]){ "tdtrace", NULL });

	(void)state;
	assert_int_equal(fx->ret, -ENODEV);
	assert_string_equal(fx->said,
			    "tdtrace: no TopDown counters on this CPU (AuthenticAMD, Test "
			    "CPU): no core PMU: a VM without PMU passthrough; use "
			    "--software for CPU time per process and cgroup\n");
	models_fx_free(fx);
}

/* A core PMU of a CPU the table does not know: named, with family and model. */
static void test_models_unknown_cpu(void **state)
{
	struct models_fx *fx = models_fx("GenuineIntel", 6, 0x0f, 1, (char *[]){ "tdtrace", NULL });

	(void)state;
	assert_int_equal(fx->ret, -ENODEV);
	assert_non_null(strstr(fx->said, "tdtrace: leaving out cpu CPUs 0-1: no TopDown model for "
					 "GenuineIntel family 0x6 model 0xf on cpu\n"));
	assert_non_null(strstr(fx->said,
			       "no TopDown counters on this CPU (GenuineIntel, Test CPU): "
			       "no TopDown model for GenuineIntel family 0x6 model 0xf"));
	models_fx_free(fx);
}

/*
 * The entry map's size: 4 per thread at start, at most 2 x pid_max, at
 * least 10240, at most 1% of memory, or what the user gave; each entry's
 * value sized to the plan (--software: one counter, no times).
 */
static void test_map_size(void **state)
{
	struct models_fx *fx = models_fx("AuthenticAMD", 0x1a, 0x2, 0,
					 (char *[]){ "tdtrace", "--software", NULL });
	struct machine_size sz = { .threads = 100, .mem_bytes = 64ULL << 30 };
	unsigned long long entry;

	(void)state;
	assert_int_equal(fx->ret, 0);
	plan_map_size(&fx->o, &sz, &fx->p);
	assert_int_equal(fx->p.entry_bytes, td_entry_bytes(1, 1, 0));
	assert_int_equal(fx->p.entry_bytes, 32);
	assert_int_equal(fx->p.max_entries, 10240); /* 400 is under the floor */
	assert_non_null(strstr(fx->p.map_note, "100 threads at start"));
	assert_non_null(strstr(fx->p.map_note, "entries of 32 bytes"));
	/* Key 24, slot 8, header 48, 16384 buckets of 16 for 10240, queue 4 and a bit. */
	assert_int_equal(fx->p.hash_bytes, 48 + 24 + 8 + 16 * 16384 / 10240 + 4 + 1);
	sz.threads = 50000; /* 200000 fits in 1% of 64 GiB */
	plan_map_size(&fx->o, &sz, &fx->p);
	assert_int_equal(fx->p.max_entries, 200000);
	sz.mem_bytes = 1ULL << 30; /* 1% of 1 GiB holds fewer, at the worst case of buckets */
	plan_map_size(&fx->o, &sz, &fx->p);
	entry = 32 + 48 + 24 + 8 + 16 * 4 / 3 + 4 + 1;
	assert_int_equal(fx->p.max_entries, (1ULL << 30) / 100 / entry);
	sz.mem_bytes = 64ULL << 30;
	sz.pid_max = 32768; /* 50000 threads cannot all be alive under it: 2 x pid_max */
	plan_map_size(&fx->o, &sz, &fx->p);
	assert_int_equal(fx->p.max_entries, 65536);
	assert_non_null(strstr(fx->p.map_note, "2 x pid_max 32768"));
	sz.pid_max = 0;	      /* unknown: no bound from it */
	sz.threads = 2000000; /* never past 4000000, whatever the memory */
	sz.mem_bytes = 1ULL << 50;
	plan_map_size(&fx->o, &sz, &fx->p);
	assert_int_equal(fx->p.max_entries, 4000000);
	fx->o.max_tasks = 777; /* given: taken as it is */
	fx->o.max_tasks_given = true;
	plan_map_size(&fx->o, &sz, &fx->p);
	assert_int_equal(fx->p.max_entries, 777);
	assert_non_null(strstr(fx->p.map_note, "777 entries of 32 bytes"));
	assert_non_null(strstr(fx->p.map_note, "(--max-tasks)"));
	models_fx_free(fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icelake_topdown_everywhere),
		cmocka_unit_test(test_hybrid_both_core_types),
		cmocka_unit_test(test_amd_watchdog),
		cmocka_unit_test(test_software_every_cpu),
		cmocka_unit_test(test_no_pmu_says_why),
		cmocka_unit_test(test_test_members),
		cmocka_unit_test(test_direct_reads_per_row),
		cmocka_unit_test(test_skylake_watchdog),
		cmocka_unit_test(test_haswell_groups),
		cmocka_unit_test(test_replan_watchdog_on),
		cmocka_unit_test(test_replan_haswell_level1),
		cmocka_unit_test(test_replan_watchdog_off),
		cmocka_unit_test(test_replan_amd_on),
		cmocka_unit_test(test_replan_carry),
		cmocka_unit_test(test_replan_level2_null),
		cmocka_unit_test(test_test_members_direct),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_models_software),
		cmocka_unit_test(test_models_no_pmu),
		cmocka_unit_test(test_models_unknown_cpu),
		cmocka_unit_test(test_map_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
