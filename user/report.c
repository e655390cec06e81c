// SPDX-License-Identifier: GPL-2.0
/* Turn a snapshot into named, decoded, sorted rows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

static int cmp_slots_desc(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	/* The scaled value, as shown: multiplexed rows are scaled up. */
	return x->m.slots > y->m.slots ? -1 : x->m.slots < y->m.slots;
}

int report_build(struct report *r, const struct snapshot *s, struct cgroup_names *names)
{
	static const struct cgroup_rows_opts every_cgroup = { .depth = -1 };
	int level = r->counters->level;

	if (!r->cgroup_opts)
		r->cgroup_opts = &every_cgroup;
	r->tasks = calloc(s->nr_tasks ? s->nr_tasks : 1, sizeof(*r->tasks));
	r->cgroups = calloc(s->nr_cgroups ? s->nr_cgroups : 1, sizeof(*r->cgroups));
	if (!r->tasks || !r->cgroups) {
		report_free(r);
		return -ENOMEM;
	}
	r->totals = &s->totals;
	r->idle = NULL;
	td_decode(&s->totals.all, level, &r->system);

	/* At most one re-read of the cgroup tree per report, for new cgroups. */
	names->refresh_budget = 1;
	r->nr_tasks = s->nr_tasks;
	for (size_t i = 0; i < s->nr_tasks; i++) {
		const struct task_sample *t = &s->tasks[i];
		struct row *row = &r->tasks[i];

		row->task = t;
		row->c = &t->val.c;
		row->idle = t->key.id == 0;
		row->cgroup_id = t->val.cgroup_id;
		row->cgroup = row->idle ? NULL : cgroup_names_find(names, t->val.cgroup_id);
		td_decode(row->c, level, &row->m);
		if (row->idle)
			r->idle = row->c;
	}
	if (cgroup_rows_build(s->cgroups, s->nr_cgroups, names, r->cgroup_opts, &r->cgroup_rows,
			      &r->nr_cgroup_rows)) {
		report_free(r);
		return -ENOMEM;
	}
	free(r->cgroups);
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
		row->label = r->cgroup_opts->containers && cr->path ? &cr->label : NULL;
		td_decode(row->c, level, &row->m);
		/* With --per-cgroup there are no task rows: idle comes from its pseudo cgroup. */
		if (row->idle && !r->idle)
			r->idle = row->c;
	}
	qsort(r->tasks, r->nr_tasks, sizeof(*r->tasks), cmp_slots_desc);
	qsort(r->cgroups, r->nr_cgroups, sizeof(*r->cgroups), cmp_slots_desc);
	return 0;
}

void report_free(struct report *r)
{
	free(r->tasks);
	free(r->cgroups);
	cgroup_rows_free(r->cgroup_rows, r->nr_cgroup_rows);
	r->tasks = r->cgroups = NULL;
	r->cgroup_rows = NULL;
	r->nr_tasks = r->nr_cgroups = r->nr_cgroup_rows = 0;
}
