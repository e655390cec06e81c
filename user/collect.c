// SPDX-License-Identifier: GPL-2.0
/* Read the task, cgroup and per-CPU totals maps. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collect.h"

int collector_init(struct collector *c, int tasks_fd, int cgroups_fd, int totals_fd,
		   unsigned int max_tasks, unsigned int max_cgroups)
{
	memset(c, 0, sizeof(*c));
	c->tasks_fd = tasks_fd;
	c->cgroups_fd = cgroups_fd;
	c->totals_fd = totals_fd;
	c->max_tasks = max_tasks;
	c->max_cgroups = max_cgroups;
	c->nr_cpus = libbpf_num_possible_cpus();
	if (c->nr_cpus <= 0)
		return -EINVAL;
	c->task_keys = calloc(max_tasks, sizeof(*c->task_keys));
	c->task_vals = calloc(max_tasks, sizeof(*c->task_vals));
	c->cgroup_keys = calloc(max_cgroups, sizeof(*c->cgroup_keys));
	c->cgroup_vals = calloc(max_cgroups, sizeof(*c->cgroup_vals));
	c->percpu = calloc(c->nr_cpus, sizeof(*c->percpu));
	if (!c->task_keys || !c->task_vals || !c->cgroup_keys || !c->cgroup_vals || !c->percpu) {
		collector_free(c);
		return -ENOMEM;
	}
	return 0;
}

void collector_set_flush(struct collector *c, int flush_fd, bool *cpus)
{
	c->flush_fd = flush_fd;
	c->cpus = cpus;
}

/*
 * Run td_flush on every counted CPU: an IPI there runs it in the context of
 * whatever task is on that CPU, which is charged up to this moment.
 */
static int flush(struct collector *c)
{
	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);

		if (!c->cpus[cpu])
			continue;
		if (!bpf_prog_test_run_opts(c->flush_fd, &opts))
			continue;
		if (errno != ENXIO)
			return -errno;
		/* ENXIO: the CPU went offline. Its last slices are in; stop visiting it. */
		fprintf(stderr, "tdtrace: CPU %d went offline: no longer flushed\n", cpu);
		c->cpus[cpu] = false;
	}
	return 0;
}

/*
 * Read a whole hash map with the batch API: one syscall per few thousand
 * entries instead of two per entry (matters with 10,000 tasks).
 */
static int read_hash(int fd, void *keys, void *vals, size_t key_size, size_t val_size,
		     unsigned int max, size_t *nr)
{
	__u32 batch = 0;
	bool first = true;
	size_t done = 0;
	int err;

	for (;;) {
		__u32 count = max - done;

		if (!count)
			break;
		err = bpf_map_lookup_batch(fd, first ? NULL : &batch, &batch,
					   (char *)keys + done * key_size,
					   (char *)vals + done * val_size, &count, NULL);
		done += count;
		first = false;
		if (err == -ENOENT)
			break; /* no more entries */
		if (err)
			return err;
	}
	*nr = done;
	return 0;
}

int collector_read(struct collector *c, struct snapshot *s)
{
	size_t nr_tasks = 0, nr_cgroups = 0;
	__u32 zero = 0;
	int err;

	if (c->cpus) {
		err = flush(c);
		if (err)
			return err;
	}
	err = read_hash(c->tasks_fd, c->task_keys, c->task_vals, sizeof(*c->task_keys),
			sizeof(*c->task_vals), c->max_tasks, &nr_tasks);
	if (err)
		return err;
	err = read_hash(c->cgroups_fd, c->cgroup_keys, c->cgroup_vals, sizeof(*c->cgroup_keys),
			sizeof(*c->cgroup_vals), c->max_cgroups, &nr_cgroups);
	if (err)
		return err;
	if (bpf_map_lookup_elem(c->totals_fd, &zero, c->percpu))
		return -errno;

	if (snapshot_reserve(s, nr_tasks, nr_cgroups))
		return -ENOMEM;
	for (size_t i = 0; i < nr_tasks; i++) {
		s->tasks[i].key = c->task_keys[i];
		s->tasks[i].val = c->task_vals[i];
	}
	for (size_t i = 0; i < nr_cgroups; i++) {
		s->cgroups[i].id = c->cgroup_keys[i];
		s->cgroups[i].c = c->cgroup_vals[i];
	}
	s->nr_tasks = nr_tasks;
	s->nr_cgroups = nr_cgroups;
	memset(&s->totals, 0, sizeof(s->totals));
	for (int cpu = 0; cpu < c->nr_cpus; cpu++)
		totals_add(&s->totals, &c->percpu[cpu]);
	snapshot_sort(s);
	return 0;
}

void collector_free(struct collector *c)
{
	free(c->task_keys);
	free(c->task_vals);
	free(c->cgroup_keys);
	free(c->cgroup_vals);
	free(c->percpu);
	memset(c, 0, sizeof(*c));
}
