// SPDX-License-Identifier: GPL-2.0
/* Counts: add, subtract, scale, order. See counts.h. */
#include <string.h>
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

/* count[], enabled_ns[], running_ns[], slices: nothing else, so the width covers it all. */
_Static_assert(sizeof(struct td_counts) ==
		       sizeof(__u64) * (TD_MAX_COUNTERS + 2 * TD_MAX_GROUPS + 1),
	       "td_counts: counters, group times and slices only");

/* @w's counters and groups, the whole struct for 0 or too many: never past the arrays. */
static inline size_t width_counters(struct td_width w)
{
	return w.counters > 0 && w.counters < TD_MAX_COUNTERS ? (size_t)w.counters
							      : TD_MAX_COUNTERS;
}

static inline size_t width_groups(struct td_width w)
{
	return w.groups > 0 && w.groups < TD_MAX_GROUPS ? (size_t)w.groups : TD_MAX_GROUPS;
}

void td_counts_add(struct td_counts *acc, const struct td_counts *c, struct td_width w)
{
	size_t ng = width_groups(w);

	u64s_add(acc->count, c->count, width_counters(w));
	u64s_add(acc->enabled_ns, c->enabled_ns, ng);
	u64s_add(acc->running_ns, c->running_ns, ng);
	acc->slices += c->slices;
}

void td_counts_sub(const struct td_counts *a, const struct td_counts *b, struct td_counts *out,
		   struct td_width w)
{
	size_t ng = width_groups(w);

	/* Past the width both are zero: so is out, whatever it held. */
	memset(out, 0, sizeof(*out));
	u64s_sub(a->count, b->count, out->count, width_counters(w));
	u64s_sub(a->enabled_ns, b->enabled_ns, out->enabled_ns, ng);
	u64s_sub(a->running_ns, b->running_ns, out->running_ns, ng);
	out->slices = a->slices >= b->slices ? a->slices - b->slices : 0;
}

bool td_counts_equal(const struct td_counts *a, const struct td_counts *b, struct td_width w)
{
	size_t nc = width_counters(w), ng = width_groups(w);

	if (a->slices != b->slices)
		return false;
	for (size_t i = 0; i < nc; i++)
		if (a->count[i] != b->count[i])
			return false;
	for (size_t g = 0; g < ng; g++)
		if (a->enabled_ns[g] != b->enabled_ns[g] || a->running_ns[g] != b->running_ns[g])
			return false;
	return true;
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
