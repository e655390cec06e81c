/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One thread's libtdregion context: what it counts (a counter_set from
 * tdtrace's model table, or the thread's CPU time), the file descriptors
 * and mmap'd pages of its counters, and how it reads them.
 */
#ifndef TD_TDREGION_CONTEXT_H
#define TD_TDREGION_CONTEXT_H

#include <stdbool.h>
#include <linux/perf_event.h>
#include "tdtrace/tdregion.h"
#include "model/counters.h"
#include "model/decode.h"

/*
 * A snapshot holds a set's counters and each group's two times in
 * TDREGION_MAX_VALUES (public: struct tdregion_region's size). Every row
 * fits (Haswell's 21 counters in 5 groups take 31), but TD_MAX_COUNTERS
 * in TD_MAX_GROUPS would not: open_set() refuses a set that does not fit.
 */

struct tdregion {
	unsigned int mode; /* enum tdregion_flags: RDPMC, READ or SOFTWARE, and TOPDOWN */
	char why[320];
	int tid;
	const void *thread;	/* tdr_thread_mark() of the thread that opened it */
	struct counter_set set; /* software: counters_software(), the thread's CPU time */
	struct td_decoding decoding;
	int fd[TD_MAX_COUNTERS];
	struct perf_event_mmap_page *page[TD_MAX_COUNTERS]; /* rdpmc mode only */
	int metric_field[TD_MAX_COUNTERS]; /* PERF_METRICS field, -1 for other counters */
	int slots_of[TD_MAX_COUNTERS];	   /* a metric event's group leader (slots) */
	int open_regions;		   /* regions begun and not ended: no reset while any */
	__u64 reset_slots;		   /* tdregion_begin resets past this many raw slots */
	size_t page_size;
};

/*
 * A mark unique to the calling thread while it lives (a thread-local's
 * address): a context used by another thread would read that thread's
 * CPU's counters, so begin and end refuse it. Cheaper than gettid().
 */
const void *tdr_thread_mark(void);

/* Take one snapshot of @td's counters into @v (fields.h's layout). 0 or -errno. */
int tdr_snapshot(struct tdregion *td, __u64 *v);

#endif /* TD_TDREGION_CONTEXT_H */
