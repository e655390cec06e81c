// SPDX-License-Identifier: GPL-2.0
/* The entry array read into differences, slot by slot. See slot_reads.h. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "model/counts.h"
#include "model/slot_reads.h"

long slots_read(const struct td_val *vals, struct slot_seen *seen, const struct slot_ref *order,
		size_t n, unsigned int closed, struct entry_set *delta, struct slot_ref *evict)
{
	unsigned int h = closed & 1;
	struct td_width w = delta->width;
	size_t nd = 0, ne = 0;

	if (entries_reserve(delta, n))
		return -ENOMEM;
	for (size_t i = 0, end; i < n; i = end) {
		bool was_exited = false;

		/*
		 * A task's entries (one per cgroup and PMU) are neighbours in key
		 * order. Only the entry charged at its final switch is flagged.
		 */
		for (end = i; end < n && td_same_task(&order[end].key, &order[i].key); end++)
			was_exited |= seen[order[end].slot].flags & TD_TASK_EXITED;
		for (size_t k = i; k < end; k++) {
			const struct td_val *v = &vals[order[k].slot];
			struct slot_seen *s = &seen[order[k].slot];
			const struct td_counts *now = &v->c[h];

			if (!td_counts_equal(now, &s->half[h], w)) {
				struct entry *d = &delta->v[nd++];

				d->key = order[k].key;
				td_counts_sub(now, &s->half[h], &d->c, w);
				d->tgid = v->tgid;
				d->flags = v->flags;
				memcpy(d->comm, v->comm, sizeof(d->comm));
				td_counts_add(&s->half[h], &d->c, w);
			} else if (was_exited && td_counts_equal(&v->c[!h], &s->half[!h], w)) {
				/*
				 * Exited a whole interval ago, and charged neither
				 * before this read nor since (the other half is being
				 * written now): its last slice is behind it.
				 */
				evict[ne++] = order[k];
			}
			s->flags = v->flags;
		}
	}
	delta->nr = nd;
	return (long)ne;
}
