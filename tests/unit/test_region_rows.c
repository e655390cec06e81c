// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/model/regions.h: splitting --region's BINARY:SYMBOL,
 * the sorted set of region rows, their running sum, and reading one epoch
 * half of the BPF map into an interval's differences.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/regions.h"

static struct td_region_key key(__u32 region, __u32 tgid, __u64 cgroup)
{
	struct td_region_key k;

	memset(&k, 0, sizeof(k));
	k.region = region;
	k.task.id = tgid;
	k.task.start_ns = 1000 + tgid;
	k.task.cgroup_id = cgroup;
	return k;
}

static void test_split(void **state)
{
	const char *binary, *symbol;
	char buf[64];

	assert_int_equal(region_spec_split("./prog:work", buf, sizeof(buf), &binary, &symbol), 0);
	assert_string_equal(binary, "./prog");
	assert_string_equal(symbol, "work");
	/* The last ':' splits: a path may hold one, a symbol has none. */
	assert_int_equal(
		region_spec_split("/a:b/prog:_Z4workv", buf, sizeof(buf), &binary, &symbol), 0);
	assert_string_equal(binary, "/a:b/prog");
	assert_string_equal(symbol, "_Z4workv");
	assert_int_equal(region_spec_split("libc:malloc", buf, sizeof(buf), &binary, &symbol), 0);
	assert_string_equal(binary, "libc");
	assert_string_equal(symbol, "malloc");
}

static void test_split_bad(void **state)
{
	static const char *const bad[] = { "", "prog", "prog:", ":work", "dir:x/y", ":" };
	const char *binary, *symbol;
	char buf[64], longer[100];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(region_spec_split(bad[i], buf, sizeof(buf), &binary, &symbol),
				 -EINVAL);
	/* Longer than the buffer: refused, not cut. */
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	longer[50] = ':';
	assert_int_equal(region_spec_split(longer, buf, sizeof(buf), &binary, &symbol), -EINVAL);
}

/*
 * Rows stay sorted by region, then process and cgroup, whatever the order
 * they come in, and when one is taken out.
 */
static void test_get_sorted(void **state)
{
	struct region_set s = { 0 };
	struct td_region_key k[] = { key(2, 10, 1), key(1, 30, 1), key(1, 10, 2), key(1, 10, 1),
				     key(2, 5, 9) };
	struct td_region_key again = key(1, 10, 2);

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct region_row *r = region_get(&s, &k[i]);

		assert_non_null(r);
		r->calls = i + 1;
	}
	assert_int_equal(s.nr, 5);
	for (size_t i = 1; i < s.nr; i++)
		assert_true(region_key_cmp(&s.v[i - 1].key, &s.v[i].key) < 0);
	assert_int_equal(s.v[0].key.region, 1);
	assert_int_equal(s.v[4].key.region, 2);
	/* The same key again: the row there, not a new one. */
	assert_int_equal(region_get(&s, &again)->calls, 3);
	assert_int_equal(s.nr, 5);
	assert_null(region_find(&s, &(struct td_region_key){ .region = 7 }));
	/* Out again, the rest still in order; a key not there changes nothing. */
	region_remove(&s, &again);
	region_remove(&s, &again);
	assert_int_equal(s.nr, 4);
	assert_null(region_find(&s, &again));
	for (size_t i = 1; i < s.nr; i++)
		assert_true(region_key_cmp(&s.v[i - 1].key, &s.v[i].key) < 0);
	assert_int_equal(region_find(&s, &k[0])->calls, 1);
	assert_int_equal(region_find(&s, &k[4])->calls, 5);
	region_set_free(&s);
}

/* Reading half @closed: the difference since the last read of that half, then nothing. */
static void test_read_half(void **state)
{
	struct region_set seen[2] = { { 0 }, { 0 } }, delta = { 0 }, total = { 0 };
	struct td_region_key k = key(3, 42, 7);
	struct region_val_read v;

	memset(&v, 0, sizeof(v));
	v.tgid = 42;
	snprintf(v.comm, sizeof(v.comm), "prog");
	v.c[0].count[0] = 1000;
	v.c[0].slices = 2;
	v.calls[0] = 5;
	v.c[1].count[0] = 77; /* the other half: not read now */
	assert_int_equal(region_read_half(&seen[0], &delta, &k, &v, 0), 0);
	assert_int_equal(delta.nr, 1);
	assert_int_equal(delta.v[0].c.count[0], 1000);
	assert_int_equal(delta.v[0].c.slices, 2);
	assert_int_equal(delta.v[0].calls, 5);
	assert_int_equal(delta.v[0].tgid, 42);
	assert_string_equal(delta.v[0].comm, "prog");
	assert_int_equal(region_set_add(&total, &delta), 0);

	/* Half 0 again, grown by 500 and 1 call. */
	region_set_clear(&delta);
	v.c[0].count[0] = 1500;
	v.calls[0] = 6;
	assert_int_equal(region_read_half(&seen[0], &delta, &k, &v, 0), 0);
	assert_int_equal(delta.nr, 1);
	assert_int_equal(delta.v[0].c.count[0], 500);
	assert_int_equal(delta.v[0].calls, 1);
	assert_int_equal(region_set_add(&total, &delta), 0);

	/* Half 1, read for the first time: all of it. */
	region_set_clear(&delta);
	assert_int_equal(region_read_half(&seen[1], &delta, &k, &v, 1), 0);
	assert_int_equal(delta.v[0].c.count[0], 77);
	assert_int_equal(delta.v[0].calls, 0);
	assert_int_equal(region_set_add(&total, &delta), 0);

	/* Nothing new: no row in the difference. */
	region_set_clear(&delta);
	assert_int_equal(region_read_half(&seen[0], &delta, &k, &v, 0), 0);
	assert_int_equal(delta.nr, 0);

	/* The running sum holds every difference. */
	assert_int_equal(total.nr, 1);
	assert_int_equal(total.v[0].c.count[0], 1000 + 500 + 77);
	assert_int_equal(total.v[0].calls, 6);
	region_set_free(&seen[0]);
	region_set_free(&seen[1]);
	region_set_free(&delta);
	region_set_free(&total);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_bad),
		cmocka_unit_test(test_get_sorted),
		cmocka_unit_test(test_read_half),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
