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
