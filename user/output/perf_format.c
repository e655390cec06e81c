// SPDX-License-Identifier: GPL-2.0
/* perf stat -j and -x output. See perf_format.h. */
#include <math.h>
#include <string.h>
#include "output/json_writer.h"
#include "output/perf_format.h"

/* Who a line is about, as perf would aggregate it. */
struct who {
	const char *thread; /* "comm-pid" for a process, else NULL */
	const char *cgroup; /* a cgroup row's path, else NULL */
};

/* One entity's counter lines and metric lines, in either format. */
struct perf_out {
	FILE *f;
	const struct report *r;
	const char *sep; /* NULL: JSON */
};

static void json_key(FILE *f, bool *first, const char *key)
{
	fprintf(f, "%s\"%s\" : ", *first ? "{" : ", ", key);
	*first = false;
}

static void json_str(FILE *f, bool *first, const char *key, const char *v)
{
	json_key(f, first, key);
	json_write_cstring(f, v, (size_t)-1);
}

/* A counter line: event @name counted @value (scaled; NAN: not counted). */
static void counter(const struct perf_out *o, const struct who *w, const char *name,
		    const char *unit, double value, unsigned long long run_ns, double pct,
		    double metric, const char *metric_unit)
{
	FILE *f = o->f;
	char buf[64];

	if (isnan(value))
		snprintf(buf, sizeof(buf), "<not counted>");
	else
		snprintf(buf, sizeof(buf), o->sep ? "%.2f" : "%f", value);
	if (!o->sep) {
		bool first = true;

		json_key(f, &first, "interval");
		fprintf(f, "%.9f", o->r->elapsed_s);
		if (w->thread)
			json_str(f, &first, "thread", w->thread);
		json_str(f, &first, "counter-value", buf);
		json_str(f, &first, "unit", unit);
		json_str(f, &first, "event", name);
		if (w->cgroup)
			json_str(f, &first, "cgroup", w->cgroup);
		json_key(f, &first, "event-runtime");
		fprintf(f, "%llu", run_ns);
		json_key(f, &first, "pcnt-running");
		fprintf(f, "%.2f", pct);
		if (metric_unit) {
			json_key(f, &first, "metric-value");
			fprintf(f, "%f", metric);
			json_str(f, &first, "metric-unit", metric_unit);
		}
		fputs("}\n", f);
		return;
	}
	fprintf(f, "%16.9f%s", o->r->elapsed_s, o->sep);
	if (w->thread)
		fprintf(f, "%s%s", w->thread, o->sep);
	fprintf(f, "%s%s%s%s%s%s", buf, o->sep, unit, o->sep, name, o->sep);
	if (w->cgroup)
		fprintf(f, "%s%s", w->cgroup, o->sep);
	fprintf(f, "%llu%s%.2f%s", run_ns, o->sep, pct, o->sep);
	if (metric_unit)
		fprintf(f, "%.3f%s%s\n", metric, o->sep, metric_unit);
	else
		fprintf(f, "%s\n", o->sep);
}

/* A metric line of its own: perf's extra metrics, the earlier fields empty. */
static void metric_line(const struct perf_out *o, const struct who *w, double value,
			const char *unit)
{
	FILE *f = o->f;

	if (!o->sep) {
		bool first = true;

		json_key(f, &first, "interval");
		fprintf(f, "%.9f", o->r->elapsed_s);
		if (w->thread)
			json_str(f, &first, "thread", w->thread);
		if (w->cgroup)
			json_str(f, &first, "cgroup", w->cgroup);
		json_key(f, &first, "metric-value");
		fprintf(f, "%f", value);
		json_str(f, &first, "metric-unit", unit);
		fputs("}\n", f);
		return;
	}
	fprintf(f, "%16.9f%s", o->r->elapsed_s, o->sep);
	if (w->thread)
		fputs(o->sep, f);
	fprintf(f, "%s%s%s", o->sep, o->sep, o->sep); /* value, unit, event */
	if (w->cgroup)
		fputs(o->sep, f);
	fprintf(f, "%s%s%.3f%s%s\n", o->sep, o->sep, value, o->sep, unit);
}

static void entity(const struct perf_out *o, const struct who *w, const struct td_counts *c,
		   const struct td_metrics *m)
{
	const struct counter_set *cs = o->r->cfg->counters;

	if (cs->software) {
		double ms = m->never_counted ? NAN : m->slots / 1e6;
		double cpus = o->r->duration_s > 0 ? m->slots / (o->r->duration_s * 1e9) : 0;

		counter(o, w, "cpu-clock", "msec", ms,
			c->running_ns[0] ? c->running_ns[0] : (unsigned long long)m->slots, 100.0,
			cpus, m->never_counted ? NULL : "CPUs utilized");
		return;
	}
	for (int i = 0; i < cs->nr; i++) {
		int g = cs->group[i];
		double scale = td_counts_group_scale(c, g);
		double pct = c->enabled_ns[g] ? 100.0 * c->running_ns[g] / c->enabled_ns[g] : 100.0;

		counter(o, w, cs->name[i], "", scale ? (double)c->count[i] * scale : NAN,
			c->running_ns[g], pct, 0, NULL);
	}
	if (!m->valid)
		return;
	for (int i = 0; i < cs->model->nr_metrics; i++) {
		const struct model_metric *mm = &cs->model->metrics[i];
		char unit[96];

		if (mm->level < 1 || mm->level > m->level || isnan(m->value[i]))
			continue;
		snprintf(unit, sizeof(unit), "%%  %s", mm->name);
		metric_line(o, w, 100 * m->value[i], unit);
	}
}

static void all(FILE *f, const struct report *r, const char *sep)
{
	struct perf_out o = { .f = f, .r = r, .sep = sep };
	char thread[TD_COMM_LEN + 16], id[40];

	entity(&o, &(struct who){ 0 }, &r->totals->all, &r->system);
	for (size_t i = 0; i < r->nr_tasks; i++) {
		const struct row *row = &r->tasks[i];
		char comm[TD_COMM_LEN + 1] = { 0 };

		if (row->idle)
			continue;
		memcpy(comm, row->task->val.comm, TD_COMM_LEN);
		/* perf's separator-safe spelling: the separator would split the name. */
		for (char *p = comm; *p; p++)
			if ((sep && *p == *sep) || *p == '\n' || (unsigned char)*p < 0x20)
				*p = '_';
		snprintf(thread, sizeof(thread), "%s-%u", comm, row->task->key.id);
		entity(&o, &(struct who){ .thread = thread }, row->c, &row->m);
	}
	for (size_t i = 0; i < r->nr_cgroups; i++) {
		const struct row *row = &r->cgroups[i];
		const char *cg = row->idle ? "[idle]" : row->cgroup;

		if (!cg) {
			snprintf(id, sizeof(id), "[id %llu]", (unsigned long long)row->cgroup_id);
			cg = id;
		}
		entity(&o, &(struct who){ .cgroup = cg }, row->c, &row->m);
	}
}

void output_perf_json(FILE *f, const struct report *r)
{
	all(f, r, NULL);
}

void output_perf_csv(FILE *f, const struct report *r, const char *sep)
{
	all(f, r, sep);
}
