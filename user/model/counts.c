// SPDX-License-Identifier: GPL-2.0
/* Counts: add, subtract, scale, order. See counts.h. */
#include "model/counts.h"

/* Both structs are all __u64 counters: walk them as arrays, so no field is forgotten. */
_Static_assert(sizeof(struct td_counts) % sizeof(__u64) == 0, "td_counts: __u64 only");
_Static_assert(sizeof(struct td_cpu_totals) % sizeof(__u64) == 0, "td_cpu_totals: __u64 only");

static void u64s_add(__u64 *acc, const __u64 *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		acc[i] += v[i];
}

static void u64s_sub(const __u64 *a, const __u64 *b, __u64 *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = a[i] >= b[i] ? a[i] - b[i] : 0;
}

#define NR_U64(x) (sizeof(x) / sizeof(__u64))

void td_counts_add(struct td_counts *acc, const struct td_counts *c)
{
	u64s_add((__u64 *)acc, (const __u64 *)c, NR_U64(*c));
}

void td_counts_sub(const struct td_counts *a, const struct td_counts *b, struct td_counts *out)
{
	u64s_sub((const __u64 *)a, (const __u64 *)b, (__u64 *)out, NR_U64(*a));
}

void totals_add(struct td_cpu_totals *acc, const struct td_cpu_totals *t)
{
	u64s_add((__u64 *)acc, (const __u64 *)t, NR_U64(*t));
}

void totals_sub(const struct td_cpu_totals *a, const struct td_cpu_totals *b,
		struct td_cpu_totals *out)
{
	u64s_sub((const __u64 *)a, (const __u64 *)b, (__u64 *)out, NR_U64(*a));
}

double td_counts_scale(const struct td_counts *c)
{
	return td_counts_group_scale(c, 0);
}

double td_counts_group_scale(const struct td_counts *c, int group)
{
	__u64 enabled = c->enabled_ns[group], running = c->running_ns[group];

	if (enabled > 0 && running == 0)
		return 0;
	if (running > 0 && running < enabled)
		return (double)enabled / (double)running;
	return 1.0;
}

int td_key_cmp(const struct td_key *a, const struct td_key *b)
{
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	if (a->cgroup_id != b->cgroup_id)
		return a->cgroup_id < b->cgroup_id ? -1 : 1;
	/* Last: one PMU's entries, taken alone, stay in (id, start, cgroup) order. */
	if (a->pmu != b->pmu)
		return a->pmu < b->pmu ? -1 : 1;
	return 0;
}

bool td_same_task(const struct td_key *a, const struct td_key *b)
{
	return a->id == b->id && a->start_ns == b->start_ns;
}

void *td_key_seek(const void *v, size_t n, size_t size, size_t key_off, size_t *j,
		  const struct td_key *key)
{
	const char *base = v;

	while (*j < n && td_key_cmp((const void *)(base + *j * size + key_off), key) < 0)
		(*j)++;
	if (*j < n && !td_key_cmp((const void *)(base + *j * size + key_off), key))
		return (void *)(base + *j * size);
	return NULL;
}
