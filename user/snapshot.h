/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Snapshots of the BPF maps and their differences. Pure: no syscalls.
 * Map values are cumulative; an interval is the difference of two snapshots.
 */
#ifndef TD_SNAPSHOT_H
#define TD_SNAPSHOT_H

#include <stddef.h>
#include <linux/types.h>
#include "tdtrace.h"

struct task_sample {
	struct td_task_key key;
	struct td_task_val val;
};

struct cgroup_sample {
	__u64 id;
	struct td_counts c;
};

struct snapshot {
	struct task_sample *tasks; /* sorted by key */
	size_t nr_tasks, cap_tasks;
	struct cgroup_sample *cgroups; /* sorted by id */
	size_t nr_cgroups, cap_cgroups;
	struct td_cpu_totals totals; /* summed over CPUs */
};

int snapshot_reserve(struct snapshot *s, size_t tasks, size_t cgroups);
void snapshot_sort(struct snapshot *s);
void snapshot_free(struct snapshot *s);

/*
 * delta = cur - prev, keeping only entries charged in between (an entry
 * missing from prev counts from zero). Both inputs must be sorted; so is
 * the result. Returns 0 or -ENOMEM.
 */
int snapshot_diff(const struct snapshot *prev, const struct snapshot *cur, struct snapshot *delta);

/* dst = src (deep copy, dst's buffers reused). */
int snapshot_copy(struct snapshot *dst, const struct snapshot *src);

void totals_sub(const struct td_cpu_totals *a, const struct td_cpu_totals *b,
		struct td_cpu_totals *out);
void totals_add(struct td_cpu_totals *acc, const struct td_cpu_totals *t);

int task_key_cmp(const struct td_task_key *a, const struct td_task_key *b);

#endif /* TD_SNAPSHOT_H */
