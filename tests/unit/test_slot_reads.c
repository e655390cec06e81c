// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/model/slot_reads.h: the entry array as the BPF
 * program fills it (two packed halves per
 * slot, by epoch parity), read only where the program set a slot's bit,
 * each closed half unpacked and zeroed, and the entries of exited tasks
 * that may leave the map.
 *
 * The array here is a plain one written by the test as the program would:
 * between two reads the CPUs charge the half that the next read closes
 * (and set its bit); right after a read they charge the other one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/counts.h"
#include "model/entries.h"
#include "model/slot_reads.h"

#define NR_SLOTS 130 /* three words of bits */
#define CG_A	 100
#define CG_B	 200

struct arr {
	struct slot_packing pk;
	void *vals;
	__u64 bits[2][(NR_SLOTS + 63) / 64];
	struct slot_meta meta[NR_SLOTS];
	struct slot_ref order[NR_SLOTS];
	struct slot_ref evict[NR_SLOTS];
	__u32 charged[192];
	__u32 pending[NR_SLOTS];
	size_t n, np;
	__u64 reads; /* reads done; the next closes half reads & 1 */
	struct entry_set delta;
};

static struct arr *arr_new(int counters, int groups, bool times)
{
	struct arr *a = calloc(1, sizeof(*a));

	assert_non_null(a);
	a->pk = slot_packing(counters, groups, times);
	a->vals = calloc(NR_SLOTS, a->pk.stride);
	assert_non_null(a->vals);
	a->delta.width = (struct td_width){ counters, groups };
	return a;
}

static void arr_free(struct arr *a)
{
	free(a->vals);
	entries_free(&a->delta);
	free(a);
}

/* A new entry (id, cgroup) in @slot, as the program makes it and td_names tells the loader. */
static void make(struct arr *a, __u32 slot, __u32 id, __u64 cgroup_id)
{
	struct slot_ref r = { .key = { .id = id, .start_ns = id * 10ull, .cgroup_id = cgroup_id },
			      .slot = slot };
	struct slot_meta *m = &a->meta[slot];
	size_t i = a->n;

	memset(m, 0, sizeof(*m));
	m->key = r.key;
	m->tgid = id;
	snprintf(m->comm, sizeof(m->comm), "t%u", id);
	m->listed = 1;
	while (i > 0 && td_key_cmp(&a->order[i - 1].key, &r.key) > 0) {
		a->order[i] = a->order[i - 1];
		i--;
	}
	a->order[i] = r;
	a->n++;
}

/* Charge @slot @slots (count i gets slots * (i + 1)) and @slices in @half, its bit set. */
static void charge_half(struct arr *a, __u32 slot, unsigned int half, __u64 slots, __u64 slices)
{
	__u64 *w = slot_half(slot_entry(a->vals, &a->pk, slot), &a->pk, half);
	int nr = a->pk.counters, ng = a->pk.groups;

	w[TD_HALF_SLICES] += slices;
	for (int i = 0; i < nr; i++)
		w[TD_HALF_COUNT(i)] += slots * (i + 1);
	if (a->pk.times) {
		w[TD_HALF_ENABLED(nr, 0)] += 10 * slots;
		w[TD_HALF_RUNNING(nr, ng, 0)] += 5 * slots;
	}
	a->bits[half & 1][slot / 64] |= 1ull << (slot % 64);
}

static void charge(struct arr *a, __u32 slot, __u64 slots, __u64 slices)
{
	charge_half(a, slot, a->reads, slots, slices);
}

/* During the next read, after its flush: the half the read after it closes. */
static void charge_during(struct arr *a, __u32 slot, __u64 slots, __u64 slices)
{
	charge_half(a, slot, a->reads + 1, slots, slices);
}

/* One read as the collector does it; returns how many entries may leave. */
static size_t do_read(struct arr *a)
{
	unsigned int closed = a->reads & 1;
	size_t n = slot_bits_take(a->bits[closed], (NR_SLOTS + 63) / 64, a->charged);
	size_t gone;

	a->reads++;
	assert_int_equal(
		slots_read(a->vals, &a->pk, a->meta, a->charged, n, closed, a->reads, &a->delta),
		0);
	for (size_t i = 1; i < a->delta.nr; i++)
		assert_true(td_key_cmp(&a->delta.v[i - 1].key, &a->delta.v[i].key) < 0);
	slots_note_exits(&a->delta, a->meta, a->order, a->n, a->pending, &a->np);
	gone = slots_exited(a->vals, &a->pk, a->meta, a->pending, &a->np, closed, a->reads,
			    a->evict);
	return gone;
}

static const struct entry *delta_of(const struct arr *a, __u32 id, __u64 cgroup_id)
{
	for (size_t i = 0; i < a->delta.nr; i++)
		if (a->delta.v[i].key.id == id && a->delta.v[i].key.cgroup_id == cgroup_id)
			return &a->delta.v[i];
	return NULL;
}

static void assert_charged(const struct arr *a, __u32 id, __u64 cgroup_id, __u64 slots,
			   __u64 slices)
{
	const struct entry *e = delta_of(a, id, cgroup_id);
	char comm[TD_COMM_LEN];

	if (!e)
		fail_msg("no difference for (%u, %llu)", id, (unsigned long long)cgroup_id);
	for (int i = 0; i < TD_MAX_COUNTERS; i++)
		assert_int_equal(e->c.count[i], i < a->pk.counters ? slots * (i + 1) : 0);
	assert_int_equal(e->c.enabled_ns[0], a->pk.times ? 10 * slots : 0);
	assert_int_equal(e->c.running_ns[0], a->pk.times ? 5 * slots : 0);
	assert_int_equal(e->c.slices, slices);
	assert_int_equal(e->tgid, id);
	snprintf(comm, sizeof(comm), "t%u", id);
	assert_string_equal(e->comm, comm);
}

/*
 * Two halves of slices, counters and (with times) each group's two times.
 * Issue 25's budget: level 1 on Intel fits 160 bytes, Ice Lake's 7
 * counters in one group (slots, 4 metrics, 2 corrections) included.
 */
static void test_sizes(void **state)
{
	(void)state;
	assert_int_equal(slot_packing(7, 1, true).stride, 2 * 8 * (1 + 7 + 2));
	assert_true(slot_packing(7, 1, true).stride <= 160);
	assert_int_equal(slot_packing(1, 1, false).stride, 2 * 8 * 2); /* --software */
	assert_int_equal(slot_packing(24, 5, true).stride, 2 * 8 * (1 + 24 + 10));
	/* Out of range: the whole struct, never past it. */
	assert_int_equal(slot_packing(0, 0, true).stride,
			 td_entry_bytes(TD_MAX_COUNTERS, TD_MAX_GROUPS, 1));
}

static void test_unpack_round_trip(void **state)
{
	struct slot_packing pk = slot_packing(3, 2, true);
	__u64 w[TD_HALF_WORDS(3, 2, 1)];
	struct td_counts c;

	(void)state;
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		w[i] = 100 + i;
	slot_unpack(w, &pk, &c);
	assert_int_equal(c.slices, 100);
	assert_int_equal(c.count[0], 101);
	assert_int_equal(c.count[2], 103);
	assert_int_equal(c.count[3], 0);
	assert_int_equal(c.enabled_ns[0], 104);
	assert_int_equal(c.enabled_ns[1], 105);
	assert_int_equal(c.running_ns[0], 106);
	assert_int_equal(c.running_ns[1], 107);
	assert_int_equal(c.enabled_ns[2], 0);
	assert_false(slot_half_empty(w, &pk));
	memset(w, 0, sizeof(w));
	assert_true(slot_half_empty(w, &pk));
}

static void test_bits_take(void **state)
{
	__u64 bits[3] = { 1ull << 5 | 1ull << 63, 0, 1ull };
	__u32 out[192];

	(void)state;
	assert_int_equal(slot_bits_take(bits, 3, out), 3);
	assert_int_equal(out[0], 5);
	assert_int_equal(out[1], 63);
	assert_int_equal(out[2], 128);
	assert_int_equal(bits[0] | bits[1] | bits[2], 0);
	assert_int_equal(slot_bits_take(bits, 3, out), 0);
}

/* Only the charged slots are read, each what it got in the interval; the half is zeroed. */
static void test_reads_charged_only(void **state)
{
	struct arr *a = arr_new(5, 1, true);

	(void)state;
	make(a, 7, 42, CG_A);
	make(a, 70, 41, CG_B);
	make(a, 129, 43, CG_A);
	charge(a, 7, 100, 3);
	charge(a, 70, 20, 1);
	do_read(a);
	assert_int_equal(a->delta.nr, 2);
	assert_charged(a, 42, CG_A, 100, 3);
	assert_charged(a, 41, CG_B, 20, 1);
	assert_null(delta_of(a, 43, CG_A)); /* asleep: not visited */
	assert_true(slot_half_empty(slot_half(slot_entry(a->vals, &a->pk, 7), &a->pk, 0), &a->pk));
	assert_int_equal(a->meta[7].read_at, 1);
	assert_int_equal(a->meta[129].read_at, 0);

	/* The other half next: charged during the first read, and since. */
	charge(a, 129, 1, 1); /* after read 1's flush: half 1, closed by read 2 */
	do_read(a);
	assert_int_equal(a->delta.nr, 1);
	assert_charged(a, 43, CG_A, 1, 1);
	/* Half 0 again: slot 7 charged once more, its earlier counts gone from it. */
	charge(a, 7, 5, 1);
	do_read(a);
	assert_int_equal(a->delta.nr, 1);
	assert_charged(a, 42, CG_A, 5, 1);
	arr_free(a);
}

/* --software: no times are kept per entry, and none come out. */
static void test_without_times(void **state)
{
	struct arr *a = arr_new(1, 1, false);

	(void)state;
	make(a, 0, 9, CG_A);
	charge(a, 0, 7, 2);
	do_read(a);
	assert_charged(a, 9, CG_A, 7, 2);
	arr_free(a);
}

/*
 * An exited task's entries leave after an interval without charges: the
 * one flagged at its final switch, and the one in the cgroup it left.
 */
static void test_exit_eviction(void **state)
{
	struct arr *a = arr_new(5, 1, true);
	size_t gone;

	(void)state;
	make(a, 3, 50, CG_A);
	make(a, 4, 50, CG_B);
	make(a, 5, 51, CG_A);
	charge(a, 3, 10, 1);
	charge(a, 4, 10, 1);
	do_read(a); /* read 1: both charged, nothing exited */
	assert_int_equal(a->np, 0);

	/* Read 2: moved to CG_B, exited there; CG_A's entry not charged. */
	charge(a, 4, 3, 1);
	/* Its final switch: the program sets the top bit of that half's slices. */
	slot_half(slot_entry(a->vals, &a->pk, 4), &a->pk, a->reads)[TD_HALF_SLICES] |=
		TD_HALF_EXITED;
	gone = do_read(a);
	assert_int_equal(a->delta.v[0].flags, TD_TASK_EXITED);
	assert_true(a->meta[3].exited && a->meta[4].exited);
	assert_false(a->meta[5].exited);
	/* CG_A's entry was charged in neither half: it may go now; CG_B's was charged. */
	assert_int_equal(gone, 1);
	assert_int_equal(a->evict[0].slot, 3);
	assert_int_equal(a->evict[0].key.cgroup_id, CG_A);
	assert_int_equal(a->np, 1);

	/* Read 3: a slice still being charged in the open half keeps it. */
	charge_during(a, 4, 1, 0);
	gone = do_read(a);
	assert_int_equal(gone, 0);
	assert_int_equal(a->np, 1);
	/* Read 4: that half closed, read and zeroed; read 5: nothing anywhere. */
	gone = do_read(a);
	assert_charged(a, 50, CG_B, 1, 0);
	assert_int_equal(gone, 0);
	gone = do_read(a);
	assert_int_equal(gone, 1);
	assert_int_equal(a->evict[0].slot, 4);
	assert_int_equal(a->np, 0);
	arr_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),	      cmocka_unit_test(test_unpack_round_trip),
		cmocka_unit_test(test_bits_take),     cmocka_unit_test(test_reads_charged_only),
		cmocka_unit_test(test_without_times), cmocka_unit_test(test_exit_eviction),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
