/* SPDX-License-Identifier: GPL-2.0 */
/* Collect: read the BPF maps into a snapshot. */
#ifndef TD_COLLECT_H
#define TD_COLLECT_H

#include "snapshot.h"

struct collector {
	int tasks_fd, cgroups_fd, totals_fd;
	int flush_fd; /* td_flush program, run on each CPU before reading */
	bool *cpus;   /* CPUs to flush: those being counted (one going offline is dropped) */
	int nr_cpus;  /* possible CPUs: per-CPU map values come in this many copies */
	unsigned int max_tasks, max_cgroups;
	struct td_task_key *task_keys; /* batch lookup buffers, map-sized */
	struct td_task_val *task_vals;
	__u64 *cgroup_keys;
	struct td_counts *cgroup_vals;
	struct td_cpu_totals *percpu;
};

int collector_init(struct collector *c, int tasks_fd, int cgroups_fd, int totals_fd,
		   unsigned int max_tasks, unsigned int max_cgroups);

/* Before each read, charge the tasks running on @cpus up to now with @flush_fd. */
void collector_set_flush(struct collector *c, int flush_fd, bool *cpus);

/* Flush, then read every map into @s (sorted). Returns 0 or -errno. */
int collector_read(struct collector *c, struct snapshot *s);

void collector_free(struct collector *c);

#endif /* TD_COLLECT_H */
