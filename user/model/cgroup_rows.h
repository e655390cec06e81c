/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup rows from per-cgroup charges: each row holds its whole subtree,
 * as cgroup v2's own cpu.stat does, or with --containers one row per
 * container (a partition). Pure: no syscalls.
 */
#ifndef TD_CGROUP_ROWS_H
#define TD_CGROUP_ROWS_H

#include <stdbool.h>
#include "model/cgroup_names.h"
#include "model/container.h"
#include "model/snapshot.h"

struct cgroup_rows_opts {
	int depth;		  /* rows no deeper than this (-1: any); deeper ones roll up */
	const char *const *roots; /* -c: rows only at or below these paths */
	int nr_roots;
	bool containers; /* one row per container, unit or path; no subtree sums */
};

struct cgroup_row {
	char *path; /* under the cgroup2 mount; NULL for an unknown id or the idle row */
	__u64 id;   /* cgroup id (0: idle, or not known for an ancestor never charged) */
	bool idle;
	int depth;		/* path components below the root */
	struct td_counts sum;	/* the row's subtree (or container) */
	struct td_counts self;	/* charged to this row only: the rows' selfs partition the total */
	struct container label; /* with containers; label.label is what to print */
};

/*
 * Build rows from @v[0..n) (sorted cgroup samples) naming ids with @names.
 * *rows is allocated; free with cgroup_rows_free(). Returns 0 or -ENOMEM.
 */
int cgroup_rows_build(const struct cgroup_sample *v, size_t n, const struct cgroup_names *names,
		      const struct cgroup_rows_opts *o, struct cgroup_row **rows, size_t *nr);

void cgroup_rows_free(struct cgroup_row *rows, size_t nr);

/* Path components below the root: "/" 0, "/a" 1, "/a/b" 2. */
int cgroup_path_depth(const char *path);

#endif /* TD_CGROUP_ROWS_H */
