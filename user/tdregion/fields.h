/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libtdregion's arithmetic, pure: the PERF_METRICS register's 8-bit
 * fractions turned into slots per node (topdown.txt, "Decoding metrics
 * values"), a counter read from its mmap page's offset and rdpmc value,
 * and a region's snapshot of values laid out as tdtrace's struct td_counts.
 *
 * A snapshot is TDREGION_MAX_VALUES __u64: the counters of a counter_set
 * in its slot order, then, for each of its groups g, the leader's
 * time_enabled at [nr + 2g] and time_running at [nr + 2g + 1].
 */
#ifndef TD_TDREGION_FIELDS_H
#define TD_TDREGION_FIELDS_H

#include <stdbool.h>
#include <linux/types.h>
#include "model/counters.h"
#include "model/counts.h"

/* The PERF_METRICS field a topdown metric event reads (umask 0x80 + field), or -1. */
int tdr_metric_field(__u64 config);

/* Field @field (0..7) of the PERF_METRICS value @metrics, 0..0xff of slots. */
static inline unsigned int tdr_fraction(__u64 metrics, int field)
{
	return (unsigned int)(metrics >> (field * 8)) & 0xff;
}

/*
 * The slots of field @field's node in @metrics over @slots slots, as the
 * kernel counts a metric event: slots * fraction / 0xff, rounded down.
 */
__u64 tdr_metric_slots(__u64 metrics, int field, __u64 slots);

/* An rdpmc value @pmc of a @width-bit counter, sign-extended, added to @offset. */
__u64 tdr_pmc_count(__s64 offset, __u64 pmc, unsigned int width);

/* An rdpmc value's low @width bits: a raw register such as slots since its reset. */
static inline __u64 tdr_pmc_raw(__u64 pmc, unsigned int width)
{
	return width && width < 64 ? pmc & ((1ULL << width) - 1) : pmc;
}

/*
 * The ns since a page's time_enabled/time_running were written, at TSC
 * @cyc, from the page's time_offset, time_mult and time_shift (and, with
 * cap_user_time_short, @time_cycles and @time_mask: a TSC narrower than
 * 64 bits), as the comment in linux/perf_event.h computes it.
 */
__u64 tdr_page_ns(__u64 cyc, __u64 time_offset, __u32 time_mult, __u16 time_shift, bool short_tsc,
		  __u64 time_cycles, __u64 time_mask);

/*
 * The first of @n mmap'd pages whose counter may not be read with rdpmc
 * (cap_user_rdpmc 0), or -1 if every one may: rdpmc on the group only
 * then, since a counter without it would be read as a stale offset.
 */
int tdr_first_without_rdpmc(struct perf_event_mmap_page *const *pages, int n);

/* Where group @g's enabled time is in a snapshot of @set (running is the next). */
static inline int tdr_times_at(const struct counter_set *set, int g)
{
	return set->nr + 2 * g;
}

/* Values a snapshot of @set uses: its counters and two times per group. */
static inline int tdr_nr_values(const struct counter_set *set)
{
	return set->nr + 2 * counters_nr_groups(set);
}

/*
 * out = end - begin over @n values. False, with out untouched, if any
 * value went backwards (a reset, an overflow the kernel did not fold in):
 * such a region is dropped, not guessed.
 */
bool tdr_delta(const __u64 *end, const __u64 *begin, __u64 *out, int n);

/* Snapshot (or sum of deltas) @v of @set as tdtrace's counts, for td_decode. */
void tdr_to_counts(const struct counter_set *set, const __u64 *v, struct td_counts *c);

#endif /* TD_TDREGION_FIELDS_H */
