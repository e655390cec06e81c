// SPDX-License-Identifier: GPL-2.0
/*
 * libtdregion's regions: begin and end take snapshots, end adds the delta
 * to the region, and report decodes the sum with tdtrace's model code
 * (td_decode: the model's perf formulas, each group scaled by its own
 * enabled / running).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include "tdregion/context.h"
#include "tdregion/fields.h"

#define TDR_VISIBLE __attribute__((visibility("default")))

TDR_VISIBLE int tdregion_begin(struct tdregion *td, struct tdregion_region *r)
{
	int err;

	if (td->thread != tdr_thread_mark()) {
		errno = EINVAL;
		return -1;
	}
	if (r->depth++) /* recursion: the outermost call counts */
		return 0;
	err = tdr_snapshot(td, r->begin);
	/* The 8-bit fractions blur as slots grow: reset while no region is open. */
	if (!err && (td->mode & TDREGION_RDPMC) && !td->open_regions &&
	    r->begin[TD_SLOTS] > td->reset_slots && !tdregion_reset(td))
		err = tdr_snapshot(td, r->begin);
	if (err) {
		r->depth--;
		errno = -err;
		return -1;
	}
	td->open_regions++;
	return 0;
}

TDR_VISIBLE int tdregion_end(struct tdregion *td, struct tdregion_region *r)
{
	__u64 end[TDREGION_MAX_VALUES], delta[TDREGION_MAX_VALUES];
	int n = tdr_nr_values(&td->set), err;

	if (r->depth <= 0 || td->thread != tdr_thread_mark()) {
		errno = EINVAL;
		return -1;
	}
	if (--r->depth)
		return 0;
	td->open_regions--;
	err = tdr_snapshot(td, end);
	if (err) {
		errno = -err;
		return -1;
	}
	if (!tdr_delta(end, r->begin, delta, n)) {
		r->dropped++;
		return 0;
	}
	for (int i = 0; i < n; i++)
		r->sum[i] += delta[i];
	r->calls++;
	return 0;
}

/* Where each node of decode.h's enums goes in a result (smt_contention: nowhere). */
#define AT(f) offsetof(struct tdregion_result, f)
static const size_t l1_at[TD_NR_L1] = {
	[TD_L1_RETIRING] = AT(retiring),
	[TD_L1_BAD_SPEC] = AT(bad_speculation),
	[TD_L1_FE_BOUND] = AT(frontend_bound),
	[TD_L1_BE_BOUND] = AT(backend_bound),
	[TD_L1_SMT_CONTENTION] = AT(smt_contention),
};
static const size_t l2_at[TD_NR_L2] = {
	[TD_L2_HEAVY_OPS] = AT(heavy_operations),	[TD_L2_LIGHT_OPS] = AT(light_operations),
	[TD_L2_BR_MISPREDICT] = AT(branch_mispredicts), [TD_L2_MACHINE_CLEARS] = AT(machine_clears),
	[TD_L2_FETCH_LAT] = AT(fetch_latency),		[TD_L2_FETCH_BW] = AT(fetch_bandwidth),
	[TD_L2_MEM_BOUND] = AT(memory_bound),		[TD_L2_CORE_BOUND] = AT(core_bound),
};

/* Node @i of @m's level-1 (@l1) or level-2 fractions. */
static double node(const struct td_metrics *m, const double *v, int i, int level)
{
	return m->valid && m->level >= level ? v[i] : NAN;
}

TDR_VISIBLE int tdregion_report(const struct tdregion *td, const struct tdregion_region *r,
				struct tdregion_result *out)
{
	const struct counter_set *set = &td->set;
	struct td_counts c;
	struct td_metrics m;
	double enabled;

	tdr_to_counts(set, r->sum, &c);
	td_decode(&td->decoding, &c, &m);
	*out = (struct tdregion_result){ 0 };
	out->flags = td->mode & (TDREGION_RDPMC | TDREGION_READ | TDREGION_SOFTWARE);
	out->calls = r->calls;
	out->dropped = r->dropped;
	if (r->dropped)
		out->flags |= TDREGION_DROPPED;
	if (m.multiplexed)
		out->flags |= TDREGION_MULTIPLEXED;
	out->model = set->model ? set->model->name : NULL;
	enabled = (double)c.enabled_ns[0];
	if (td->mode & TDREGION_SOFTWARE)
		out->cpu_ns = (double)c.count[TD_SLOTS];
	else
		out->cpu_ns = enabled > 0 || !r->calls ? enabled : NAN;
	out->level = (td->mode & TDREGION_TOPDOWN) && m.valid ? m.level : 0;
	if (out->level)
		out->flags |= TDREGION_TOPDOWN;
	out->slots = out->level ? m.slots : NAN;
	for (int i = 0; i < TD_NR_L1; i++)
		*(double *)((char *)out + l1_at[i]) = node(&m, m.l1, i, 1);
	for (int i = 0; i < TD_NR_L2; i++)
		*(double *)((char *)out + l2_at[i]) = node(&m, m.l2, i, 2);
	return 0;
}
