// SPDX-License-Identifier: GPL-2.0
/* What perf's formats print. See perf_rows.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/perf_rows.h"

/*
 * A name from the system in perf's columns: perf does not quote, so a
 * character of the separator @avoid (NULL: none) or a control byte
 * would split or end a line; each becomes '_'.
 */
static void unquoted(char *s, const char *avoid)
{
	for (; *s; s++)
		if ((avoid && strchr(avoid, *s)) || (unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '_';
}

void perf_for_each_entity(const struct report *r, const char *avoid, perf_entity_fn fn, void *ctx)
{
	char thread[TD_COMM_LEN + 16], id[40];

	fn(ctx, r, &(struct perf_entity){ .c = &r->totals->all, .m = &r->system });
	for (size_t i = 0; i < r->nr_tasks; i++) {
		const struct row *row = &r->tasks[i];
		char comm[TD_COMM_LEN + 1] = { 0 };

		if (row->idle)
			continue;
		memcpy(comm, row->task->val.comm, TD_COMM_LEN);
		unquoted(comm, avoid);
		snprintf(thread, sizeof(thread), "%s-%u", comm, row->task->key.id);
		fn(ctx, r, &(struct perf_entity){ .thread = thread, .c = row->c, .m = &row->m });
	}
	for (size_t i = 0; i < r->nr_cgroups; i++) {
		const struct row *row = &r->cgroups[i];
		char *path = !row->idle && row->cgroup ? strdup(row->cgroup) : NULL;
		const char *cg = row->idle ? "[idle]" : path;

		if (path)
			unquoted(path, avoid);
		if (!cg) { /* its name not read (or no memory to copy it) */
			snprintf(id, sizeof(id), "[id %llu]", (unsigned long long)row->cgroup_id);
			cg = id;
		}
		fn(ctx, r, &(struct perf_entity){ .cgroup = cg, .c = row->c, .m = &row->m });
		free(path);
	}
}

int perf_nr_counters(const struct report *r)
{
	return r->cfg->counters->software ? 1 : r->cfg->counters->nr;
}

static void event_name(const struct report *r, const char *name, char *buf, size_t size)
{
	/* perf names a hybrid part's events by their PMU: cpu_core/slots/. */
	if (r->cfg->pmu)
		snprintf(buf, size, "%s/%s/", r->cfg->pmu, name);
	else
		snprintf(buf, size, "%s", name);
}

void perf_counter(const struct report *r, const struct perf_entity *e, int i,
		  struct perf_counter *pc)
{
	const struct counter_set *cs = r->cfg->counters;
	const struct td_counts *c = e->c;
	int g = cs->group[i];

	memset(pc, 0, sizeof(*pc));
	if (cs->software) {
		/* cpu-clock counts nanoseconds; perf shows msec and their share of the wall time.
		 */
		event_name(r, "cpu-clock", pc->event, sizeof(pc->event));
		pc->unit = "msec";
		pc->counted = !e->m->never_counted;
		pc->value = pc->counted ? e->m->slots / 1e6 : 0;
		pc->run_ns = pc->counted ? (unsigned long long)e->m->slots : 0;
		pc->pcnt_running = 100.0;
		if (pc->counted) {
			pc->metric_unit = "CPUs utilized";
			pc->metric = r->duration_s > 0 ? e->m->slots / (r->duration_s * 1e9) : 0;
		}
		return;
	}
	event_name(r, cs->name[i], pc->event, sizeof(pc->event));
	pc->unit = "";
	pc->counted = c->running_ns[g] > 0;
	pc->value = pc->counted ? (double)c->count[i] * td_counts_group_scale(c, g) : 0;
	pc->run_ns = c->running_ns[g];
	pc->pcnt_running = c->enabled_ns[g] ? 100.0 * c->running_ns[g] / c->enabled_ns[g] : 100.0;
}

int perf_nr_metrics(const struct report *r)
{
	const struct pmu_model *model = r->cfg->counters->model;

	return r->cfg->counters->software || !model ? 0 : model->nr_metrics;
}

bool perf_metric(const struct report *r, const struct perf_entity *e, int i, struct perf_metric *pm)
{
	const struct model_metric *mm = &r->cfg->counters->model->metrics[i];

	if (!e->m->valid || mm->level < 1 || mm->level > e->m->level || isnan(e->m->value[i]))
		return false;
	/* perf's MetricExpr fractions carry ScaleUnit "100%": the value in percent, unit "%". */
	snprintf(pm->unit, sizeof(pm->unit), "%%  %s", mm->name);
	pm->value = 100 * e->m->value[i];
	return true;
}
