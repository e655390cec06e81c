// SPDX-License-Identifier: GPL-2.0
/* Turn a snapshot into named, decoded, sorted rows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/report.h"

struct slots_ref {
	double slots; /* the scaled value, as shown: multiplexed rows are scaled up */
	size_t idx;
};

static int cmp_slots_desc(const void *a, const void *b)
{
	const struct slots_ref *x = a, *y = b;

	if (x->slots != y->slots)
		return x->slots > y->slots ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx; /* ties keep their order */
}

/* Heap order for select_largest: the root is the smallest of those kept. */
static bool heap_below(const struct slots_ref *a, const struct slots_ref *b)
{
	return cmp_slots_desc(a, b) > 0;
}

static void sift_down(struct slots_ref *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct slots_ref t;

		if (l < n && heap_below(&h[l], &h[m]))
			m = l;
		if (r < n && heap_below(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Move the @k largest of @v[0..n) to the front, in any order: a k-heap, O(n log k). */
static void select_largest(struct slots_ref *v, size_t n, size_t k)
{
	if (!k || k >= n)
		return;
	for (size_t i = k / 2; i-- > 0;)
		sift_down(v, k, i);
	for (size_t i = k; i < n; i++) {
		if (heap_below(&v[0], &v[i])) {
			v[0] = v[i];
			sift_down(v, k, 0);
		}
	}
}

/*
 * Largest first, and only the first @limit rows if @limit (0: all). Sorts
 * small (slots, index) pairs and moves each row once: sorting the rows
 * themselves moved 10,000 of them many times over.
 */
static int sort_by_slots(struct row **rows, size_t *n, size_t limit)
{
	struct slots_ref *order = malloc((*n ? *n : 1) * sizeof(*order));
	struct row *sorted = malloc((*n ? *n : 1) * sizeof(*sorted));

	if (!order || !sorted) {
		free(order);
		free(sorted);
		return -ENOMEM;
	}
	for (size_t i = 0; i < *n; i++)
		order[i] = (struct slots_ref){ .slots = (*rows)[i].m.slots, .idx = i };
	if (limit && limit < *n) {
		select_largest(order, *n, limit);
		*n = limit;
	}
	qsort(order, *n, sizeof(*order), cmp_slots_desc);
	for (size_t i = 0; i < *n; i++)
		sorted[i] = (*rows)[order[i].idx];
	free(order);
	free(*rows);
	*rows = sorted;
	return 0;
}

/* The row of task @t: its counts decoded, its cgroup named. */
static void task_row(const struct report *r, const struct task_sample *t,
		     const struct cgroup_names *names, struct row *row)
{
	row->task = t;
	row->c = &t->val.c;
	row->idle = t->key.id == 0;
	row->cgroup_id = t->val.cgroup_id;
	row->cgroup = row->idle ? NULL : cgroup_names_lookup(names, t->val.cgroup_id);
	td_decode(r->cfg->decoding, row->c, &row->m);
}

/*
 * Task rows, largest first. With a limit (tables), every task is decoded
 * only to rank it, and rows are made for the few shown: a full row for
 * each of 10,000 tasks at every interval was most of a table's cost.
 */
static int task_rows(struct report *r, const struct snapshot *s, const struct cgroup_names *names,
		     size_t limit)
{
	size_t n = s->nr_tasks, keep = limit && limit < n ? limit : n;
	struct slots_ref *order;
	struct td_metrics m;

	for (size_t i = 0; i < n; i++)
		if (s->tasks[i].key.id == 0)
			r->idle = &s->tasks[i].val.c;
	if (keep == n) {
		r->tasks = calloc(n ? n : 1, sizeof(*r->tasks));
		if (!r->tasks)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++)
			task_row(r, &s->tasks[i], names, &r->tasks[i]);
		r->nr_tasks = n;
		return sort_by_slots(&r->tasks, &r->nr_tasks, 0);
	}
	order = malloc(n * sizeof(*order));
	r->tasks = calloc(keep ? keep : 1, sizeof(*r->tasks));
	if (!order || !r->tasks) {
		free(order);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		td_decode(r->cfg->decoding, &s->tasks[i].val.c, &m);
		order[i] = (struct slots_ref){ .slots = m.slots, .idx = i };
	}
	select_largest(order, n, keep);
	qsort(order, keep, sizeof(*order), cmp_slots_desc);
	for (size_t i = 0; i < keep; i++)
		task_row(r, &s->tasks[order[i].idx], names, &r->tasks[i]);
	r->nr_tasks = keep;
	free(order);
	return 0;
}

int report_build(struct report *r, const struct snapshot *s, const struct cgroup_names *names)
{
	static const struct cgroup_rows_opts every_cgroup = { .depth = -1 };
	const struct cgroup_rows_opts *copts =
		r->cfg->cgroup_opts ? r->cfg->cgroup_opts : &every_cgroup;
	/* The idle row may be among the largest, and is not shown: one more. */
	size_t limit = r->cfg->limit ? r->cfg->limit + 1 : 0;

	r->tasks = r->cgroups = NULL;
	r->cgroup_rows = NULL;
	r->nr_tasks = r->nr_cgroups = r->nr_cgroup_rows = 0;
	r->regions = NULL; /* report_regions adds them */
	r->nr_regions = 0;
	r->totals = &s->totals;
	r->idle = NULL;
	td_decode(r->cfg->decoding, &s->totals.all, &r->system);
	if (task_rows(r, s, names, limit) ||
	    cgroup_rows_build(s->cgroups, s->nr_cgroups, names, copts, &r->cgroup_rows,
			      &r->nr_cgroup_rows)) {
		report_free(r);
		return -ENOMEM;
	}
	r->cgroups = calloc(r->nr_cgroup_rows ? r->nr_cgroup_rows : 1, sizeof(*r->cgroups));
	if (!r->cgroups) {
		report_free(r);
		return -ENOMEM;
	}
	r->nr_cgroups = r->nr_cgroup_rows;
	for (size_t i = 0; i < r->nr_cgroup_rows; i++) {
		const struct cgroup_row *cr = &r->cgroup_rows[i];
		struct row *row = &r->cgroups[i];

		row->c = &cr->sum;
		row->self = &cr->self;
		row->cgroup_id = cr->id;
		row->idle = cr->idle;
		row->cgroup = cr->path;
		/* A rolled-up row (--group-by) has no path, and its label. */
		row->label = copts->containers && (cr->path || cr->group) ? &cr->label : NULL;
		row->k8s = cr->k8s;
		td_decode(r->cfg->decoding, row->c, &row->m);
		/* With --per-cgroup there are no task rows: idle comes from its pseudo cgroup. */
		if (row->idle && !r->idle)
			r->idle = row->c;
	}
	if (sort_by_slots(&r->cgroups, &r->nr_cgroups, limit)) {
		report_free(r);
		return -ENOMEM;
	}
	return 0;
}

int report_regions(struct report *r, const struct region_set *s, int pmu,
		   const struct cgroup_names *names)
{
	free(r->regions);
	r->nr_regions = 0;
	r->regions = calloc(s->nr ? s->nr : 1, sizeof(*r->regions));
	if (!r->regions)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr; i++) {
		const struct region_row *src = &s->v[i];
		struct region_line *l;
		if (pmu >= 0 && src->key.task.pmu != (__u32)pmu)
			continue;
		l = &r->regions[r->nr_regions++];
		l->src = src;
		l->name = src->name ? src->name : "?";
		l->cgroup = cgroup_names_lookup(names, src->key.task.cgroup_id);
		td_decode(r->cfg->decoding, &src->c, &l->m);
	}
	return 0;
}

void report_free(struct report *r)
{
	free(r->regions);
	r->regions = NULL;
	r->nr_regions = 0;
	free(r->tasks);
	free(r->cgroups);
	cgroup_rows_free(r->cgroup_rows, r->nr_cgroup_rows);
	r->tasks = r->cgroups = NULL;
	r->cgroup_rows = NULL;
	r->nr_tasks = r->nr_cgroups = r->nr_cgroup_rows = 0;
}
