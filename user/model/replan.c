// SPDX-License-Identifier: GPL-2.0
/* Re-plan: the plan for a changed NMI watchdog, on the run's columns. */
#include <stdio.h>
#include <string.h>
#include "model/replan.h"

/* The group indices of @n's groups: where each leader's event was in @c, else the lowest free. */
static void group_indices(const struct counter_set *n, const struct counter_set *c,
			  const int *slot_of, int *idx, signed char *times_from)
{
	bool taken[TD_MAX_GROUPS] = { false };

	memset(times_from, -1, TD_MAX_GROUPS);
	for (int g = 0; g < TD_MAX_GROUPS; g++)
		idx[g] = -1;
	for (int j = 0; j < n->nr; j++) {
		int was = c->group[slot_of[n->event[j]]];

		if (counters_leads(n, j) && !taken[was]) {
			idx[n->group[j]] = was;
			taken[was] = true;
			times_from[was] = was;
		}
	}
	for (int j = 0; j < n->nr; j++) {
		int g = n->group[j], free = 0;

		if (!counters_leads(n, j) || idx[g] >= 0)
			continue;
		while (free < TD_MAX_GROUPS - 1 && taken[free])
			free++;
		idx[g] = free;
		taken[free] = true;
		times_from[free] = c->group[slot_of[n->event[j]]];
	}
}

/* Are @r's groups runs of slots, each begun by its leader (as perf_open opens them)? */
static bool groups_in_runs(const struct counter_set *r)
{
	bool seen[TD_MAX_GROUPS] = { false };

	for (int s = 0; s < r->nr; s++) {
		if (!counters_leads(r, s))
			continue;
		if (seen[r->group[s]] || !r->attr[s].disabled)
			return false;
		seen[r->group[s]] = true;
	}
	for (int s = 0; s < r->nr; s++)
		if (!counters_leads(r, s) && r->attr[s].disabled)
			return false; /* a leader that is not first in its group */
	return true;
}

/* @c's slot of each model event, -1 if it has none. */
static void slots_of(const struct counter_set *c, int *slot_of)
{
	for (int e = 0; e < MODEL_MAX_EVENTS; e++)
		slot_of[e] = -1;
	for (int s = 0; s < c->nr; s++)
		if (c->event[s] >= 0 && c->event[s] < MODEL_MAX_EVENTS)
			slot_of[c->event[s]] = s;
}

/*
 * @n laid onto @c's slots into @r: each event in the slot it had, its
 * group indices' old times in @times_from. False if the slots would have
 * a gap or split a group.
 */
static bool remap(const struct counter_set *n, const struct counter_set *c, const int *slot_of,
		  struct counter_set *r, signed char *times_from, signed char *from_slot)
{
	int idx[TD_MAX_GROUPS];
	bool filled[TD_MAX_COUNTERS] = { false };

	group_indices(n, c, slot_of, idx, times_from);
	memset(r, 0, sizeof(*r));
	r->model = n->model;
	r->software = n->software;
	r->level = c->level; /* the run's records keep their shape: see replan.h */
	memcpy(r->left_out, n->left_out, sizeof(r->left_out));
	for (int j = 0; j < n->nr; j++) {
		int s = slot_of[n->event[j]];

		r->attr[s] = n->attr[j];
		r->name[s] = n->name[j];
		r->event[s] = n->event[j];
		r->group[s] = idx[n->group[j]];
		r->opened[n->event[j]] = true;
		filled[s] = true;
		if (s + 1 > r->nr)
			r->nr = s + 1;
	}
	for (int s = 0; s < r->nr; s++)
		if (!filled[s])
			return false;
	if (!groups_in_runs(r))
		return false;
	r->nr_groups = counters_nr_groups(r);
	for (int s = 0; s < r->nr; s++) {
		r->direct[s] = counters_reads_direct(r, s);
		from_slot[s] = s;
	}
	return true;
}

/*
 * Where remap() leaves a gap (an event left out from the middle: AMD's
 * smt_contention, last of group 0), @n as it is, in its own slots: each
 * slot's counts so far are those of the slot @c had its event in
 * (@from_slot), each group's times those of its leader's group in @c.
 */
static void compact(const struct counter_set *n, const struct counter_set *c, const int *slot_of,
		    struct counter_set *r, signed char *times_from, signed char *from_slot)
{
	*r = *n;
	r->level = c->level;
	memset(times_from, -1, TD_MAX_GROUPS);
	for (int j = 0; j < n->nr; j++) {
		from_slot[j] = slot_of[n->event[j]];
		if (counters_leads(n, j))
			times_from[n->group[j]] = c->group[from_slot[j]];
	}
}

/*
 * Were the counts so far of each slot of @r counted in the group whose
 * times its group takes on (@times_from)? Not where a group of @r joins
 * events that counted in different groups of @c (Haswell's group 4 once
 * the watchdog moves INT_MISC.RECOVERY_CYCLES into its spare counter):
 * one group's times cannot scale both.
 */
static bool times_exact(const struct counter_set *r, const struct counter_set *c,
			const signed char *times_from, const signed char *from_slot)
{
	for (int s = 0; s < r->nr; s++)
		if (from_slot[s] < 0 || times_from[r->group[s]] != c->group[from_slot[s]])
			return false;
	return true;
}

/* @n laid onto the run's @c (remap(), else compact()) into @r: false if not exact. */
static bool lay(const struct counter_set *n, const struct counter_set *c, const int *slot_of,
		struct counter_set *r, signed char *times_from, signed char *from_slot)
{
	if (!remap(n, c, slot_of, r, times_from, from_slot))
		compact(n, c, slot_of, r, times_from, from_slot);
	return times_exact(r, c, times_from, from_slot);
}

/*
 * Level 1 of @was's model on core PMU @pmu with the watchdog on, into
 * @l1: what the run switches to where level 2's regrouping is not exact.
 * False if there is none.
 */
static bool level1_of(const struct cpu_pmus *cpu, const char *pmu, const struct counter_set *was,
		      struct counter_set *l1)
{
	char err[200];
	size_t n;

	for (int k = 0; was->model && k < cpu->nr_pmus; k++) {
		if (strcmp(cpu->pmu[k].name, pmu))
			continue;
		if (counters_from_model(was->model, &cpu->pmu[k], 1, true, l1, err, sizeof(err)))
			return false;
		n = strlen(l1->left_out);
		snprintf(l1->left_out + n, sizeof(l1->left_out) - n,
			 "%slevel 2: the NMI watchdog was turned on during the run, and its "
			 "groups would scale counts by another group's times",
			 n ? "; " : "");
		return true;
	}
	return false;
}

/* Does @a count what @b counts, slot by slot, in the same groups? */
static bool same_slots(const struct counter_set *a, const struct counter_set *b)
{
	if (a->nr != b->nr || a->level != b->level)
		return false;
	for (int s = 0; s < a->nr; s++)
		if (a->event[s] != b->event[s] || a->group[s] != b->group[s] ||
		    a->attr[s].config != b->attr[s].config)
			return false;
	return true;
}

/* Has every event of @n a slot in the run (@slot_of)? */
static bool all_have_slots(const struct counter_set *n, const int *slot_of)
{
	for (int j = 0; j < n->nr; j++)
		if (n->event[j] < 0 || n->event[j] >= MODEL_MAX_EVENTS || slot_of[n->event[j]] < 0)
			return false;
	return true;
}

/* The level @set counts: 1 where a level-2 event it needs is not opened (a switched set). */
static int counted_level(const struct counter_set *set)
{
	const struct pmu_model *m = set->model;

	for (int i = 0; m && set->level > 1 && i < m->nr_events; i++)
		if ((m->events[i].flags & MODEL_EV_L2) &&
		    !(m->events[i].flags & (MODEL_EV_OPTIONAL | MODEL_EV_CORRECTION)) &&
		    !set->opened[i])
			return 1;
	return set->level;
}

static void say_change(struct replan *r, const char *pmu, const struct counter_set *is,
		       const struct counter_set *was)
{
	size_t n = strlen(r->what);

	snprintf(r->what + n, sizeof(r->what) - n,
		 "%s%s: level %d in %d groups of %d counters instead of level %d in %d groups "
		 "of %d",
		 n ? "; " : "", pmu, counted_level(is), is->nr_groups, is->nr, counted_level(was),
		 was->nr_groups, was->nr);
}

enum replan_verdict replan_watchdog(const struct options *o, const struct cpu_pmus *cpu,
				    const bool *online, const struct plan *p, int watchdog_now,
				    struct replan *r)
{
	static struct cpu_pmus now; /* too big for the stack; the loader's thread only */
	static struct plan again;
	static struct counter_set l1;
	enum replan_verdict v = REPLAN_SAME;
	int slot_of[MODEL_MAX_EVENTS];
	bool exact;

	memset(r, 0, sizeof(*r));
	if (watchdog_now < 0 || (o->software && (!o->test_replan || !o->test_members)))
		return REPLAN_SAME;
	if (o->software) {
		/* Tests (--test-replan): software members stand in for a model's plans. */
		memset(&again, 0, sizeof(again));
		if (counters_software_members(&again.pmus[0].counters,
					      watchdog_now == 1 ? o->test_replan : o->test_members))
			return REPLAN_SAME;
		strcpy(again.pmus[0].pmu, "software");
		again.nr_pmus = 1;
	} else {
		now = *cpu;
		now.nmi_watchdog = watchdog_now;
		if (plan_models(o, &now, online, &again, NULL))
			return REPLAN_SAME; /* nothing to count with it: keep what counts */
	}
	for (int i = 0; i < p->nr_pmus; i++) {
		const struct counter_set *was = &p->pmus[i].counters, *is = NULL;
		struct counter_set *to = &r->set[r->nr];

		for (int k = 0; k < again.nr_pmus; k++)
			if (!strcmp(again.pmus[k].pmu, p->pmus[i].pmu))
				is = &again.pmus[k].counters;
		if (!is)
			continue;
		slots_of(was, slot_of);
		if (!all_have_slots(is, slot_of)) {
			/* Level 2 again: no column of this run's counts has its events. */
			say_change(r, p->pmus[i].pmu, is, was);
			v = REPLAN_RESTART;
			continue;
		}
		exact = lay(is, was, slot_of, to, r->times_from[r->nr], r->from_slot[r->nr]);
		if (!exact && watchdog_now == 1 && counted_level(is) == 2 &&
		    level1_of(cpu, p->pmus[i].pmu, was, &l1) && all_have_slots(&l1, slot_of))
			/* Level 2 regrouped is not exact here: level 1, which is. */
			exact = lay(&l1, was, slot_of, to, r->times_from[r->nr],
				    r->from_slot[r->nr]);
		if (!exact) {
			/* No exact switch: the run keeps its counters and says to restart. */
			say_change(r, p->pmus[i].pmu, is, was);
			v = REPLAN_RESTART;
			continue;
		}
		if (to->nr > p->width.counters || to->nr_groups > p->width.groups) {
			/* More groups than the run keeps times for (its BPF bounds, its counts). */
			say_change(r, p->pmus[i].pmu, to, was);
			v = REPLAN_RESTART;
			continue;
		}
		if (same_slots(to, was))
			continue;
		say_change(r, p->pmus[i].pmu, to, was);
		r->pmu[r->nr++] = i;
		if (v == REPLAN_SAME)
			v = REPLAN_SWITCH;
	}
	if (v == REPLAN_RESTART)
		r->nr = 0;
	return v;
}

void replan_widen(const struct options *o, const struct cpu_pmus *cpu, const bool *online,
		  struct plan *p)
{
	static struct plan wide; /* too big for the stack; the loader's thread only */
	static struct replan r;

	if (cpu->nmi_watchdog < 0)
		return; /* never read: never re-planned either */
	wide = *p;
	wide.width = TD_WIDTH_WHOLE;
	if (replan_watchdog(o, cpu, online, &wide, cpu->nmi_watchdog == 1 ? 0 : 1, &r) !=
	    REPLAN_SWITCH)
		return;
	for (int i = 0; i < r.nr; i++) {
		if (r.set[i].nr > p->width.counters)
			p->width.counters = r.set[i].nr;
		if (r.set[i].nr_groups > p->width.groups)
			p->width.groups = r.set[i].nr_groups;
	}
}

/* @c as the switch of PMU @i of @r leaves it: counts and times from where they were. */
static void carry(const struct replan *r, int i, struct td_counts *c)
{
	const struct td_counts was = *c;

	for (int s = 0; s < r->set[i].nr; s++)
		if (r->from_slot[i][s] >= 0)
			c->count[s] = was.count[r->from_slot[i][s]];
	for (int g = 0; g < TD_MAX_GROUPS; g++) {
		int from = r->times_from[i][g];

		if (from < 0)
			continue;
		c->enabled_ns[g] = was.enabled_ns[from];
		c->running_ns[g] = was.running_ns[from];
	}
}

static void carry_totals(const struct replan *r, int i, struct td_cpu_totals *t)
{
	carry(r, i, &t->all);
	carry(r, i, &t->untraced);
	carry(r, i, &t->task_overflow);
	carry(r, i, &t->cgroup_overflow);
}

void replan_carry(const struct replan *r, int nr_pmus, struct entry_set *total)
{
	for (int i = 0; i < r->nr; i++) {
		int k = r->pmu[i];

		for (size_t e = 0; e < total->nr; e++)
			if (total->v[e].key.pmu == (__u32)k)
				carry(r, i, &total->v[e].c);
		carry_totals(r, i, &total->pmu_totals[k]);
		if (nr_pmus == 1)
			carry_totals(r, i, &total->totals);
	}
}

void replan_apply(const struct replan *r, struct plan *p)
{
	for (int i = 0; i < r->nr; i++)
		p->pmus[r->pmu[i]].counters = r->set[i];
}
