// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/model/snapshot.h and user/model/counts.h: the
 * report input's buffers, the per-CPU totals arithmetic, the key order
 * and the sorted merge (differences are tested in test_entries.c).
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
#include "model/snapshot.h"

/* A task whose every counter is @base + role, with @slices slices. */
static struct task_sample task(__u32 id, __u64 start_ns, __u64 base, __u64 slices)
{
	struct task_sample t;
	int i;

	memset(&t, 0, sizeof(t));
	t.key.id = id;
	t.key.start_ns = start_ns;
	for (i = 0; i < TD_MAX_COUNTERS; i++)
		t.val.c.count[i] = base + i;
	t.val.c.enabled_ns[0] = 10 * base;
	t.val.c.running_ns[0] = 5 * base;
	t.val.c.slices = slices;
	t.val.cgroup_id = 1000 + id;
	t.val.tgid = id;
	snprintf(t.val.comm, sizeof(t.val.comm), "task%u", id);
	return t;
}

static struct cgroup_sample cgroup(__u64 id, __u64 base, __u64 slices)
{
	struct cgroup_sample c;
	int i;

	memset(&c, 0, sizeof(c));
	c.id = id;
	for (i = 0; i < TD_MAX_COUNTERS; i++)
		c.c.count[i] = base + i;
	c.c.enabled_ns[0] = 10 * base;
	c.c.running_ns[0] = 5 * base;
	c.c.slices = slices;
	return c;
}

static void fill_totals(struct td_cpu_totals *t, __u64 base)
{
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		t->all.count[i] = base + i;
		t->task_overflow.count[i] = 2 * base + i;
		t->cgroup_overflow.count[i] = 3 * base + i;
	}
	t->all.enabled_ns[0] = base;
	t->all.running_ns[0] = base / 2;
	t->all.slices = base / 10;
	t->task_overflow.slices = base / 100;
	t->cgroup_overflow.slices = base / 50;
	t->task_drops = base + 1;
	t->cgroup_drops = base + 2;
	t->read_errors = base + 3;
}

static void test_totals_sub_add(void **state)
{
	struct td_cpu_totals a = { 0 }, b = { 0 }, out, acc = { 0 };

	(void)state;
	fill_totals(&a, 5000);
	fill_totals(&b, 1000);
	memset(&out, 0xa5, sizeof(out));
	totals_sub(&a, &b, &out);
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		assert_int_equal(out.all.count[i], 4000);
		assert_int_equal(out.task_overflow.count[i], 8000);
		assert_int_equal(out.cgroup_overflow.count[i], 12000);
	}
	assert_int_equal(out.all.enabled_ns[0], 4000);
	assert_int_equal(out.all.running_ns[0], 2000);
	assert_int_equal(out.all.slices, 400);
	assert_int_equal(out.task_overflow.slices, 40);
	assert_int_equal(out.cgroup_overflow.slices, 80);
	assert_int_equal(out.task_drops, 4000);
	assert_int_equal(out.cgroup_drops, 4000);
	assert_int_equal(out.read_errors, 4000);

	/* acc += b twice, then += (a - b): back to a + b. */
	totals_add(&acc, &b);
	totals_add(&acc, &b);
	totals_add(&acc, &out);
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		assert_int_equal(acc.all.count[i], a.all.count[i] + b.all.count[i]);
		assert_int_equal(acc.task_overflow.count[i],
				 a.task_overflow.count[i] + b.task_overflow.count[i]);
		assert_int_equal(acc.cgroup_overflow.count[i],
				 a.cgroup_overflow.count[i] + b.cgroup_overflow.count[i]);
	}
	assert_int_equal(acc.all.enabled_ns[0], 6000);
	assert_int_equal(acc.all.slices, 600);
	assert_int_equal(acc.task_drops, a.task_drops + b.task_drops);
	assert_int_equal(acc.cgroup_drops, a.cgroup_drops + b.cgroup_drops);
	assert_int_equal(acc.read_errors, a.read_errors + b.read_errors);
}

/*
 * Every field of the totals, whatever fields it grows: struct
 * td_cpu_totals is all __u64, so walk it as an array.
 */
static void test_totals_every_field(void **state)
{
	struct td_cpu_totals a, b, out, acc;
	__u64 *pa = (__u64 *)&a, *pb = (__u64 *)&b, *po = (__u64 *)&out, *pc = (__u64 *)&acc;
	const size_t n = sizeof(a) / sizeof(__u64);

	(void)state;
	_Static_assert(sizeof(struct td_cpu_totals) % sizeof(__u64) == 0, "all __u64");
	for (size_t i = 0; i < n; i++) {
		pa[i] = 1000000 + 1000 * i;
		pb[i] = 7 * i + 1;
		pc[i] = 3 * i;
	}
	memset(&out, 0xa5, sizeof(out));
	totals_sub(&a, &b, &out);
	totals_add(&acc, &b);
	for (size_t i = 0; i < n; i++) {
		if (po[i] != pa[i] - pb[i])
			fail_msg("totals_sub: field %zu (byte offset %zu) is %llu, expected %llu",
				 i, i * sizeof(__u64), (unsigned long long)po[i],
				 (unsigned long long)(pa[i] - pb[i]));
		if (pc[i] != 3 * i + pb[i])
			fail_msg("totals_add: field %zu (byte offset %zu) is %llu, expected %llu",
				 i, i * sizeof(__u64), (unsigned long long)pc[i],
				 (unsigned long long)(3 * i + pb[i]));
	}
}

/* td_key_cmp, the one order of entries: id, then start time, then cgroup. */
static void test_key_cmp(void **state)
{
	struct td_key a = { .id = 5, .start_ns = 100, .cgroup_id = 7 }, b = a;

	(void)state;
	assert_int_equal(td_key_cmp(&a, &b), 0);
	b.start_ns = 101;
	assert_true(td_key_cmp(&a, &b) < 0);
	assert_true(td_key_cmp(&b, &a) > 0);
	/* id first: a smaller id with a later start is still smaller. */
	b.id = 4;
	b.start_ns = ~0ULL;
	assert_true(td_key_cmp(&b, &a) < 0);
	assert_true(td_key_cmp(&a, &b) > 0);
	/* cgroup last: same task, smaller cgroup first; a task's entries are neighbours. */
	b = a;
	b.cgroup_id = 6;
	assert_true(td_key_cmp(&b, &a) < 0);
	assert_true(td_same_task(&a, &b));
	b.start_ns = 99;
	assert_false(td_same_task(&a, &b));
	/* No overflow on extreme values. */
	a.id = 0xffffffff;
	b.id = 0;
	assert_true(td_key_cmp(&a, &b) > 0);
	a.id = b.id = 1;
	a.start_ns = ~0ULL;
	b.start_ns = 0;
	assert_true(td_key_cmp(&a, &b) > 0);
	a.start_ns = b.start_ns;
	a.cgroup_id = ~0ULL;
	b.cgroup_id = 0;
	assert_true(td_key_cmp(&a, &b) > 0);
	/* The PMU comes last. */
	a = (struct td_key){ .id = 3, .pmu = 2, .start_ns = 9, .cgroup_id = 2 };
	b = (struct td_key){ .id = 3, .pmu = 1, .start_ns = 9, .cgroup_id = 2 };
	assert_true(td_key_cmp(&a, &b) > 0);
}

/* td_key_seek: the sorted merge every join of two key-sorted arrays uses. */
static void test_key_seek(void **state)
{
	struct td_key v[] = { { .id = 1 }, { .id = 2 }, { .id = 2, .cgroup_id = 5 }, { .id = 9 } };
	struct td_key k = { .id = 2, .cgroup_id = 5 };
	size_t j = 0, n = sizeof(v) / sizeof(v[0]);

	(void)state;
	assert_ptr_equal(TD_SEEK_KEYS(v, n, &j, &k), &v[2]);
	assert_int_equal(j, 2);
	/* Not there: NULL, and the cursor rests on the first key above it. */
	k.id = 3;
	assert_null(TD_SEEK_KEYS(v, n, &j, &k));
	assert_int_equal(j, 3);
	/* Never moves back: a key below the cursor is not found again. */
	k.id = 1;
	assert_null(TD_SEEK_KEYS(v, n, &j, &k));
	assert_int_equal(j, 3);
	/* Past the end. */
	k.id = 10;
	assert_null(TD_SEEK_KEYS(v, n, &j, &k));
	assert_int_equal(j, n);
	/* An empty array. */
	j = 0;
	assert_null(TD_SEEK_KEYS(v, 0, &j, &k));
	assert_int_equal(j, 0);
}

static void test_reserve_growth(void **state)
{
	struct snapshot s = { 0 };
	struct task_sample *tasks;
	size_t i;

	(void)state;
	assert_int_equal(snapshot_reserve(&s, 0, 0), 0);
	assert_int_equal(s.cap_tasks, 0);
	assert_int_equal(s.cap_cgroups, 0);

	assert_int_equal(snapshot_reserve(&s, 4, 2), 0);
	assert_non_null(s.tasks);
	assert_non_null(s.cgroups);
	assert_true(s.cap_tasks >= 4);
	assert_true(s.cap_cgroups >= 2);
	for (i = 0; i < 4; i++)
		s.tasks[i] = task(i, i, i, i);
	s.nr_tasks = 4;

	/* Asking for less keeps the buffer and the capacity. */
	tasks = s.tasks;
	assert_int_equal(snapshot_reserve(&s, 1, 1), 0);
	assert_ptr_equal(s.tasks, tasks);
	assert_true(s.cap_tasks >= 4);
	assert_true(s.cap_cgroups >= 2);

	/* Growing keeps what is there and does not touch nr. */
	assert_int_equal(snapshot_reserve(&s, 5000, 3000), 0);
	assert_true(s.cap_tasks >= 5000);
	assert_true(s.cap_cgroups >= 3000);
	assert_int_equal(s.nr_tasks, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(s.tasks[i].key.id, i);
		assert_int_equal(s.tasks[i].val.c.slices, i);
	}
	/* The whole capacity is usable (valgrind checks the writes). */
	for (i = 0; i < 5000; i++)
		s.tasks[i] = task(i, 0, 1, 1);
	for (i = 0; i < 3000; i++)
		s.cgroups[i] = cgroup(i, 1, 1);
	assert_int_equal(s.tasks[4999].key.id, 4999);

	snapshot_free(&s);
	assert_null(s.tasks);
	assert_null(s.cgroups);
	assert_int_equal(s.nr_tasks + s.cap_tasks + s.nr_cgroups + s.cap_cgroups, 0);
}

/* Growing one side alone leaves the other alone. */
static void test_reserve_one_side(void **state)
{
	struct snapshot s = { 0 };

	(void)state;
	assert_int_equal(snapshot_reserve(&s, 8, 0), 0);
	assert_true(s.cap_tasks >= 8);
	assert_null(s.cgroups);
	assert_int_equal(s.cap_cgroups, 0);
	assert_int_equal(snapshot_reserve(&s, 0, 8), 0);
	assert_true(s.cap_tasks >= 8);
	assert_true(s.cap_cgroups >= 8);
	snapshot_free(&s);
}

/*
 * A width: add, sub and equal look at its counters and groups only; sub
 * leaves zeros past it whatever its output held. Then the whole struct,
 * which 0 and too many mean too.
 */
static void test_counts_width(void **state)
{
	const struct td_width w = { .counters = 2, .groups = 1 };
	struct td_counts a, b, out;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.count[0] = 10;
	a.count[1] = 20;
	a.enabled_ns[0] = 30;
	a.running_ns[0] = 25;
	a.slices = 3;
	b = a;
	b.count[1] = 5;
	/* Beyond the width: not looked at. */
	b.count[2] = 99;
	b.enabled_ns[1] = 99;
	assert_false(td_counts_equal(&a, &b, w)); /* count[1] differs */
	b.count[1] = 20;
	assert_true(td_counts_equal(&a, &b, w));
	b.slices = 4;
	assert_false(td_counts_equal(&a, &b, w));
	b.slices = 3;
	b.running_ns[0] = 1;
	assert_false(td_counts_equal(&a, &b, w));
	b.running_ns[0] = 25;

	memset(&out, 0xff, sizeof(out));
	b.count[0] = 4;
	td_counts_sub(&a, &b, &out, w);
	assert_int_equal(out.count[0], 6);
	assert_int_equal(out.count[1], 0);
	assert_int_equal(out.count[2], 0); /* b's 99 ignored, the 0xff cleared */
	assert_int_equal(out.count[TD_MAX_COUNTERS - 1], 0);
	assert_int_equal(out.enabled_ns[1], 0);
	assert_int_equal(out.slices, 0);

	td_counts_add(&a, &b, w);
	assert_int_equal(a.count[0], 14);
	assert_int_equal(a.count[2], 0);
	assert_int_equal(a.enabled_ns[1], 0);
	assert_int_equal(a.slices, 6);

	/* The whole struct; 0 and more than there are mean it too. */
	out = a;
	out.count[TD_MAX_COUNTERS - 1]++;
	assert_false(td_counts_equal(&a, &out, TD_WIDTH_WHOLE));
	assert_false(td_counts_equal(&a, &out, (struct td_width){ 0, 0 }));
	assert_false(td_counts_equal(&a, &out,
				     (struct td_width){ TD_MAX_COUNTERS + 1, TD_MAX_GROUPS + 1 }));
	assert_true(td_counts_equal(&a, &out, w));
	td_counts_add(&a, &b, (struct td_width){ 0, 0 });
	assert_int_equal(a.count[2], 99);
	assert_int_equal(a.enabled_ns[1], 99);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_totals_sub_add), cmocka_unit_test(test_totals_every_field),
		cmocka_unit_test(test_key_seek),       cmocka_unit_test(test_key_cmp),
		cmocka_unit_test(test_reserve_growth), cmocka_unit_test(test_reserve_one_side),
		cmocka_unit_test(test_counts_width),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
