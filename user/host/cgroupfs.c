// SPDX-License-Identifier: GPL-2.0
/* cgroup v2 mount discovery and cgroup id -> path names. */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/array.h"
#include "host/cgroupfs.h"
#include "model/entries.h"

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

/*
 * One re-read of the tree into @n: its own walk rather than nftw, which
 * has no user argument and would need file-level state. Directories
 * only, never through a symbolic link or into another file system, one
 * directory open at a time however deep the tree (each level's names are
 * listed, then the directory is closed before going down).
 */
struct walk {
	struct cgroup_names *n;
	size_t sorted;	  /* n->v[0..sorted) is sorted: the ids known before the walk */
	size_t mount_len; /* path + mount_len is the name relative to the mount */
	dev_t dev;	  /* the mount's file system */
	char path[PATH_MAX];
};

/* @w->path is a cgroup directory with @st: add it, if its id is new. */
static int add_dir(struct walk *w, const struct stat *st)
{
	struct cgroup_names *n = w->n;
	const char *rel = w->path + w->mount_len;
	struct cgroup_name *e;

	/* Known ids keep their first name; new ones are appended, sorted after the walk. */
	if (lookup(n, w->sorted, st->st_ino))
		return 0;
	if (array_reserve((void **)&n->v, &n->cap, n->nr + 1, sizeof(*n->v)))
		return -ENOMEM;
	e = &n->v[n->nr];
	e->id = st->st_ino;
	e->path = strdup(*rel ? rel : "/");
	if (!e->path)
		return -ENOMEM;
	n->nr++;
	return 0;
}

/* The names in directory @path, NUL-separated in one buffer; NULL if it cannot be read. */
static char *list_dir(const char *path, size_t *len)
{
	size_t cap = 0;
	char *names = NULL;
	struct dirent *d;
	DIR *dir = opendir(path);

	*len = 0;
	if (!dir)
		return NULL;
	while ((d = readdir(dir))) {
		size_t l = strlen(d->d_name) + 1;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..") ||
		    (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN))
			continue;
		if (array_reserve((void **)&names, &cap, *len + l, 1))
			break;
		memcpy(names + *len, d->d_name, l);
		*len += l;
	}
	closedir(dir);
	return names ? names : strdup("");
}

/*
 * Below @w->path (a directory already added): a directory that cannot be
 * read, or goes away during the walk, is passed over, as nftw would.
 */
static int walk_below(struct walk *w)
{
	size_t base = strlen(w->path), len;
	char *names = list_dir(w->path, &len);
	int err = 0;

	for (size_t off = 0; names && off < len && !err; off += strlen(names + off) + 1) {
		struct stat st;

		if (base + 1 + strlen(names + off) >= sizeof(w->path))
			continue;
		sprintf(w->path + base, "/%s", names + off);
		if (lstat(w->path, &st) || !S_ISDIR(st.st_mode) || st.st_dev != w->dev)
			continue;
		err = add_dir(w, &st);
		if (!err)
			err = walk_below(w);
	}
	w->path[base] = '\0';
	free(names);
	return err;
}

int cgroup_names_refresh(struct cgroup_names *n)
{
	struct walk *w;
	struct stat st;
	int err;

	if (!n->mount)
		return -ENOENT;
	if (lstat(n->mount, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	w = malloc(sizeof(*w));
	if (!w)
		return -ENOMEM;
	*w = (struct walk){
		.n = n, .sorted = n->nr, .mount_len = strlen(n->mount), .dev = st.st_dev
	};
	snprintf(w->path, sizeof(w->path), "%s", n->mount);
	err = add_dir(w, &st);
	if (!err)
		err = walk_below(w);
	/* No names yet leaves v NULL, which qsort does not take. */
	if (n->nr)
		qsort(n->v, n->nr, sizeof(*n->v), cmp_id);
	free(w);
	return err;
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

void cgroup_names_cover(struct cgroup_names *n, const struct entry_set *s)
{
	__u64 last = TD_IDLE_CGROUP_ID;

	/* At most one re-read of the tree per read of the counts, for cgroups new since the last.
	 */
	n->refresh_budget = 1;
	for (size_t i = 0; i < s->nr; i++) {
		__u64 id = s->v[i].key.cgroup_id;

		/* Entries of one process in one cgroup often follow each other. */
		if (id != TD_IDLE_CGROUP_ID && id != last)
			cgroup_names_find(n, id);
		last = id;
	}
}
