/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup v2 file system: where it is mounted, and the path of a cgroup id
 * (on v2 a cgroup's id is its directory's inode number).
 */
#ifndef TD_CGROUPFS_H
#define TD_CGROUPFS_H

#include <stddef.h>
#include <linux/types.h>
#include "model/cgroup_names.h"

struct entry_set;

/*
 * Find the cgroup2 mount in @mountinfo (normally /proc/self/mountinfo):
 * /sys/fs/cgroup on pure v2, /sys/fs/cgroup/unified on the hybrid layout.
 * Returns 0, -ENOENT if there is none (v1 only), or -errno.
 */
int cgroup2_find_mount(const char *mountinfo, char *path, size_t len);

/* Re-read the tree; names of cgroups that went away are kept. 0 or -errno. */
int cgroup_names_refresh(struct cgroup_names *n);

/* The path of @id, or NULL if unknown (after a refresh, if the budget allows one). */
const char *cgroup_names_find(struct cgroup_names *n, __u64 id);

/*
 * Make sure every cgroup the entries of @s name is in @n: one re-read of
 * the tree if any is missing (a cgroup created since the last), none
 * otherwise. The collect stage runs it after each read, so that decoding
 * and output only look names up.
 */
void cgroup_names_cover(struct cgroup_names *n, const struct entry_set *s);

#endif /* TD_CGROUPFS_H */
