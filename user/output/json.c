// SPDX-License-Identifier: GPL-2.0
/*
 * JSON lines: one object per entity per interval, then per entity for the
 * whole run. Schema in README.md ("JSON output"); bump TD_JSON_SCHEMA when
 * a field changes meaning or goes away.
 */
#define _GNU_SOURCE /* fputs_unlocked */
#include <math.h>
#include <stdlib.h>
#include "output/json_writer.h"
#include "output/json.h"

#define TD_JSON_SCHEMA 2
#define TD_STR_(x)     #x
#define TD_STR(x)      TD_STR_(x)

/*
 * 11,000 lines a second with 10,000 tasks: no printf per field. Names
 * are the program's own, written as they are.
 */
static void key(FILE *f, const char *name)
{
	fputs_unlocked(",\"", f);
	fputs_unlocked(name, f);
	fputs_unlocked("\":", f);
}

static void key_u64(FILE *f, const char *name, unsigned long long v)
{
	key(f, name);
	json_write_u64(f, v);
}

static void key_bool(FILE *f, const char *name, bool v)
{
	key(f, name);
	fputs_unlocked(v ? "true" : "false", f);
}

static void key_double(FILE *f, const char *name, double v)
{
	key(f, name);
	json_write_double(f, v);
}

/*
 * A share in percent, 6 decimals (a millionth of a percent): the counts
 * behind it are in the line whole. Fixed decimals print without printf.
 */
static void key_share(FILE *f, const char *name, double pct)
{
	key(f, name);
	json_write_fixed(f, pct, 6);
}

static void key_pct(FILE *f, const char *name, double fraction, bool valid)
{
	key(f, name);
	if (valid)
		json_write_fixed(f, 100 * fraction, 2);
	else
		fputs_unlocked("null", f);
}

/* Raw (unscaled) counts, by perf's event names. */
#define _GNU_SOURCE /* fputs_unlocked, fwrite_unlocked */
static void raw_counts(FILE *f, const char *name, const struct report *r, const struct td_counts *c)
{
	key(f, name);
	putc_unlocked('{', f);
	for (int i = 0; i < r->cfg->counters->nr; i++) {
		fputs_unlocked(i ? ",\"" : "\"", f);
		fputs_unlocked(r->cfg->counters->name[i], f);
		fputs_unlocked("\":", f);
		json_write_u64(f, c->count[i]);
	}
	putc_unlocked('}', f);
}

/* What every line of a report has after its type, written once per report. */
static void report_fields(FILE *f, const struct report *r)
{
	fprintf(f, ",\"phase\":\"%s\"", r->summary ? "summary" : "interval");
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

static void begin(FILE *f, const char *common, const char *type)
{
	fputs_unlocked("{\"schema\":" TD_STR(TD_JSON_SCHEMA) ",\"type\":\"", f);
	fputs_unlocked(type, f);
	putc_unlocked('"', f);
	fputs_unlocked(common, f);
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
		key_share(f, "cpu_pct", counted(m, cap > 0 ? 100.0 * m->slots / cap : 0.0));
		return;
	}
	const struct pmu_model *model = r->cfg->counters->model;

	key_double(f, "slots", counted(m, m->slots));
	key_share(f, "slots_pct",
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
		fputs_unlocked("\"[idle]\"", f);
	else if (row->cgroup)
		json_write_cstring(f, row->cgroup, (size_t)-1);
	else
		fputs_unlocked("null", f);
}

static void task_line(FILE *f, const struct report *r, const char *common, const struct row *row)
{
	const struct task_sample *t = row->task;

	begin(f, common, r->cfg->per_thread ? "thread" : "process");
	if (r->cfg->per_thread)
		key_u64(f, "tid", t->key.id);
	key_u64(f, "pid", t->val.tgid);
	key(f, "comm");
	if (row->idle)
		fputs_unlocked("\"[idle]\"", f);
	else
		json_write_cstring(f, t->val.comm, TD_COMM_LEN);
	key_u64(f, "start_ns", t->key.start_ns);
	key_bool(f, "idle", row->idle);
	key_bool(f, "exited", t->val.flags & TD_TASK_EXITED);
	cgroup_fields(f, row);
	metrics(f, r, row->c, &row->m);
	fputs_unlocked("}\n", f);
}

static void cgroup_line(FILE *f, const struct report *r, const char *common, const struct row *row)
{
	begin(f, common, "cgroup");
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
		putc_unlocked('}', f);
	}
	raw_counts(f, "self_counts", r, row->self);
	metrics(f, r, row->c, &row->m);
	fputs_unlocked("}\n", f);
}

static void system_line(FILE *f, const struct report *r, const char *common)
{
	const struct td_cpu_totals *t = r->totals;

	begin(f, common, "system");
	key_u64(f, "cpus", r->nr_cpus);
	key_u64(f, "task_drops", t->task_drops);
	key_u64(f, "cgroup_drops", t->cgroup_drops);
	key_u64(f, "read_errors", t->read_errors);
	key_u64(f, "follow_drops", t->follow_drops);
	if (r->cfg->cgroup_opts && r->cfg->cgroup_opts->nr_roots) {
		key(f, "cgroups_removed");
		putc_unlocked('[', f);
		for (int i = 0; i < r->nr_removed; i++) {
			fputs_unlocked(i ? "," : "", f);
			json_write_cstring(f, r->removed[i], (size_t)-1);
		}
		putc_unlocked(']', f);
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
	fputs_unlocked("}\n", f);
}

void output_json(FILE *f, const struct report *r)
{
	char *common = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&common, &len);

	if (!m)
		return;
	report_fields(m, r);
	if (fclose(m)) {
		free(common);
		return;
	}
	flockfile(f);
	system_line(f, r, common);
	for (size_t i = 0; i < r->nr_tasks; i++)
		task_line(f, r, common, &r->tasks[i]);
	for (size_t i = 0; i < r->nr_cgroups; i++)
		cgroup_line(f, r, common, &r->cgroups[i]);
	funlockfile(f);
	free(common);
}
