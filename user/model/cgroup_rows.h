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
#include "model/k8s_table.h"
#include "model/snapshot.h"

/* --group-by: Kubernetes containers' rows rolled up to their pods or namespaces. */
enum cgroup_group {
	GROUP_CONTAINER, /* a row per container, as --containers */
	GROUP_POD,
	GROUP_NAMESPACE,
};

struct cgroup_rows_opts {
	int depth;		  /* rows no deeper than this (-1: any); deeper ones roll up */
	const char *const *roots; /* -c: rows only at or below these paths */
	int nr_roots;
	bool containers; /* one row per container, unit or path; no subtree sums */
	enum cgroup_group group_by; /* with containers */
};

struct cgroup_row {
	char *path; /* under the cgroup2 mount; NULL for an unknown id or the idle row */
	__u64 id;   /* cgroup id (0: idle, or not known for an ancestor never charged) */
	bool idle;
	int depth;		/* path components below the root */
	struct td_counts sum;	/* the row's subtree (or container) */
	struct td_counts self;	/* charged to this row only: the rows' selfs partition the total */
	struct container label; /* with containers; label.label is what to print */
	const struct k8s_meta *k8s; /* its Kubernetes names (NULL: none known) */
	struct k8s_meta *group;	    /* a rolled-up row's own names (k8s points here) */
};

/*
 * Build rows from @v[0..n) (sorted cgroup samples) naming ids with @names,
 * and each row's Kubernetes names from @names->k8s: with containers a
 * Kubernetes row's label.label is "namespace/pod/container" (see
 * k8s_format_label). With group_by pod or namespace, Kubernetes rows of
 * one pod (or namespace) become one: path NULL, label kind CONTAINER_POD
 * (or CONTAINER_NONE) with the pod's UID, id K8S_GROUP_ID_BIT | a hash of
 * the names, so that it stays the same from one report to the next.
 * *rows is allocated; free with cgroup_rows_free(). Returns 0 or -ENOMEM.
 */
int cgroup_rows_build(const struct cgroup_sample *v, size_t n, const struct cgroup_names *names,
		      const struct cgroup_rows_opts *o, struct cgroup_row **rows, size_t *nr);

/*
 * No cgroup's id (a kernfs node id: a 32-bit inode number and a generation
 * above it) has it; below bit 63, so that an id stays a signed 64-bit
 * integer, all that JSON readers such as jansson (tdtrace report) take.
 */
#define K8S_GROUP_ID_BIT (1ULL << 62)

void cgroup_rows_free(struct cgroup_row *rows, size_t nr);

/* Path components below the root: "/" 0, "/a" 1, "/a/b" 2. */
int cgroup_path_depth(const char *path);

#endif /* TD_CGROUP_ROWS_H */
