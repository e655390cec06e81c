/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Collect: close the current epoch on every CPU, read the half of the BPF
 * maps no program writes any more, and turn it into cumulative entries.
 */
#ifndef TD_COLLECT_H
#define TD_COLLECT_H

#include <stdbool.h>
#include "model/entries.h"

/*
 * Per entry, the half closed at the previous read, as read then: the half
 * being written now, as it was when last whole (see struct td_val).
 */
struct held {
	struct td_key key;
	struct td_counts last; /* that half's counts */
	__u32 dirty;	       /* it has moved on since: the entry is still being charged */
	__u32 slot;	       /* where its counts are in td_vals */
};

/* Sorting these, not the entries' values: a read sorts 10,000 of them. */
struct raw_ref {
	struct td_key key;
	__u32 slot; /* where its counts are in td_vals */
	__u32 pad;
};

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
	__u64 epoch;		  /* epochs closed so far: the half being written is epoch & 1 */
	__u32 *slots;		  /* scratch, map-sized */
	struct held *held, *next; /* sorted by key: last read, and the one being built */
	size_t nr_held;
	/*
	 * The entries in use, sorted by key, kept from read to read: a read
	 * sorts only the entries new since the last, and merges them in.
	 */
	struct raw_ref *order, *fresh, *merged;
	size_t nr_order;
	__u8 *listed; /* by slot: in order */
	struct td_cpu_totals *percpu;
	struct td_cpu_totals totals_half[2];		      /* summed over CPUs */
	struct td_cpu_totals pmu_totals_half[2][TD_MAX_PMUS]; /* over each PMU's CPUs */
	const signed char *pmu_of; /* each CPU's core PMU (plan.pmu_of), -1: none */
	struct td_key *evict;	   /* scratch for collector_evict_exited */
};

int collector_init(struct collector *c, const struct collector_maps *m, unsigned int max_entries,
		   bool *cpus, const signed char *pmu_of);

/* Flush every CPU, then read a consistent cut into @s (sorted, cumulative). 0 or -errno. */
int collector_read(struct collector *c, struct entry_set *s);

/*
 * Delete from the BPF maps the entries of exited tasks that @prev and @cur
 * (two reads in a row) show uncharged, and drop them from @cur, whose
 * counts the caller has already taken. Returns how many went, or -errno.
 */
int collector_evict_exited(struct collector *c, const struct entry_set *prev,
			   struct entry_set *cur);

void collector_free(struct collector *c);

/*
 * Run the BPF program @prog_fd once on each CPU in @cpus[0..nr_cpus), in
 * an IPI there (BPF_F_TEST_RUN_ON_CPU). A CPU gone offline is said once
 * and cleared from @cpus. 0 or -errno.
 */
int run_on_cpus(int prog_fd, bool *cpus, int nr_cpus);

#endif /* TD_COLLECT_H */
