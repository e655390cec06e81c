/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slot reads: the entry array (struct td_val by slot, as the BPF program
 * fills it) read once per interval, half by half, and turned straight into
 * what changed since the last read: the entries charged in between, in key
 * order, and the entries of exited tasks that may leave the map. Each slot
 * keeps what its halves held when last read, so a read touches each entry
 * once and never builds the whole cumulative set. Pure: the caller maps the
 * array, lists the slots in use and gives freed slots back.
 */
#ifndef TD_SLOT_READS_H
#define TD_SLOT_READS_H

#include <stddef.h>
#include <linux/types.h>
#include "tdtrace.h"
#include "model/entries.h"

/* An entry in use: its key, and its slot in the array. Sorted by key. */
struct slot_ref {
	struct td_key key;
	__u32 slot;
	__u32 pad;
};

/* By slot: each half as it was when last read whole, and the flags then. */
struct slot_seen {
	struct td_counts half[2];
	__u32 flags; /* TD_TASK_EXITED */
	__u32 pad;
};

/*
 * Read the @n entries of @order (sorted by key) from @vals, whose half
 * @closed no program writes any more while the other one is being
 * charged. Puts in @delta (sorted) every entry whose closed half moved
 * since @seen, with that difference, and updates @seen. Puts in @evict the
 * entries that may leave the map: of a task already exited at the last
 * read, charged in neither half since. Returns how many went into @evict
 * (at most @n), or -ENOMEM. A slot newly in use must come with @seen
 * zeroed. Counts are compared and subtracted within @delta's width (the
 * run's: what the program fills).
 */
long slots_read(const struct td_val *vals, struct slot_seen *seen, const struct slot_ref *order,
		size_t n, unsigned int closed, struct entry_set *delta, struct slot_ref *evict);

#endif /* TD_SLOT_READS_H */
