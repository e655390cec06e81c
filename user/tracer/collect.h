/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Collect: close the current epoch on every CPU, learn the entries the
 * program made (td_names), read the half of the maps no program writes
 * any more where the program marked entries charged (model/slot_reads.h),
 * and let entries of exited tasks leave the map. A task that slept the
 * whole interval costs nothing here.
 */
#ifndef TD_COLLECT_H
#define TD_COLLECT_H

#include <stdbool.h>
#include "model/entries.h"
#include "model/slot_reads.h"

struct ring_buffer;

/* The BPF maps and program a collector reads and runs (see the BPF program). */
struct collector_maps {
	int entries_fd;		    /* td_entries: key -> slot */
	int vals_fd;		    /* td_vals: counts by slot, memory-mapped here */
	int changed_fd;		    /* td_changed: charged slots by half, memory-mapped here */
	int names_fd;		    /* td_names: who new slots are (ring buffer) */
	int free_fd;		    /* td_free_slots: slots given back after deletions */
	int totals_fd;		    /* td_totals: per-CPU totals by epoch half */
	int flush_fd;		    /* td_flush: charges the running task, moves the epoch on */
	volatile __u32 *slot_gen;   /* the program's: moved on after deletions */
	volatile __u64 *names_lost; /* the program's: td_names records it could not send */
	bool per_thread;	    /* keys are thread ids (for names found without a record) */
};

struct collector {
	struct collector_maps m;
	struct slot_packing pk;
	void *vals; /* td_vals, mapped read-write (closed halves and freed slots are zeroed) */
	size_t vals_bytes;
	__u64 *changed; /* td_changed, mapped: a bit per slot, half h at h * words */
	size_t changed_bytes, words;
	struct ring_buffer *names;
	__u64 names_lost; /* names_lost when last made good by a walk of td_entries */
	bool *cpus;	  /* CPUs to flush: those being counted (one going offline is dropped) */
	int nr_cpus;	  /* possible CPUs: per-CPU map values come in this many copies */
	unsigned int max_entries;
	__u64 epoch;		/* epochs closed so far: the half being written is epoch & 1 */
	struct slot_meta *meta; /* by slot: who it is */
	/*
	 * The entries in use, sorted by key, kept from read to read: a read
	 * sorts only the entries new since the last, and merges them in.
	 */
	struct slot_ref *order, *fresh, *merged;
	size_t nr_order, nr_fresh;
	__u32 *charged; /* scratch: the slots charged in the closed half */
	__u32 *pending; /* slots of exited tasks, waiting for an interval without charges */
	size_t nr_pending;
	struct td_cpu_totals *percpu;
	struct td_cpu_totals totals_half[2];		      /* summed over CPUs */
	struct td_cpu_totals pmu_totals_half[2][TD_MAX_PMUS]; /* over each PMU's CPUs */
	struct td_cpu_totals last_totals;		      /* both halves, at the last read */
	struct td_cpu_totals last_pmu_totals[TD_MAX_PMUS];
	const signed char *pmu_of; /* each CPU's core PMU (plan.pmu_of), -1: none */
	struct slot_ref *evict;	   /* scratch: entries leaving the map */
	__u32 *slots;		   /* scratch: their slots */
};

/*
 * @pk: how the program packs each entry (its knobs: counters, groups,
 * times). 0 or -errno.
 */
int collector_init(struct collector *c, const struct collector_maps *m, unsigned int max_entries,
		   const struct slot_packing *pk, bool *cpus, const signed char *pmu_of);

/*
 * Flush every CPU, then read a consistent cut: into @delta (sorted) the
 * entries charged since the last read, with what they were charged, and
 * the per-CPU totals' difference. Entries of tasks exited a whole interval
 * ago and charged since in neither half leave the map (their counts were
 * in earlier differences). 0 or -errno.
 */
int collector_read(struct collector *c, struct entry_set *delta);

void collector_free(struct collector *c);

/* Bytes of the ring buffer td_names for @max_entries entries: a power of two pages. */
unsigned int collector_names_bytes(unsigned int max_entries);

/*
 * Run the BPF program @prog_fd once on each CPU in @cpus[0..nr_cpus), in
 * an IPI there (BPF_F_TEST_RUN_ON_CPU). A CPU gone offline is said once
 * and cleared from @cpus. 0 or -errno.
 */
int run_on_cpus(int prog_fd, bool *cpus, int nr_cpus);

#endif /* TD_COLLECT_H */
