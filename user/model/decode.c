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

	/*
	 * Multiplexed out for part of the time: perf's convention is to scale
	 * counts by enabled/running. All members of the group run together,
	 * so ratios are unaffected; only absolute counts are scaled.
	 */
	m->scale = td_counts_scale(c);
	if (m->scale == 0) {
		m->never_counted = true;
		return;
	}
	m->multiplexed = m->scale != 1.0;
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
