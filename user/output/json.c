// SPDX-License-Identifier: GPL-2.0
/*
 * JSON lines: one object per entity per interval, then per entity for the
 * whole run. Schema in README.md ("JSON output"); bump TD_JSON_SCHEMA when
 * a field changes meaning or goes away.
 */
#include <math.h>
#include "output/json_writer.h"
#include "output/json.h"

#define TD_JSON_SCHEMA 2

static void key(FILE *f, const char *name)
{
	fprintf(f, ",\"%s\":", name);
}

static void key_u64(FILE *f, const char *name, unsigned long long v)
{
	fprintf(f, ",\"%s\":%llu", name, v);
}

static void key_bool(FILE *f, const char *name, bool v)
{
	fprintf(f, ",\"%s\":%s", name, v ? "true" : "false");
}

static void key_double(FILE *f, const char *name, double v)
{
	key(f, name);
	json_write_double(f, v);
}

static void key_pct(FILE *f, const char *name, double fraction, bool valid)
{
	key(f, name);
	if (valid)
		json_write_fixed(f, 100 * fraction, 2);
	else
		fputs("null", f);
}

/* Raw (unscaled) counts, by perf's event names. */
static void raw_counts(FILE *f, const char *name, const struct report *r, const struct td_counts *c)
{
	key(f, name);
	fputc('{', f);
	for (int i = 0; i < r->cfg->counters->nr; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", r->cfg->counters->name[i],
			(unsigned long long)c->count[i]);
	fputc('}', f);
}

static void begin(FILE *f, const struct report *r, const char *type)
{
	fprintf(f, "{\"schema\":%d,\"type\":\"%s\",\"phase\":\"%s\"", TD_JSON_SCHEMA, type,
		r->summary ? "summary" : "interval");
	key_u64(f, "interval", r->interval);
	key_double(f, "timestamp", r->timestamp);
	key_double(f, "elapsed_s", r->elapsed_s);
	key_double(f, "duration_s", r->duration_s);
	fprintf(f, ",\"mode\":\"%s\"", r->cfg->counters->software ? "software" : "topdown");
	if (r->cfg->counters->model) {
		fprintf(f, ",\"model\":");
		json_write_cstring(f, r->cfg->counters->model->name, (size_t)-1);
		fprintf(f, ",\"pmu\":");
		json_write_cstring(f, r->cfg->counters->model->pmu, (size_t)-1);
		key_bool(f, "smt_on", r->cfg->smt_on);
		/* With SMT on, this model's per-task fractions are an approximation. */
		key_bool(f, "smt_approximate",
			 r->cfg->smt_on && r->cfg->counters->model->smt_approximate);
	}
}

/* @v, or null (NaN) where the counters never ran: no count at all, not 0. */
static double counted(const struct td_metrics *m, double v)
{
	return m->never_counted ? NAN : v;
}

/* What every entity has: counts, times, and the decoded metrics. */
static void metrics(FILE *f, const struct report *r, const struct td_counts *c,
		    const struct td_metrics *m)
{
	key_u64(f, "slices", c->slices);
	/* Group 0's, which the scale and the multiplexed flag come from. */
	key_u64(f, "time_enabled_ns", c->enabled_ns[0]);
	key_u64(f, "time_running_ns", c->running_ns[0]);
	key_bool(f, "multiplexed", m->multiplexed || m->never_counted);
	key_double(f, "scale", counted(m, m->scale));
	raw_counts(f, "counts", r, c);
	if (r->cfg->counters->software) {
		double cap = r->duration_s * 1e9;

		key_double(f, "cpu_ns", counted(m, m->slots));
		key_double(f, "cpu_pct", counted(m, cap > 0 ? 100.0 * m->slots / cap : 0.0));
		return;
	}
	const struct pmu_model *model = r->cfg->counters->model;

	key_double(f, "slots", counted(m, m->slots));
	key_double(f, "slots_pct",
		   counted(m, r->system.slots > 0 ? 100.0 * m->slots / r->system.slots : 0.0));
	key_bool(f, "valid", m->valid);
	/* Every metric of levels 1 and 2 by perf's name for it, as perf stat -j prints it. */
	for (int i = 0; i < model->nr_metrics; i++) {
		const struct model_metric *mm = &model->metrics[i];

		if (mm->level >= 1 && mm->level <= m->level)
			key_pct(f, mm->name, m->value[i], m->valid && !isnan(m->value[i]));
	}
}

static void cgroup_fields(FILE *f, const struct row *row)
{
	key_u64(f, "cgroup_id", row->cgroup_id);
	key(f, "cgroup");
	if (row->idle)
		fputs("\"[idle]\"", f);
	else if (row->cgroup)
		json_write_cstring(f, row->cgroup, (size_t)-1);
	else
		fputs("null", f);
}

static void task_line(FILE *f, const struct report *r, const struct row *row)
{
	const struct task_sample *t = row->task;

	begin(f, r, r->cfg->per_thread ? "thread" : "process");
	if (r->cfg->per_thread)
		key_u64(f, "tid", t->key.id);
	key_u64(f, "pid", t->val.tgid);
	key(f, "comm");
	if (row->idle)
		fputs("\"[idle]\"", f);
	else
		json_write_cstring(f, t->val.comm, TD_COMM_LEN);
	key_u64(f, "start_ns", t->key.start_ns);
	key_bool(f, "idle", row->idle);
	key_bool(f, "exited", t->val.flags & TD_TASK_EXITED);
	cgroup_fields(f, row);
	metrics(f, r, row->c, &row->m);
	fputs("}\n", f);
}

static void cgroup_line(FILE *f, const struct report *r, const struct row *row)
{
	begin(f, r, "cgroup");
	cgroup_fields(f, row);
	key_bool(f, "idle", row->idle);
	if (row->cgroup)
		key_u64(f, "depth", cgroup_path_depth(row->cgroup));
	if (row->label) {
		key(f, "label");
		json_write_cstring(f, row->label->label, sizeof(row->label->label));
		fprintf(f, ",\"container\":{\"kind\":\"%s\"",
			container_kind_name(row->label->kind));
		key(f, "id");
		json_write_cstring(f, row->label->id, sizeof(row->label->id));
		key(f, "pod_uid");
		json_write_cstring(f, row->label->pod_uid, sizeof(row->label->pod_uid));
		key(f, "qos");
		json_write_cstring(f, row->label->qos, sizeof(row->label->qos));
		fputc('}', f);
	}
	raw_counts(f, "self_counts", r, row->self);
	metrics(f, r, row->c, &row->m);
	fputs("}\n", f);
}

static void system_line(FILE *f, const struct report *r)
{
	const struct td_cpu_totals *t = r->totals;

	begin(f, r, "system");
	key_u64(f, "cpus", r->nr_cpus);
	key_u64(f, "task_drops", t->task_drops);
	key_u64(f, "cgroup_drops", t->cgroup_drops);
	key_u64(f, "read_errors", t->read_errors);
	key_u64(f, "follow_drops", t->follow_drops);
	if (r->cfg->cgroup_opts && r->cfg->cgroup_opts->nr_roots) {
		key(f, "cgroups_removed");
		fputc('[', f);
		for (int i = 0; i < r->nr_removed; i++) {
			fputs(i ? "," : "", f);
			json_write_cstring(f, r->removed[i], (size_t)-1);
		}
		fputc(']', f);
	}
	key_bool(f, "filtered", r->cfg->filtered);
	key_bool(f, "conserved", r->conserved);
	raw_counts(f, "untraced", r, &t->untraced);
	if (r->summary && r->cfg->self_stats) {
		key_u64(f, "self_switch_runs", r->self_runs);
		key_u64(f, "self_switch_ns", r->self_ns);
	}
	raw_counts(f, "task_overflow", r, &t->task_overflow);
	raw_counts(f, "cgroup_overflow", r, &t->cgroup_overflow);
	metrics(f, r, &t->all, &r->system);
	fputs("}\n", f);
}

void output_json(FILE *f, const struct report *r)
{
	system_line(f, r);
	for (size_t i = 0; i < r->nr_tasks; i++)
		task_line(f, r, &r->tasks[i]);
	for (size_t i = 0; i < r->nr_cgroups; i++)
		cgroup_line(f, r, &r->cgroups[i]);
}
