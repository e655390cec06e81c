// SPDX-License-Identifier: GPL-2.0
/* Decode slot-scaled TopDown counts into fractions. See decode.h. */
#include <string.h>
#include "model/decode.h"

const char *const td_l1_perf_names[TD_NR_L1] = {
	"tma_retiring",
	"tma_bad_speculation",
	"tma_frontend_bound",
	"tma_backend_bound",
};

const char *const td_l2_perf_names[TD_NR_L2] = {
	"tma_heavy_operations", "tma_light_operations", "tma_branch_mispredicts",
	"tma_machine_clears",	"tma_fetch_latency",	"tma_fetch_bandwidth",
	"tma_memory_bound",	"tma_core_bound",
};

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The measured L2 child of each L1 node, in enum td_l1 order. */
static const int l2_child_counter[TD_NR_L1] = {
	TD_HEAVY_OPS,
	TD_BR_MISPREDICT,
	TD_FETCH_LAT,
	TD_MEM_BOUND,
};

void td_decode(const struct td_counts *c, int level, struct td_metrics *m)
{
	double l1_sum = 0;
	int i;

	memset(m, 0, sizeof(*m));
	m->level = level;
	m->scale = 1.0;

	/*
	 * Multiplexed out for part of the time: perf's convention is to scale
	 * counts by enabled/running. All members of the group run together,
	 * so ratios are unaffected; only absolute counts are scaled.
	 */
	if (c->enabled_ns > 0 && c->running_ns == 0) {
		m->never_counted = true;
		return;
	}
	if (c->running_ns > 0 && c->running_ns < c->enabled_ns) {
		m->multiplexed = true;
		m->scale = (double)c->enabled_ns / (double)c->running_ns;
	}
	m->slots = (double)c->count[TD_SLOTS] * m->scale;

	if (level < 1)
		return;

	for (i = 0; i < TD_NR_L1; i++)
		l1_sum += (double)c->count[TD_RETIRING + i];
	if (c->count[TD_SLOTS] > 0)
		m->l1_coverage = l1_sum / (double)c->count[TD_SLOTS];
	if (l1_sum <= 0)
		return;

	m->valid = true;
	for (i = 0; i < TD_NR_L1; i++)
		m->l1[i] = (double)c->count[TD_RETIRING + i] / l1_sum;

	if (level < 2)
		return;

	/* Each L1 node splits into a measured child and a derived sibling. */
	for (i = 0; i < TD_NR_L1; i++) {
		double child = (double)c->count[l2_child_counter[i]] / l1_sum;

		child = clamp(child, 0, m->l1[i]);
		m->l2[2 * i] = child;
		m->l2[2 * i + 1] = clamp(m->l1[i] - child, 0, m->l1[i]);
	}
}

_Static_assert(sizeof(struct td_counts) % sizeof(__u64) == 0, "td_counts: __u64 only");

void td_counts_sub(const struct td_counts *a, const struct td_counts *b, struct td_counts *out)
{
	const __u64 *pa = (const __u64 *)a, *pb = (const __u64 *)b;
	__u64 *po = (__u64 *)out;
	size_t i;

	/* struct td_counts is all __u64, so walk it as an array. */
	for (i = 0; i < sizeof(*a) / sizeof(__u64); i++)
		po[i] = pa[i] >= pb[i] ? pa[i] - pb[i] : 0;
}

void td_counts_add(struct td_counts *acc, const struct td_counts *c)
{
	const __u64 *pc = (const __u64 *)c;
	__u64 *pa = (__u64 *)acc;
	size_t i;

	for (i = 0; i < sizeof(*c) / sizeof(__u64); i++)
		pa[i] += pc[i];
}
