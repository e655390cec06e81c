// SPDX-License-Identifier: GPL-2.0
/* The entry array read where it was charged, slot by slot. See slot_reads.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "model/counts.h"
#include "model/slot_reads.h"

struct slot_packing slot_packing(int counters, int groups, bool times)
{
	struct slot_packing pk = { .counters = counters, .groups = groups, .times = times };

	if (pk.counters < 1 || pk.counters > TD_MAX_COUNTERS)
		pk.counters = TD_MAX_COUNTERS;
	if (pk.groups < 1 || pk.groups > TD_MAX_GROUPS)
		pk.groups = TD_MAX_GROUPS;
	pk.stride = td_entry_bytes(pk.counters, pk.groups, pk.times);
	return pk;
}

__u32 slot_unpack(const __u64 *w, const struct slot_packing *pk, struct td_counts *c)
{
	int nr = pk->counters, ng = pk->groups;

	memset(c, 0, sizeof(*c));
	c->slices = w[TD_HALF_SLICES] & ~TD_HALF_EXITED;
	memcpy(c->count, &w[TD_HALF_COUNT(0)], nr * sizeof(__u64));
	if (pk->times) {
		memcpy(c->enabled_ns, &w[TD_HALF_ENABLED(nr, 0)], ng * sizeof(__u64));
		memcpy(c->running_ns, &w[TD_HALF_RUNNING(nr, ng, 0)], ng * sizeof(__u64));
	}
	return w[TD_HALF_SLICES] & TD_HALF_EXITED ? TD_TASK_EXITED : 0;
}

bool slot_half_empty(const __u64 *w, const struct slot_packing *pk)
{
	for (int i = 0; i < TD_HALF_WORDS(pk->counters, pk->groups, pk->times); i++)
		if (w[i])
			return false;
	return true;
}

size_t slot_bits_take(__u64 *bits, size_t words, __u32 *out)
{
	size_t n = 0;

	for (size_t k = 0; k < words; k++) {
		__u64 b;

		/* Mostly zero: one load per 64 slots. */
		if (!bits[k])
			continue;
		b = bits[k];
		bits[k] = 0;
		while (b) {
			out[n++] = (__u32)(k * 64 + __builtin_ctzll(b));
			b &= b - 1;
		}
	}
	return n;
}

static int cmp_entry_key(const void *a, const void *b)
{
	return td_key_cmp(&((const struct entry *)a)->key, &((const struct entry *)b)->key);
}

int slots_read(void *vals, const struct slot_packing *pk, struct slot_meta *meta,
	       const __u32 *slots, size_t n, unsigned int closed, __u64 read,
	       struct entry_set *delta)
{
	size_t words = TD_HALF_WORDS(pk->counters, pk->groups, pk->times);

	if (entries_reserve(delta, n))
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		__u64 *w = slot_half(slot_entry(vals, pk, slots[k]), pk, closed);
		struct slot_meta *m = &meta[slots[k]];
		struct entry *d = &delta->v[k];

		d->key = m->key;
		d->flags = slot_unpack(w, pk, &d->c);
		d->tgid = m->tgid;
		memcpy(d->comm, m->comm, sizeof(d->comm));
		/* Closed: no program writes it until the loader's next flush. */
		memset(w, 0, words * sizeof(*w));
		m->read_at = read;
	}
	delta->nr = n;
	if (n > 1)
		qsort(delta->v, n, sizeof(*delta->v), cmp_entry_key);
	return 0;
}

/* The first of @order's @n refs whose task is @key's, or @n. */
static size_t first_of_task(const struct slot_ref *order, size_t n, const struct td_key *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct td_key *k = &order[mid].key;

		if (k->id < key->id || (k->id == key->id && k->start_ns < key->start_ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t slots_note_exits(const struct entry_set *delta, struct slot_meta *meta,
			const struct slot_ref *order, size_t n, __u32 *pending, size_t *np)
{
	size_t added = 0;

	for (size_t i = 0; i < delta->nr; i++) {
		const struct entry *e = &delta->v[i];

		if (!(e->flags & TD_TASK_EXITED))
			continue;
		for (size_t k = first_of_task(order, n, &e->key);
		     k < n && td_same_task(&order[k].key, &e->key); k++) {
			struct slot_meta *m = &meta[order[k].slot];

			if (m->exited)
				continue;
			m->exited = 1;
			pending[(*np)++] = order[k].slot;
			added++;
		}
	}
	return added;
}

size_t slots_exited(void *vals, const struct slot_packing *pk, const struct slot_meta *meta,
		    __u32 *pending, size_t *np, unsigned int closed, __u64 read,
		    struct slot_ref *evict)
{
	size_t kept = 0, ne = 0;

	for (size_t i = 0; i < *np; i++) {
		__u32 slot = pending[i];
		void *e = slot_entry(vals, pk, slot);

		/*
		 * Exited a whole interval ago, and charged neither before this
		 * read nor since (the other half is being written now): its
		 * last slice is behind it.
		 */
		if (meta[slot].read_at != read && slot_half_empty(slot_half(e, pk, !closed), pk))
			evict[ne++] = (struct slot_ref){ .key = meta[slot].key, .slot = slot };
		else
			pending[kept++] = slot;
	}
	*np = kept;
	return ne;
}
