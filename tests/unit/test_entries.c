// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/model/entries.h: sets of (task, cgroup) entries as
 * read from the BPF map, their sums, the conservation check, folding, and
 * the rows report.c reads. Reading the map into differences and eviction
 * are test_slot_reads.c's.
 *
 * Fixtures use counts(slots, slices): role i is slots * (i + 1), enabled
 * 10 * slots, running 5 * slots. Differences and sums of such counts are
 * again of that form, so every expected value below is worked out by hand
 * from the slots and slices alone, and a role or field mixed up shows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/entries.h"
#include "sorted_snapshot.h"

#define CG_A 100
#define CG_B 200
#define CG_C 300

static struct td_counts counts(__u64 slots, __u64 slices)
{
	struct td_counts c;

	memset(&c, 0, sizeof(c));
	for (int i = 0; i < TD_MAX_COUNTERS; i++)
		c.count[i] = slots * (i + 1);
	c.enabled_ns[0] = 10 * slots;
	c.running_ns[0] = 5 * slots;
	c.slices = slices;
	return c;
}

static struct entry ent(__u32 id, __u64 start_ns, __u64 cgroup_id, __u64 slots, __u64 slices)
{
	struct entry e;

	memset(&e, 0, sizeof(e));
	e.key.id = id;
	e.key.start_ns = start_ns;
	e.key.cgroup_id = cgroup_id;
	e.c = counts(slots, slices);
	e.tgid = id;
	snprintf(e.comm, sizeof(e.comm), "t%u", id);
	return e;
}

static struct entry exited(struct entry e)
{
	e.flags |= TD_TASK_EXITED;
	return e;
}

static struct entry named(struct entry e, const char *comm)
{
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	return e;
}

static void push(struct entry_set *s, struct entry e)
{
	assert_int_equal(entries_reserve(s, s->nr + 1), 0);
	s->v[s->nr++] = e;
}

static void assert_counts_are(const struct td_counts *c, __u64 slots, __u64 slices)
{
	for (int i = 0; i < TD_MAX_COUNTERS; i++)
		if (c->count[i] != slots * (i + 1))
			fail_msg("count[%d] is %llu, expected %llu * %d", i,
				 (unsigned long long)c->count[i], (unsigned long long)slots, i + 1);
	assert_int_equal(c->enabled_ns[0], 10 * slots);
	assert_int_equal(c->running_ns[0], 5 * slots);
	assert_int_equal(c->slices, slices);
}

static void assert_key_is(const struct td_key *k, __u32 id, __u64 start_ns, __u64 cgroup_id)
{
	if (k->id != id || k->start_ns != start_ns || k->cgroup_id != cgroup_id)
		fail_msg("key (%u, %llu, %llu), expected (%u, %llu, %llu)", k->id,
			 (unsigned long long)k->start_ns, (unsigned long long)k->cgroup_id, id,
			 (unsigned long long)start_ns, (unsigned long long)cgroup_id);
}

static void assert_key(const struct entry *e, __u32 id, __u64 start_ns, __u64 cgroup_id)
{
	assert_key_is(&e->key, id, start_ns, cgroup_id);
}

static void assert_entry(const struct entry *e, __u32 id, __u64 start_ns, __u64 cgroup_id,
			 __u64 slots, __u64 slices)
{
	assert_key(e, id, start_ns, cgroup_id);
	assert_counts_are(&e->c, slots, slices);
}

static void assert_sorted(const struct entry_set *s)
{
	for (size_t i = 1; i < s->nr; i++)
		if (td_key_cmp(&s->v[i - 1].key, &s->v[i].key) >= 0)
			fail_msg("entries %zu and %zu are out of order", i - 1, i);
}

/* Every field of the totals distinct and large enough to subtract from. */
static void fill_totals(struct td_cpu_totals *t, __u64 base)
{
	__u64 *p = (__u64 *)t;

	for (size_t i = 0; i < sizeof(*t) / sizeof(__u64); i++)
		p[i] = base * (i + 1);
}

/*
 * New entries merged into the sum in place, from the back, among old ones
 * the seek gallops over: every key once, in order, the shared one summed,
 * exited kept once said.
 */
static void test_add_merges_in_place(void **state)
{
	struct entry_set acc = { 0 }, d = { 0 };

	(void)state;
	for (__u32 id = 2; id <= 200; id += 2)
		push(&acc, ent(id, 1, 7, id, 1));
	acc.v[1] = exited(acc.v[1]); /* id 4 */
	push(&d, ent(1, 1, 7, 5, 1));
	push(&d, ent(4, 1, 7, 6, 2));
	push(&d, ent(5, 1, 7, 7, 1));
	push(&d, ent(151, 1, 7, 8, 1));
	push(&d, ent(201, 1, 7, 9, 1));
	assert_int_equal(entries_add(&acc, &d), 0);
	assert_int_equal(acc.nr, 100 + 4);
	assert_sorted(&acc);
	assert_entry(&acc.v[0], 1, 1, 7, 5, 1);
	assert_entry(&acc.v[1], 2, 1, 7, 2, 1);
	assert_entry(&acc.v[2], 4, 1, 7, 4 + 6, 1 + 2);
	assert_true(acc.v[2].flags & TD_TASK_EXITED);
	assert_entry(&acc.v[3], 5, 1, 7, 7, 1);
	assert_entry(&acc.v[acc.nr - 1], 201, 1, 7, 9, 1);
	assert_entry(&acc.v[77], 151, 1, 7, 8, 1); /* 1, 2..150 (75), 151 */
	entries_free(&acc);
	entries_free(&d);
}

/* ------------------------------------------------------------ td_key_cmp */

static void test_key_cmp(void **state)
{
	struct td_key a = { .id = 5, .start_ns = 100, .cgroup_id = 7 }, b = a;

	(void)state;
	assert_int_equal(td_key_cmp(&a, &b), 0);

	/* cgroup_id last. */
	b.cgroup_id = 8;
	assert_true(td_key_cmp(&a, &b) < 0);
	assert_true(td_key_cmp(&b, &a) > 0);

	/* start_ns before cgroup_id: a later start wins over a smaller cgroup. */
	b.start_ns = 101;
	b.cgroup_id = 0;
	assert_true(td_key_cmp(&a, &b) < 0);
	assert_true(td_key_cmp(&b, &a) > 0);

	/* id first: a smaller id is smaller whatever its start and cgroup. */
	b = (struct td_key){ .id = 4, .start_ns = ~0ULL, .cgroup_id = ~0ULL };
	assert_true(td_key_cmp(&b, &a) < 0);
	assert_true(td_key_cmp(&a, &b) > 0);

	/* Extremes: no overflow from subtracting. */
	a = (struct td_key){ .id = 0xffffffff };
	b = (struct td_key){ .id = 0 };
	assert_true(td_key_cmp(&a, &b) > 0);
	assert_true(td_key_cmp(&b, &a) < 0);
	a = (struct td_key){ .id = 1, .start_ns = ~0ULL };
	b = (struct td_key){ .id = 1, .start_ns = 0 };
	assert_true(td_key_cmp(&a, &b) > 0);
	a = (struct td_key){ .id = 1, .start_ns = 2, .cgroup_id = 1ULL << 63 };
	b = (struct td_key){ .id = 1, .start_ns = 2, .cgroup_id = 1 };
	assert_true(td_key_cmp(&a, &b) > 0);
	assert_true(td_key_cmp(&b, &a) < 0);

	/* The PMU comes last: it parts entries that are otherwise the same. */
	a = (struct td_key){ .id = 3, .pmu = 1, .start_ns = 9, .cgroup_id = 4 };
	b = (struct td_key){ .id = 3, .pmu = 2, .start_ns = 9, .cgroup_id = 4 };
	assert_true(td_key_cmp(&a, &b) < 0);
	b = (struct td_key){ .id = 3, .pmu = 0, .start_ns = 9, .cgroup_id = 5 };
	assert_true(td_key_cmp(&a, &b) < 0);
}

/* entries_sort orders by td_key_cmp; reserve keeps contents; free empties. */
static void test_sort_reserve_free(void **state)
{
	static const struct td_key order[] = {
		{ .id = 0, .start_ns = 0, .cgroup_id = 0 },
		{ .id = 1, .start_ns = 5, .cgroup_id = CG_B },
		{ .id = 1, .start_ns = 9, .cgroup_id = CG_A },
		{ .id = 1, .start_ns = 9, .cgroup_id = CG_B },
		{ .id = 2, .start_ns = 0, .cgroup_id = CG_C },
		{ .id = 0xffffffff, .start_ns = 0, .cgroup_id = CG_A },
	};
	struct entry_set s = { 0 };
	struct entry *v;

	(void)state;
	/* Scrambled; each entry's slots is its place in order[], so values travel along. */
	push(&s, ent(1, 9, CG_B, 3, 1));
	push(&s, ent(0xffffffff, 0, CG_A, 5, 1));
	push(&s, ent(0, 0, 0, 0, 1));
	push(&s, ent(2, 0, CG_C, 4, 1));
	push(&s, ent(1, 9, CG_A, 2, 1));
	push(&s, ent(1, 5, CG_B, 1, 1));
	entries_sort(&s);
	assert_int_equal(s.nr, 6);
	for (size_t i = 0; i < s.nr; i++) {
		assert_entry(&s.v[i], order[i].id, order[i].start_ns, order[i].cgroup_id, i, 1);
	}

	/* Asking for less keeps the buffer; asking for more keeps what is there. */
	v = s.v;
	assert_int_equal(entries_reserve(&s, 2), 0);
	assert_ptr_equal(s.v, v);
	assert_int_equal(entries_reserve(&s, 5000), 0);
	assert_true(s.cap >= 5000);
	assert_int_equal(s.nr, 6);
	assert_key(&s.v[5], 0xffffffff, 0, CG_A);
	s.v[4999] = ent(9, 9, 9, 9, 9); /* the whole capacity is usable (valgrind checks) */

	entries_free(&s);
	assert_null(s.v);
	assert_int_equal(s.nr + s.cap, 0);
	/* Sorting (no qsort of NULL) and freeing an empty set are fine, twice too. */
	entries_sort(&s);
	entries_free(&s);
	entries_free(&s);
}

/* ----------------------------------------------------------- entries_add */

static void test_add_running_sum(void **state)
{
	struct entry_set acc = { 0 }, d1 = { 0 }, d2 = { 0 }, d3 = { 0 };

	(void)state;
	/* Interval 1: 10 in A, 20 in A. */
	push(&d1, ent(10, 1, CG_A, 10, 1));
	push(&d1, named(ent(20, 2, CG_A, 5, 2), "old"));
	d1.totals.all.slices = 3;
	d1.totals.task_drops = 1;
	/* Interval 2: 20 again, exec'd and exited; 15 new (sorts between); 10 did not run. */
	push(&d2, ent(15, 1, CG_B, 7, 1));
	push(&d2, exited(named(ent(20, 2, CG_A, 3, 1), "new")));
	d2.totals.all.slices = 2;
	d2.totals.task_drops = 5;
	/* Interval 3: 10 again, and a new first and last key. */
	push(&d3, ent(1, 9, CG_C, 2, 1));
	push(&d3, ent(10, 1, CG_A, 1, 1));
	push(&d3, ent(10, 1, CG_B, 4, 1)); /* 10 moved: a second entry */
	push(&d3, ent(99, 9, CG_A, 6, 2));
	d3.totals.all.slices = 5;

	assert_int_equal(entries_add(&acc, &d1), 0);
	assert_int_equal(acc.nr, 2);
	assert_counts_are(&acc.v[0].c, 10, 1);
	assert_int_equal(entries_add(&acc, &d2), 0);
	assert_int_equal(entries_add(&acc, &d3), 0);

	assert_int_equal(acc.nr, 6);
	assert_sorted(&acc);
	assert_entry(&acc.v[0], 1, 9, CG_C, 2, 1);
	assert_entry(&acc.v[1], 10, 1, CG_A, 10 + 1, 1 + 1);
	assert_entry(&acc.v[2], 10, 1, CG_B, 4, 1);
	assert_entry(&acc.v[3], 15, 1, CG_B, 7, 1);
	assert_entry(&acc.v[4], 20, 2, CG_A, 5 + 3, 2 + 1);
	/* Name and flags from the newer delta. */
	assert_string_equal(acc.v[4].comm, "new");
	assert_int_equal(acc.v[4].flags, TD_TASK_EXITED);
	assert_entry(&acc.v[5], 99, 9, CG_A, 6, 2);

	/* Totals: 3 + 2 + 5 slices, 1 + 5 + 0 drops; the rest stayed zero. */
	assert_int_equal(acc.totals.all.slices, 10);
	assert_int_equal(acc.totals.task_drops, 6);
	assert_int_equal(acc.totals.all.count[TD_SLOTS], 0);
	assert_true(acc.cap >= acc.nr);

	/* The deltas are left alone. */
	assert_int_equal(d2.nr, 2);
	assert_counts_are(&d2.v[1].c, 3, 1);

	/* Only known entries: added where they are, no copy of the sum; names from the delta. */
	{
		struct entry_set d4 = { 0 };
		const struct entry *before = acc.v;

		push(&d4, named(ent(10, 1, CG_B, 1, 1), "later"));
		push(&d4, ent(99, 9, CG_A, 2, 1));
		assert_int_equal(entries_add(&acc, &d4), 0);
		assert_ptr_equal(acc.v, before);
		assert_int_equal(acc.nr, 6);
		assert_entry(&acc.v[2], 10, 1, CG_B, 4 + 1, 1 + 1);
		assert_string_equal(acc.v[2].comm, "later");
		assert_entry(&acc.v[5], 99, 9, CG_A, 6 + 2, 2 + 1);
		assert_entry(&acc.v[1], 10, 1, CG_A, 11, 2);
		entries_free(&d4);
	}

	/* Adding an empty delta changes nothing. */
	entries_free(&d1);
	assert_int_equal(entries_add(&acc, &d1), 0);
	assert_int_equal(acc.nr, 6);
	assert_counts_are(&acc.v[4].c, 8, 3);
	assert_int_equal(acc.totals.all.slices, 10);

	entries_free(&acc);
	entries_free(&d2);
	entries_free(&d3);
}

/* Every field of the totals is summed. */
static void test_add_totals(void **state)
{
	struct entry_set acc = { 0 }, d = { 0 };
	const __u64 *pa = (const __u64 *)&acc.totals;

	(void)state;
	fill_totals(&acc.totals, 3);
	fill_totals(&d.totals, 1000);
	assert_int_equal(entries_add(&acc, &d), 0);
	assert_int_equal(entries_add(&acc, &d), 0);
	/* Field i: 3 (i + 1) + 2 x 1000 (i + 1). */
	for (size_t i = 0; i < sizeof(acc.totals) / sizeof(__u64); i++)
		if (pa[i] != 2003 * (i + 1))
			fail_msg("totals field %zu is %llu, expected %zu", i,
				 (unsigned long long)pa[i], 2003 * (i + 1));
	entries_free(&acc);
}

/* ---------------------------------------------------------------- widths */

/*
 * ent()'s counts as a run of width @w fills them: counters and groups past
 * it zero, group g's times (g + 1) times group 0's.
 */
static struct entry ent_within(__u32 id, __u64 cgroup_id, __u64 slots, struct td_width w)
{
	struct entry e = ent(id, id, cgroup_id, slots, 1);

	for (int i = w.counters; i < TD_MAX_COUNTERS; i++)
		e.c.count[i] = 0;
	for (int g = 0; g < w.groups; g++) {
		e.c.enabled_ns[g] = 10 * slots * (g + 1);
		e.c.running_ns[g] = 5 * slots * (g + 1);
	}
	return e;
}

/* @c holds @slots of ent_within(w) exactly: nothing past @w. */
static void assert_within(const struct td_counts *c, __u64 slots, __u64 slices, struct td_width w)
{
	for (int i = 0; i < TD_MAX_COUNTERS; i++)
		if (c->count[i] != (i < w.counters ? slots * (i + 1) : 0))
			fail_msg("count[%d] is %llu with %d counters, expected %llu * %d", i,
				 (unsigned long long)c->count[i], w.counters,
				 (unsigned long long)slots, i < w.counters ? i + 1 : 0);
	for (int g = 0; g < TD_MAX_GROUPS; g++) {
		assert_int_equal(c->enabled_ns[g], g < w.groups ? 10 * slots * (g + 1) : 0);
		assert_int_equal(c->running_ns[g], g < w.groups ? 5 * slots * (g + 1) : 0);
	}
	assert_int_equal(c->slices, slices);
}

/*
 * Each set sums within its own width: the tallies of a wide run and of a
 * narrow one, stepped in turn in one process (as two plans give them),
 * keep what each fills. The wide sums keep all their counters and groups;
 * the narrow ones ignore what lies past theirs (a stray 99 there). A
 * width for the whole process, set by whichever plan came last, gets one
 * of the two wrong.
 */
static void test_width_per_set(void **state)
{
	const struct td_width wide = { .counters = 5, .groups = 2 },
			      narrow = { .counters = 1, .groups = 1 };
	struct tally tw, tn;
	struct snapshot view = { 0 };

	(void)state;
	tally_init(&tw, wide);
	tally_init(&tn, narrow);
	for (__u64 step = 1; step <= 3; step++) {
		struct entry n = ent_within(1, CG_A, 10 * step, narrow);

		tw.delta.nr = tn.delta.nr = 0;
		push(&tw.delta, ent_within(1, CG_A, step, wide));
		push(&tw.delta, ent_within(2, CG_B, 2 * step, wide));
		assert_int_equal(tally_step(&tw), 0);
		/* Past the narrow width, once the entry is there: to be ignored. */
		if (step > 1) {
			n.c.count[1] = 99;
			n.c.enabled_ns[1] = 99;
		}
		push(&tn.delta, n);
		assert_int_equal(tally_step(&tn), 0);
	}
	/* 1 + 2 + 3 steps of 1 and 2 slots, and of 10. */
	assert_int_equal(tw.total.nr, 2);
	assert_within(&tw.total.v[0].c, 6, 3, wide);
	assert_within(&tw.total.v[1].c, 12, 3, wide);
	assert_int_equal(tn.total.nr, 1);
	assert_within(&tn.total.v[0].c, 60, 3, narrow);

	/* The rows report.c reads are summed within the set's width, and carry it. */
	push(&tw.total, ent_within(3, CG_A, 4, wide));
	entries_sort(&tw.total);
	assert_int_equal(entries_view(&tw.total, -1, true, &view), 0);
	assert_int_equal(view.width.counters, wide.counters);
	assert_int_equal(view.width.groups, wide.groups);
	assert_int_equal(view.nr_cgroups, 2);
	assert_int_equal(view.cgroups[0].id, CG_A);
	assert_within(&view.cgroups[0].c, 6 + 4, 3 + 1, wide);
	snapshot_free(&view);
	tally_free(&tw);
	tally_free(&tn);
}

/* ----------------------------------------------------- entries_conserved */

/*
 * Entries of 10, 20 and 30 slots (1 + 2 + 3 slices), overflow 5 (1),
 * untraced 7 (2): all is 72 slots and 9 slices.
 */
static void balanced(struct entry_set *s)
{
	memset(s, 0, sizeof(*s));
	push(s, ent(1, 1, CG_A, 10, 1));
	push(s, ent(2, 2, CG_A, 20, 2));
	push(s, ent(3, 3, CG_B, 30, 3));
	s->totals.task_overflow = counts(5, 1);
	s->totals.untraced = counts(7, 2);
	s->totals.all = counts(72, 9);
	/* cgroup_overflow mirrors task_overflow and is not added a second time. */
	s->totals.cgroup_overflow = counts(5, 1);
}

static void test_conserved(void **state)
{
	struct entry_set s;

	(void)state;
	balanced(&s);
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS, true));
	assert_true(entries_conserved(&s, 1, false));
	/* More roles than there are: the rest are not read past the array. */
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS + 3, true));

	/* One role off by one, each way, on either side of the sum. */
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		for (int way = 0; way < 4; way++) {
			__u64 *p = way < 2 ? &s.totals.all.count[i] : &s.v[1].c.count[i];

			*p += way % 2 ? 1 : -1;
			if (entries_conserved(&s, TD_MAX_COUNTERS, true))
				fail_msg("role %d off by one (case %d) passes", i, way);
			/* Roles past nr_counters are not counted, those before are. */
			assert_int_equal(entries_conserved(&s, i, true), true);
			assert_int_equal(entries_conserved(&s, i + 1, true), false);
			*p -= way % 2 ? 1 : -1;
		}
	}
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS, true));

	/* Slices count with or without times, with one role or all. */
	s.totals.all.slices++;
	assert_false(entries_conserved(&s, TD_MAX_COUNTERS, true));
	assert_false(entries_conserved(&s, 1, false));
	s.totals.all.slices -= 2;
	assert_false(entries_conserved(&s, 1, false));
	s.totals.all.slices++;

	/* Times only when asked for (software counters keep none per entry). */
	s.v[0].c.enabled_ns[0]++;
	assert_false(entries_conserved(&s, TD_MAX_COUNTERS, true));
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS, false));
	s.v[0].c.enabled_ns[0]--;
	s.totals.untraced.running_ns[0]--;
	assert_false(entries_conserved(&s, TD_MAX_COUNTERS, true));
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS, false));
	s.totals.untraced.running_ns[0]++;
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS, true));

	/* Every group's times take part, not only group 0's. */
	s.v[1].c.enabled_ns[TD_MAX_GROUPS - 1] += 3;
	assert_false(entries_conserved(&s, TD_MAX_COUNTERS, true));
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS, false));
	s.totals.all.enabled_ns[TD_MAX_GROUPS - 1] += 3;
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS, true));
	s.totals.task_overflow.running_ns[1] = 1;
	assert_false(entries_conserved(&s, TD_MAX_COUNTERS, true));
	s.totals.task_overflow.running_ns[1] = 0;
	s.totals.all.enabled_ns[TD_MAX_GROUPS - 1] -= 3;
	s.v[1].c.enabled_ns[TD_MAX_GROUPS - 1] -= 3;
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS, true));

	/* Overflow and untraced both take part; cgroup_overflow does not. */
	s.totals.task_overflow.count[TD_SLOTS]++;
	assert_false(entries_conserved(&s, 1, false));
	s.totals.task_overflow.count[TD_SLOTS]--;
	s.totals.untraced.slices++;
	assert_false(entries_conserved(&s, 1, false));
	s.totals.untraced.slices--;
	s.totals.cgroup_overflow = counts(999, 99);
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS, true));

	/* An entry missing is counts missing. */
	s.nr--;
	assert_false(entries_conserved(&s, 1, false));
	entries_free(&s);

	/* Nothing at all adds up. */
	memset(&s, 0, sizeof(s));
	assert_true(entries_conserved(&s, TD_MAX_COUNTERS, true));
}

/* A difference and a sum of conserved reads are conserved; a lost entry is seen. */
static void test_conserved_diff_and_sum(void **state)
{
	struct entry_set r1 = { 0 }, r2 = { 0 }, d = { 0 }, acc = { 0 };

	(void)state;
	/* Read 1: 10 + 20 in entries, untraced 4: all 34 slots, 1 + 2 + 1 = 4 slices. */
	push(&r1, ent(1, 1, CG_A, 10, 1));
	push(&r1, ent(2, 2, CG_A, 20, 2));
	r1.totals.untraced = counts(4, 1);
	r1.totals.all = counts(34, 4);
	/* Read 2: 1 ran +5, 3 is new (8), overflow 2: all 34 + 5 + 8 + 2 = 49, 4 + 3 = 7 slices. */
	push(&r2, ent(1, 1, CG_A, 15, 2));
	push(&r2, ent(2, 2, CG_A, 20, 2));
	push(&r2, ent(3, 3, CG_B, 8, 1));
	r2.totals.untraced = counts(4, 1);
	r2.totals.task_overflow = counts(2, 1);
	r2.totals.all = counts(49, 7);
	assert_true(entries_conserved(&r1, TD_MAX_COUNTERS, true));
	assert_true(entries_conserved(&r2, TD_MAX_COUNTERS, true));

	assert_int_equal(entries_add(&acc, &r1), 0); /* the first delta is read 1 itself */
	/* Read 2 - read 1, as a read makes it: 1 ran 5 more, 3 is new, 2 did not run. */
	push(&d, ent(1, 1, CG_A, 5, 1));
	push(&d, ent(3, 3, CG_B, 8, 1));
	totals_sub(&r2.totals, &r1.totals, &d.totals);
	assert_true(entries_conserved(&d, TD_MAX_COUNTERS, true));
	assert_int_equal(entries_add(&acc, &d), 0);
	assert_true(entries_conserved(&acc, TD_MAX_COUNTERS, true));
	assert_counts_are(&acc.totals.all, 49, 7);

	/* An entry the difference lost shows. */
	d.nr--;
	assert_false(entries_conserved(&d, 1, false));

	entries_free(&r1);
	entries_free(&r2);
	entries_free(&d);
	entries_free(&acc);
}

/* --------------------------------------------------- entries_fold_exited */

static const struct entry *find(const struct entry_set *s, __u32 id, __u64 start_ns,
				__u64 cgroup_id)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->v[i].key.id == id && s->v[i].key.start_ns == start_ns &&
		    s->v[i].key.cgroup_id == cgroup_id)
			return &s->v[i];
	return NULL;
}

static void assert_folded(const struct entry_set *s, __u64 cgroup_id, __u64 slots, __u64 slices)
{
	const struct entry *f = find(s, TD_FOLDED_ID, 0, cgroup_id);
	size_t n = 0;

	if (!f)
		fail_msg("no folded entry for cgroup %llu", (unsigned long long)cgroup_id);
	assert_counts_are(&f->c, slots, slices);
	assert_string_equal(f->comm, "[exited]");
	assert_int_equal(f->flags, TD_TASK_EXITED);
	/* Its row's pid: not 0, the idle tasks' pid. */
	assert_int_equal(f->tgid, TD_FOLDED_ID);
	for (size_t i = 0; i < s->nr; i++)
		n += s->v[i].key.id == TD_FOLDED_ID && s->v[i].key.cgroup_id == cgroup_id;
	assert_int_equal(n, 1); /* one per cgroup */
}

/* Cgroup rows, then whether it adds up: the same before and after a fold. */
static void assert_same_view(const struct entry_set *s, const struct snapshot *before)
{
	struct snapshot after = { 0 };

	assert_int_equal(entries_view(s, -1, false, &after), 0);
	assert_int_equal(after.nr_cgroups, before->nr_cgroups);
	for (size_t i = 0; i < after.nr_cgroups; i++) {
		assert_int_equal(after.cgroups[i].id, before->cgroups[i].id);
		assert_memory_equal(&after.cgroups[i].c, &before->cgroups[i].c,
				    sizeof(after.cgroups[i].c));
	}
	assert_memory_equal(&after.totals, &before->totals, sizeof(after.totals));
	snapshot_free(&after);
}

/* A region row of region @region for process @id (start @id) in @cgroup_id. */
static void push_region(struct entry_set *s, __u32 region, __u32 id, __u64 cgroup_id, __u64 slots,
			__u64 calls)
{
	struct td_region_key key = { .region = region,
				     .task = { .id = id, .start_ns = id, .cgroup_id = cgroup_id } };
	struct region_row *r = region_get(&s->regions, &key);

	assert_non_null(r);
	r->c = counts(slots, 1);
	r->calls = calls;
	r->tgid = id;
	r->name = region == 1 ? "prog:work" : "prog:parse";
	snprintf(r->comm, sizeof(r->comm), "t%u", id);
}

static const struct region_row *find_region(const struct entry_set *s, __u32 region, __u32 id,
					    __u64 cgroup_id)
{
	for (size_t i = 0; i < s->regions.nr; i++) {
		const struct region_row *r = &s->regions.v[i];

		if (r->key.region == region && r->key.task.id == id &&
		    r->key.task.cgroup_id == cgroup_id)
			return r;
	}
	return NULL;
}

/*
 * Regions' rows of gone processes are folded with the entries, so that a
 * long run with --region and many short processes keeps bounded memory;
 * calls and counts are kept whole, per region and cgroup.
 */
static void test_fold_gone_regions(void **state)
{
	struct entry_set acc = { 0 };
	const struct region_row *f;
	__u64 calls = 0;

	(void)state;
	/* Live 1/A; exited 2/A, 3/A, 4/B; 5/A's entries are gone (folded before). */
	push(&acc, ent(1, 1, CG_A, 1000, 1));
	push(&acc, exited(ent(2, 2, CG_A, 5, 1)));
	push(&acc, exited(ent(3, 3, CG_A, 50, 1)));
	push(&acc, exited(ent(4, 4, CG_B, 7, 1)));
	/* Region 1 in each; region 2 in 1 and 2. Slots: smaller for the gone ones. */
	push_region(&acc, 1, 1, CG_A, 900, 10);
	push_region(&acc, 1, 2, CG_A, 4, 2);
	push_region(&acc, 1, 3, CG_A, 40, 3);
	push_region(&acc, 1, 4, CG_B, 6, 4);
	push_region(&acc, 1, 5, CG_A, 2, 5);
	push_region(&acc, 2, 1, CG_A, 100, 6);
	push_region(&acc, 2, 2, CG_A, 1, 7);
	for (size_t i = 0; i < acc.regions.nr; i++)
		calls += acc.regions.v[i].calls;

	/* 5 rows of gone processes: keep 5 or more, nothing moves. */
	entries_fold_exited(&acc, 5);
	assert_int_equal(acc.regions.nr, 7);

	/* Keep 2: of the gone rows (1/5: 2, 2/2: 1, 1/2: 4, 1/4: 6, 1/3: 40) the three smallest go.
	 */
	entries_fold_exited(&acc, 2);
	assert_non_null(find_region(&acc, 1, 1, CG_A)); /* live: never folded */
	assert_non_null(find_region(&acc, 2, 1, CG_A));
	assert_non_null(find_region(&acc, 1, 3, CG_A)); /* the largest gone ones stay */
	assert_non_null(find_region(&acc, 1, 4, CG_B));
	assert_null(find_region(&acc, 1, 2, CG_A));
	assert_null(find_region(&acc, 1, 5, CG_A));
	assert_null(find_region(&acc, 2, 2, CG_A));
	/* Region 1 in A: 2/A 4 + 5/A 2 slots, 2 + 5 calls; region 2 in A: 2/A's 1 slot, 7 calls. */
	f = find_region(&acc, 1, TD_FOLDED_ID, CG_A);
	assert_non_null(f);
	assert_counts_are(&f->c, 6, 2);
	assert_int_equal(f->calls, 7);
	assert_string_equal(f->comm, "[exited]");
	assert_int_equal(f->tgid, TD_FOLDED_ID);
	assert_string_equal(f->name, "prog:work");
	f = find_region(&acc, 2, TD_FOLDED_ID, CG_A);
	assert_non_null(f);
	assert_counts_are(&f->c, 1, 1);
	assert_int_equal(f->calls, 7);
	assert_string_equal(f->name, "prog:parse");
	assert_int_equal(acc.regions.nr, 6);
	for (size_t i = 1; i < acc.regions.nr; i++)
		assert_true(region_key_cmp(&acc.regions.v[i - 1].key, &acc.regions.v[i].key) < 0);
	for (size_t i = 0; i < acc.regions.nr; i++)
		calls -= acc.regions.v[i].calls;
	assert_int_equal(calls, 0); /* every call kept */

	/* --per-cgroup's rows (pid 0) are never folded; folded rows are not folded again. */
	push_region(&acc, 1, 0, CG_B, 1, 1);
	entries_fold_exited(&acc, 0);
	assert_non_null(find_region(&acc, 1, 0, CG_B));
	assert_non_null(find_region(&acc, 1, TD_FOLDED_ID, CG_B)); /* 4/B went */
	assert_null(find_region(&acc, 1, 3, CG_A));
	f = find_region(&acc, 1, TD_FOLDED_ID, CG_A);
	assert_counts_are(&f->c, 46, 3); /* 3/A joined it */
	entries_free(&acc);
}

static void test_fold_exited(void **state)
{
	struct entry_set acc = { 0 };
	struct snapshot before = { 0 };

	(void)state;
	/*
	 * Live: 1 in A (1000 slots), 7 in B (1 slot: the smallest of all,
	 * but live). Exited, by slots: 5/B 3, 2/A 5, 4/A 7, 3/A 50, 6/B 500.
	 * Overflow 11, untraced 13: all = 1000 + 1 + 3 + 5 + 7 + 50 + 500 +
	 * 11 + 13 = 1590 slots; slices 1 each, 2 + 3: 12.
	 */
	push(&acc, ent(1, 1, CG_A, 1000, 1));
	push(&acc, exited(ent(2, 2, CG_A, 5, 1)));
	push(&acc, exited(ent(3, 3, CG_A, 50, 1)));
	push(&acc, exited(ent(4, 4, CG_A, 7, 1)));
	push(&acc, exited(ent(5, 5, CG_B, 3, 1)));
	push(&acc, exited(ent(6, 6, CG_B, 500, 1)));
	push(&acc, ent(7, 7, CG_B, 1, 1));
	acc.totals.task_overflow = counts(11, 2);
	acc.totals.untraced = counts(13, 3);
	acc.totals.all = counts(1590, 12);
	assert_true(entries_conserved(&acc, TD_MAX_COUNTERS, true));
	assert_int_equal(entries_view(&acc, -1, false, &before), 0);
	/* Cgroup rows by hand: A 1000 + 5 + 50 + 7 = 1062 (4), B 3 + 500 + 1 = 504 (3). */
	assert_int_equal(before.nr_cgroups, 2);
	assert_counts_are(&before.cgroups[0].c, 1062, 4);
	assert_counts_are(&before.cgroups[1].c, 504, 3);

	/* 5 exited, keep 5 or more: nothing to do. */
	assert_int_equal(entries_fold_exited(&acc, 5), 0);
	assert_int_equal(entries_fold_exited(&acc, 100), 0);
	assert_int_equal(acc.nr, 7);

	/* Keep 2: the three smallest go (5/B 3, 2/A 5, 4/A 7); A gets 12, B 3. */
	assert_int_equal(entries_fold_exited(&acc, 2), 3);
	assert_int_equal(acc.nr, 6);
	assert_sorted(&acc);
	assert_key(&acc.v[0], 1, 1, CG_A);
	assert_key(&acc.v[1], 3, 3, CG_A);
	assert_key(&acc.v[2], 6, 6, CG_B);
	assert_entry(&acc.v[3], 7, 7, CG_B, 1, 1); /* live, never folded */
	assert_key(&acc.v[4], TD_FOLDED_ID, 0, CG_A);
	assert_key(&acc.v[5], TD_FOLDED_ID, 0, CG_B);
	assert_folded(&acc, CG_A, 5 + 7, 2);
	assert_folded(&acc, CG_B, 3, 1);
	assert_true(entries_conserved(&acc, TD_MAX_COUNTERS, true));
	assert_same_view(&acc, &before);

	/*
	 * More exited: 8/A 2, 9/C 4 (all gains 6 slots, 2 slices). Exited
	 * now (folded ones aside): 3/A 50, 6/B 500, 8/A 2, 9/C 4. Keep 2: 8
	 * and 9 go; A's folded entry grows to 14, C gets one of 4.
	 */
	push(&acc, exited(ent(8, 8, CG_A, 2, 1)));
	push(&acc, exited(ent(9, 9, CG_C, 4, 1)));
	entries_sort(&acc);
	acc.totals.all = counts(1596, 14);
	assert_true(entries_conserved(&acc, TD_MAX_COUNTERS, true));
	assert_int_equal(entries_view(&acc, -1, false, &before), 0);
	assert_int_equal(entries_fold_exited(&acc, 2), 2);
	assert_int_equal(acc.nr, 7);
	assert_sorted(&acc);
	assert_folded(&acc, CG_A, 14, 3);
	assert_folded(&acc, CG_B, 3, 1);
	assert_folded(&acc, CG_C, 4, 1);
	assert_non_null(find(&acc, 3, 3, CG_A));
	assert_non_null(find(&acc, 6, 6, CG_B));
	assert_null(find(&acc, 8, 8, CG_A));
	assert_true(entries_conserved(&acc, TD_MAX_COUNTERS, true));
	assert_same_view(&acc, &before);

	/* Keep 0: every exited entry goes, folded ones are not folded again. */
	assert_int_equal(entries_fold_exited(&acc, 0), 2);
	assert_int_equal(acc.nr, 5);
	assert_key(&acc.v[0], 1, 1, CG_A);
	assert_key(&acc.v[1], 7, 7, CG_B);
	assert_folded(&acc, CG_A, 64, 4);
	assert_folded(&acc, CG_B, 503, 2);
	assert_folded(&acc, CG_C, 4, 1);
	assert_same_view(&acc, &before);
	assert_int_equal(entries_fold_exited(&acc, 0), 0);
	assert_int_equal(acc.nr, 5);

	entries_free(&acc);
	snapshot_free(&before);
}

/* Ties in slots go by key; the same task's two cgroups fold apart. */
static void test_fold_ties_and_cgroups(void **state)
{
	struct entry_set acc = { 0 };

	(void)state;
	push(&acc, exited(ent(3, 3, CG_A, 9, 1)));
	push(&acc, exited(ent(4, 4, CG_A, 9, 1)));
	push(&acc, exited(ent(5, 5, CG_A, 9, 1)));
	assert_int_equal(entries_fold_exited(&acc, 1), 2);
	assert_int_equal(acc.nr, 2);
	assert_key(&acc.v[0], 5, 5, CG_A); /* the largest key stays */
	assert_folded(&acc, CG_A, 18, 2);
	entries_free(&acc);

	/*
	 * One task that moved from A to B and exited there (only B is
	 * flagged): both are exited entries, and each part goes to its own
	 * cgroup's folded entry. 2 is live, and stays however small.
	 */
	push(&acc, ent(2, 2, CG_A, 0, 1));
	push(&acc, ent(3, 3, CG_A, 1, 1));
	push(&acc, exited(ent(3, 3, CG_B, 2, 1)));
	push(&acc, exited(ent(4, 4, CG_B, 100, 1)));
	assert_int_equal(entries_fold_exited(&acc, 1), 2);
	assert_int_equal(acc.nr, 4);
	assert_key(&acc.v[0], 2, 2, CG_A);
	assert_key(&acc.v[1], 4, 4, CG_B);
	assert_folded(&acc, CG_A, 1, 1);
	assert_folded(&acc, CG_B, 2, 1);
	entries_free(&acc);
}

/* Many exited entries over many intervals: never more than keep, sums exact. */
static void test_fold_bounded(void **state)
{
	struct entry_set acc = { 0 }, d = { 0 };
	__u64 slots = 0, cg_slots[3] = { 0 };

	(void)state;
	for (__u32 round = 0; round < 20; round++) {
		d.nr = 0;
		memset(&d.totals, 0, sizeof(d.totals));
		/* 50 tasks a round, exited, in cgroups 0..2, i + 1 slots each. */
		for (__u32 i = 0; i < 50; i++) {
			__u32 id = round * 50 + i + 1;

			push(&d, exited(ent(id, id, i % 3, i + 1, 1)));
			slots += i + 1;
			cg_slots[i % 3] += i + 1;
		}
		d.totals.all = counts(50 * 51 / 2, 50);
		assert_int_equal(entries_add(&acc, &d), 0);
		entries_fold_exited(&acc, 64);
		assert_true(acc.nr <= 64 + 3);
		assert_true(entries_conserved(&acc, TD_MAX_COUNTERS, true));
	}
	/* 20 rounds of 1..50: 20 x 1275 slots, 1000 slices. */
	assert_int_equal(slots, 25500);
	assert_counts_are(&acc.totals.all, 25500, 1000);
	{
		struct snapshot view = { 0 };

		assert_int_equal(entries_view(&acc, -1, false, &view), 0);
		assert_int_equal(view.nr_cgroups, 3);
		for (int cg = 0; cg < 3; cg++) {
			assert_int_equal(view.cgroups[cg].id, cg);
			assert_int_equal(view.cgroups[cg].c.count[TD_SLOTS], cg_slots[cg]);
		}
		snapshot_free(&view);
	}
	entries_free(&acc);
	entries_free(&d);
}

/* ---------------------------------------------------------- entries_view */

/*
 * A hybrid part: process 1 ran on both core types (pmu 0 and 1), process 2
 * on the E-cores (1) only. Each PMU's view holds only its own entries and
 * totals: process 1 is in both, with the counts of each; process 2 only
 * in view 1; cgroup A sums per PMU.
 */
static void test_view_per_pmu(void **state)
{
	struct entry_set s = { 0 };
	struct snapshot v = { 0 };
	struct entry e;

	(void)state;
	e = ent(1, 10, CG_A, 10, 1);
	push(&s, e);
	e = ent(1, 10, CG_A, 30, 2);
	e.key.pmu = 1;
	push(&s, e);
	e = ent(2, 2, CG_A, 5, 1);
	e.key.pmu = 1;
	push(&s, e);
	entries_sort(&s);
	fill_totals(&s.pmu_totals[0], 3);
	fill_totals(&s.pmu_totals[1], 4);

	assert_int_equal(entries_view(&s, 0, true, &v), 0);
	assert_int_equal(v.nr_tasks, 1);
	assert_int_equal(v.tasks[0].key.id, 1);
	assert_counts_are(&v.tasks[0].val.c, 10, 1);
	assert_int_equal(v.nr_cgroups, 1);
	assert_counts_are(&v.cgroups[0].c, 10, 1);
	assert_memory_equal(&v.totals, &s.pmu_totals[0], sizeof(v.totals));

	assert_int_equal(entries_view(&s, 1, true, &v), 0);
	assert_int_equal(v.nr_tasks, 2);
	assert_counts_are(&v.tasks[0].val.c, 30, 2);
	assert_int_equal(v.tasks[1].key.id, 2);
	assert_int_equal(v.nr_cgroups, 1);
	assert_counts_are(&v.cgroups[0].c, 35, 3);
	assert_memory_equal(&v.totals, &s.pmu_totals[1], sizeof(v.totals));

	/* All PMUs: process 1 is one row with both. */
	assert_int_equal(entries_view(&s, -1, true, &v), 0);
	assert_int_equal(v.nr_tasks, 2);
	assert_counts_are(&v.tasks[0].val.c, 40, 3);
	snapshot_free(&v);
	entries_free(&s);
}

static void test_view(void **state)
{
	struct entry_set s = { 0 };
	struct snapshot v = { 0 };
	struct task_sample *t;

	(void)state;
	/* Idle, pid 0 in the pseudo cgroup 0. */
	push(&s, named(ent(0, 0, TD_IDLE_CGROUP_ID, 100, 50), "[idle]"));
	/* Process 1 (start 10): ran 10 in A, 30 in B where it exited under a new name. */
	push(&s, named(ent(1, 10, CG_A, 10, 1), "before"));
	push(&s, exited(named(ent(1, 10, CG_B, 30, 2), "after")));
	s.v[2].tgid = 1;
	/* pid 1 again (reused, start 20): 7 in A. */
	push(&s, ent(1, 20, CG_A, 7, 1));
	/* Process 2: 4 in B, then 4 in C: a tie, the first (lower id) cgroup wins. */
	push(&s, ent(2, 2, CG_B, 4, 1));
	push(&s, ent(2, 2, CG_C, 4, 3));
	/* Process 3: ran most in C, exited in A (the lower id, so not its last entry). */
	push(&s, exited(named(ent(3, 3, CG_A, 1, 1), "exit")));
	push(&s, named(ent(3, 3, CG_C, 9, 2), "most"));
	fill_totals(&s.totals, 9);

	assert_int_equal(entries_view(&s, -1, true, &v), 0);
	assert_int_equal(v.nr_tasks, 5);
	t = &v.tasks[0];
	assert_int_equal(t->key.id, 0);
	assert_counts_are(&t->val.c, 100, 50);
	assert_int_equal(t->val.cgroup_id, TD_IDLE_CGROUP_ID);
	assert_string_equal(t->val.comm, "[idle]");

	t = &v.tasks[1];
	assert_int_equal(t->key.id, 1);
	assert_int_equal(t->key.start_ns, 10);
	assert_counts_are(&t->val.c, 40, 3);
	assert_int_equal(t->val.cgroup_id, CG_B); /* ran most there */
	assert_string_equal(t->val.comm, "after");
	assert_int_equal(t->val.flags, TD_TASK_EXITED); /* from either of its entries */

	t = &v.tasks[2];
	assert_int_equal(t->key.id, 1);
	assert_int_equal(t->key.start_ns, 20);
	assert_counts_are(&t->val.c, 7, 1);
	assert_int_equal(t->val.cgroup_id, CG_A);
	assert_int_equal(t->val.flags, 0);

	t = &v.tasks[3];
	assert_int_equal(t->key.id, 2);
	assert_counts_are(&t->val.c, 8, 4);
	assert_int_equal(t->val.cgroup_id, CG_B);

	t = &v.tasks[4];
	assert_int_equal(t->key.id, 3);
	assert_counts_are(&t->val.c, 10, 3);
	assert_int_equal(t->val.cgroup_id, CG_C);
	assert_string_equal(t->val.comm, "most");
	assert_int_equal(t->val.flags, TD_TASK_EXITED);

	/* Cgroups: 0: 100 (50), A: 10 + 7 + 1 (3), B: 30 + 4 (3), C: 4 + 9 (5), by id. */
	assert_int_equal(v.nr_cgroups, 4);
	assert_int_equal(v.cgroups[0].id, TD_IDLE_CGROUP_ID);
	assert_counts_are(&v.cgroups[0].c, 100, 50);
	assert_int_equal(v.cgroups[1].id, CG_A);
	assert_counts_are(&v.cgroups[1].c, 18, 3);
	assert_int_equal(v.cgroups[2].id, CG_B);
	assert_counts_are(&v.cgroups[2].c, 34, 3);
	assert_int_equal(v.cgroups[3].id, CG_C);
	assert_counts_are(&v.cgroups[3].c, 13, 5);
	assert_memory_equal(&v.totals, &s.totals, sizeof(s.totals));

	/* No task rows; the same cgroup rows. */
	assert_int_equal(entries_view(&s, -1, false, &v), 0);
	assert_int_equal(v.nr_tasks, 0);
	assert_int_equal(v.nr_cgroups, 4);
	assert_counts_are(&v.cgroups[2].c, 34, 3);

	/* Reused for a smaller set: rows are replaced, not appended. */
	s.nr = 1;
	memset(&s.totals, 0, sizeof(s.totals));
	assert_int_equal(entries_view(&s, -1, true, &v), 0);
	assert_int_equal(v.nr_tasks, 1);
	assert_int_equal(v.nr_cgroups, 1);
	assert_counts_are(&v.cgroups[0].c, 100, 50);
	assert_int_equal(v.totals.all.count[TD_SLOTS], 0);

	/* Empty. */
	s.nr = 0;
	assert_int_equal(entries_view(&s, -1, true, &v), 0);
	assert_int_equal(v.nr_tasks + v.nr_cgroups, 0);
	/* Empty, into a view with no buffers yet (make sanitize: no qsort of NULL). */
	{
		struct snapshot fresh = { 0 };

		assert_int_equal(entries_view(&s, -1, true, &fresh), 0);
		assert_int_equal(fresh.nr_tasks + fresh.nr_cgroups, 0);
		snapshot_free(&fresh);
	}

	entries_free(&s);
	snapshot_free(&v);
}

/* Cgroup rows sort by id even when entries come in task order across many cgroups. */
static void test_view_cgroup_order(void **state)
{
	struct entry_set s = { 0 };
	struct snapshot v = { 0 };

	(void)state;
	/* 30 tasks, task i in cgroup (7 i) % 10: each cgroup gets 3 tasks. */
	for (__u32 i = 1; i <= 30; i++)
		push(&s, ent(i, i, (7 * i) % 10, i, 1));
	assert_int_equal(entries_view(&s, -1, true, &v), 0);
	assert_int_equal(v.nr_tasks, 30);
	assert_int_equal(v.nr_cgroups, 10);
	for (size_t c = 0; c < 10; c++) {
		__u64 want = 0;

		/* By hand: the i in 1..30 with 7 i = c (mod 10). */
		for (__u32 i = 1; i <= 30; i++)
			if ((7 * i) % 10 == c)
				want += i;
		assert_int_equal(v.cgroups[c].id, c);
		assert_counts_are(&v.cgroups[c].c, want, 3);
	}
	for (size_t i = 1; i < v.nr_tasks; i++)
		assert_true(task_key_cmp(&v.tasks[i - 1].key, &v.tasks[i].key) < 0);
	entries_free(&s);
	snapshot_free(&v);
}

/*
 * Many entries over many cgroups whose ids are far apart, the idle
 * pseudo cgroup 0 among them: each cgroup's row is the sum of its entries
 * (worked out here by brute force), and the rows come in id order.
 */
static void test_view_many_cgroups(void **state)
{
	enum { NR_CG = 257, NR = 3000 };
	struct entry_set s = { 0 };
	struct snapshot v = { 0 };
	__u64 ids[NR_CG];

	(void)state;
	for (int c = 0; c < NR_CG; c++)
		ids[c] = c ? ((__u64)c << 40) ^ (0x9e3779b97f4a7c15ull * (__u64)c) : 0;
	for (__u32 i = 1; i <= NR; i++)
		push(&s, ent(i, i, ids[(i * 31) % NR_CG], i, 1));
	entries_sort(&s);
	assert_int_equal(entries_view(&s, -1, false, &v), 0);
	assert_int_equal(v.nr_cgroups, NR_CG);
	for (size_t k = 0; k < v.nr_cgroups; k++) {
		__u64 want = 0, slices = 0;

		for (__u32 i = 1; i <= NR; i++)
			if (ids[(i * 31) % NR_CG] == v.cgroups[k].id) {
				want += i;
				slices++;
			}
		assert_true(slices > 0);
		assert_counts_are(&v.cgroups[k].c, want, slices);
		if (k)
			assert_true(v.cgroups[k - 1].id < v.cgroups[k].id);
	}
	entries_free(&s);
	snapshot_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_cmp),
		cmocka_unit_test(test_sort_reserve_free),
		cmocka_unit_test(test_add_running_sum),
		cmocka_unit_test(test_add_merges_in_place),
		cmocka_unit_test(test_add_totals),
		cmocka_unit_test(test_width_per_set),
		cmocka_unit_test(test_conserved),
		cmocka_unit_test(test_conserved_diff_and_sum),
		cmocka_unit_test(test_fold_exited),
		cmocka_unit_test(test_fold_gone_regions),
		cmocka_unit_test(test_fold_ties_and_cgroups),
		cmocka_unit_test(test_fold_bounded),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_view_per_pmu),
		cmocka_unit_test(test_view_cgroup_order),
		cmocka_unit_test(test_view_many_cgroups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
