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
	int level = r->counters->level;

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
	r->nr_cgroups = s->nr_cgroups;
	for (size_t i = 0; i < s->nr_cgroups; i++) {
		struct row *row = &r->cgroups[i];

		row->c = &s->cgroups[i].c;
		row->cgroup_id = s->cgroups[i].id;
		row->idle = row->cgroup_id == TD_IDLE_CGROUP_ID;
		row->cgroup = row->idle ? NULL : cgroup_names_find(names, row->cgroup_id);
		td_decode(row->c, level, &row->m);
	}
	qsort(r->tasks, r->nr_tasks, sizeof(*r->tasks), cmp_slots_desc);
	qsort(r->cgroups, r->nr_cgroups, sizeof(*r->cgroups), cmp_slots_desc);
	return 0;
}

void report_free(struct report *r)
{
	free(r->tasks);
	free(r->cgroups);
	r->tasks = r->cgroups = NULL;
	r->nr_tasks = r->nr_cgroups = 0;
}
