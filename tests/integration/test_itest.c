// SPDX-License-Identifier: GPL-2.0
/*
 * The integration tests' own helpers (itest.c), where a mistake would not
 * show as a failed test but as a test checking the wrong thing: helper
 * paths taken together in one expression stay distinct. Needs nothing.
 */
#include "itest.h"

/* The directory of this test binary, as /proc/self/exe names it. */
static void own_dir(char *dir)
{
	char *slash;

	assert_non_null(realpath("/proc/self/exe", dir));
	slash = strrchr(dir, '/');
	assert_non_null(slash);
	*slash = '\0';
}

/* @got is <dir>/<name>. */
static void assert_helper_at(const char *got, const char *dir, const char *name)
{
	char want[PATH_MAX + 64];

	snprintf(want, sizeof(want), "%s/%s", dir, name);
	assert_string_equal(got, want);
}

/* As in an argv: the first path must not become the second one. */
static void test_two_helper_paths_stay_distinct(void **state)
{
	char dir[PATH_MAX];
	const char *spin = itest_helper_path("spin"), *namer = itest_helper_path("namer");

	own_dir(dir);
	print_message("spin: %s, namer: %s\n", spin, namer);
	assert_helper_at(spin, dir, "spin");
	assert_helper_at(namer, dir, "namer");
	/* Asking again for either leaves the other as it was. */
	assert_helper_at(itest_helper_path("spin"), dir, "spin");
	assert_helper_at(namer, dir, "namer");
	assert_helper_at(itest_helper_path("namer"), dir, "namer");
	assert_helper_at(spin, dir, "spin");
}

/* More names than a small ring of buffers would hold: none is overwritten. */
static void test_many_helper_paths_stay_distinct(void **state)
{
	const char *paths[40];
	char dir[PATH_MAX], name[16];
	int i;

	own_dir(dir);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "helper%d", i);
		paths[i] = itest_helper_path(name);
	}
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "helper%d", i);
		assert_helper_at(paths[i], dir, name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_helper_paths_stay_distinct),
		cmocka_unit_test(test_many_helper_paths_stay_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
