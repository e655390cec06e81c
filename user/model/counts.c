// SPDX-License-Identifier: GPL-2.0
/* Counts: the per-CPU totals' add and subtract, and scales. See counts.h. */
#include "model/counts.h"

/* Both structs are all __u64 counters: walk them as arrays, so no field is forgotten. */
_Static_assert(sizeof(struct td_counts) % sizeof(__u64) == 0, "td_counts: __u64 only");
_Static_assert(sizeof(struct td_cpu_totals) % sizeof(__u64) == 0, "td_cpu_totals: __u64 only");

#define NR_U64(x) (sizeof(x) / sizeof(__u64))

/* count[], enabled_ns[], running_ns[], slices: nothing else, so the width covers it all. */
_Static_assert(sizeof(struct td_counts) ==
		       sizeof(__u64) * (TD_MAX_COUNTERS + 2 * TD_MAX_GROUPS + 1),
	       "td_counts: counters, group times and slices only");

void totals_add(struct td_cpu_totals *acc, const struct td_cpu_totals *t)
{
	td_u64s_add((__u64 *)acc, (const __u64 *)t, NR_U64(*t));
}

void totals_sub(const struct td_cpu_totals *a, const struct td_cpu_totals *b,
		struct td_cpu_totals *out)
{
	td_u64s_sub((const __u64 *)a, (const __u64 *)b, (__u64 *)out, NR_U64(*a));
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
