/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slot reads: the entry array (by slot, two packed halves of counts,
 * td_entry_bytes() in tdtrace.h, as the BPF program fills it) read once per
 * interval, only where the program marked an entry charged: each such
 * entry's closed half is what it was charged in the interval, unpacked
 * into a struct entry, and zeroed for the next time that half closes.
 * Who each slot is (its key and name) comes from the loader's own table
 * (struct slot_meta), filled from the program's td_names records. Pure:
 * the caller maps the array and the bits, and gives freed slots back.
 */
#ifndef TD_SLOT_READS_H
#define TD_SLOT_READS_H

#include <stdbool.h>
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

/* What a value holds: the run's counters and groups, and whether times are kept per entry. */
struct slot_packing {
	int counters;
	int groups;
	bool times;
	size_t stride; /* td_entry_bytes() of the above */
};

struct slot_packing slot_packing(int counters, int groups, bool times);

/* By slot: who it is, as the program said (TD_NAME_NEW, TD_NAME_EXEC). */
struct slot_meta {
	struct td_key key;
	__u32 tgid;
	__u8 listed; /* in use: the key is known, and the slot in the sorted list */
	__u8 exited; /* seen flagged TD_TASK_EXITED, or a task of such an entry */
	__u8 pad[2];
	__u64 read_at; /* the read that last found it charged */
	char comm[TD_COMM_LEN];
};

/* The entry of slot @slot in @vals: its counts. */
static inline void *slot_entry(void *vals, const struct slot_packing *pk, __u32 slot)
{
	return (char *)vals + (size_t)slot * pk->stride;
}

/* Half @half of the packed counts that start at @counts (after a value's header). */
static inline __u64 *packed_half(void *counts, const struct slot_packing *pk, unsigned int half)
{
	return (__u64 *)counts + (half & 1) * TD_HALF_WORDS(pk->counters, pk->groups, pk->times);
}

/* Half @half of entry @e's counts. */
static inline __u64 *slot_half(void *e, const struct slot_packing *pk, unsigned int half)
{
	return packed_half(e, pk, half);
}

/* @w, a packed half, into @c (zeroed first). Returns TD_TASK_EXITED if it says so, else 0. */
__u32 slot_unpack(const __u64 *w, const struct slot_packing *pk, struct td_counts *c);

/* Is packed half @w all zero: nothing charged there? */
bool slot_half_empty(const __u64 *w, const struct slot_packing *pk);

/*
 * The slots whose bit is set in @bits (@words words), ascending, into
 * @out (room for 64 * @words), each bit cleared. Returns how many.
 */
size_t slot_bits_take(__u64 *bits, size_t words, __u32 *out);

/*
 * Read the @n charged slots @slots (each listed in @meta) of @vals, whose
 * half @closed no program writes any more: into @delta (sorted by key),
 * each entry's closed half, name from @meta and flags from its value; the
 * half zeroed. @meta[slot].read_at is set to @read. Returns 0 or -ENOMEM.
 */
int slots_read(void *vals, const struct slot_packing *pk, struct slot_meta *meta,
	       const __u32 *slots, size_t n, unsigned int closed, __u64 read,
	       struct entry_set *delta);

/*
 * After slots_read: every entry of @delta's tasks flagged TD_TASK_EXITED
 * (a task that moved has one per cgroup, in @order, @n sorted by key)
 * marked exited in @meta and added to @pending, which holds *@np slots
 * and has room for every slot. Returns how many were added.
 */
size_t slots_note_exits(const struct entry_set *delta, struct slot_meta *meta,
			const struct slot_ref *order, size_t n, __u32 *pending, size_t *np);

/*
 * Of the exited slots in @pending (*@np): those that may leave the map at
 * read @read go to @evict (with their keys), the others stay: not charged
 * in the closed half (read_at before @read), and nothing in the half being
 * written now (@closed's other). Returns how many went.
 */
size_t slots_exited(void *vals, const struct slot_packing *pk, const struct slot_meta *meta,
		    __u32 *pending, size_t *np, unsigned int closed, __u64 read,
		    struct slot_ref *evict);

#endif /* TD_SLOT_READS_H */
