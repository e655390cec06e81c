/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup v2 file system: where it is mounted, and the path of a cgroup id
 * (on v2 a cgroup's id is its directory's inode number).
 */
#ifndef TD_CGROUPFS_H
#define TD_CGROUPFS_H

#include <stddef.h>
#include <linux/types.h>

/*
 * Find the cgroup2 mount in @mountinfo (normally /proc/self/mountinfo):
 * /sys/fs/cgroup on pure v2, /sys/fs/cgroup/unified on the hybrid layout.
 * Returns 0, -ENOENT if there is none (v1 only), or -errno.
 */
int cgroup2_find_mount(const char *mountinfo, char *path, size_t len);

struct cgroup_name {
	__u64 id;
	char *path; /* relative to the mount, "/" for the root */
};

struct cgroup_names {
	char *mount; /* NULL: no cgroup v2, every lookup gives NULL */
	struct cgroup_name *v;
	size_t nr, cap;
	unsigned int refresh_budget; /* re-reads find() may still do; the caller sets it */
};

/* Start with @mount (may be NULL); names are read on the first lookup miss. */
int cgroup_names_init(struct cgroup_names *n, const char *mount);

/* Re-read the tree; names of cgroups that went away are kept. 0 or -errno. */
int cgroup_names_refresh(struct cgroup_names *n);

/* The path of @id, or NULL if unknown (after a refresh, if the budget allows one). */
const char *cgroup_names_find(struct cgroup_names *n, __u64 id);

/* The id of a known @path, or 0. A linear scan: for the few ancestors never charged. */
__u64 cgroup_names_id(const struct cgroup_names *n, const char *path);

void cgroup_names_free(struct cgroup_names *n);

#endif /* TD_CGROUPFS_H */
