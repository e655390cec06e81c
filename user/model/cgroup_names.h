/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup id -> path, as a sorted table. Pure: host/cgroupfs.c fills it
 * from the cgroup file system; the model only looks names up.
 */
#ifndef TD_CGROUP_NAMES_H
#define TD_CGROUP_NAMES_H

#include <stddef.h>
#include <linux/types.h>
#include "model/k8s_table.h"

struct cgroup_name {
	__u64 id;
	char *path; /* relative to the mount, "/" for the root */
};

struct cgroup_names {
	char *mount;	       /* where the names come from; NULL: no cgroup v2, none are known */
	struct cgroup_name *v; /* sorted by id */
	size_t nr, cap;
	unsigned int refresh_budget; /* re-reads cgroup_names_find() may still do */
	struct k8s_table k8s;	     /* Kubernetes names of the containers and pods seen */
};

/* Start an empty table for @mount (may be NULL). 0 or -ENOMEM. */
int cgroup_names_init(struct cgroup_names *n, const char *mount);

/* The path of @id, or NULL if the table does not know it. */
const char *cgroup_names_lookup(const struct cgroup_names *n, __u64 id);

/* The id of a known @path, or 0. A linear scan: for the few ancestors never charged. */
__u64 cgroup_names_id(const struct cgroup_names *n, const char *path);

void cgroup_names_free(struct cgroup_names *n);

#endif /* TD_CGROUP_NAMES_H */
