// SPDX-License-Identifier: GPL-2.0
/* cgroup v2 mount discovery and cgroup id -> path names. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/array.h"
#include "host/cgroupfs.h"
#include "model/snapshot.h"

/*
 * mountinfo escapes space, tab, newline and backslash as \ooo. The kernel
 * never writes \000; decoded, it would end the path early (to "" if first),
 * so it is kept as written.
 */
static void unescape_octal(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7' && (s[1] != '0' || s[2] != '0' || s[3] != '0')) {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

int cgroup2_find_mount(const char *mountinfo, char *path, size_t len)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = -ENOENT;
	FILE *f;

	f = fopen(mountinfo, "re");
	if (!f)
		return -errno;
	/* id parent major:minor root mount-point options [optional...] - fstype source super */
	while (getline(&line, &cap, f) > 0) {
		char root[4096], mnt[4096], fstype[64];
		char *sep = strstr(line, " - ");

		if (!sep || sscanf(sep + 3, "%63s", fstype) != 1 || strcmp(fstype, "cgroup2"))
			continue;
		if (sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2)
			continue;
		unescape_octal(mnt);
		if (strlen(mnt) >= len) {
			ret = -ENAMETOOLONG;
			continue;
		}
		strcpy(path, mnt);
		ret = 0;
		/* A bind mount of a sub-tree (root != "/") is second best. */
		if (!strcmp(root, "/"))
			break;
	}
	free(line);
	fclose(f);
	return ret;
}

static int cmp_id(const void *a, const void *b)
{
	const struct cgroup_name *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Search the first @nr entries, which are sorted by id. */
static struct cgroup_name *lookup(struct cgroup_names *n, size_t nr, __u64 id)
{
	struct cgroup_name key = { .id = id };

	return nr ? bsearch(&key, n->v, nr, sizeof(*n->v), cmp_id) : NULL;
}

/* nftw has no user argument: the walk fills this one table at a time. */
static struct cgroup_names *walking;
static size_t mount_len, walk_sorted;

static int visit(const char *fpath, const struct stat *sb, int type, struct FTW *ftw)
{
	struct cgroup_names *n = walking;
	const char *rel = fpath + mount_len;
	struct cgroup_name *e;

	if (type != FTW_D)
		return 0;
	/* Known ids keep their first name; new ones are appended, sorted after the walk. */
	if (lookup(n, walk_sorted, sb->st_ino))
		return 0;
	if (array_reserve((void **)&n->v, &n->cap, n->nr + 1, sizeof(*n->v)))
		return -1;
	e = &n->v[n->nr];
	e->id = sb->st_ino;
	e->path = strdup(*rel ? rel : "/");
	if (!e->path)
		return -1;
	n->nr++;
	return 0;
}

int cgroup_names_refresh(struct cgroup_names *n)
{
	int err;

	if (!n->mount)
		return -ENOENT;
	walking = n;
	mount_len = strlen(n->mount);
	walk_sorted = n->nr;
	err = nftw(n->mount, visit, 32, FTW_PHYS | FTW_MOUNT);
	/* No names yet (the mount is missing) leaves v NULL, which qsort does not take. */
	if (n->nr)
		qsort(n->v, n->nr, sizeof(*n->v), cmp_id);
	walking = NULL;
	return err ? -errno : 0;
}

const char *cgroup_names_find(struct cgroup_names *n, __u64 id)
{
	const char *path = cgroup_names_lookup(n, id);

	/* A new cgroup: re-read the tree, at most refresh_budget times. */
	if (!path && n->mount && n->refresh_budget > 0) {
		n->refresh_budget--;
		cgroup_names_refresh(n);
		path = cgroup_names_lookup(n, id);
	}
	return path;
}

void cgroup_names_cover(struct cgroup_names *n, const struct snapshot *s)
{
	/* At most one re-read of the tree per report, for cgroups new since the last. */
	n->refresh_budget = 1;
	for (size_t i = 0; i < s->nr_tasks; i++)
		if (s->tasks[i].key.id)
			cgroup_names_find(n, s->tasks[i].val.cgroup_id);
	for (size_t i = 0; i < s->nr_cgroups; i++)
		if (s->cgroups[i].id != TD_IDLE_CGROUP_ID)
			cgroup_names_find(n, s->cgroups[i].id);
}
