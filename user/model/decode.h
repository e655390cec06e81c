/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decode: from slot-scaled counts to TopDown fractions. Pure: no syscalls,
 * no libbpf, numbers in, numbers out.
 *
 * Normalisation: the four L1 counts need not sum to slots (8-bit fractions,
 * floor, the kernel only adds when a value grows), so each L1 node is its
 * count divided by the sum of the four L1 counts; the printed L1 always
 * sums to 100%. The L2 children (heavy ops, branch mispredicts, fetch
 * latency, memory bound) are divided by the same sum and clamped to
 * [0, parent]; their siblings are parent - child (kernel topdown.txt), so
 * they are never negative. l1_coverage = sum(L1) / slots shows how far the
 * hardware's own sum was from slots.
 */
#ifndef TD_DECODE_H
#define TD_DECODE_H

#include <stdbool.h>
#include <linux/types.h>
#include "tdtrace.h"
#include "model/counts.h"

enum td_l1 { TD_L1_RETIRING, TD_L1_BAD_SPEC, TD_L1_FE_BOUND, TD_L1_BE_BOUND, TD_NR_L1 };

enum td_l2 {
	TD_L2_HEAVY_OPS,      /* Retiring.Heavy_Operations */
	TD_L2_LIGHT_OPS,      /* Retiring.Light_Operations = retiring - heavy */
	TD_L2_BR_MISPREDICT,  /* Bad_Speculation.Branch_Mispredicts */
	TD_L2_MACHINE_CLEARS, /* Bad_Speculation.Machine_Clears = bad spec - br mispredict */
	TD_L2_FETCH_LAT,      /* Frontend_Bound.Fetch_Latency */
	TD_L2_FETCH_BW,	      /* Frontend_Bound.Fetch_Bandwidth = fe bound - fetch lat */
	TD_L2_MEM_BOUND,      /* Backend_Bound.Memory_Bound */
	TD_L2_CORE_BOUND,     /* Backend_Bound.Core_Bound = be bound - mem bound */
	TD_NR_L2
};

struct td_metrics {
	int level;	    /* 0: no ratios (software), 1: L1, 2: L1 + L2 */
	double scale;	    /* enabled / running; 1.0 when not multiplexed */
	bool multiplexed;   /* running < enabled: counts were scaled */
	bool never_counted; /* enabled > 0 but running == 0: no data at all */
	double slots;	    /* leader count, scaled (cpu-clock ns with --software) */
	bool valid;	    /* ratios below hold numbers (level > 0 and sum(L1) > 0) */
	double l1[TD_NR_L1];
	double l2[TD_NR_L2]; /* level 2 only */
	double l1_coverage;  /* sum of raw L1 counts / raw slots; 0 if slots == 0 */
};

/* Decode @c at TopDown @level (0, 1 or 2) into @m. */
void td_decode(const struct td_counts *c, int level, struct td_metrics *m);

/* Names as perf spells them (tma_retiring, ...) and as toplev does (Retiring, ...). */
extern const char *const td_l1_perf_names[TD_NR_L1];
extern const char *const td_l2_perf_names[TD_NR_L2];

#endif /* TD_DECODE_H */
