/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decode: from one row's counts to TopDown fractions, with the model's own
 * formulas (perf's, see models.h and decoder.h). Pure: no syscalls, no
 * libbpf, numbers in, numbers out.
 *
 * Counts are scaled by enabled / running before the formulas see them, as
 * perf scales counts of a multiplexed group. Every metric of the model is
 * kept by its perf name (value[]), and the TopDown nodes that tables,
 * JSON and Prometheus show on every vendor are picked out by node name
 * (l1[], l2[]), NaN where the model has no such node or it was not
 * counted (AMD has smt_contention, Intel does not).
 */
#ifndef TD_DECODE_H
#define TD_DECODE_H

#include <stdbool.h>
#include <linux/types.h>
#include "tdtrace.h"
#include "model/counters.h"
#include "model/counts.h"
#include "model/decoder.h"

enum td_l1 {
	TD_L1_RETIRING,
	TD_L1_BAD_SPEC,
	TD_L1_FE_BOUND,
	TD_L1_BE_BOUND,
	TD_L1_SMT_CONTENTION, /* AMD only: dispatch slots taken by the sibling thread */
	TD_NR_L1
};

enum td_l2 {
	TD_L2_HEAVY_OPS,      /* Retiring.Heavy_Operations (AMD: microcode) */
	TD_L2_LIGHT_OPS,      /* Retiring.Light_Operations (AMD: fastpath) */
	TD_L2_BR_MISPREDICT,  /* Bad_Speculation.Branch_Mispredicts */
	TD_L2_MACHINE_CLEARS, /* Bad_Speculation.Machine_Clears (AMD: pipeline restarts) */
	TD_L2_FETCH_LAT,      /* Frontend_Bound.Fetch_Latency */
	TD_L2_FETCH_BW,	      /* Frontend_Bound.Fetch_Bandwidth */
	TD_L2_MEM_BOUND,      /* Backend_Bound.Memory_Bound */
	TD_L2_CORE_BOUND,     /* Backend_Bound.Core_Bound (AMD: cpu) */
	TD_NR_L2
};

/* The node names of models.h, by enum: "retiring", ..., "core_bound". */
extern const char *const td_l1_nodes[TD_NR_L1];
extern const char *const td_l2_nodes[TD_NR_L2];

/* How one PMU's counts decode: its counter set and its compiled formulas. */
struct td_decoding {
	const struct counter_set *set;
	struct td_decoder decoder; /* set->model != NULL only */
	int l1[TD_NR_L1];	   /* model metric of each node, -1 if none */
	int l2[TD_NR_L2];
};

struct td_metrics {
	int level;	     /* 0: no ratios (software), 1: L1, 2: L1 + L2 */
	double scale;	     /* enabled / running; 1.0 when not multiplexed */
	bool multiplexed;    /* running < enabled: counts were scaled */
	bool never_counted;  /* enabled > 0 but running == 0: no data at all */
	double slots;	     /* the model's slots, scaled (cpu-clock ns with --software) */
	bool valid;	     /* level > 0, slots > 0: the fractions below are numbers */
	double l1[TD_NR_L1]; /* fractions of slots, NaN where the model has no such node */
	double l2[TD_NR_L2]; /* level 2 only */
	double value[MODEL_MAX_METRICS]; /* every metric of the model, by index */
};

/*
 * Compile @set's model for decoding (@smt_on: the machine's SMT, for
 * perf's #SMT_on). Returns 0, or -EINVAL with a one-line reason in @err.
 */
int td_decoding_init(struct td_decoding *d, const struct counter_set *set, bool smt_on, char *err,
		     size_t errlen);

/* Decode @c, counted with d->set, into @m. */
void td_decode(const struct td_decoding *d, const struct td_counts *c, struct td_metrics *m);

#endif /* TD_DECODE_H */
