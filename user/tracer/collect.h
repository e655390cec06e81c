/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Collect: close the current epoch on every CPU, read the half of the BPF
 * maps no program writes any more, and turn it into what changed since the
 * last read (model/slot_reads.h); entries of exited tasks leave the map.
 */
#ifndef TD_COLLECT_H
#define TD_COLLECT_H

#include <stdbool.h>
#include "model/entries.h"
#include "model/slot_reads.h"

/* The BPF maps and program a collector reads and runs (see the BPF program). */
struct collector_maps {
	int entries_fd;		    /* td_entries: key -> slot */
	int vals_fd;		    /* td_vals: counts by slot, memory-mapped here */
	int free_fd;		    /* td_free_slots: slots given back after deletions */
	int totals_fd;		    /* td_totals: per-CPU totals by epoch half */
	int flush_fd;		    /* td_flush: charges the running task, moves the epoch on */
	volatile __u32 *slot_gen;   /* the program's: moved on after deletions */
	volatile __u32 *slots_used; /* the program's: slots handed out so far */
};

struct collector {
	struct collector_maps m;
	const struct td_val *vals; /* td_vals, mapped read-write (freed slots are zeroed) */
	size_t vals_bytes;
	bool *cpus;  /* CPUs to flush: those being counted (one going offline is dropped) */
	int nr_cpus; /* possible CPUs: per-CPU map values come in this many copies */
	unsigned int max_entries;
	__u64 epoch;		/* epochs closed so far: the half being written is epoch & 1 */
	struct slot_seen *seen; /* by slot: its halves when last read */
	/*
	 * The entries in use, sorted by key, kept from read to read: a read
	 * sorts only the entries new since the last, and merges them in.
	 */
	struct slot_ref *order, *fresh, *merged;
	size_t nr_order;
	__u8 *listed; /* by slot: in order */
	struct td_cpu_totals *percpu;
	struct td_cpu_totals totals_half[2];		      /* summed over CPUs */
	struct td_cpu_totals pmu_totals_half[2][TD_MAX_PMUS]; /* over each PMU's CPUs */
	struct td_cpu_totals last_totals;		      /* both halves, at the last read */
	struct td_cpu_totals last_pmu_totals[TD_MAX_PMUS];
	const signed char *pmu_of; /* each CPU's core PMU (plan.pmu_of), -1: none */
	struct slot_ref *evict;	   /* scratch: entries leaving the map */
	__u32 *slots;		   /* scratch: their slots */
};

int collector_init(struct collector *c, const struct collector_maps *m, unsigned int max_entries,
		   bool *cpus, const signed char *pmu_of);

/*
 * Flush every CPU, then read a consistent cut: into @delta (sorted) the
 * entries charged since the last read, with what they were charged, and
 * the per-CPU totals' difference. Entries of tasks exited a whole interval
 * ago and charged since in neither half leave the map (their counts were
 * in earlier differences). 0 or -errno.
 */
int collector_read(struct collector *c, struct entry_set *delta);

void collector_free(struct collector *c);

/*
 * Run the BPF program @prog_fd once on each CPU in @cpus[0..nr_cpus), in
 * an IPI there (BPF_F_TEST_RUN_ON_CPU). A CPU gone offline is said once
 * and cleared from @cpus. 0 or -errno.
 */
int run_on_cpus(int prog_fd, bool *cpus, int nr_cpus);

#endif /* TD_COLLECT_H */
