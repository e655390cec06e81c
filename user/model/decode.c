// SPDX-License-Identifier: GPL-2.0
/* Decode a row's counts with its model's formulas. See decode.h. */
#include <math.h>
#include <string.h>
#include "model/decode.h"

const char *const td_l1_nodes[TD_NR_L1] = {
	"retiring", "bad_speculation", "frontend_bound", "backend_bound", "smt_contention",
};

const char *const td_l2_nodes[TD_NR_L2] = {
	"heavy_operations", "light_operations", "branch_mispredicts", "machine_clears",
	"fetch_latency",    "fetch_bandwidth",	"memory_bound",	      "core_bound",
};

/* The metric of @m shown as @node at @level, or -1. */
static int node_metric(const struct pmu_model *m, int level, const char *node)
{
	for (int i = 0; i < m->nr_metrics; i++)
		if (m->metrics[i].level == level && m->metrics[i].node &&
		    !strcmp(m->metrics[i].node, node))
			return i;
	return -1;
}

int td_decoding_init(struct td_decoding *d, const struct counter_set *set, bool smt_on, char *err,
		     size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->set = set;
	for (int i = 0; i < TD_NR_L1; i++)
		d->l1[i] = set->model ? node_metric(set->model, 1, td_l1_nodes[i]) : -1;
	for (int i = 0; i < TD_NR_L2; i++)
		d->l2[i] = set->model ? node_metric(set->model, 2, td_l2_nodes[i]) : -1;
	if (!set->model)
		return 0;
	return td_decoder_init(&d->decoder, set->model, set->level, set->opened, smt_on, err,
			       errlen);
}

void td_decode(const struct td_decoding *d, const struct td_counts *c, struct td_metrics *m)
{
	const struct counter_set *set = d->set;
	double counts[MODEL_MAX_EVENTS] = { 0 };

	m->level = set->model ? set->level : 0;
	m->valid = false;
	m->slots = 0;
	for (int i = 0; i < TD_NR_L1; i++)
		m->l1[i] = NAN;
	for (int i = 0; i < TD_NR_L2; i++)
		m->l2[i] = NAN;
	for (int i = 0; i < MODEL_MAX_METRICS; i++)
		m->value[i] = NAN;

	/*
	 * Multiplexed out for part of the time: perf's convention is to scale
	 * counts by enabled/running, each group by its own (the kernel
	 * schedules a group whole). A group that never ran counted nothing:
	 * its events are NaN, so the metrics that need them are too.
	 */
	m->scale = td_counts_scale(c);
	m->never_counted = m->scale == 0;
	m->multiplexed = m->scale != 1.0 && !m->never_counted;
	if (m->never_counted)
		return;
	if (!set->model) {
		m->slots = (double)c->count[0] * m->scale;
		return;
	}
	for (int i = 0; i < set->nr; i++) {
		double scale = td_counts_group_scale(c, set->group[i]);

		if (scale != 1.0)
			m->multiplexed = true;
		counts[set->event[i]] = scale ? (double)c->count[i] * scale : NAN;
	}
	td_decoder_eval(&d->decoder, counts, m->value);
	m->slots = m->value[d->decoder.slots];
	m->valid = m->slots > 0;
	if (!m->valid)
		return;
	for (int i = 0; i < TD_NR_L1; i++)
		if (d->l1[i] >= 0)
			m->l1[i] = m->value[d->l1[i]];
	for (int i = 0; i < TD_NR_L2 && m->level >= 2; i++)
		if (d->l2[i] >= 0)
			m->l2[i] = m->value[d->l2[i]];
}
