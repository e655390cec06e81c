// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/snapshot.h: the merge-join that turns two cumulative
 * snapshots into one interval, and the buffer helpers around it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

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
	t.val.c.enabled_ns = 10 * base;
	t.val.c.running_ns = 5 * base;
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
	c.c.enabled_ns = 10 * base;
	c.c.running_ns = 5 * base;
	c.c.slices = slices;
	return c;
}

static void add_task(struct snapshot *s, struct task_sample t)
{
	assert_int_equal(snapshot_reserve(s, s->nr_tasks + 1, s->cap_cgroups), 0);
	s->tasks[s->nr_tasks++] = t;
}

static void add_cgroup(struct snapshot *s, struct cgroup_sample c)
{
	assert_int_equal(snapshot_reserve(s, s->cap_tasks, s->nr_cgroups + 1), 0);
	s->cgroups[s->nr_cgroups++] = c;
}

/* Every count of @c is @d + role, times @d * 10 and @d * 5, slices @slices. */
static void assert_counts(const struct td_counts *c, __u64 d, __u64 slices)
{
	/* The fixtures give count[i] = base + i in both snapshots: deltas are flat. */
	for (int i = 0; i < TD_MAX_COUNTERS; i++)
		assert_int_equal(c->count[i], d);
	assert_int_equal(c->enabled_ns, 10 * d);
	assert_int_equal(c->running_ns, 5 * d);
	assert_int_equal(c->slices, slices);
}

static void test_diff_merge_join(void **state)
{
	struct snapshot prev = { 0 }, cur = { 0 }, d = { 0 };

	(void)state;
	/* prev: 5 (gone by cur), 10, 20 (unchanged), 30 */
	add_task(&prev, task(5, 50, 100, 3));
	add_task(&prev, task(10, 100, 100, 4));
	add_task(&prev, task(20, 200, 100, 7));
	add_task(&prev, task(30, 300, 100, 1));
	/* cur: 10 (+50), 15 (new), 20 (same slices), 30 (+7), 40 (new) */
	add_task(&cur, task(10, 100, 150, 6));
	add_task(&cur, task(15, 150, 500, 2));
	add_task(&cur, task(20, 200, 100, 7));
	add_task(&cur, task(30, 300, 107, 2));
	add_task(&cur, task(40, 400, 0, 9));

	assert_int_equal(snapshot_diff(&prev, &cur, &d), 0);
	assert_int_equal(d.nr_tasks, 4);

	assert_int_equal(d.tasks[0].key.id, 10);
	assert_int_equal(d.tasks[0].key.start_ns, 100);
	assert_int_equal(d.tasks[0].val.c.count[TD_SLOTS], 50);
	assert_int_equal(d.tasks[0].val.c.count[TD_MEM_BOUND], 50);
	assert_int_equal(d.tasks[0].val.c.enabled_ns, 500);
	assert_int_equal(d.tasks[0].val.c.running_ns, 250);
	assert_int_equal(d.tasks[0].val.c.slices, 2);
	/* Everything but the counts comes from cur. */
	assert_int_equal(d.tasks[0].val.cgroup_id, 1010);
	assert_int_equal(d.tasks[0].val.tgid, 10);
	assert_string_equal(d.tasks[0].val.comm, "task10");

	/* New in cur: counted from zero. */
	assert_int_equal(d.tasks[1].key.id, 15);
	assert_int_equal(d.tasks[1].val.c.count[TD_SLOTS], 500);
	assert_int_equal(d.tasks[1].val.c.count[TD_RETIRING], 501);
	assert_int_equal(d.tasks[1].val.c.slices, 2);

	/* 20 had no new slice: left out. 30 had one. */
	assert_int_equal(d.tasks[2].key.id, 30);
	assert_counts(&d.tasks[2].val.c, 7, 1);

	assert_int_equal(d.tasks[3].key.id, 40);
	assert_int_equal(d.tasks[3].val.c.count[TD_SLOTS], 0);
	assert_int_equal(d.tasks[3].val.c.count[TD_MEM_BOUND], 8);
	assert_int_equal(d.tasks[3].val.c.slices, 9);

	/* Pid 5 is only in prev: ignored. */
	for (size_t i = 0; i < d.nr_tasks; i++)
		assert_int_not_equal(d.tasks[i].key.id, 5);

	snapshot_free(&prev);
	snapshot_free(&cur);
	snapshot_free(&d);
}

static void test_diff_cgroups(void **state)
{
	struct snapshot prev = { 0 }, cur = { 0 }, d = { 0 };

	(void)state;
	add_cgroup(&prev, cgroup(0, 1000, 50)); /* idle pseudo cgroup */
	add_cgroup(&prev, cgroup(2, 100, 5));	/* gone by cur */
	add_cgroup(&prev, cgroup(7, 100, 5));	/* unchanged */
	add_cgroup(&prev, cgroup(9, 100, 5));
	add_cgroup(&cur, cgroup(0, 1300, 80));
	add_cgroup(&cur, cgroup(3, 40, 1)); /* new */
	add_cgroup(&cur, cgroup(7, 100, 5));
	add_cgroup(&cur, cgroup(9, 111, 6));
	add_cgroup(&cur, cgroup(12, 20, 2)); /* new, after the end of prev */

	assert_int_equal(snapshot_diff(&prev, &cur, &d), 0);
	assert_int_equal(d.nr_cgroups, 4);
	assert_int_equal(d.cgroups[0].id, 0);
	assert_counts(&d.cgroups[0].c, 300, 30);
	assert_int_equal(d.cgroups[1].id, 3);
	assert_int_equal(d.cgroups[1].c.count[TD_SLOTS], 40);
	assert_int_equal(d.cgroups[1].c.slices, 1);
	assert_int_equal(d.cgroups[2].id, 9);
	assert_counts(&d.cgroups[2].c, 11, 1);
	assert_int_equal(d.cgroups[3].id, 12);
	assert_int_equal(d.cgroups[3].c.count[TD_BE_BOUND], 24);
	assert_int_equal(d.nr_tasks, 0);

	snapshot_free(&prev);
	snapshot_free(&cur);
	snapshot_free(&d);
}

/* A reused PID is another process: keys compare by (id, start_ns). */
static void test_diff_pid_reuse(void **state)
{
	struct snapshot prev = { 0 }, cur = { 0 }, d = { 0 };

	(void)state;
	add_task(&prev, task(42, 1000, 900, 90));
	/* The old process exited and a new one got pid 42. */
	add_task(&cur, task(42, 1000, 900, 90));
	add_task(&cur, task(42, 5000, 30, 3));

	assert_int_equal(snapshot_diff(&prev, &cur, &d), 0);
	assert_int_equal(d.nr_tasks, 1);
	assert_int_equal(d.tasks[0].key.id, 42);
	assert_int_equal(d.tasks[0].key.start_ns, 5000);
	/* Counted from zero, not from the old process's 900. */
	assert_int_equal(d.tasks[0].val.c.count[TD_SLOTS], 30);
	assert_int_equal(d.tasks[0].val.c.slices, 3);

	/* Same pid, later start in prev only, earlier in cur: both from zero. */
	snapshot_free(&prev);
	snapshot_free(&cur);
	add_task(&prev, task(42, 5000, 30, 3));
	add_task(&cur, task(42, 1000, 7, 1));
	add_task(&cur, task(42, 5000, 35, 4));
	assert_int_equal(snapshot_diff(&prev, &cur, &d), 0);
	assert_int_equal(d.nr_tasks, 2);
	assert_int_equal(d.tasks[0].key.start_ns, 1000);
	assert_int_equal(d.tasks[0].val.c.count[TD_SLOTS], 7);
	assert_int_equal(d.tasks[1].key.start_ns, 5000);
	assert_counts(&d.tasks[1].val.c, 5, 1);

	snapshot_free(&prev);
	snapshot_free(&cur);
	snapshot_free(&d);
}

/* The delta of two sorted snapshots is sorted, whatever the interleaving. */
static void test_diff_result_sorted(void **state)
{
	struct snapshot prev = { 0 }, cur = { 0 }, d = { 0 };
	unsigned int seed = 1;
	size_t i, in_prev = 0;

	(void)state;
	/*
	 * Unique keys, added in reverse order and sorted afterwards; each is
	 * in cur, and in prev too half of the time.
	 */
	for (__u32 id = 60; id-- > 0;) {
		for (__u64 start = 3; start-- > 0;) {
			if (rand_r(&seed) % 2) {
				add_task(&prev, task(id, start, 10, 1));
				in_prev++;
			}
			add_task(&cur, task(id, start, 20, 2));
		}
		add_cgroup(&cur, cgroup(1000 - 7 * id, 5, 2));
		if (rand_r(&seed) % 2)
			add_cgroup(&prev, cgroup(1000 - 7 * id, 1, 1));
	}
	assert_true(in_prev > 0 && in_prev < 180);
	snapshot_sort(&prev);
	snapshot_sort(&cur);
	assert_int_equal(snapshot_diff(&prev, &cur, &d), 0);
	/* Every entry had new slices, so all are in the delta. */
	assert_int_equal(d.nr_tasks, 180);
	assert_int_equal(d.nr_cgroups, 60);
	for (i = 1; i < d.nr_tasks; i++)
		assert_true(task_key_cmp(&d.tasks[i - 1].key, &d.tasks[i].key) < 0);
	for (i = 1; i < d.nr_cgroups; i++)
		assert_true(d.cgroups[i - 1].id < d.cgroups[i].id);

	snapshot_free(&prev);
	snapshot_free(&cur);
	snapshot_free(&d);
}

/* A delta reused from an earlier interval is overwritten, not appended to. */
static void test_diff_reuses_delta(void **state)
{
	struct snapshot prev = { 0 }, cur = { 0 }, d = { 0 };

	(void)state;
	add_task(&cur, task(1, 1, 10, 1));
	add_task(&cur, task(2, 2, 10, 1));
	add_cgroup(&cur, cgroup(5, 10, 1));
	assert_int_equal(snapshot_diff(&prev, &cur, &d), 0);
	assert_int_equal(d.nr_tasks, 2);
	assert_int_equal(d.nr_cgroups, 1);

	/* Next interval: nothing ran. */
	assert_int_equal(snapshot_copy(&prev, &cur), 0);
	assert_int_equal(snapshot_diff(&prev, &cur, &d), 0);
	assert_int_equal(d.nr_tasks, 0);
	assert_int_equal(d.nr_cgroups, 0);

	snapshot_free(&prev);
	snapshot_free(&cur);
	snapshot_free(&d);
}

static void test_diff_empty(void **state)
{
	struct snapshot prev = { 0 }, cur = { 0 }, d = { 0 };

	(void)state;
	/* Both empty, NULL buffers. */
	assert_int_equal(snapshot_diff(&prev, &cur, &d), 0);
	assert_int_equal(d.nr_tasks, 0);
	assert_int_equal(d.nr_cgroups, 0);

	/* Empty prev: everything in cur counts from zero. */
	add_task(&cur, task(3, 3, 100, 2));
	add_cgroup(&cur, cgroup(8, 100, 2));
	cur.totals.all.count[TD_SLOTS] = 77;
	cur.totals.task_drops = 4;
	assert_int_equal(snapshot_diff(&prev, &cur, &d), 0);
	assert_int_equal(d.nr_tasks, 1);
	assert_int_equal(d.tasks[0].val.c.count[TD_SLOTS], 100);
	assert_int_equal(d.nr_cgroups, 1);
	assert_int_equal(d.cgroups[0].c.count[TD_SLOTS], 100);
	assert_int_equal(d.totals.all.count[TD_SLOTS], 77);
	assert_int_equal(d.totals.task_drops, 4);

	/* Empty cur: nothing, whatever prev held. */
	snapshot_free(&d);
	assert_int_equal(snapshot_diff(&cur, &prev, &d), 0);
	assert_int_equal(d.nr_tasks, 0);
	assert_int_equal(d.nr_cgroups, 0);

	snapshot_free(&cur);
	snapshot_free(&d);
	/* Freeing an empty snapshot is fine, twice too. */
	snapshot_free(&prev);
	snapshot_free(&prev);
	assert_null(prev.tasks);
	assert_int_equal(prev.cap_tasks, 0);
}

static void fill_totals(struct td_cpu_totals *t, __u64 base)
{
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		t->all.count[i] = base + i;
		t->task_overflow.count[i] = 2 * base + i;
		t->cgroup_overflow.count[i] = 3 * base + i;
	}
	t->all.enabled_ns = base;
	t->all.running_ns = base / 2;
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
	assert_int_equal(out.all.enabled_ns, 4000);
	assert_int_equal(out.all.running_ns, 2000);
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
	assert_int_equal(acc.all.enabled_ns, 6000);
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

/* The totals of a diff are cur - prev. */
static void test_diff_totals(void **state)
{
	struct snapshot prev = { 0 }, cur = { 0 }, d = { 0 };

	(void)state;
	fill_totals(&prev.totals, 100);
	fill_totals(&cur.totals, 350);
	assert_int_equal(snapshot_diff(&prev, &cur, &d), 0);
	assert_int_equal(d.totals.all.count[TD_SLOTS], 250);
	assert_int_equal(d.totals.task_overflow.count[TD_RETIRING], 500);
	assert_int_equal(d.totals.cgroup_overflow.count[TD_MEM_BOUND], 750);
	assert_int_equal(d.totals.task_drops, 250);
	assert_int_equal(d.totals.cgroup_drops, 250);
	assert_int_equal(d.totals.read_errors, 250);
	snapshot_free(&d);
}

static void test_copy(void **state)
{
	struct snapshot src = { 0 }, dst = { 0 };
	struct task_sample *tasks;
	struct cgroup_sample *cgroups;

	(void)state;
	add_task(&src, task(1, 10, 100, 1));
	add_task(&src, task(2, 20, 200, 2));
	add_task(&src, task(3, 30, 300, 3));
	add_cgroup(&src, cgroup(4, 400, 4));
	add_cgroup(&src, cgroup(5, 500, 5));
	fill_totals(&src.totals, 9000);

	assert_int_equal(snapshot_copy(&dst, &src), 0);
	assert_int_equal(dst.nr_tasks, 3);
	assert_int_equal(dst.nr_cgroups, 2);
	assert_true(dst.cap_tasks >= 3);
	assert_true(dst.cap_cgroups >= 2);
	assert_memory_equal(dst.tasks, src.tasks, 3 * sizeof(*src.tasks));
	assert_memory_equal(dst.cgroups, src.cgroups, 2 * sizeof(*src.cgroups));
	assert_memory_equal(&dst.totals, &src.totals, sizeof(src.totals));

	/* Deep: the buffers are dst's own. */
	assert_ptr_not_equal(dst.tasks, src.tasks);
	assert_ptr_not_equal(dst.cgroups, src.cgroups);
	src.tasks[0].val.c.count[TD_SLOTS] = 1;
	src.cgroups[0].c.count[TD_SLOTS] = 1;
	assert_int_equal(dst.tasks[0].val.c.count[TD_SLOTS], 100);
	assert_int_equal(dst.cgroups[0].c.count[TD_SLOTS], 400);

	/* A smaller copy into dst keeps dst's buffers. */
	tasks = dst.tasks;
	cgroups = dst.cgroups;
	src.nr_tasks = 1;
	src.nr_cgroups = 1;
	src.totals.read_errors = 7;
	assert_int_equal(snapshot_copy(&dst, &src), 0);
	assert_ptr_equal(dst.tasks, tasks);
	assert_ptr_equal(dst.cgroups, cgroups);
	assert_int_equal(dst.nr_tasks, 1);
	assert_int_equal(dst.nr_cgroups, 1);
	assert_int_equal(dst.tasks[0].val.c.count[TD_SLOTS], 1);
	assert_int_equal(dst.totals.read_errors, 7);

	/* An empty source empties dst, buffers kept. */
	{
		struct snapshot empty = { 0 };

		assert_int_equal(snapshot_copy(&dst, &empty), 0);
		assert_int_equal(dst.nr_tasks, 0);
		assert_int_equal(dst.nr_cgroups, 0);
		assert_ptr_equal(dst.tasks, tasks);
		assert_int_equal(dst.totals.read_errors, 0);
	}

	snapshot_free(&src);
	snapshot_free(&dst);
}

static void test_sort(void **state)
{
	struct snapshot s = { 0 };
	static const struct {
		__u32 id;
		__u64 start;
	} order[] = {
		{ 0, 0 }, { 1, 5 }, { 1, 9 }, { 2, 0 }, { 2, 1 }, { 7, 3 }, { 0xffffffff, 0 },
	};
	static const __u64 ids[] = { 0, 1, 2, 1000, 1ULL << 40, ~0ULL };

	(void)state;
	/* Added in a scrambled order. */
	add_task(&s, task(2, 1, 0, 1));
	add_task(&s, task(0xffffffff, 0, 0, 1));
	add_task(&s, task(1, 9, 0, 1));
	add_task(&s, task(0, 0, 0, 1));
	add_task(&s, task(7, 3, 0, 1));
	add_task(&s, task(1, 5, 0, 1));
	add_task(&s, task(2, 0, 0, 1));
	add_cgroup(&s, cgroup(1000, 0, 1));
	add_cgroup(&s, cgroup(~0ULL, 0, 1));
	add_cgroup(&s, cgroup(0, 0, 1));
	add_cgroup(&s, cgroup(1ULL << 40, 0, 1));
	add_cgroup(&s, cgroup(2, 0, 1));
	add_cgroup(&s, cgroup(1, 0, 1));

	snapshot_sort(&s);
	assert_int_equal(s.nr_tasks, sizeof(order) / sizeof(order[0]));
	for (size_t i = 0; i < s.nr_tasks; i++) {
		assert_int_equal(s.tasks[i].key.id, order[i].id);
		assert_int_equal(s.tasks[i].key.start_ns, order[i].start);
		/* Values travel with their keys. */
		assert_int_equal(s.tasks[i].val.tgid, order[i].id);
	}
	assert_int_equal(s.nr_cgroups, sizeof(ids) / sizeof(ids[0]));
	for (size_t i = 0; i < s.nr_cgroups; i++)
		assert_true(s.cgroups[i].id == ids[i]);

	/* Sorting an empty snapshot is fine. */
	snapshot_free(&s);
	snapshot_sort(&s);
	assert_int_equal(s.nr_tasks, 0);
}

static void test_key_cmp(void **state)
{
	struct td_task_key a = { .id = 5, .start_ns = 100 }, b = a;

	(void)state;
	assert_int_equal(task_key_cmp(&a, &b), 0);
	b.start_ns = 101;
	assert_true(task_key_cmp(&a, &b) < 0);
	assert_true(task_key_cmp(&b, &a) > 0);
	/* id first: a smaller id with a later start is still smaller. */
	b.id = 4;
	b.start_ns = ~0ULL;
	assert_true(task_key_cmp(&b, &a) < 0);
	assert_true(task_key_cmp(&a, &b) > 0);
	/* No overflow on extreme values. */
	a.id = 0xffffffff;
	b.id = 0;
	assert_true(task_key_cmp(&a, &b) > 0);
	a.id = b.id = 1;
	a.start_ns = ~0ULL;
	b.start_ns = 0;
	assert_true(task_key_cmp(&a, &b) > 0);
	/* The padding does not take part. */
	a = (struct td_task_key){ .id = 3, .pad = 1, .start_ns = 9 };
	b = (struct td_task_key){ .id = 3, .pad = 2, .start_ns = 9 };
	assert_int_equal(task_key_cmp(&a, &b), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_merge_join),
		cmocka_unit_test(test_diff_cgroups),
		cmocka_unit_test(test_diff_pid_reuse),
		cmocka_unit_test(test_diff_result_sorted),
		cmocka_unit_test(test_diff_reuses_delta),
		cmocka_unit_test(test_diff_empty),
		cmocka_unit_test(test_totals_sub_add),
		cmocka_unit_test(test_totals_every_field),
		cmocka_unit_test(test_diff_totals),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_key_cmp),
		cmocka_unit_test(test_reserve_growth),
		cmocka_unit_test(test_reserve_one_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
