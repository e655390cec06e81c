// SPDX-License-Identifier: GPL-2.0
/* One report: conservation, rows (named from the names the collect stage read), decoding, then the
 * chosen format. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "output/json.h"
#include "output/perf_csv.h"
#include "output/perf_json.h"
#include "output/render.h"
#include "output/table.h"
#include "cli/say.h"

int renderer_init(struct renderer *rd, const struct options *o, const struct plan *p,
		  const struct targets *t, struct output_file *out,
		  const struct cgroup_names *names, struct metrics_sink sink)
{
	char err[256];

	memset(rd, 0, sizeof(*rd));
	rd->rows = (struct cgroup_rows_opts){
		.depth = o->depth,
		.roots = t->roots,
		.nr_roots = t->nr_cgroups,
		.containers = o->containers,
		.group_by = o->group_by,
	};
	rd->json = o->json;
	rd->top = o->top;
	rd->out = out;
	rd->names = names;
	rd->targets = t;
	rd->nr_pmus = p->nr_pmus;
	rd->print = !o->listen || o->json || o->table || o->output || o->format != FORMAT_TABLE;
	rd->format = o->format;
	rd->csv_sep = o->csv_sep;
	if (o->toplev_split) {
		int ret = toplev_split_init(&rd->toplev, o->toplev_split, err, sizeof(err));

		if (ret) {
			say(stderr, "%s", err);
			return ret;
		}
		rd->split = true;
	}
	rd->sink = sink;
	exposition_init(&rd->exposition, o->listen_grace_s, o->listen_processes, o->self_stats);
	rd->times = !p->pmus[0].counters.software;
	for (int k = 0; k < p->nr_pmus; k++) {
		const struct counter_set *cs = &p->pmus[k].counters;

		if (p->pmus[k].midr)
			snprintf(rd->cpuid[k], sizeof(rd->cpuid[k]), "0x%016llx", p->pmus[k].midr);
		rd->cfg[k] = (struct report_config){
			.counters = cs,
			.decoding = &rd->decoding[k],
			.smt_on = p->smt_on,
			.slots_per_cycle = p->pmus[k].slots,
			.cpuid = p->pmus[k].midr ? rd->cpuid[k] : NULL,
			.pmu = p->nr_pmus > 1 ? p->pmus[k].pmu : NULL,
			.per_thread = o->per_thread,
			.filtered = t->filtered,
			.per_cgroup = o->per_cgroup,
			.cgroup_opts = &rd->rows,
			/* A table shows --top rows: the rest need no sorting. */
			.limit = o->format == FORMAT_TABLE ? o->top : 0,
			.self_stats = o->self_stats,
			.regions = o->nr_regions || o->usdt,
		};
		rd->metrics_cfg[k] = rd->cfg[k];
		rd->metrics_cfg[k].limit = 0; /* every cgroup */
		rd->metrics_cfg[k].per_cgroup = !o->listen_processes;
		rd->nr_cpus[k] = p->pmus[k].nr_cpus;
		if (cs->nr > rd->nr_counters)
			rd->nr_counters = cs->nr;
		if (renderer_replan(rd, p, k))
			return -EINVAL;
	}
	return 0;
}

int renderer_replan(struct renderer *rd, const struct plan *p, int k)
{
	char err[256];

	if (td_decoding_init(&rd->decoding[k], &p->pmus[k].counters, p->smt_on, err, sizeof(err))) {
		say(stderr, "failed to compile the model's formulas: %s", err);
		return -EINVAL;
	}
	td_decoder_set_cpu(&rd->decoding[k].decoder, p->pmus[k].slots, rd->cfg[k].cpuid);
	return 0;
}

/* One PMU's report of @s into the output; its rows freed again. */
static int render_pmu(struct renderer *rd, struct report *r, const struct entry_set *s, int k)
{
	char why[4200];
	int err;

	r->cfg = &rd->cfg[k];
	if (rd->nr_pmus > 1)
		r->nr_cpus = rd->nr_cpus[k];
	err = entries_view(s, k, !r->cfg->per_cgroup, &rd->view);
	if (!err)
		err = report_build(r, &rd->view, rd->names);
	if (!err)
		err = report_regions(r, &s->regions, k, rd->names);
	switch (err ? -1 : (int)rd->format) {
	case FORMAT_TABLE:
		output_table(rd->out->f, r, rd->top);
		break;
	case FORMAT_JSON:
		output_json(rd->out->f, r);
		break;
	case FORMAT_PERF_JSON:
		output_perf_json(rd->out->f, r);
		break;
	case FORMAT_PERF_CSV:
		output_perf_csv(rd->out->f, r, rd->csv_sep);
		break;
	case FORMAT_TOPLEV_CSV:
		if (rd->split) {
			err = toplev_split_write(&rd->toplev, r, rd->top, why, sizeof(why));
			if (err) {
				say(stderr, "%s", why);
				rd->said = true;
			}
			break;
		}
		if (!rd->toplev_header)
			toplev_header(rd->out->f);
		rd->toplev_header = true;
		output_toplev_csv(rd->out->f, r);
		break;
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
	/* Each interval must add up exactly (see td_entry_bytes in tdtrace.h): say so if one does
	 * not. */
	r->conserved = entries_conserved(s, rd->nr_counters, rd->times);
	if (!r->conserved)
		say(stderr,
		    "%s %u: entries, overflow and untraced do not add up to the "
		    "per-CPU totals: counts may be missing",
		    r->summary ? "summary after interval" : "interval", r->interval);
	if (!rd->print)
		return 0;
	err = output_file_begin(rd->out);
	for (int k = 0; !err && k < rd->nr_pmus; k++) {
		err = render_pmu(rd, r, s, k);
		if (err && rd->said)
			return err; /* with the file's name */
	}
	if (!err)
		err = output_file_end(rd->out);
	if (err && err != -EPIPE)
		say(stderr, "failed to write output: %s", strerror(-err));
	return err;
}

/* Both exposition formats of @reports into the exporter. */
static int publish(struct renderer *rd, const struct report *const *reports, double now)
{
	char *body[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };
	int err = 0;

	for (int om = 0; om < 2 && !err; om++) {
		FILE *f = open_memstream(&body[om], &len[om]);

		if (!f) {
			err = -ENOMEM;
			break;
		}
		exposition_write(&rd->exposition, f, om, reports, rd->nr_pmus, now);
		if (fclose(f))
			err = -ENOMEM;
	}
	if (!err)
		err = rd->sink.publish(rd->sink.ctx, body[0], len[0], body[1], len[1]);
	free(body[0]);
	free(body[1]);
	return err;
}

int render_metrics(struct renderer *rd, struct report *r, const struct tally *tl)
{
	const struct entry_set *total = &tl->total;
	struct report reports[TD_MAX_PMUS];
	const struct report *ptrs[TD_MAX_PMUS];
	struct timespec ts;
	int err = 0, built = 0;
	double now;

	if (!rd->sink.ctx)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec + ts.tv_nsec / 1e9;
	for (int k = 0; k < rd->nr_pmus && !err; k++) {
		/* Without process rows, the cgroup sums say all: as many as the cgroups. */
		const struct entry_set *s = rd->metrics_cfg[k].per_cgroup ? &tl->cgroups : total;

		reports[k] = *r;
		reports[k].cfg = &rd->metrics_cfg[k];
		reports[k].conserved = entries_conserved(s, rd->nr_counters, rd->times);
		if (rd->nr_pmus > 1)
			reports[k].nr_cpus = rd->nr_cpus[k];
		err = entries_view(s, k, !rd->metrics_cfg[k].per_cgroup, &rd->metrics_view[k]);
		if (!err)
			err = report_build(&reports[k], &rd->metrics_view[k], rd->names);
		if (!err)
			err = report_regions(&reports[k], &total->regions, k, rd->names);
		if (!err) {
			ptrs[k] = &reports[k];
			built++;
		}
	}
	if (!err)
		err = exposition_update(&rd->exposition, ptrs, built, now);
	if (!err)
		err = publish(rd, ptrs, now);
	for (int k = 0; k < built; k++)
		report_free(&reports[k]);
	if (err)
		say(stderr, "failed to update the exporter's metrics: %s", strerror(-err));
	return err;
}

void renderer_free(struct renderer *rd)
{
	snapshot_free(&rd->view);
	for (int k = 0; k < TD_MAX_PMUS; k++)
		snapshot_free(&rd->metrics_view[k]);
	exposition_free(&rd->exposition);
	toplev_split_free(&rd->toplev);
}
