/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counts: the one shape every charged quantity has. struct td_counts (one
 * entity) and struct td_cpu_totals (the per-CPU buckets) are flat vectors
 * of __u64, added and subtracted field by field; entries are ordered by
 * struct td_key, and sorted arrays of them are walked in step with
 * td_key_seek(). Pure.
 */
#ifndef TD_COUNTS_H
#define TD_COUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/types.h>
#include "tdtrace.h"

/*
 * Slot 0 of every count: the first group's leader, SLOTS on TopDown
 * hardware, cpu-clock with --software.
 */
#define TD_SLOTS 0

/*
 * The part of a struct td_counts a run fills: its first @counters counters
 * and @groups groups' times (the plan's widest PMU, plan.width); the rest
 * stays zero. add, sub and equal look at that part only: with many
 * entries, reading the counts the BPF program wrote is most of an
 * interval's work. No global: each set of counts carries its own (struct
 * entry_set.width, struct snapshot.width). TD_WIDTH_WHOLE, which is also
 * what a zeroed width (and 0 or more than there are) means, is the whole
 * struct: always right, only slower.
 */
struct td_width {
	int counters;
	int groups;
};

#define TD_WIDTH_WHOLE ((struct td_width){ .counters = TD_MAX_COUNTERS, .groups = TD_MAX_GROUPS })

/*
 * @w's counters and groups, all of them for 0 or too many: never past the
 * arrays. Inline, with add, sub and equal below: a read runs them for
 * every entry, and inline the width is worked out once per loop.
 */
static inline int td_width_counters(struct td_width w)
{
	return w.counters > 0 && w.counters < TD_MAX_COUNTERS ? w.counters : TD_MAX_COUNTERS;
}

static inline int td_width_groups(struct td_width w)
{
	return w.groups > 0 && w.groups < TD_MAX_GROUPS ? w.groups : TD_MAX_GROUPS;
}

/* acc[i] += v[i] and out[i] = a[i] - b[i] (0 if b[i] is larger), for i < @n. */
static inline void td_u64s_add(__u64 *acc, const __u64 *v, int n)
{
	for (int i = 0; i < n; i++)
		acc[i] += v[i];
}

static inline void td_u64s_sub(const __u64 *a, const __u64 *b, __u64 *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = a[i] >= b[i] ? a[i] - b[i] : 0;
}

/* acc += c, field by field within @w. */
static inline void td_counts_add(struct td_counts *acc, const struct td_counts *c,
				 struct td_width w)
{
	int ng = td_width_groups(w);

	td_u64s_add(acc->count, c->count, td_width_counters(w));
	td_u64s_add(acc->enabled_ns, c->enabled_ns, ng);
	td_u64s_add(acc->running_ns, c->running_ns, ng);
	acc->slices += c->slices;
}

/*
 * out = a - b, field by field within @w (b must not exceed a; saturates at
 * 0 if it does), zero past it; out is neither.
 */
static inline void td_counts_sub(const struct td_counts *a, const struct td_counts *b,
				 struct td_counts *out, struct td_width w)
{
	int ng = td_width_groups(w);

	/* Past the width both are zero: so is out, whatever it held. */
	memset(out, 0, sizeof(*out));
	td_u64s_sub(a->count, b->count, out->count, td_width_counters(w));
	td_u64s_sub(a->enabled_ns, b->enabled_ns, out->enabled_ns, ng);
	td_u64s_sub(a->running_ns, b->running_ns, out->running_ns, ng);
	out->slices = a->slices >= b->slices ? a->slices - b->slices : 0;
}

/* a == b in every field within @w. */
static inline bool td_counts_equal(const struct td_counts *a, const struct td_counts *b,
				   struct td_width w)
{
	int nc = td_width_counters(w), ng = td_width_groups(w);

	if (a->slices != b->slices)
		return false;
	for (int i = 0; i < nc; i++)
		if (a->count[i] != b->count[i])
			return false;
	for (int g = 0; g < ng; g++)
		if (a->enabled_ns[g] != b->enabled_ns[g] || a->running_ns[g] != b->running_ns[g])
			return false;
	return true;
}

/*
 * perf's multiplexing scale of group 0, enabled / running: 1.0 when the
 * group ran all the time (or no times are kept), 0 when it never ran.
 */
double td_counts_scale(const struct td_counts *c);

/* The same for counting group @group: each group is multiplexed on its own. */
double td_counts_group_scale(const struct td_counts *c, int group);

void totals_add(struct td_cpu_totals *acc, const struct td_cpu_totals *t);
void totals_sub(const struct td_cpu_totals *a, const struct td_cpu_totals *b,
		struct td_cpu_totals *out);

/*
 * Order of entries: by id, start time, then cgroup. Inline, with the two
 * below: every interval runs them several times per entry.
 */
static inline int td_key_cmp(const struct td_key *a, const struct td_key *b)
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

/* The same process (or thread): id and start time, any cgroup. */
static inline bool td_same_task(const struct td_key *a, const struct td_key *b)
{
	return a->id == b->id && a->start_ns == b->start_ns;
}

/*
 * Sorted merge, the one way two sorted arrays are walked in step. @v has
 * @n elements of @size bytes, sorted by the struct td_key at @key_off in
 * each. Moves *@j forward to the first element whose key is not below
 * @key and returns it if its key equals @key, else NULL. Seeking keys in
 * increasing order costs, per key, the log of how far *@j moves.
 */
static inline void *td_key_seek(const void *v, size_t n, size_t size, size_t key_off, size_t *j,
				const struct td_key *key)
{
	const char *base = v;
	size_t lo = *j, step = 1, hi;

	/*
	 * Galloping: a few keys sought in many (an interval's entries in
	 * the run's) cost a binary search each, not a walk of all.
	 */
#define TD_KEY_AT(i) ((const struct td_key *)(base + (i)*size + key_off))
	if (lo < n && td_key_cmp(TD_KEY_AT(lo), key) < 0) {
		while (lo + step < n && td_key_cmp(TD_KEY_AT(lo + step), key) < 0) {
			lo += step;
			step *= 2;
		}
		/* TD_KEY_AT(lo) < key; the first not below it is in (lo, hi]. */
		hi = lo + step < n ? lo + step : n;
		lo++;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (td_key_cmp(TD_KEY_AT(mid), key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
#undef TD_KEY_AT
	*j = lo;
	if (*j < n && !td_key_cmp((const void *)(base + *j * size + key_off), key))
		return (void *)(base + *j * size);
	return NULL;
}

/* td_key_seek over an array of structs with a `key` member, or of keys (TD_KEYS). */
#define TD_SEEK(arr, n, j, k)                                                                      \
	((__typeof__(&(arr)[0]))td_key_seek((arr), (n), sizeof((arr)[0]),                          \
					    __builtin_offsetof(__typeof__((arr)[0]), key), (j),    \
					    (k)))
#define TD_SEEK_KEYS(arr, n, j, k)                                                                 \
	((const struct td_key *)td_key_seek((arr), (n), sizeof(struct td_key), 0, (j), (k)))

#endif /* TD_COUNTS_H */
