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

/*
 * A power of two pages, 64 KiB to 4 MiB: room for a 32nd of the entries
 * made in one interval (64 bytes a record); more costs a walk of td_entries.
 */
unsigned int collector_names_bytes(unsigned int max_entries)
{
	unsigned long long want = (unsigned long long)max_entries / 32 * 64;
	unsigned int bytes = 64 * 1024;

	while (bytes < want && bytes < 4 * 1024 * 1024)
		bytes *= 2;
	return bytes;
}

static void *map_shared(int fd, size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static size_t page_round(size_t bytes)
{
	size_t page = sysconf(_SC_PAGESIZE);

	return (bytes + page - 1) / page * page;
}

static int on_name(void *ctx, void *data, size_t size);

int collector_init(struct collector *c, const struct collector_maps *m, unsigned int max_entries,
		   const struct slot_packing *pk, bool *cpus, const signed char *pmu_of)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->m = *m;
	c->pk = *pk;
	c->max_entries = max_entries;
	c->words = (max_entries + 63) / 64;
	/* An array map's values are 8-byte aligned, as td_entry_bytes() are. */
	c->vals_bytes = page_round((size_t)max_entries * pk->stride);
	c->changed_bytes = page_round(2 * c->words * sizeof(__u64));
	c->vals = map_shared(m->vals_fd, c->vals_bytes);
	c->changed = map_shared(m->changed_fd, c->changed_bytes);
	if (!c->vals || !c->changed) {
		err = -errno;
		collector_free(c);
		return err;
	}
	c->names = ring_buffer__new(m->names_fd, on_name, c, NULL);
	if (!c->names) {
		err = -errno;
		collector_free(c);
		return err;
	}
	c->cpus = cpus;
	c->pmu_of = pmu_of;
	c->nr_cpus = libbpf_num_possible_cpus();
	if (c->nr_cpus <= 0) {
		collector_free(c);
		return -EINVAL;
	}
	/* Large and mostly untouched: the pages of slots never used cost nothing. */
	c->meta = calloc(max_entries, sizeof(*c->meta));
	c->order = calloc(max_entries, sizeof(*c->order));
	c->fresh = calloc(max_entries, sizeof(*c->fresh));
	c->merged = calloc(max_entries, sizeof(*c->merged));
	c->charged = calloc(c->words * 64, sizeof(*c->charged));
	c->pending = calloc(max_entries, sizeof(*c->pending));
	c->slots = calloc(max_entries, sizeof(*c->slots));
	c->evict = calloc(max_entries, sizeof(*c->evict));
	c->percpu = calloc(c->nr_cpus, sizeof(*c->percpu));
	if (!c->meta || !c->order || !c->fresh || !c->merged || !c->charged || !c->pending ||
	    !c->slots || !c->evict || !c->percpu) {
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

/* Slot @slot is @key's, named @comm: listed, and to be merged into the order. */
static void list_slot(struct collector *c, __u32 slot, const struct td_key *key, __u32 tgid,
		      const char *comm)
{
	struct slot_meta *m = &c->meta[slot];

	if (m->listed)
		return;
	memset(m, 0, sizeof(*m));
	m->key = *key;
	m->tgid = tgid;
	memcpy(m->comm, comm, sizeof(m->comm));
	m->listed = 1;
	c->fresh[c->nr_fresh].key = *key;
	c->fresh[c->nr_fresh++].slot = slot;
}

/* A td_names record: a new entry, or a rename at exec. */
static int on_name(void *ctx, void *data, size_t size)
{
	struct collector *c = ctx;
	const struct td_name *n = data;
	struct slot_meta *m;

	if (size < sizeof(*n) || n->slot >= c->max_entries)
		return 0;
	m = &c->meta[n->slot];
	if (n->kind == TD_NAME_NEW)
		list_slot(c, n->slot, &n->key, n->tgid, n->comm);
	else if (n->kind == TD_NAME_EXEC && m->listed && !td_key_cmp(&m->key, &n->key))
		memcpy(m->comm, n->comm, sizeof(m->comm));
	return 0;
}

/* A task's name from /proc, for an entry whose record was lost: "?" if it is gone. */
static void proc_comm(__u32 id, char comm[TD_COMM_LEN])
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/comm", id);
	strcpy(comm, "?");
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(comm, TD_COMM_LEN, f))
		comm[strcspn(comm, "\n")] = 0;
	fclose(f);
}

/*
 * Records the ring had no room for: find the keys of the charged slots
 * not listed in td_entries (one walk of the hash), names from /proc.
 */
static void list_lost(struct collector *c)
{
	struct td_key key, next;
	char comm[TD_COMM_LEN];
	void *prev = NULL;
	__u32 slot;

	while (!bpf_map_get_next_key(c->m.entries_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(c->m.entries_fd, &key, &slot) || slot >= c->max_entries ||
		    c->meta[slot].listed)
			continue;
		comm[0] = 0;
		if (key.id)
			proc_comm(key.id, comm);
		/* Without -t a key's id is its tgid; a thread's is looked up no further. */
		list_slot(c, slot, &key, key.id, comm);
	}
	c->names_lost = *c->m.names_lost;
}

/*
 * The slots the program made since the last read join the order, sorted
 * by key (only these are sorted). A slot's key stays the same while it is
 * in use.
 */
static void merge_fresh(struct collector *c)
{
	size_t nf = c->nr_fresh, i = 0, j = 0, n = 0;
	struct slot_ref *swap;

	if (!nf)
		return;
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
	c->nr_fresh = 0;
}

/* Give back the slots of deleted entries, zeroed, after a new slot_gen. */
static int free_slots(struct collector *c, const __u32 *slots, size_t n)
{
	size_t kept = 0;

	if (!n)
		return 0;
	/* Any slot a task still kept (none: their tasks are gone) is looked up again. */
	__atomic_fetch_add(c->m.slot_gen, 1, __ATOMIC_SEQ_CST);
	for (size_t i = 0; i < n; i++) {
		memset(slot_entry(c->vals, &c->pk, slots[i]), 0, c->pk.stride);
		c->meta[slots[i]].listed = 0;
		c->meta[slots[i]].exited = 0;
		if (bpf_map_update_elem(c->m.free_fd, NULL, &slots[i], BPF_ANY))
			return -errno;
	}
	/* Out of the sorted list too, keeping its order. */
	for (size_t i = 0; i < c->nr_order; i++)
		if (c->meta[c->order[i].slot].listed)
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
	size_t n, kept, gone;
	__u32 closed;
	int err;

	err = flush(c);
	if (err)
		return err;
	/* Every CPU now charges the other half: this one is whole. */
	closed = c->epoch++ & 1;
	/* Records of entries made before the flush, each in by now. */
	err = ring_buffer__consume(c->names);
	if (err < 0)
		return err;
	err = read_totals(c, closed, delta);
	if (err)
		return err;
	n = slot_bits_take(c->changed + closed * c->words, c->words, c->charged);
	for (kept = 0; kept < n && c->meta[c->charged[kept]].listed;)
		kept++;
	if (kept < n) {
		list_lost(c);
		/* A slot still unknown keeps its counts, for a read that knows it. */
		kept = 0;
		for (size_t k = 0; k < n; k++)
			if (c->meta[c->charged[k]].listed)
				c->charged[kept++] = c->charged[k];
		n = kept;
	}
	merge_fresh(c);
	err = slots_read(c->vals, &c->pk, c->meta, c->charged, n, closed, c->epoch, delta);
	if (err)
		return err;
	slots_note_exits(delta, c->meta, c->order, c->nr_order, c->pending, &c->nr_pending);
	gone = slots_exited(c->vals, &c->pk, c->meta, c->pending, &c->nr_pending, closed, c->epoch,
			    c->evict);
	return evict(c, gone);
}

void collector_free(struct collector *c)
{
	if (c->vals)
		munmap(c->vals, c->vals_bytes);
	if (c->changed)
		munmap(c->changed, c->changed_bytes);
	ring_buffer__free(c->names);
	free(c->meta);
	free(c->order);
	free(c->fresh);
	free(c->merged);
	free(c->charged);
	free(c->pending);
	free(c->slots);
	free(c->evict);
	free(c->percpu);
	memset(c, 0, sizeof(*c));
}
