/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entries: what each process (or thread) ran in each cgroup, as read from
 * the BPF map (an interval's differences, model/slot_reads.h), and the
 * pure operations on sets of them: a running sum for the summary, the
 * conservation check, folding exited entries, and the view that report.c
 * reads (process rows and cgroup rows). No syscalls.
 */
#ifndef TD_ENTRIES_H
#define TD_ENTRIES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "tdtrace.h"
#include "model/counts.h"
#include "model/regions.h"
#include "model/snapshot.h"

struct entry {
	struct td_key key;
	struct td_counts c; /* cumulative (a read), or a difference */
	__u32 tgid;
	__u32 flags; /* TD_TASK_EXITED */
	char comm[TD_COMM_LEN];
};

struct entry_set {
	struct entry *v; /* sorted by key */
	/* What its counts fill: every sum over the set looks that far. Zeroed: the whole struct. */
	struct td_width width;
	size_t nr, cap;
	/* entries_add's scratch: which of an interval's entries are new to this set. */
	size_t *fresh;
	size_t fresh_cap;
	struct td_cpu_totals totals;		      /* summed over CPUs */
	struct td_cpu_totals pmu_totals[TD_MAX_PMUS]; /* the same, over each core PMU's CPUs */
	struct region_set regions;		      /* --region: the regions' rows */
};

/* Exited entries folded together (entries_fold_exited) get this id. */
#define TD_FOLDED_ID 0xffffffffu

int entries_reserve(struct entry_set *s, size_t n);
void entries_sort(struct entry_set *s);
void entries_free(struct entry_set *s);

/* acc += delta: counts summed key by key (acc's width), names from delta, exited kept. */
int entries_add(struct entry_set *acc, const struct entry_set *delta);

/*
 * The conservation invariant, for a difference or a sum:
 * sum(entries) + task_overflow + untraced == all, for every counter in use
 * and for slices; enabled/running too when @times (they are not kept per
 * entry with software counters).
 */
bool entries_conserved(const struct entry_set *s, int nr_counters, bool times);

/*
 * Keep at most @keep exited entries in @acc: the rest, smallest first, are
 * summed into one entry per cgroup with id TD_FOLDED_ID, so that cgroup and
 * system sums stay exact while memory stays bounded. Returns how many went.
 * The regions' rows of processes gone (no entry left that is not exited)
 * are kept to @keep the same way, per region, cgroup and PMU.
 */
size_t entries_fold_exited(struct entry_set *acc, size_t keep);

/*
 * Rows for report_build, of the entries counted on core PMU @pmu (key.pmu;
 * -1: all): entries of one process summed into one task row (its cgroup:
 * where it ran most; none if !@with_tasks), entries of one cgroup into one
 * cgroup row, and that PMU's totals; @view gets @s's width. @view's
 * buffers are reused.
 */
int entries_view(const struct entry_set *s, int pmu, bool with_tasks, struct snapshot *view);

/*
 * A run's counts: what the last read found charged since the one before
 * (the interval, collector_read), and every interval summed (the summary),
 * both of the run's width; and that sum by cgroup and PMU alone (key.id
 * 0, as --per-cgroup's entries), kept up to date from each interval's, so
 * that the exporter's cgroup rows cost what the cgroups number, not the
 * processes. A zeroed tally is an empty one of the whole width, which
 * tally_free takes.
 */
struct tally {
	struct entry_set delta;
	struct entry_set total;
	struct entry_set cgroups;
	struct entry_set scratch; /* delta by cgroup */
};

/* @s's entries summed by (cgroup, PMU) into @out (sorted), totals copied. 0 or -ENOMEM. */
int entries_by_cgroup(const struct entry_set *s, struct entry_set *out);

void tally_init(struct tally *t, struct td_width width);

/* Once delta is read: total += delta. 0 or -ENOMEM. */
int tally_step(struct tally *t);

void tally_free(struct tally *t);

#endif /* TD_ENTRIES_H */
