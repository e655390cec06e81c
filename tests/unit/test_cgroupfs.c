// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/host/cgroupfs.h: the cgroup2 mount from mountinfo files
 * (tests/fixtures/mountinfo, run from the repository root), and cgroup id
 * -> path names on a temporary directory tree standing in for the cgroup
 * file system (ids are inode numbers, as on cgroup v2).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "host/cgroupfs.h"
#include "model/entries.h"

#define MOUNTINFO "tests/fixtures/mountinfo/"

/* cgroup2_find_mount() on a fixture: its return value, and the path it found. */
static int find_mount(const char *fixture, char *path, size_t len)
{
	char file[PATH_MAX];

	snprintf(file, sizeof(file), MOUNTINFO "%s", fixture);
	memset(path, 'X', len);
	return cgroup2_find_mount(file, path, len);
}

static void test_mount_pure_v2(void **state)
{
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(find_mount("pure-v2", path, sizeof(path)), 0);
	assert_string_equal(path, "/sys/fs/cgroup");
}

static void test_mount_hybrid(void **state)
{
	char path[PATH_MAX];

	(void)state;
	/* This project's VMs: v1 controllers under a tmpfs, cgroup2 last. */
	assert_int_equal(find_mount("hybrid", path, sizeof(path)), 0);
	assert_string_equal(path, "/sys/fs/cgroup/unified");
	/* systemd's hybrid layout, with shared: tags, cgroup2 first. */
	assert_int_equal(find_mount("hybrid-systemd", path, sizeof(path)), 0);
	assert_string_equal(path, "/sys/fs/cgroup/unified");
}

static void test_mount_v1_only(void **state)
{
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(find_mount("v1-only", path, sizeof(path)), -ENOENT);
}

static void test_mount_escaped(void **state)
{
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(find_mount("escaped-space", path, sizeof(path)), 0);
	assert_string_equal(path, "/mnt/my cgroup\troot");
	/* Decoded, \000 would cut the path short: it stays as written. */
	assert_int_equal(find_mount("escaped-nul", path, sizeof(path)), 0);
	assert_string_equal(path, "/mnt/cg\\000x");
}

static void test_mount_bind_first(void **state)
{
	char path[PATH_MAX];

	(void)state;
	/* The sub-tree bind mount comes first; the whole tree wins. */
	assert_int_equal(find_mount("bind-first", path, sizeof(path)), 0);
	assert_string_equal(path, "/sys/fs/cgroup");
	/* With nothing better, the sub-tree will do. */
	assert_int_equal(find_mount("bind-only", path, sizeof(path)), 0);
	assert_string_equal(path, "/sys/fs/cgroup");
}

static void test_mount_missing_file(void **state)
{
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(find_mount("no-such-file", path, sizeof(path)), -ENOENT);
}

static void test_mount_short_buffer(void **state)
{
	char path[64];

	(void)state;
	/* "/sys/fs/cgroup/unified" is 22 bytes and its NUL. */
	assert_int_equal(find_mount("hybrid", path, 22), -ENAMETOOLONG);
	assert_int_equal(find_mount("hybrid", path, 23), 0);
	assert_string_equal(path, "/sys/fs/cgroup/unified");
}

/* This machine's own table: whatever it finds must be a cgroup2 mount. */
static void test_mount_self(void **state)
{
	char path[PATH_MAX];
	struct statfs sfs;
	int err;

	(void)state;
	err = cgroup2_find_mount("/proc/self/mountinfo", path, sizeof(path));
	if (err == -ENOENT)
		skip();
	assert_int_equal(err, 0);
	assert_int_equal(statfs(path, &sfs), 0);
	assert_true(sfs.f_type == CGROUP2_SUPER_MAGIC);
}

/* A temporary directory tree in place of the cgroup file system. */
struct tree {
	char root[64];
	struct cgroup_names n; /* freed by the teardown, even after a failure */
};

static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	strcpy(t->root, "/tmp/tdtrace-cgroupfs-XXXXXX");
	if (!mkdtemp(t->root)) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int rm_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(path);
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	int err;

	cgroup_names_free(&t->n);
	err = nftw(t->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return err ? -1 : 0;
}

/* mkdir -p of @rel under the tree; returns the directory's inode number. */
static __u64 tree_mkdir(struct tree *t, const char *rel)
{
	char path[PATH_MAX];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	if (mkdir(path, 0755) && errno != EEXIST)
		fail_msg("mkdir %s: %s", path, strerror(errno));
	assert_int_equal(stat(path, &sb), 0);
	return sb.st_ino;
}

static __u64 tree_ino(struct tree *t, const char *rel)
{
	char path[PATH_MAX];
	struct stat sb;

	snprintf(path, sizeof(path), "%s%s%s", t->root, *rel ? "/" : "", rel);
	assert_int_equal(stat(path, &sb), 0);
	return sb.st_ino;
}

static void tree_rmdir(struct tree *t, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	assert_int_equal(rmdir(path), 0);
}

/* An inode number that no directory of the tree has. */
static __u64 unused_ino(struct tree *t)
{
	char path[PATH_MAX];
	struct stat sb;
	FILE *f;

	/* A regular file's inode: in the tree, but not a directory. */
	snprintf(path, sizeof(path), "%s/not-a-cgroup", t->root);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(stat(path, &sb), 0);
	return sb.st_ino;
}

static void assert_name(struct cgroup_names *n, __u64 id, const char *want)
{
	const char *got = cgroup_names_find(n, id);

	if (!got || strcmp(got, want))
		fail_msg("id %llu: got %s, expected %s", (unsigned long long)id, got ? got : "NULL",
			 want);
}

static void test_names_root_and_nested(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	__u64 a, ab, abc, z;

	a = tree_mkdir(t, "a");
	ab = tree_mkdir(t, "a/b");
	abc = tree_mkdir(t, "a/b/c.scope");
	z = tree_mkdir(t, "z");

	assert_int_equal(cgroup_names_init(n, t->root), 0);
	assert_non_null(n->mount);
	assert_string_equal(n->mount, t->root);
	/* Names are read on the first miss: one refresh. */
	n->refresh_budget = 1;
	assert_name(n, tree_ino(t, ""), "/");
	assert_int_equal(n->refresh_budget, 0);
	/* Everything else came with that one read. */
	assert_name(n, a, "/a");
	assert_name(n, ab, "/a/b");
	assert_name(n, abc, "/a/b/c.scope");
	assert_name(n, z, "/z");
	assert_int_equal(n->nr, 5);
	cgroup_names_free(n);
}

static void test_names_odd_characters(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	__u64 sp, nl;

	sp = tree_mkdir(t, "my cgroup");
	nl = tree_mkdir(t, "line\nbreak\\x");
	assert_int_equal(cgroup_names_init(n, t->root), 0);
	n->refresh_budget = 1;
	assert_name(n, sp, "/my cgroup");
	assert_name(n, nl, "/line\nbreak\\x");
	cgroup_names_free(n);
}

static void test_names_new_directory(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	__u64 late;

	tree_mkdir(t, "early");
	assert_int_equal(cgroup_names_init(n, t->root), 0);
	n->refresh_budget = 1;
	assert_name(n, tree_ino(t, "early"), "/early");

	late = tree_mkdir(t, "late");
	/* No budget: no re-read, so not found. */
	n->refresh_budget = 0;
	assert_null(cgroup_names_find(n, late));
	/* Budget 1: re-read once, found, and the budget is spent. */
	n->refresh_budget = 1;
	assert_name(n, late, "/late");
	assert_int_equal(n->refresh_budget, 0);
	/* Found again without any budget. */
	assert_name(n, late, "/late");
	cgroup_names_free(n);
}

static void test_names_budget_zero_from_start(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	__u64 a = tree_mkdir(t, "a");

	assert_int_equal(cgroup_names_init(n, t->root), 0);
	n->refresh_budget = 0;
	/* Nothing read yet, and no budget to read. */
	assert_null(cgroup_names_find(n, a));
	assert_int_equal(n->nr, 0);
	n->refresh_budget = 2;
	assert_name(n, a, "/a");
	assert_int_equal(n->refresh_budget, 1);
	cgroup_names_free(n);
}

static void test_names_removed_keep_name(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	__u64 gone, kept;
	size_t nr;

	gone = tree_mkdir(t, "gone");
	kept = tree_mkdir(t, "kept");
	assert_int_equal(cgroup_names_init(n, t->root), 0);
	n->refresh_budget = 1;
	assert_name(n, gone, "/gone");
	nr = n->nr;

	tree_rmdir(t, "gone");
	assert_int_equal(cgroup_names_refresh(n), 0);
	assert_name(n, gone, "/gone");
	assert_name(n, kept, "/kept");
	/* A re-read adds nothing twice. */
	assert_int_equal(n->nr, nr);
	assert_int_equal(cgroup_names_refresh(n), 0);
	assert_int_equal(n->nr, nr);
	cgroup_names_free(n);
}

static void test_names_unknown(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	__u64 file = unused_ino(t);

	assert_int_equal(cgroup_names_init(n, t->root), 0);
	n->refresh_budget = 1;
	assert_null(cgroup_names_find(n, file));
	assert_int_equal(n->refresh_budget, 0);
	assert_null(cgroup_names_find(n, 0));
	assert_null(cgroup_names_find(n, ~0ULL));
	/* The root was read by the one refresh, the file was not. */
	assert_int_equal(n->nr, 1);
	assert_name(n, tree_ino(t, ""), "/");
	cgroup_names_free(n);
}

static void test_names_no_mount(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;

	assert_int_equal(cgroup_names_init(n, NULL), 0);
	assert_null(n->mount);
	n->refresh_budget = 3;
	assert_null(cgroup_names_find(n, tree_ino(t, "")));
	assert_null(cgroup_names_find(n, 1));
	assert_int_equal(cgroup_names_refresh(n), -ENOENT);
	assert_int_equal(n->nr, 0);
	cgroup_names_free(n);
}

/* The mount went away: refresh fails, names already read stay. */
static void test_names_mount_gone(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	char sub[PATH_MAX];
	__u64 x;

	snprintf(sub, sizeof(sub), "%s/mnt", t->root);
	tree_mkdir(t, "mnt");
	x = tree_mkdir(t, "mnt/x");
	assert_int_equal(cgroup_names_init(n, sub), 0);
	n->refresh_budget = 1;
	assert_name(n, x, "/x");
	tree_rmdir(t, "mnt/x");
	tree_rmdir(t, "mnt");
	assert_true(cgroup_names_refresh(n) < 0);
	assert_name(n, x, "/x");
	cgroup_names_free(n);
}

/* A mount that was never there: no names at all, and no error beyond -errno. */
static void test_names_mount_missing(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	char none[PATH_MAX];

	snprintf(none, sizeof(none), "%s/none", t->root);
	assert_int_equal(cgroup_names_init(n, none), 0);
	assert_int_equal(cgroup_names_refresh(n), -ENOENT);
	assert_int_equal(n->nr, 0);
	assert_null(cgroup_names_find(n, 1));
	cgroup_names_free(n);
}

/* More directories than the first allocation holds. */
static void test_names_many(void **state)
{
	struct tree *t = *state;
	static __u64 ids[600];
	struct cgroup_names *n = &t->n;
	char rel[64], want[64];
	int i;

	tree_mkdir(t, "kubepods");
	for (i = 0; i < 600; i++) {
		snprintf(rel, sizeof(rel), "kubepods/pod%03d", i);
		ids[i] = tree_mkdir(t, rel);
	}
	assert_int_equal(cgroup_names_init(n, t->root), 0);
	n->refresh_budget = 1;
	for (i = 599; i >= 0; i--) {
		snprintf(want, sizeof(want), "/kubepods/pod%03d", i);
		assert_name(n, ids[i], want);
	}
	assert_int_equal(n->nr, 602);
	/* Sorted by id, so the lookups above could use a binary search. */
	for (size_t j = 1; j < n->nr; j++)
		assert_true(n->v[j - 1].id < n->v[j].id);
	cgroup_names_free(n);
}

/* A mount given with a trailing slash still names cgroups "/a". */
static void test_names_mount_trailing_slash(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	char mount[PATH_MAX];
	__u64 a = tree_mkdir(t, "a");

	snprintf(mount, sizeof(mount), "%s/", t->root);
	assert_int_equal(cgroup_names_init(n, mount), 0);
	n->refresh_budget = 1;
	assert_name(n, tree_ino(t, ""), "/");
	assert_name(n, a, "/a");
	cgroup_names_free(n);
}

/*
 * Deeper than the 32 directories nftw kept open: each level is listed and
 * closed before the walk goes down, and every level is named.
 */
static void test_names_deep(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	char rel[PATH_MAX] = "d", want[PATH_MAX];
	__u64 deepest = 0;
	struct rlimit old, low;
	int fds_open = 0, err;

	for (int i = 0; i < 100; i++) {
		deepest = tree_mkdir(t, rel);
		strcat(rel, "/d");
	}
	rel[strlen(rel) - 2] = '\0';
	snprintf(want, sizeof(want), "/%s", rel);
	assert_int_equal(cgroup_names_init(n, t->root), 0);
	/* The walk holds one directory at a time: a low fd limit still reads it all. */
	for (int fd = 0; fd < 1024; fd++)
		fds_open += fcntl(fd, F_GETFD) != -1;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = fds_open + 4;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	err = cgroup_names_refresh(n);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(err, 0);
	assert_int_equal(n->nr, 101);
	n->refresh_budget = 0;
	assert_name(n, deepest, want);
	cgroup_names_free(n);
}

/* A symbolic link to a directory is no cgroup: not followed, not named. */
static void test_names_symlink(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	char link[PATH_MAX], target[PATH_MAX];

	tree_mkdir(t, "a");
	tree_mkdir(t, "a/b");
	snprintf(target, sizeof(target), "%s/a", t->root);
	snprintf(link, sizeof(link), "%s/link", t->root);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(cgroup_names_init(n, t->root), 0);
	assert_int_equal(cgroup_names_refresh(n), 0);
	assert_int_equal(n->nr, 3); /* "/", "/a", "/a/b" */
	for (size_t i = 0; i < n->nr; i++)
		assert_null(strstr(n->v[i].path, "link"));
	cgroup_names_free(n);
}

/*
 * The collect stage covers an interval's entries: every cgroup they name
 * is read with one walk, the idle pseudo cgroup is not looked for, and
 * entries whose cgroups are all known cost no walk.
 */
static void test_names_cover_entries(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;
	struct entry v[4] = {};
	struct entry_set s = { .v = v, .nr = 4 };
	__u64 a = tree_mkdir(t, "a"), b = tree_mkdir(t, "a/b");

	v[0].key.cgroup_id = TD_IDLE_CGROUP_ID;
	v[1].key = (struct td_key){ .id = 7, .cgroup_id = a };
	v[2].key = (struct td_key){ .id = 7, .cgroup_id = b };
	v[3].key = (struct td_key){ .id = 8, .cgroup_id = b };
	assert_int_equal(cgroup_names_init(n, t->root), 0);
	cgroup_names_cover(n, &s);
	assert_int_equal(n->refresh_budget, 0); /* one walk */
	assert_string_equal(cgroup_names_lookup(n, a), "/a");
	assert_string_equal(cgroup_names_lookup(n, b), "/a/b");

	/* All known: the budget is not touched. */
	cgroup_names_cover(n, &s);
	assert_int_equal(n->refresh_budget, 1);

	/* A new cgroup in the next interval: read at the next cover. */
	v[3].key.cgroup_id = tree_mkdir(t, "c");
	cgroup_names_cover(n, &s);
	assert_int_equal(n->refresh_budget, 0);
	assert_string_equal(cgroup_names_lookup(n, v[3].key.cgroup_id), "/c");
	cgroup_names_free(n);
}

static void test_names_free(void **state)
{
	struct tree *t = *state;
	struct cgroup_names *n = &t->n;

	tree_mkdir(t, "a");
	tree_mkdir(t, "a/b");
	assert_int_equal(cgroup_names_init(n, t->root), 0);
	assert_int_equal(cgroup_names_refresh(n), 0);
	assert_int_equal(n->nr, 3);
	cgroup_names_free(n);
	/* Nothing left (valgrind checks the memory). */
	assert_null(n->mount);
	assert_null(n->v);
	assert_int_equal(n->nr, 0);
	assert_int_equal(n->cap, 0);
	/* Freeing again, or freeing a never-used table, is harmless. */
	cgroup_names_free(n);
	assert_int_equal(cgroup_names_init(n, NULL), 0);
	cgroup_names_free(n);
	assert_null(n->v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mount_pure_v2),
		cmocka_unit_test(test_mount_hybrid),
		cmocka_unit_test(test_mount_v1_only),
		cmocka_unit_test(test_mount_escaped),
		cmocka_unit_test(test_mount_bind_first),
		cmocka_unit_test(test_mount_missing_file),
		cmocka_unit_test(test_mount_short_buffer),
		cmocka_unit_test(test_mount_self),
		cmocka_unit_test_setup_teardown(test_names_root_and_nested, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_odd_characters, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_new_directory, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_budget_zero_from_start, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_removed_keep_name, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_unknown, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_no_mount, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_mount_gone, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_mount_missing, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_many, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_mount_trailing_slash, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_deep, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_symlink, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_cover_entries, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_names_free, tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
