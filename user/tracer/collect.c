// SPDX-License-Identifier: GPL-2.0
/* Read the entries and per-CPU totals maps at a consistent cut. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/mman.h>
#include <unistd.h>
#include "model/pmu_desc.h"
#include "tracer/collect.h"
#include "cli/say.h"

int collector_init(struct collector *c, const struct collector_maps *m, unsigned int max_entries,
		   bool *cpus, const signed char *pmu_of)
{
	long page = sysconf(_SC_PAGESIZE);
	void *vals;

	memset(c, 0, sizeof(*c));
	c->m = *m;
	/* An array map's values are 8-byte aligned, as struct td_val is. */
	c->vals_bytes = ((size_t)max_entries * sizeof(struct td_val) + page - 1) / page * page;
	vals = mmap(NULL, c->vals_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, m->vals_fd, 0);
	if (vals == MAP_FAILED)
		return -errno;
	c->vals = vals;
	c->cpus = cpus;
	c->pmu_of = pmu_of;
	c->max_entries = max_entries;
	c->nr_cpus = libbpf_num_possible_cpus();
	if (c->nr_cpus <= 0)
		return -EINVAL;
	c->slots = calloc(max_entries, sizeof(*c->slots));
	c->seen = calloc(max_entries, sizeof(*c->seen));
	c->order = calloc(max_entries, sizeof(*c->order));
	c->fresh = calloc(max_entries, sizeof(*c->fresh));
	c->merged = calloc(max_entries, sizeof(*c->merged));
	c->listed = calloc(max_entries, sizeof(*c->listed));
	c->evict = calloc(max_entries, sizeof(*c->evict));
	c->percpu = calloc(c->nr_cpus, sizeof(*c->percpu));
	if (!c->slots || !c->seen || !c->order || !c->fresh || !c->merged || !c->listed ||
	    !c->evict || !c->percpu) {
		collector_free(c);
		return -ENOMEM;
	}
	return 0;
}

int run_on_cpus(int prog_fd, bool *cpus, int nr_cpus)
{
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);

		if (!cpus[cpu])
			continue;
		if (!bpf_prog_test_run_opts(prog_fd, &opts))
			continue;
		if (errno != ENXIO)
			return -errno;
		/* ENXIO: the CPU went offline. Its last slices are in; stop visiting it. */
		say(stderr, "CPU %d went offline: not counted until it returns", cpu);
		cpus[cpu] = false;
	}
	return 0;
}

/*
 * Run td_flush on every counted CPU: an IPI there charges whatever task is
 * on that CPU up to this moment, then moves that CPU to the next epoch.
 */
static int flush(struct collector *c)
{
	return run_on_cpus(c->m.flush_fd, c->cpus, c->nr_cpus);
}

static int cmp_slot_ref(const void *a, const void *b)
{
	return td_key_cmp(&((const struct slot_ref *)a)->key, &((const struct slot_ref *)b)->key);
}

/*
 * The entries in use, sorted by key, in c->order: those listed at the
 * last read, and the slots the program has filled since, found in the
 * mapped array (no copy, no syscall). Only these are sorted. A slot's key
 * stays the same while it is in use; slots past slots_used were never
 * handed out.
 */
static size_t list_entries(struct collector *c)
{
	size_t nf = 0, i = 0, j = 0, n = 0, used = *c->m.slots_used;
	struct slot_ref *swap;

	if (used > c->max_entries)
		used = c->max_entries;
	for (size_t k = 0; k < used; k++) {
		const struct td_val *v = &c->vals[k];

		if (c->listed[k] || !__atomic_load_n(&v->used, __ATOMIC_ACQUIRE))
			continue;
		c->fresh[nf].key = v->key;
		c->fresh[nf++].slot = k;
		c->listed[k] = 1;
		/* New since the last read: its halves were zero then. */
		memset(&c->seen[k], 0, sizeof(c->seen[k]));
	}
	if (!nf)
		return c->nr_order;
	qsort(c->fresh, nf, sizeof(*c->fresh), cmp_slot_ref);
	while (i < c->nr_order || j < nf)
		if (j == nf || (i < c->nr_order && cmp_slot_ref(&c->order[i], &c->fresh[j]) < 0))
			c->merged[n++] = c->order[i++];
		else
			c->merged[n++] = c->fresh[j++];
	swap = c->order;
	c->order = c->merged;
	c->merged = swap;
	c->nr_order = n;
	return n;
}

/* Give back the slots of deleted entries, zeroed, after a new slot_gen. */
static int free_slots(struct collector *c, const __u32 *slots, size_t n)
{
	struct td_val *vals = (struct td_val *)c->vals;
	size_t kept = 0;

	if (!n)
		return 0;
	/* Any slot a task still kept (none: their tasks are gone) is looked up again. */
	__atomic_fetch_add(c->m.slot_gen, 1, __ATOMIC_SEQ_CST);
	for (size_t i = 0; i < n; i++) {
		memset(&vals[slots[i]], 0, sizeof(vals[slots[i]]));
		c->listed[slots[i]] = 0;
		if (bpf_map_update_elem(c->m.free_fd, NULL, &slots[i], BPF_ANY))
			return -errno;
	}
	/* Out of the sorted list too, keeping its order. */
	for (size_t i = 0; i < c->nr_order; i++)
		if (c->listed[c->order[i].slot])
			c->order[kept++] = c->order[i];
	c->nr_order = kept;
	return 0;
}

/* The per-CPU totals, both halves summed, and their difference since the last read. */
static int read_totals(struct collector *c, __u32 closed, struct entry_set *delta)
{
	struct td_cpu_totals now, pmu_now[TD_MAX_PMUS];

	if (bpf_map_lookup_elem(c->m.totals_fd, &closed, c->percpu))
		return -errno;
	memset(&c->totals_half[closed], 0, sizeof(c->totals_half[closed]));
	memset(c->pmu_totals_half[closed], 0, sizeof(c->pmu_totals_half[closed]));
	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		int pmu = cpu < PMU_MAX_CPUS ? c->pmu_of[cpu] : -1;

		totals_add(&c->totals_half[closed], &c->percpu[cpu]);
		if (pmu >= 0 && pmu < TD_MAX_PMUS)
			totals_add(&c->pmu_totals_half[closed][pmu], &c->percpu[cpu]);
	}
	now = c->totals_half[0];
	totals_add(&now, &c->totals_half[1]);
	totals_sub(&now, &c->last_totals, &delta->totals);
	c->last_totals = now;
	for (int k = 0; k < TD_MAX_PMUS; k++) {
		pmu_now[k] = c->pmu_totals_half[0][k];
		totals_add(&pmu_now[k], &c->pmu_totals_half[1][k]);
		totals_sub(&pmu_now[k], &c->last_pmu_totals[k], &delta->pmu_totals[k]);
		c->last_pmu_totals[k] = pmu_now[k];
	}
	return 0;
}

/* Delete @n entries from the map, and give their slots back. */
static int evict(struct collector *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (bpf_map_delete_elem(c->m.entries_fd, &c->evict[i].key) && errno != ENOENT)
			return -errno;
		c->slots[i] = c->evict[i].slot;
	}
	return free_slots(c, c->slots, n);
}

int collector_read(struct collector *c, struct entry_set *delta)
{
	__u32 closed;
	long gone;
	size_t nr;
	int err;

	err = flush(c);
	if (err)
		return err;
	/* Every CPU now charges the other half: this one is whole. */
	closed = c->epoch++ & 1;
	nr = list_entries(c);
	err = read_totals(c, closed, delta);
	if (err)
		return err;
	gone = slots_read(c->vals, c->seen, c->order, nr, closed, delta, c->evict);
	if (gone < 0)
		return (int)gone;
	return evict(c, (size_t)gone);
}

void collector_free(struct collector *c)
{
	if (c->vals)
		munmap((void *)c->vals, c->vals_bytes);
	free(c->slots);
	free(c->seen);
	free(c->order);
	free(c->fresh);
	free(c->merged);
	free(c->listed);
	free(c->evict);
	free(c->percpu);
	memset(c, 0, sizeof(*c));
}
