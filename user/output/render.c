// SPDX-License-Identifier: GPL-2.0
/* One report: conservation, rows, names, decoding, then the chosen format. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "host/cgroupfs.h"
#include "output/json.h"
#include "output/render.h"
#include "output/table.h"

int renderer_init(struct renderer *rd, const struct options *o, const struct plan *p,
		  const struct targets *t, struct output_file *out, struct cgroup_names *names)
{
	char err[256];

	memset(rd, 0, sizeof(*rd));
	rd->rows = (struct cgroup_rows_opts){
		.depth = o->depth,
		.roots = t->roots,
		.nr_roots = t->nr_cgroups,
		.containers = o->containers,
	};
	rd->json = o->json;
	rd->top = o->top;
	rd->out = out;
	rd->names = names;
	rd->targets = t;
	rd->nr_pmus = p->nr_pmus;
	rd->times = !p->pmus[0].counters.software;
	for (int k = 0; k < p->nr_pmus; k++) {
		const struct counter_set *cs = &p->pmus[k].counters;

		rd->cfg[k] = (struct report_config){
			.counters = cs,
			.decoding = &rd->decoding[k],
			.smt_on = p->smt_on,
			.pmu = p->nr_pmus > 1 ? p->pmus[k].pmu : NULL,
			.per_thread = o->per_thread,
			.filtered = t->filtered,
			.per_cgroup = o->per_cgroup,
			.cgroup_opts = &rd->rows,
			/* A table shows --top rows: the rest need no sorting. */
			.limit = o->json ? 0 : o->top,
			.self_stats = o->self_stats,
		};
		rd->nr_cpus[k] = p->pmus[k].nr_cpus;
		if (cs->nr > rd->nr_counters)
			rd->nr_counters = cs->nr;
		if (td_decoding_init(&rd->decoding[k], cs, p->smt_on, err, sizeof(err))) {
			fprintf(stderr, "tdtrace: failed to compile the model's formulas: %s\n",
				err);
			return -EINVAL;
		}
	}
	return 0;
}

/* One PMU's report of @s into the output; its rows freed again. */
static int render_pmu(struct renderer *rd, struct report *r, const struct entry_set *s, int k)
{
	int err;

	r->cfg = &rd->cfg[k];
	if (rd->nr_pmus > 1)
		r->nr_cpus = rd->nr_cpus[k];
	err = entries_view(s, k, !r->cfg->per_cgroup, &rd->view);
	if (!err) {
		cgroup_names_cover(rd->names, &rd->view);
		err = report_build(r, &rd->view, rd->names);
	}
	if (!err) {
		if (rd->json)
			output_json(rd->out->f, r);
		else
			output_table(rd->out->f, r, rd->top);
	}
	report_free(r);
	return err;
}

int render(struct renderer *rd, struct report *r, const struct entry_set *s)
{
	int err;

	r->nr_removed = 0;
	for (int i = 0; i < rd->targets->nr_cgroups; i++)
		if (rd->targets->removed[i])
			r->removed[r->nr_removed++] = rd->targets->cgroups[i].rel;
	/* Each interval must add up exactly (see struct td_val): say so if one does not. */
	r->conserved = entries_conserved(s, rd->nr_counters, rd->times);
	if (!r->conserved)
		fprintf(stderr,
			"tdtrace: %s %u: entries, overflow and untraced do not add up to the "
			"per-CPU totals: counts may be missing\n",
			r->summary ? "summary after interval" : "interval", r->interval);
	err = output_file_begin(rd->out);
	for (int k = 0; !err && k < rd->nr_pmus; k++)
		err = render_pmu(rd, r, s, k);
	if (!err)
		err = output_file_end(rd->out);
	if (err && err != -EPIPE)
		fprintf(stderr, "tdtrace: failed to write output: %s\n", strerror(-err));
	return err;
}

void renderer_free(struct renderer *rd)
{
	snapshot_free(&rd->view);
}
