// SPDX-License-Identifier: GPL-2.0
/* Report input: sorted process and cgroup rows; per-CPU totals arithmetic. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/array.h"
#include "model/decode.h"
#include "model/snapshot.h"

int task_key_cmp(const struct td_task_key *a, const struct td_task_key *b)
{
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return 0;
}

static int cmp_task(const void *a, const void *b)
{
	return task_key_cmp(&((const struct task_sample *)a)->key,
			    &((const struct task_sample *)b)->key);
}

static int cmp_cgroup(const void *a, const void *b)
{
	const struct cgroup_sample *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int snapshot_reserve(struct snapshot *s, size_t tasks, size_t cgroups)
{
	if (array_reserve((void **)&s->tasks, &s->cap_tasks, tasks, sizeof(*s->tasks)) ||
	    array_reserve((void **)&s->cgroups, &s->cap_cgroups, cgroups, sizeof(*s->cgroups)))
		return -ENOMEM;
	return 0;
}

void snapshot_sort(struct snapshot *s)
{
	/* An empty snapshot may have no arrays yet: qsort must not see NULL. */
	if (s->nr_tasks)
		qsort(s->tasks, s->nr_tasks, sizeof(*s->tasks), cmp_task);
	if (s->nr_cgroups)
		qsort(s->cgroups, s->nr_cgroups, sizeof(*s->cgroups), cmp_cgroup);
}

void snapshot_free(struct snapshot *s)
{
	free(s->tasks);
	free(s->cgroups);
	memset(s, 0, sizeof(*s));
}

/* struct td_cpu_totals is all __u64 counters: walk it as an array, so no field is forgotten. */
_Static_assert(sizeof(struct td_cpu_totals) % sizeof(__u64) == 0, "td_cpu_totals: __u64 only");

void totals_sub(const struct td_cpu_totals *a, const struct td_cpu_totals *b,
		struct td_cpu_totals *out)
{
	const __u64 *pa = (const __u64 *)a, *pb = (const __u64 *)b;
	__u64 *po = (__u64 *)out;

	for (size_t i = 0; i < sizeof(*a) / sizeof(__u64); i++)
		po[i] = pa[i] >= pb[i] ? pa[i] - pb[i] : 0;
}

void totals_add(struct td_cpu_totals *acc, const struct td_cpu_totals *t)
{
	const __u64 *pt = (const __u64 *)t;
	__u64 *pa = (__u64 *)acc;

	for (size_t i = 0; i < sizeof(*t) / sizeof(__u64); i++)
		pa[i] += pt[i];
}
