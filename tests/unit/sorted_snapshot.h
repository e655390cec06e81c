/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tests only: sort a snapshot made by hand into the order entries_view()
 * builds (tasks by id then start time, cgroups by id), and check an order.
 */
#ifndef TD_TEST_SORTED_SNAPSHOT_H
#define TD_TEST_SORTED_SNAPSHOT_H

#include <stdlib.h>
#include "model/counts.h"
#include "model/snapshot.h"

/* Tasks compare as entry keys of one cgroup. */
static inline int task_key_cmp(const struct td_task_key *a, const struct td_task_key *b)
{
	struct td_key x = { .id = a->id, .start_ns = a->start_ns };
	struct td_key y = { .id = b->id, .start_ns = b->start_ns };

	return td_key_cmp(&x, &y);
}

static inline int sorted_cmp_task(const void *a, const void *b)
{
	return task_key_cmp(&((const struct task_sample *)a)->key,
			    &((const struct task_sample *)b)->key);
}

static inline int sorted_cmp_cgroup(const void *a, const void *b)
{
	const struct cgroup_sample *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static inline void snapshot_sort(struct snapshot *s)
{
	if (s->nr_tasks)
		qsort(s->tasks, s->nr_tasks, sizeof(*s->tasks), sorted_cmp_task);
	if (s->nr_cgroups)
		qsort(s->cgroups, s->nr_cgroups, sizeof(*s->cgroups), sorted_cmp_cgroup);
}

#endif /* TD_TEST_SORTED_SNAPSHOT_H */
