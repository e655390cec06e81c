/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What report.c reads: process rows and cgroup rows with their counts, for
 * one interval or the whole run, as entries_view() builds them. Pure.
 */
#ifndef TD_SNAPSHOT_H
#define TD_SNAPSHOT_H

#include <stddef.h>
#include <linux/types.h>
#include "tdtrace.h"
#include "model/counts.h"

/* A process (or a thread with --per-thread), all its cgroups together. */
struct td_task_key {
	__u32 id; /* tgid, or pid with --per-thread; 0 for the idle tasks */
	__u32 pad;
	__u64 start_ns; /* task start time, boot-based */
};

struct td_task_val {
	struct td_counts c;
	__u64 cgroup_id; /* where it ran most */
	__u32 tgid;
	__u32 flags; /* TD_TASK_EXITED */
	char comm[TD_COMM_LEN];
};

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
	struct td_width width;	     /* what its counts fill (zeroed: the whole struct) */
};

int snapshot_reserve(struct snapshot *s, size_t tasks, size_t cgroups);
void snapshot_free(struct snapshot *s);

#endif /* TD_SNAPSHOT_H */
