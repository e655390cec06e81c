// SPDX-License-Identifier: GPL-2.0
/* cgroup rows: subtree sums, self partition, --depth, -c roots, --containers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "model/cgroup_rows.h"
#include "model/counts.h" /* TD_SLOTS */

/* A names table by hand (sorted by id), so no file system is involved. */
static struct cgroup_name name_table[] = {
	{ 1, "/" },
	{ 10, "/a" },
	{ 11, "/a/a1" },
	{ 12, "/a/a1/deep" },
	{ 20, "/b" },
	{ 30, "/system.slice" },
	{ 31, "/system.slice/"
	      "docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope" },
	{ 32, "/system.slice/"
	      "docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope/"
	      "init.scope" },
	{ 33, "/system.slice/sshd.service" },
};

static struct cgroup_names names = {
	.v = name_table,
	.nr = sizeof(name_table) / sizeof(name_table[0]),
};

static struct cgroup_sample sample(__u64 id, __u64 ns)
{
	struct cgroup_sample s = { .id = id };

	s.c.count[TD_SLOTS] = ns;
	s.c.slices = 1;
	return s;
}

static const struct cgroup_row *find(const struct cgroup_row *rows, size_t nr, const char *path)
{
	for (size_t i = 0; i < nr; i++)
		if (rows[i].path && !strcmp(rows[i].path, path))
			return &rows[i];
	return NULL;
}

static __u64 sum_self(const struct cgroup_row *rows, size_t nr)
{
	__u64 total = 0;

	for (size_t i = 0; i < nr; i++)
		total += rows[i].self.count[TD_SLOTS];
	return total;
}

/* Charges: / 5, /a 10, /a/a1 100, /a/a1/deep 7, /b 50, idle 1000, removed id 99 3. */
static struct cgroup_sample tree[7];
static const __u64 tree_total = 5 + 10 + 100 + 7 + 50 + 1000 + 3;

static int setup_tree(void **state)
{
	tree[0] = sample(TD_IDLE_CGROUP_ID, 1000);
	tree[1] = sample(1, 5);
	tree[2] = sample(10, 10);
	tree[3] = sample(11, 100);
	tree[4] = sample(12, 7);
	tree[5] = sample(20, 50);
	tree[6] = sample(99, 3);
	return 0;
}

static void test_subtree_sums(void **state)
{
	struct cgroup_rows_opts o = { .depth = -1 };
	struct cgroup_row *rows;
	size_t nr;

	assert_int_equal(cgroup_rows_build(tree, 7, &names, &o, &rows, &nr), 0);
	assert_int_equal(find(rows, nr, "/")->sum.count[TD_SLOTS], 5 + 10 + 100 + 7 + 50);
	assert_int_equal(find(rows, nr, "/")->self.count[TD_SLOTS], 5);
	assert_int_equal(find(rows, nr, "/a")->sum.count[TD_SLOTS], 117);
	assert_int_equal(find(rows, nr, "/a")->self.count[TD_SLOTS], 10);
	assert_int_equal(find(rows, nr, "/a/a1")->sum.count[TD_SLOTS], 107);
	assert_int_equal(find(rows, nr, "/a/a1/deep")->sum.count[TD_SLOTS], 7);
	assert_int_equal(find(rows, nr, "/b")->sum.count[TD_SLOTS], 50);
	assert_int_equal(find(rows, nr, "/a")->id, 10);
	assert_int_equal(find(rows, nr, "/a")->depth, 1);
	assert_int_equal(find(rows, nr, "/a/a1/deep")->depth, 3);
	/* slices add up like counts: /a holds the slices of 3 charged cgroups */
	assert_int_equal(find(rows, nr, "/a")->sum.slices, 3);
	/* the idle row and the removed cgroup stand alone, unnamed */
	int idle = 0, unknown = 0;
	for (size_t i = 0; i < nr; i++) {
		idle += rows[i].idle;
		unknown += !rows[i].path && !rows[i].idle && rows[i].id == 99;
	}
	assert_int_equal(idle, 1);
	assert_int_equal(unknown, 1);
	/* nothing lost, nothing twice: the self counts partition the total */
	assert_int_equal(sum_self(rows, nr), tree_total);
	cgroup_rows_free(rows, nr);
}

/* An ancestor never charged itself still gets its id from the names. */
static void test_ancestor_id(void **state)
{
	struct cgroup_sample only = sample(11, 40);
	struct cgroup_rows_opts o = { .depth = -1 };
	struct cgroup_row *rows;
	size_t nr;

	assert_int_equal(cgroup_rows_build(&only, 1, &names, &o, &rows, &nr), 0);
	assert_int_equal(nr, 3); /* /, /a, /a/a1 */
	assert_int_equal(find(rows, nr, "/a")->id, 10);
	assert_int_equal(find(rows, nr, "/")->id, 1);
	assert_int_equal(find(rows, nr, "/a")->self.count[TD_SLOTS], 0);
	assert_int_equal(find(rows, nr, "/a")->sum.count[TD_SLOTS], 40);
	cgroup_rows_free(rows, nr);
}

static void test_depth(void **state)
{
	struct cgroup_rows_opts o = { .depth = 1 };
	struct cgroup_row *rows;
	size_t nr;

	assert_int_equal(cgroup_rows_build(tree, 7, &names, &o, &rows, &nr), 0);
	assert_null(find(rows, nr, "/a/a1"));
	assert_null(find(rows, nr, "/a/a1/deep"));
	/* /a/a1 and /a/a1/deep roll up into /a, as its own */
	assert_int_equal(find(rows, nr, "/a")->self.count[TD_SLOTS], 117);
	assert_int_equal(find(rows, nr, "/a")->sum.count[TD_SLOTS], 117);
	for (size_t i = 0; i < nr; i++)
		assert_true(!rows[i].path || rows[i].depth <= 1);
	assert_int_equal(sum_self(rows, nr), tree_total);
	cgroup_rows_free(rows, nr);

	o.depth = 0;
	assert_int_equal(cgroup_rows_build(tree, 7, &names, &o, &rows, &nr), 0);
	assert_int_equal(find(rows, nr, "/")->self.count[TD_SLOTS], 172);
	assert_null(find(rows, nr, "/a"));
	cgroup_rows_free(rows, nr);
}

static void test_roots(void **state)
{
	const char *roots[] = { "/a/a1" };
	struct cgroup_rows_opts o = { .depth = -1, .roots = roots, .nr_roots = 1 };
	struct cgroup_row *rows;
	size_t nr;

	assert_int_equal(cgroup_rows_build(tree, 7, &names, &o, &rows, &nr), 0);
	assert_non_null(find(rows, nr, "/a/a1"));
	assert_non_null(find(rows, nr, "/a/a1/deep"));
	/* above the root nothing is summed: "/" and /a keep only their own charges... */
	assert_int_equal(find(rows, nr, "/")->sum.count[TD_SLOTS], 5);
	assert_int_equal(find(rows, nr, "/a")->sum.count[TD_SLOTS], 10);
	/* ...and charges outside the root keep their own row, so nothing goes missing */
	assert_int_equal(find(rows, nr, "/b")->sum.count[TD_SLOTS], 50);
	assert_int_equal(find(rows, nr, "/a/a1")->sum.count[TD_SLOTS], 107);
	assert_int_equal(sum_self(rows, nr), tree_total);
	cgroup_rows_free(rows, nr);
}

static void test_containers(void **state)
{
	struct cgroup_sample v[] = { sample(1, 3), sample(31, 100), sample(32, 20), sample(33, 5) };
	struct cgroup_rows_opts o = { .depth = -1, .containers = true };
	const struct cgroup_row *docker = NULL;
	struct cgroup_row *rows;
	size_t nr;

	assert_int_equal(cgroup_rows_build(v, 4, &names, &o, &rows, &nr), 0);
	assert_int_equal(nr, 3); /* the container (with its init.scope), sshd, and / */
	for (size_t i = 0; i < nr; i++)
		if (rows[i].label.kind == CONTAINER_DOCKER)
			docker = &rows[i];
	assert_non_null(docker);
	assert_string_equal(docker->label.label, "docker:0123456789ab");
	assert_int_equal(docker->sum.count[TD_SLOTS], 120);
	assert_int_equal(docker->self.count[TD_SLOTS], 120);
	assert_int_equal(docker->id, 31);
	assert_int_equal(find(rows, nr, "/system.slice/sshd.service")->label.kind, CONTAINER_UNIT);
	/* a partition: no subtree sums, the selfs still add up */
	assert_null(find(rows, nr, "/system.slice"));
	assert_int_equal(sum_self(rows, nr), 128);
	cgroup_rows_free(rows, nr);
}

static void test_empty(void **state)
{
	struct cgroup_rows_opts o = { .depth = -1 };
	struct cgroup_row *rows;
	size_t nr = 1;

	assert_int_equal(cgroup_rows_build(NULL, 0, &names, &o, &rows, &nr), 0);
	assert_int_equal(nr, 0);
	cgroup_rows_free(rows, nr);
}

static void test_path_depth(void **state)
{
	assert_int_equal(cgroup_path_depth("/"), 0);
	assert_int_equal(cgroup_path_depth("/a"), 1);
	assert_int_equal(cgroup_path_depth("/a/b"), 2);
	assert_int_equal(cgroup_path_depth("/a/b/"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_subtree_sums, setup_tree),
		cmocka_unit_test(test_ancestor_id),
		cmocka_unit_test_setup(test_depth, setup_tree),
		cmocka_unit_test_setup(test_roots, setup_tree),
		cmocka_unit_test(test_containers),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_path_depth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
