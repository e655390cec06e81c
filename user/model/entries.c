// SPDX-License-Identifier: GPL-2.0
/* Sets of (task, cgroup) entries: differences, sums, eviction, rows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/array.h"
#include "model/counts.h"
#include "model/entries.h"

static int cmp_entry(const void *a, const void *b)
{
	return td_key_cmp(&((const struct entry *)a)->key, &((const struct entry *)b)->key);
}

int entries_reserve(struct entry_set *s, size_t n)
{
	return array_reserve((void **)&s->v, &s->cap, n, sizeof(*s->v));
}

void entries_sort(struct entry_set *s)
{
	/* An empty set may have no buffer, and qsort must not get NULL. */
	if (s->nr)
		qsort(s->v, s->nr, sizeof(*s->v), cmp_entry);
}

void entries_free(struct entry_set *s)
{
	free(s->v);
	free(s->fresh);
	region_set_free(&s->regions);
	memset(s, 0, sizeof(*s));
}

/*
 * acc->v[i] += e, within @w, its name from e (the latest). Exited stays
 * exited: the program says so only in the interval of the final switch.
 */
static void add_into(struct entry *into, const struct entry *e, struct td_width w)
{
	td_counts_add(&into->c, &e->c, w);
	into->tgid = e->tgid;
	into->flags |= e->flags;
	memcpy(into->comm, e->comm, sizeof(into->comm));
}

int entries_add(struct entry_set *acc, const struct entry_set *delta)
{
	size_t i = 0, nr_new = 0, out;
	struct td_width w = acc->width;

	/* Room first: on -ENOMEM, acc is as it was. */
	if (entries_reserve(acc, acc->nr + delta->nr + 1) ||
	    array_reserve((void **)&acc->fresh, &acc->fresh_cap, delta->nr + 1,
			  sizeof(*acc->fresh)))
		return -ENOMEM;
	/*
	 * Mostly tasks already in the sum: add in place (the seek gallops
	 * over those not charged), and note the others.
	 */
	for (size_t k = 0; k < delta->nr; k++) {
		struct entry *e = TD_SEEK(acc->v, acc->nr, &i, &delta->v[k].key);

		if (e)
			add_into(e, &delta->v[k], w);
		else
			acc->fresh[nr_new++] = k;
	}
	/* The new ones merged in from the back, in place: no second copy of the sum. */
	out = acc->nr + nr_new;
	i = acc->nr;
	acc->nr = out;
	while (nr_new) {
		const struct entry *d = &delta->v[acc->fresh[nr_new - 1]];

		if (i && td_key_cmp(&acc->v[i - 1].key, &d->key) > 0) {
			acc->v[--out] = acc->v[--i];
		} else {
			acc->v[--out] = *d;
			nr_new--;
		}
	}
	totals_add(&acc->totals, &delta->totals);
	for (int k = 0; k < TD_MAX_PMUS; k++)
		totals_add(&acc->pmu_totals[k], &delta->pmu_totals[k]);
	return 0;
}

bool entries_conserved(const struct entry_set *s, int nr_counters, bool times)
{
	const struct td_cpu_totals *t = &s->totals;
	struct td_width w = s->width;
	struct td_counts sum = {};

	for (size_t i = 0; i < s->nr; i++)
		td_counts_add(&sum, &s->v[i].c, w);
	td_counts_add(&sum, &t->task_overflow, w);
	td_counts_add(&sum, &t->untraced, w);
	for (int i = 0; i < nr_counters && i < TD_MAX_COUNTERS; i++)
		if (sum.count[i] != t->all.count[i])
			return false;
	if (sum.slices != t->all.slices)
		return false;
	for (int g = 0; times && g < TD_MAX_GROUPS; g++)
		if (sum.enabled_ns[g] != t->all.enabled_ns[g] ||
		    sum.running_ns[g] != t->all.running_ns[g])
			return false;
	return true;
}

/*
 * One past the last entry of s->v[i]'s task (its entries are neighbours,
 * sorted by cgroup), and whether the task has exited: only the entry
 * charged at its final switch is flagged, not those of the cgroups it
 * ran in before a move.
 */
static size_t task_end(const struct entry_set *s, size_t i, bool *exited)
{
	size_t j;

	*exited = false;
	for (j = i; j < s->nr && td_same_task(&s->v[j].key, &s->v[i].key); j++)
		*exited |= s->v[j].flags & TD_TASK_EXITED;
	return j;
}

/* Entries of exited tasks, folded ones aside: how many, and into @out unless NULL. */
static size_t foldable(struct entry_set *s, struct entry **out)
{
	size_t n = 0;

	for (size_t i = 0, end; i < s->nr; i = end) {
		bool exited;

		end = task_end(s, i, &exited);
		for (size_t k = i; exited && s->v[i].key.id != TD_FOLDED_ID && k < end; k++, n++)
			if (out)
				out[n] = &s->v[k];
	}
	return n;
}

static int cmp_slots_then_key(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a,
			   *y = *(const struct entry *const *)b;

	if (x->c.count[0] != y->c.count[0])
		return x->c.count[0] < y->c.count[0] ? -1 : 1;
	return td_key_cmp(&x->key, &y->key);
}

/* Is @task's process (or thread) still there: an entry of it in @s not marked exited? */
static bool task_alive(const struct entry_set *s, const struct td_key *task)
{
	size_t lo = 0, hi = s->nr;

	/* The first entry of (id, start): entries sort by id, then start. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct td_key *k = &s->v[mid].key;

		if (k->id < task->id || (k->id == task->id && k->start_ns < task->start_ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->nr && td_same_task(&s->v[lo].key, task); lo++)
		if (!(s->v[lo].flags & TD_TASK_EXITED))
			return true;
	return false;
}

/* Can @r be folded: a process's row (not --per-cgroup's, not folded), the process gone? */
static bool region_gone(const struct entry_set *acc, const struct region_row *r)
{
	return r->key.task.id && r->key.task.id != TD_FOLDED_ID && !task_alive(acc, &r->key.task);
}

static int cmp_region_slots_then_key(const void *a, const void *b)
{
	const struct region_row *x = *(const struct region_row *const *)a,
				*y = *(const struct region_row *const *)b;

	if (x->c.count[0] != y->c.count[0])
		return x->c.count[0] < y->c.count[0] ? -1 : 1;
	return region_key_cmp(&x->key, &y->key);
}

/*
 * The same for the regions' rows: at most @keep of gone processes stay;
 * the rest, smallest first, are summed per region, cgroup and PMU into a
 * row of id TD_FOLDED_ID ("[exited]"). Calls and counts are kept whole.
 */
static size_t fold_gone_regions(struct entry_set *acc, size_t keep)
{
	struct region_set *s = &acc->regions, folded = { 0 };
	struct region_row **gone;
	size_t nr_gone = 0, nr_fold, out = 0;

	if (s->nr <= keep)
		return 0;
	for (size_t i = 0; i < s->nr; i++)
		nr_gone += region_gone(acc, &s->v[i]);
	if (nr_gone <= keep)
		return 0;
	gone = malloc(nr_gone * sizeof(*gone));
	if (!gone)
		return 0; /* kept, not lost: try again next time */
	nr_gone = 0;
	for (size_t i = 0; i < s->nr; i++)
		if (region_gone(acc, &s->v[i]))
			gone[nr_gone++] = &s->v[i];
	qsort(gone, nr_gone, sizeof(*gone), cmp_region_slots_then_key);
	nr_fold = nr_gone - keep;
	for (size_t k = 0; k < nr_fold; k++) {
		struct region_row *r = gone[k], *f;
		struct td_region_key key = { .region = r->key.region,
					     .task = { .id = TD_FOLDED_ID,
						       .cgroup_id = r->key.task.cgroup_id,
						       .pmu = r->key.task.pmu } };

		f = region_get(&folded, &key);
		if (!f) {
			nr_fold = k; /* the rest stay as they are */
			break;
		}
		td_counts_add(&f->c, &r->c, TD_WIDTH_WHOLE);
		f->calls += r->calls;
		f->name = r->name;
		f->tgid = TD_FOLDED_ID;
		strcpy(f->comm, "[exited]");
		/* Marked to be dropped below: a folded row proper has start_ns 0. */
		r->key.task.id = TD_FOLDED_ID;
		r->key.task.start_ns = 1;
	}
	free(gone);
	for (size_t i = 0; i < s->nr; i++)
		if (!(s->v[i].key.task.id == TD_FOLDED_ID && s->v[i].key.task.start_ns == 1))
			s->v[out++] = s->v[i];
	s->nr = out;
	/* Into the folded rows already there, or new ones in key order. */
	if (region_set_add(s, &folded))
		nr_fold = 0; /* cannot happen: the set just shrank by more than it grows */
	region_set_free(&folded);
	return nr_fold;
}

size_t entries_fold_exited(struct entry_set *acc, size_t keep)
{
	struct entry **exited, *folded;
	struct td_width w = acc->width;
	size_t nr_exited, nr_fold, nr_folded = 0, out = 0;

	/* Regions first: which processes are gone is read from the entries. */
	fold_gone_regions(acc, keep);
	/* Fewer entries than that in all: no walk needed. */
	if (acc->nr <= keep)
		return 0;
	nr_exited = foldable(acc, NULL);
	if (nr_exited <= keep)
		return 0;
	exited = malloc(nr_exited * sizeof(*exited));
	folded = calloc(nr_exited + 1, sizeof(*folded));
	if (!exited || !folded) {
		free(exited);
		free(folded);
		return 0; /* kept, not lost: try again next time */
	}
	foldable(acc, exited);
	/* The smallest go; mark them by their key's id, then sum them per cgroup and PMU. */
	qsort(exited, nr_exited, sizeof(*exited), cmp_slots_then_key);
	nr_fold = nr_exited - keep;
	for (size_t k = 0; k < nr_fold; k++) {
		struct entry *e = exited[k], *f = NULL;

		for (size_t m = 0; m < nr_folded; m++)
			if (folded[m].key.cgroup_id == e->key.cgroup_id &&
			    folded[m].key.pmu == e->key.pmu)
				f = &folded[m];
		if (!f) {
			f = &folded[nr_folded++];
			f->key = (struct td_key){ .id = TD_FOLDED_ID,
						  .cgroup_id = e->key.cgroup_id,
						  .pmu = e->key.pmu };
			/* Its row's pid: 0 would say the idle tasks. */
			f->tgid = TD_FOLDED_ID;
			f->flags = TD_TASK_EXITED;
			strcpy(f->comm, "[exited]");
		}
		td_counts_add(&f->c, &e->c, w);
		/* Marked to be dropped below: folded entries proper have start_ns 0. */
		e->key.id = TD_FOLDED_ID;
		e->key.start_ns = 1;
	}
	/* Keep the rest in order; folded sums join the existing folded entries, which sort last. */
	for (size_t i = 0; i < acc->nr; i++) {
		struct entry *e = &acc->v[i];

		if (e->key.id == TD_FOLDED_ID && e->key.start_ns == 1)
			continue;
		if (e->key.id == TD_FOLDED_ID) {
			for (size_t m = 0; m < nr_folded; m++) {
				if (folded[m].key.cgroup_id == e->key.cgroup_id &&
				    folded[m].key.pmu == e->key.pmu) {
					td_counts_add(&e->c, &folded[m].c, w);
					folded[m].key.start_ns = 1; /* merged */
				}
			}
		}
		acc->v[out++] = *e;
	}
	acc->nr = out;
	for (size_t m = 0; m < nr_folded; m++)
		if (!folded[m].key.start_ns)
			acc->v[acc->nr++] = folded[m];
	entries_sort(acc);
	free(exited);
	free(folded);
	return nr_fold;
}

/* Is @e in the view of @pmu (-1: every PMU)? */
static bool of_pmu(const struct entry *e, int pmu)
{
	return pmu < 0 || e->key.pmu == (__u32)pmu;
}

static int cmp_cgroup_id(const void *a, const void *b)
{
	const struct cgroup_sample *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Open addressing over cgroup ids: @tab has 2^@bits cells, each 0 or one
 * plus the index of a row in @rows. Returns the cell of @id, or the empty
 * cell where it would go.
 */
static size_t *id_cell(size_t *tab, unsigned int bits, const struct cgroup_sample *rows, __u64 id)
{
	size_t mask = ((size_t)1 << bits) - 1, i = (id * 0x9e3779b97f4a7c15ull) >> (64 - bits);

	while (tab[i] && rows[tab[i] - 1].id != id)
		i = (i + 1) & mask;
	return &tab[i];
}

/*
 * The cgroup rows of @s's entries of @pmu, in id order: each entry is
 * added to its cgroup's row, found through a hash of the ids, and the
 * rows (about ten times fewer than the entries) are sorted last. Sorting
 * every entry by cgroup cost more than all of this.
 */
static int cgroup_view(const struct entry_set *s, int pmu, struct snapshot *view)
{
	struct td_width w = s->width;
	unsigned int bits = 1;
	size_t *tab, nr = 0;

	while (((size_t)1 << bits) < 2 * s->nr)
		bits++;
	tab = calloc((size_t)1 << bits, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr; i++) {
		const struct entry *e = &s->v[i];
		size_t *cell;

		if (!of_pmu(e, pmu))
			continue;
		cell = id_cell(tab, bits, view->cgroups, e->key.cgroup_id);
		if (!*cell) {
			view->cgroups[nr].id = e->key.cgroup_id;
			memset(&view->cgroups[nr].c, 0, sizeof(view->cgroups[nr].c));
			*cell = ++nr;
		}
		td_counts_add(&view->cgroups[*cell - 1].c, &e->c, w);
	}
	if (nr) /* no rows: perhaps no buffer, and qsort must not get NULL */
		qsort(view->cgroups, nr, sizeof(*view->cgroups), cmp_cgroup_id);
	view->nr_cgroups = nr;
	free(tab);
	return 0;
}

int entries_view(const struct entry_set *s, int pmu, bool with_tasks, struct snapshot *view)
{
	struct td_width w = s->width;

	if (snapshot_reserve(view, with_tasks ? s->nr : 0, s->nr))
		return -ENOMEM;
	view->nr_tasks = 0;
	/*
	 * Entries sort by task, then cgroup, then PMU: a process's entries are
	 * neighbours, those of other PMUs among them skipped.
	 */
	for (size_t i = 0; with_tasks && i < s->nr;) {
		const struct entry *most = NULL;
		struct task_sample *t = &view->tasks[view->nr_tasks];
		size_t j;

		memset(t, 0, sizeof(*t));
		t->key.id = s->v[i].key.id;
		t->key.start_ns = s->v[i].key.start_ns;
		for (j = i; j < s->nr && td_same_task(&s->v[j].key, &s->v[i].key); j++) {
			if (!of_pmu(&s->v[j], pmu))
				continue;
			td_counts_add(&t->val.c, &s->v[j].c, w);
			t->val.flags |= s->v[j].flags;
			if (!most || s->v[j].c.count[0] > most->c.count[0])
				most = &s->v[j];
		}
		i = j;
		if (!most)
			continue; /* it ran on other PMUs only */
		/* A process that moved shows in the cgroup where it ran most. */
		t->val.cgroup_id = most->key.cgroup_id;
		t->val.tgid = most->tgid;
		memcpy(t->val.comm, most->comm, sizeof(t->val.comm));
		view->nr_tasks++;
	}
	if (cgroup_view(s, pmu, view))
		return -ENOMEM;
	view->totals = pmu < 0 ? s->totals : s->pmu_totals[pmu];
	view->width = w;
	return 0;
}

int entries_by_cgroup(const struct entry_set *s, struct entry_set *out)
{
	size_t n = 0;

	if (entries_reserve(out, s->nr))
		return -ENOMEM;
	for (size_t i = 0; i < s->nr; i++) {
		struct entry *e = &out->v[i];

		memset(e, 0, sizeof(*e));
		e->key.cgroup_id = s->v[i].key.cgroup_id;
		e->key.pmu = s->v[i].key.pmu;
		td_counts_add(&e->c, &s->v[i].c, s->width);
	}
	out->nr = s->nr;
	entries_sort(out);
	for (size_t i = 0; i < out->nr; i++) {
		if (n && !td_key_cmp(&out->v[n - 1].key, &out->v[i].key))
			td_counts_add(&out->v[n - 1].c, &out->v[i].c, s->width);
		else
			out->v[n++] = out->v[i];
	}
	out->nr = n;
	out->width = s->width;
	out->totals = s->totals;
	memcpy(out->pmu_totals, s->pmu_totals, sizeof(out->pmu_totals));
	return 0;
}

void tally_init(struct tally *t, struct td_width width)
{
	memset(t, 0, sizeof(*t));
	t->delta.width = width;
	t->total.width = width;
	t->cgroups.width = width;
	t->scratch.width = width;
}

int tally_step(struct tally *t)
{
	int err = entries_add(&t->total, &t->delta);

	if (!err)
		err = entries_by_cgroup(&t->delta, &t->scratch);
	if (!err)
		err = entries_add(&t->cgroups, &t->scratch);
	return err ? err : region_set_add(&t->total.regions, &t->delta.regions);
}

void tally_free(struct tally *t)
{
	entries_free(&t->delta);
	entries_free(&t->total);
	entries_free(&t->cgroups);
	entries_free(&t->scratch);
}
