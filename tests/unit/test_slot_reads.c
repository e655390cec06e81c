// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/model/slot_reads.h: the entry array, as the BPF
 * program fills it (struct td_val by slot, counts in two halves by epoch
 * parity), read into what each entry was charged since the last read, and
 * the exited entries that may leave the map.
 *
 * The array here is a plain one written by the test as the program would:
 * between two reads the CPUs charge the half that the next read closes;
 * right after a read they charge the other one.
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

#define NR_SLOTS 16
#define CG_A	 100
#define CG_B	 200

struct arr {
	struct td_val vals[NR_SLOTS];
	struct slot_seen seen[NR_SLOTS];
	struct slot_ref order[NR_SLOTS];
	struct slot_ref evict[NR_SLOTS];
	size_t n;
	unsigned int reads; /* the next read closes half reads & 1 */
	struct entry_set delta;
};

/* A new entry (id, cgroup) in @slot, as the program makes it; the order kept sorted. */
static void make(struct arr *a, __u32 slot, __u32 id, __u64 cgroup_id)
{
	struct td_val *v = &a->vals[slot];
	struct slot_ref r = { .key = { .id = id, .start_ns = id * 10ull, .cgroup_id = cgroup_id },
			      .slot = slot };
	size_t i = a->n;

	memset(v, 0, sizeof(*v));
	memset(&a->seen[slot], 0, sizeof(a->seen[slot])); /* as the collector does */
	v->key = r.key;
	v->tgid = id;
	snprintf(v->comm, sizeof(v->comm), "t%u", id);
	v->used = 1;
	while (i > 0 && td_key_cmp(&a->order[i - 1].key, &r.key) > 0) {
		a->order[i] = a->order[i - 1];
		i--;
	}
	a->order[i] = r;
	a->n++;
}

/* Charge @slot @slots (count i gets slots * (i + 1)) and @slices in @half. */
static void charge_half(struct arr *a, __u32 slot, unsigned int half, __u64 slots, __u64 slices)
{
	struct td_counts *c = &a->vals[slot].c[half & 1];

	for (int i = 0; i < TD_MAX_COUNTERS; i++)
		c->count[i] += slots * (i + 1);
	c->enabled_ns[0] += 10 * slots;
	c->running_ns[0] += 5 * slots;
	c->slices += slices;
}

/* Between two reads: the half the next read closes. */
static void charge(struct arr *a, __u32 slot, __u64 slots, __u64 slices)
{
	charge_half(a, slot, a->reads, slots, slices);
}

/* During the next read, after its flush: the half the read after it closes. */
static void charge_during(struct arr *a, __u32 slot, __u64 slots, __u64 slices)
{
	charge_half(a, slot, a->reads + 1, slots, slices);
}

static long do_read(struct arr *a)
{
	long gone = slots_read(a->vals, a->seen, a->order, a->n, a->reads & 1, &a->delta, a->evict);

	a->reads++;
	assert_true(gone >= 0);
	for (size_t i = 1; i < a->delta.nr; i++)
		assert_true(td_key_cmp(&a->delta.v[i - 1].key, &a->delta.v[i].key) < 0);
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
		assert_int_equal(e->c.count[i], slots * (i + 1));
	assert_int_equal(e->c.enabled_ns[0], 10 * slots);
	assert_int_equal(e->c.running_ns[0], 5 * slots);
	assert_int_equal(e->c.slices, slices);
	assert_int_equal(e->tgid, id);
	snprintf(comm, sizeof(comm), "t%u", id);
	assert_string_equal(e->comm, comm);
}

static struct arr *arr_new(void)
{
	struct arr *a = calloc(1, sizeof(*a));

	assert_non_null(a);
	return a;
}

static void arr_free(struct arr *a)
{
	entries_free(&a->delta);
	free(a);
}

/* Each read holds what each entry was charged since the one before, and only those. */
static void test_differences(void **state)
{
	struct arr *a = arr_new();

	(void)state;
	make(a, 3, 7, CG_A);
	make(a, 0, 2, CG_B);
	make(a, 5, 2, CG_A);
	charge(a, 3, 10, 1);
	charge(a, 0, 4, 2);
	assert_int_equal(do_read(a), 0);
	assert_int_equal(a->delta.nr, 2);
	assert_charged(a, 7, CG_A, 10, 1);
	assert_charged(a, 2, CG_B, 4, 2);

	/* The other half now: two of the three ran. */
	charge(a, 5, 3, 1);
	charge(a, 3, 1, 1);
	assert_int_equal(do_read(a), 0);
	assert_int_equal(a->delta.nr, 2);
	assert_charged(a, 2, CG_A, 3, 1);
	assert_charged(a, 7, CG_A, 1, 1);

	/* Back to the first half, which holds 10 already: only the 6 more count. */
	charge(a, 3, 6, 3);
	assert_int_equal(do_read(a), 0);
	assert_int_equal(a->delta.nr, 1);
	assert_charged(a, 7, CG_A, 6, 3);

	/* Nothing ran. */
	assert_int_equal(do_read(a), 0);
	assert_int_equal(a->delta.nr, 0);
	arr_free(a);
}

/* A change in any one field is a change: a moved slice carries no slice of its own. */
static void test_any_field(void **state)
{
	struct arr *a = arr_new();
	const struct entry *e;

	(void)state;
	make(a, 1, 1, CG_A);
	a->vals[1].c[0].count[TD_MAX_COUNTERS - 1] = 9;
	assert_int_equal(do_read(a), 0);
	assert_int_equal(a->delta.nr, 1);
	assert_int_equal(a->delta.v[0].c.count[TD_MAX_COUNTERS - 1], 9);
	assert_int_equal(a->delta.v[0].c.slices, 0);

	a->vals[1].c[1].running_ns[TD_MAX_GROUPS - 1] = 4;
	assert_int_equal(do_read(a), 0);
	e = delta_of(a, 1, CG_A);
	assert_non_null(e);
	assert_int_equal(e->c.running_ns[TD_MAX_GROUPS - 1], 4);
	assert_int_equal(e->c.count[TD_MAX_COUNTERS - 1], 0);
	arr_free(a);
}

/*
 * Eviction: only entries of a task already exited at the last read, not
 * charged since in either half; every cgroup's entry of that task, though
 * only the last one is flagged.
 */
static void test_evict(void **state)
{
	struct arr *a = arr_new();
	long gone;

	(void)state;
	make(a, 0, 1, CG_A); /* task 1 ran in A, then moved to B and exited there */
	make(a, 1, 1, CG_B);
	make(a, 2, 2, CG_A); /* exits, but a thread of it is charged during the next read */
	make(a, 3, 3, CG_A); /* alive, quiet */
	make(a, 4, 4, CG_A); /* exits only by the second read */
	for (__u32 s = 0; s < 5; s++)
		charge(a, s, 5, 1);
	a->vals[1].flags = TD_TASK_EXITED;
	a->vals[2].flags = TD_TASK_EXITED;
	/* Flagged at this read, and charged before it: nothing goes yet. */
	assert_int_equal(do_read(a), 0);
	assert_int_equal(a->delta.nr, 5);
	assert_int_equal(delta_of(a, 1, CG_B)->flags, TD_TASK_EXITED);

	charge_during(a, 2, 1, 1);
	a->vals[4].flags = TD_TASK_EXITED;
	gone = do_read(a);
	assert_int_equal(a->delta.nr, 0);
	/* Task 1, both cgroups. Not 2 (charged now), 3 (alive), 4 (flagged only now). */
	assert_int_equal(gone, 2);
	assert_int_equal(a->evict[0].slot, 0);
	assert_int_equal(a->evict[1].slot, 1);
	assert_int_equal(a->evict[1].key.cgroup_id, CG_B);

	/* Task 1 out of the order, as the collector does. Task 2's charge is in now. */
	memmove(&a->order[0], &a->order[2], 3 * sizeof(a->order[0]));
	a->n = 3;
	gone = do_read(a);
	assert_int_equal(a->delta.nr, 1);
	assert_charged(a, 2, CG_A, 1, 1);
	assert_int_equal(gone, 1);
	assert_int_equal(a->evict[0].key.id, 4);

	a->n = 2; /* task 4 out: the last in key order */
	gone = do_read(a);
	assert_int_equal(gone, 1);
	assert_int_equal(a->evict[0].key.id, 2);
	arr_free(a);
}

/* A slot given back and made again holds a new entry, counted from zero. */
static void test_slot_reused(void **state)
{
	struct arr *a = arr_new();

	(void)state;
	make(a, 2, 5, CG_A);
	charge(a, 2, 7, 1);
	assert_int_equal(do_read(a), 0);
	/* Gone (the collector zeroes the slot), then made again for another task. */
	a->n = 0;
	make(a, 2, 6, CG_B);
	charge(a, 2, 3, 1);
	assert_int_equal(do_read(a), 0);
	assert_int_equal(a->delta.nr, 1);
	assert_charged(a, 6, CG_B, 3, 1);
	arr_free(a);
}

/*
 * Many reads of random charges, some landing after a read in the half
 * written then: the differences summed with entries_add are, entry by
 * entry, everything charged.
 */
static void test_sum_of_reads(void **state)
{
	struct arr *a = arr_new();
	struct entry_set total = { 0 };
	__u64 want[NR_SLOTS] = { 0 }, slices[NR_SLOTS] = { 0 };
	unsigned int seed = 7;

	(void)state;
	for (__u32 s = 0; s < NR_SLOTS; s++)
		make(a, s, 100 - s, s & 1 ? CG_A : CG_B);
	for (int r = 0; r < 40; r++) {
		for (int k = 0; k < 6; k++) {
			__u32 s = rand_r(&seed) % NR_SLOTS;
			__u64 n = 1 + rand_r(&seed) % 50;

			if (rand_r(&seed) & 1)
				charge(a, s, n, 1);
			else
				charge_during(a, s, n, 1);
			want[s] += n;
			slices[s]++;
		}
		assert_int_equal(do_read(a), 0);
		assert_int_equal(entries_add(&total, &a->delta), 0);
	}
	/* The half written after the last read is closed by one more. */
	assert_int_equal(do_read(a), 0);
	assert_int_equal(entries_add(&total, &a->delta), 0);
	for (__u32 s = 0; s < NR_SLOTS; s++) {
		const struct entry *e = NULL;

		for (size_t i = 0; i < total.nr; i++)
			if (total.v[i].key.id == 100 - s)
				e = &total.v[i];
		if (!want[s]) {
			assert_null(e);
			continue;
		}
		assert_non_null(e);
		assert_int_equal(e->c.count[0], want[s]);
		assert_int_equal(e->c.count[3], 4 * want[s]);
		assert_int_equal(e->c.slices, slices[s]);
	}
	entries_free(&total);
	arr_free(a);
}

/*
 * The delta's width decides how far a read compares and subtracts: two
 * runs' arrays, a wide one and a narrow one, read in turn in one process,
 * each give their own counters; a charge past the narrow width only is no
 * difference there, while the wide run still sees one of its counters move.
 */
static void test_width_per_read(void **state)
{
	const struct td_width wide = { .counters = 3, .groups = 1 },
			      narrow = { .counters = 1, .groups = 1 };
	struct arr *w = arr_new(), *n = arr_new();
	const struct td_counts *c;

	(void)state;
	w->delta.width = wide;
	n->delta.width = narrow;
	make(w, 0, 1, CG_A);
	make(n, 0, 1, CG_A);
	charge(w, 0, 2, 1);
	charge(n, 0, 3, 1);
	assert_int_equal(do_read(w), 0);
	assert_int_equal(do_read(n), 0);
	assert_int_equal(w->delta.nr, 1);
	c = &w->delta.v[0].c;
	assert_int_equal(c->count[0], 2);
	assert_int_equal(c->count[1], 4);
	assert_int_equal(c->count[2], 6);
	assert_int_equal(c->count[3], 0); /* past the width: zero, though the array holds 8 */
	assert_int_equal(n->delta.nr, 1);
	c = &n->delta.v[0].c;
	assert_int_equal(c->count[0], 3);
	assert_int_equal(c->count[1], 0);
	assert_int_equal(c->enabled_ns[0], 30);

	/* Counter 2 moves in both: inside the wide width, past the narrow one. */
	w->vals[0].c[w->reads & 1].count[2] += 5;
	n->vals[0].c[n->reads & 1].count[2] += 5;
	assert_int_equal(do_read(w), 0);
	assert_int_equal(do_read(n), 0);
	assert_int_equal(w->delta.nr, 1);
	assert_int_equal(w->delta.v[0].c.count[2], 5);
	assert_int_equal(w->delta.v[0].c.count[0], 0);
	assert_int_equal(n->delta.nr, 0);
	arr_free(w);
	arr_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_differences),
		cmocka_unit_test(test_any_field),
		cmocka_unit_test(test_evict),
		cmocka_unit_test(test_slot_reused),
		cmocka_unit_test(test_sum_of_reads),
		cmocka_unit_test(test_width_per_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
