// SPDX-License-Identifier: GPL-2.0
/*
 * JSON lines: one object per entity per interval, then per entity for the
 * whole run. Schema in README.md ("JSON output"); bump TD_JSON_SCHEMA when
 * a field changes meaning or goes away.
 */
#include <math.h>
#include <stdlib.h>
#include "output/json_writer.h"
#include "output/json.h"

#define TD_JSON_SCHEMA 2
#define TD_STR_(x)     #x
#define TD_STR(x)      TD_STR_(x)

/*
 * 11,000 lines a second with 10,000 tasks: no printf per field. Names
 * are the program's own, written as they are. KEY("name") is the
 * key's text with its length, counted by the compiler: ,"name":
 */
#define KEY(name) ",\"" name "\":", sizeof(",\"" name "\":") - 1

static void key(struct jw *f, const char *k, size_t n)
{
	jw_write(f, k, n);
}

/* A key known only at run time: a metric's or a counter's name. */
static void key_named(struct jw *f, const char *name)
{
	jw_write(f, ",\"", 2);
	jw_puts(f, name);
	jw_write(f, "\":", 2);
}

static void key_u64(struct jw *f, const char *k, size_t n, unsigned long long v)
{
	key(f, k, n);
	jw_u64(f, v);
}

static void key_bool(struct jw *f, const char *k, size_t n, bool v)
{
	key(f, k, n);
	if (v)
		jw_write(f, "true", 4);
	else
		jw_write(f, "false", 5);
}

static void key_double(struct jw *f, const char *k, size_t n, double v)
{
	key(f, k, n);
	jw_double(f, v);
}

/*
 * --self-stats: the programs on context switches (td_switch, or
 * td_cgroup_switch with --per-cgroup), every program that ran, and each.
 */
static void self_cost(struct jw *f, const struct report *r)
{
	unsigned long long runs, ns;

	report_self_sum(r, true, &runs, &ns);
	key_u64(f, KEY("self_switch_runs"), runs);
	key_u64(f, KEY("self_switch_ns"), ns);
	report_self_sum(r, false, &runs, &ns);
	key_u64(f, KEY("self_runs"), runs);
	key_u64(f, KEY("self_ns"), ns);
	key(f, KEY("self_programs"));
	jw_putc(f, '{');
	for (int i = 0; i < r->nr_self; i++) {
		jw_puts(f, i ? ",\"" : "\"");
		jw_puts(f, r->self[i].name); /* the program's name: [a-z_], ours */
		jw_puts(f, "\":{\"runs\":");
		jw_u64(f, r->self[i].runs);
		jw_puts(f, ",\"ns\":");
		jw_u64(f, r->self[i].ns);
		jw_putc(f, '}');
	}
	jw_putc(f, '}');
}

/*
 * A share in percent, 6 decimals (a millionth of a percent): the counts
 * behind it are in the line whole. Fixed decimals print without printf.
 */
static void key_share(struct jw *f, const char *k, size_t n, double pct)
{
	key(f, k, n);
	jw_fixed(f, pct, 6);
}

static void key_pct(struct jw *f, const char *name, double fraction, bool valid)
{
	key_named(f, name);
	if (valid)
		jw_fixed(f, 100 * fraction, 2);
	else
		jw_puts(f, "null");
}

/* Raw (unscaled) counts, by perf's event names. */
static void raw_counts(struct jw *f, const char *k, size_t n, const struct report *r,
		       const struct td_counts *c)
{
	key(f, k, n);
	jw_putc(f, '{');
	for (int i = 0; i < r->cfg->counters->nr; i++) {
		jw_puts(f, i ? ",\"" : "\"");
		jw_puts(f, r->cfg->counters->name[i]);
		jw_puts(f, "\":");
		jw_u64(f, c->count[i]);
	}
	jw_putc(f, '}');
}

/* What every line of a report has after its type, written once per report. */
static void report_fields(struct jw *f, const struct report *r)
{
	jw_puts(f, r->summary ? ",\"phase\":\"summary\"" : ",\"phase\":\"interval\"");
	key_u64(f, KEY("interval"), r->interval);
	key_double(f, KEY("timestamp"), r->timestamp);
	key_double(f, KEY("elapsed_s"), r->elapsed_s);
	key_double(f, KEY("duration_s"), r->duration_s);
	jw_puts(f, r->cfg->counters->software ? ",\"mode\":\"software\"" : ",\"mode\":\"topdown\"");
	if (r->cfg->counters->model) {
		jw_puts(f, ",\"model\":");
		jw_cstring(f, r->cfg->counters->model->name, (size_t)-1);
		jw_puts(f, ",\"pmu\":");
		jw_cstring(f, r->cfg->counters->model->pmu, (size_t)-1);
		/* The perf pmu-events version whose formulas gave the metrics. */
		jw_puts(f, ",\"pmu_events\":");
		if (r->cfg->counters->model->pmu_events)
			jw_cstring(f, r->cfg->counters->model->pmu_events, (size_t)-1);
		else
			jw_puts(f, "null");
		key_bool(f, KEY("smt_on"), r->cfg->smt_on);
		/* arm64: what perf's formulas read besides counts (#slots, its cpuid) */
		if (r->cfg->cpuid) {
			key_u64(f, KEY("slots_per_cycle"), r->cfg->slots_per_cycle);
			jw_puts(f, ",\"cpuid\":");
			jw_cstring(f, r->cfg->cpuid, (size_t)-1);
		}
		/* With SMT on, this model's per-task fractions are an approximation. */
		key_bool(f, KEY("smt_approximate"),
			 r->cfg->smt_on && r->cfg->counters->model->smt_approximate);
	}
}

/* What every line of a report has after its type, as report_fields wrote it. */
struct head {
	const char *s;
	size_t n;
};

static void begin(struct jw *f, const struct head *common, const char *type)
{
	jw_puts(f, "{\"schema\":" TD_STR(TD_JSON_SCHEMA) ",\"type\":\"");
	jw_puts(f, type);
	jw_putc(f, '"');
	jw_write(f, common->s, common->n);
}

/* @v, or null (NaN) where the counters never ran: no count at all, not 0. */
static double counted(const struct td_metrics *m, double v)
{
	return m->never_counted ? NAN : v;
}

/* What every entity has: counts, times, and the decoded metrics. */
static void metrics(struct jw *f, const struct report *r, const struct td_counts *c,
		    const struct td_metrics *m)
{
	key_u64(f, KEY("slices"), c->slices);
	/* Group 0's, which the scale and the multiplexed flag come from. */
	key_u64(f, KEY("time_enabled_ns"), c->enabled_ns[0]);
	key_u64(f, KEY("time_running_ns"), c->running_ns[0]);
	key_bool(f, KEY("multiplexed"), m->multiplexed || m->never_counted);
	key_double(f, KEY("scale"), counted(m, m->scale));
	raw_counts(f, KEY("counts"), r, c);
	if (r->cfg->counters->software) {
		double cap = r->duration_s * 1e9;

		key_double(f, KEY("cpu_ns"), counted(m, m->slots));
		key_share(f, KEY("cpu_pct"), counted(m, cap > 0 ? 100.0 * m->slots / cap : 0.0));
		return;
	}
	const struct pmu_model *model = r->cfg->counters->model;

	key_double(f, KEY("slots"), counted(m, m->slots));
	key_share(f, KEY("slots_pct"),
		  counted(m, r->system.slots > 0 ? 100.0 * m->slots / r->system.slots : 0.0));
	key_bool(f, KEY("valid"), m->valid);
	/* Every metric of levels 1 and 2 by perf's name for it, as perf stat -j prints it. */
	for (int i = 0; i < model->nr_metrics; i++) {
		const struct model_metric *mm = &model->metrics[i];

		if (mm->level >= 1 && mm->level <= m->level)
			key_pct(f, mm->name, m->value[i], m->valid && !isnan(m->value[i]));
	}
}

static void cgroup_fields(struct jw *f, const struct row *row)
{
	key_u64(f, KEY("cgroup_id"), row->cgroup_id);
	key(f, KEY("cgroup"));
	if (row->idle)
		jw_puts(f, "\"[idle]\"");
	else if (row->cgroup)
		jw_cstring(f, row->cgroup, (size_t)-1);
	else
		jw_puts(f, "null");
}

static void task_line(struct jw *f, const struct report *r, const struct head *common,
		      const struct row *row)
{
	const struct task_sample *t = row->task;

	begin(f, common, r->cfg->per_thread ? "thread" : "process");
	if (r->cfg->per_thread)
		key_u64(f, KEY("tid"), t->key.id);
	key_u64(f, KEY("pid"), t->val.tgid);
	key(f, KEY("comm"));
	if (row->idle)
		jw_puts(f, "\"[idle]\"");
	else
		jw_cstring(f, t->val.comm, TD_COMM_LEN);
	key_u64(f, KEY("start_ns"), t->key.start_ns);
	key_bool(f, KEY("idle"), row->idle);
	key_bool(f, KEY("exited"), t->val.flags & TD_TASK_EXITED);
	cgroup_fields(f, row);
	metrics(f, r, row->c, &row->m);
	jw_puts(f, "}\n");
}

/* The container object's Kubernetes names: "" when it is not a pod's. */
static void k8s_fields(struct jw *f, const struct k8s_meta *k)
{
	static const struct k8s_meta none;

	if (!k)
		k = &none;
	key(f, KEY("namespace"));
	jw_cstring(f, k->namespace, sizeof(k->namespace));
	key(f, KEY("pod"));
	jw_cstring(f, k->pod, sizeof(k->pod));
	key(f, KEY("name"));
	jw_cstring(f, k8s_container_name(k), sizeof(k->container));
	key_bool(f, KEY("sandbox"), k->sandbox);
}

static void cgroup_line(struct jw *f, const struct report *r, const struct head *common,
			const struct row *row)
{
	begin(f, common, "cgroup");
	cgroup_fields(f, row);
	key_bool(f, KEY("idle"), row->idle);
	if (row->cgroup)
		key_u64(f, KEY("depth"), cgroup_path_depth(row->cgroup));
	if (row->label) {
		key(f, KEY("label"));
		jw_cstring(f, row->label->label, sizeof(row->label->label));
		jw_puts(f, ",\"container\":{\"kind\":\"");
		jw_puts(f, container_kind_name(row->label->kind));
		jw_putc(f, '"');
		key(f, KEY("id"));
		jw_cstring(f, row->label->id, sizeof(row->label->id));
		key(f, KEY("pod_uid"));
		jw_cstring(f, row->label->pod_uid, sizeof(row->label->pod_uid));
		key(f, KEY("qos"));
		jw_cstring(f, row->label->qos, sizeof(row->label->qos));
		k8s_fields(f, row->k8s);
		jw_putc(f, '}');
	}
	raw_counts(f, KEY("self_counts"), r, row->self);
	metrics(f, r, row->c, &row->m);
	jw_puts(f, "}\n");
}

static void region_line(struct jw *f, const struct report *r, const struct head *common,
			const struct region_line *l)
{
	const struct region_row *row = l->src;

	begin(f, common, "region");
	key(f, KEY("region"));
	jw_cstring(f, l->name, (size_t)-1);
	key_u64(f, KEY("region_id"), row->key.region);
	key_u64(f, KEY("pid"), row->tgid);
	key(f, KEY("comm"));
	jw_cstring(f, row->comm, TD_COMM_LEN);
	key_u64(f, KEY("start_ns"), row->key.task.start_ns);
	key_u64(f, KEY("cgroup_id"), row->key.task.cgroup_id);
	key(f, KEY("cgroup"));
	if (l->cgroup)
		jw_cstring(f, l->cgroup, (size_t)-1);
	else
		jw_puts(f, "null");
	key_u64(f, KEY("calls"), row->calls);
	metrics(f, r, &row->c, &l->m);
	jw_puts(f, "}\n");
}

static void system_line(struct jw *f, const struct report *r, const struct head *common)
{
	const struct td_cpu_totals *t = r->totals;

	begin(f, common, "system");
	key_u64(f, KEY("cpus"), r->nr_cpus);
	key_u64(f, KEY("task_drops"), t->task_drops);
	key_u64(f, KEY("cgroup_drops"), t->cgroup_drops);
	key_u64(f, KEY("unseen_switches"), t->unseen_switches);
	key_u64(f, KEY("read_errors"), t->read_errors);
	key_u64(f, KEY("follow_drops"), t->follow_drops);
	if (r->cfg->regions) {
		key_u64(f, KEY("region_drops"), t->region_drops);
		key_u64(f, KEY("region_nest_drops"), t->region_nest_drops);
	}
	if (r->cfg->cgroup_opts && r->cfg->cgroup_opts->nr_roots) {
		key(f, KEY("cgroups_removed"));
		jw_putc(f, '[');
		for (int i = 0; i < r->nr_removed; i++) {
			jw_puts(f, i ? "," : "");
			jw_cstring(f, r->removed[i], (size_t)-1);
		}
		jw_putc(f, ']');
	}
	key_bool(f, KEY("filtered"), r->cfg->filtered);
	key_bool(f, KEY("conserved"), r->conserved);
	raw_counts(f, KEY("untraced"), r, &t->untraced);
	if (r->summary && r->cfg->self_stats)
		self_cost(f, r);
	raw_counts(f, KEY("task_overflow"), r, &t->task_overflow);
	raw_counts(f, KEY("cgroup_overflow"), r, &t->cgroup_overflow);
	metrics(f, r, &t->all, &r->system);
	jw_puts(f, "}\n");
}

/*
 * A report's lines go out in writes of this size: 10,000 processes make
 * 3 MB of lines, and a write per 8 KB was a fifth of the CPU of --json to
 * /dev/null. Not the whole report at once: it grows with the tasks.
 */
#define TD_JSON_WRITE (256 * 1024)

void output_json(FILE *out, const struct report *r)
{
	struct jw f;
	char *buf = malloc(TD_JSON_WRITE), *common = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&common, &len);
	struct head head;

	if (!buf || !m) {
		free(buf);
		if (m)
			fclose(m);
		free(common);
		return;
	}
	jw_init(&f, m, buf, TD_JSON_WRITE);
	report_fields(&f, r);
	jw_flush(&f);
	if (fclose(m)) {
		free(common);
		free(buf);
		return;
	}
	head = (struct head){ .s = common, .n = len };
	jw_init(&f, out, buf, TD_JSON_WRITE);
	flockfile(out);
	system_line(&f, r, &head);
	for (size_t i = 0; i < r->nr_tasks; i++)
		task_line(&f, r, &head, &r->tasks[i]);
	for (size_t i = 0; i < r->nr_cgroups; i++)
		cgroup_line(&f, r, &head, &r->cgroups[i]);
	for (size_t i = 0; i < r->nr_regions; i++)
		region_line(&f, r, &head, &r->regions[i]);
	jw_flush(&f);
	funlockfile(out);
	free(common);
	free(buf);
}
