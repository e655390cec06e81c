// SPDX-License-Identifier: GPL-2.0
/* The human table: one block per interval, and one for the whole run. */
#include <math.h>
#include <string.h>
#include <time.h>
#include "output/table.h"

/* Level 2 columns, children under their L1 parent in the FE, BAD, BE, RET order. */
static const int l2_order[TD_NR_L2] = {
	TD_L2_FETCH_LAT, TD_L2_FETCH_BW,   TD_L2_BR_MISPREDICT, TD_L2_MACHINE_CLEARS,
	TD_L2_MEM_BOUND, TD_L2_CORE_BOUND, TD_L2_HEAVY_OPS,	TD_L2_LIGHT_OPS,
};
static const char *const l2_heads[TD_NR_L2] = {
	"FE.LAT", "FE.BW", "BS.BRM", "BS.MCL", "BE.MEM", "BE.CORE", "RT.HVY", "RT.LGT",
};

/*
 * Written straight out, so that a long cgroup path, printed last, is
 * never cut.
 */
void table_put_safe(FILE *f, const char *s, size_t max, size_t width)
{
	size_t i;

	for (i = 0; i < max && s[i]; i++)
		fputc(s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?', f);
	for (; i < width; i++)
		fputc(' ', f);
}

/* 1234567 -> "1.23M": SI prefixes as perf prints big counts. */
static const char *si(char *buf, size_t size, double v)
{
	static const char prefix[] = " KMGTPE";
	int p = 0;

	while (v >= 999.5 && p < 6) {
		v /= 1000;
		p++;
	}
	if (p)
		snprintf(buf, size, "%.2f%c", v, prefix[p]);
	else
		snprintf(buf, size, "%.0f", v);
	return buf;
}

static void print_header(FILE *f, const struct report *r)
{
	const struct counter_set *cs = r->cfg->counters;
	struct tm tm;
	time_t t = (time_t)r->timestamp;
	char when[16], buf[32];

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	if (r->summary)
		fprintf(f, "\n%s  summary of %.2f s (%u interval%s), %d CPUs", when, r->duration_s,
			r->interval, r->interval == 1 ? "" : "s", r->nr_cpus);
	else
		fprintf(f, "\n%s  #%u  %.2f s, %d CPUs", when, r->interval, r->duration_s,
			r->nr_cpus);

	if (cs->software) {
		double all = r->system.slots, idle = r->idle ? (double)r->idle->count[TD_SLOTS] : 0;
		double untraced = (double)r->totals->untraced.count[TD_SLOTS];
		double cap = r->duration_s * 1e9 * r->nr_cpus, busy = all - idle - untraced;

		fprintf(f, ", cpu-clock (--software: CPU time only, no TopDown ratios)\n");
		if (r->cfg->filtered)
			fprintf(f,
				"traced %.1f ms (%.1f%% of %d CPUs), other tasks and idle %.1f ms",
				busy / 1e6, cap > 0 ? 100.0 * busy / cap : 0.0, r->nr_cpus,
				untraced / 1e6);
		else
			fprintf(f, "busy %.1f ms (%.1f%% of %d CPUs), idle %.1f ms", busy / 1e6,
				cap > 0 ? 100.0 * busy / cap : 0.0, r->nr_cpus, idle / 1e6);
	} else {
		fprintf(f, ", TopDown L%d (%s%s%s), %s slots", cs->level, cs->model->name,
			r->cfg->pmu ? " on " : "", r->cfg->pmu ? r->cfg->pmu : "",
			si(buf, sizeof(buf), r->system.slots));
		if (r->system.valid)
			fprintf(f, ": FE %.1f%% BAD %.1f%% BE %.1f%% RET %.1f%%",
				100 * r->system.l1[TD_L1_FE_BOUND],
				100 * r->system.l1[TD_L1_BAD_SPEC],
				100 * r->system.l1[TD_L1_BE_BOUND],
				100 * r->system.l1[TD_L1_RETIRING]);
		if (r->system.valid && !isnan(r->system.l1[TD_L1_SMT_CONTENTION]))
			fprintf(f, " SMT %.1f%%", 100 * r->system.l1[TD_L1_SMT_CONTENTION]);
		if (cs->model->smt_approximate && r->cfg->smt_on)
			fputs("  [SMT on: per-task fractions approximate]", f);
	}
	if (r->system.multiplexed)
		fprintf(f, "  [multiplexed: counted %.1f%% of the time, scaled]",
			100.0 / r->system.scale);
	else if (r->system.never_counted)
		fputs("  [not counted: another PMU user held the counters all the time]", f);
	if (r->totals->task_drops || r->totals->cgroup_drops)
		fprintf(f, "  [map full: %llu task and %llu cgroup slices in overflow]",
			(unsigned long long)r->totals->task_drops,
			(unsigned long long)r->totals->cgroup_drops);
	for (int i = 0; i < r->nr_removed; i++) {
		fputs("  [cgroup ", f);
		table_put_safe(f, r->removed[i], (size_t)-1, 0);
		fputs(" removed]", f);
	}
	if (r->totals->follow_drops)
		fprintf(f, "  [%llu new processes not followed: --max-tasks too small]",
			(unsigned long long)r->totals->follow_drops);
	if (r->totals->unseen_switches)
		fprintf(f, "  [%llu switches out of tasks not seen switching in]",
			(unsigned long long)r->totals->unseen_switches);
	if (r->totals->read_errors)
		fprintf(f, "  [%llu counter read errors]",
			(unsigned long long)r->totals->read_errors);
	if (!r->conserved)
		fputs("  [NOT CONSERVED: rows do not add up to the per-CPU totals]", f);
	fputc('\n', f);
}

/* Level-1 columns: perf's order, then SMT contention where the model has it (AMD). */
static const struct {
	int node;
	const char *head;
} l1_cols[] = {
	{ TD_L1_FE_BOUND, "FRONTEND" },	 { TD_L1_BAD_SPEC, "BAD_SPEC" },
	{ TD_L1_BE_BOUND, "BACKEND" },	 { TD_L1_RETIRING, "RETIRING" },
	{ TD_L1_SMT_CONTENTION, "SMT" },
};

/* Does this run's model have the level-1 column @i? */
static bool l1_shown(const struct report *r, size_t i)
{
	return l1_cols[i].node != TD_L1_SMT_CONTENTION ||
	       r->cfg->decoding->l1[l1_cols[i].node] >= 0;
}

/* A percentage, or '-' where the model has no such node or it was not counted. */
static void pct(FILE *f, int width, double fraction)
{
	if (isnan(fraction))
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.1f", width, 100 * fraction);
}

/* The metric columns shared by task and cgroup rows. */
static void print_metric_heads(FILE *f, const struct report *r)
{
	if (r->cfg->counters->software) {
		fprintf(f, " %6s %10s %8s", "%CPU", "CPU_MS", "SLICES");
		return;
	}
	fprintf(f, " %7s %6s", "SLOTS", "%SLOTS");
	for (size_t i = 0; i < sizeof(l1_cols) / sizeof(l1_cols[0]); i++)
		if (l1_shown(r, i))
			fprintf(f, " %8s", l1_cols[i].head);
	if (r->cfg->counters->level >= 2)
		for (int i = 0; i < TD_NR_L2; i++)
			fprintf(f, " %7s", l2_heads[i]);
}

/*
 * A '*' after the scaled count flags a row whose counters ran only part of
 * the time (scaled), or never ran (then '-' instead of a count, not 0).
 * Returns whether it did.
 */
static bool print_metrics(FILE *f, const struct report *r, const struct row *row)
{
	const struct td_metrics *m = &row->m;
	bool flag = m->multiplexed || m->never_counted;
	char buf[32];

	if (r->cfg->counters->software) {
		double cap = r->duration_s * 1e9;

		/* The marker takes the space before SLICES: the columns stay put. */
		if (m->never_counted)
			fprintf(f, " %6s %10s*%8llu", "-", "-", (unsigned long long)row->c->slices);
		else
			fprintf(f, " %6.1f %10.1f%c%8llu", cap > 0 ? 100.0 * m->slots / cap : 0.0,
				m->slots / 1e6, flag ? '*' : ' ',
				(unsigned long long)row->c->slices);
		return flag;
	}
	if (m->never_counted)
		fprintf(f, " %7s %5s*", "-", "-");
	else
		fprintf(f, " %7s %5.1f%c", si(buf, sizeof(buf), m->slots),
			r->system.slots > 0 ? 100.0 * m->slots / r->system.slots : 0.0,
			flag ? '*' : ' ');
	/* Not valid (no slots): every fraction is NaN, shown as '-'. */
	for (size_t i = 0; i < sizeof(l1_cols) / sizeof(l1_cols[0]); i++)
		if (l1_shown(r, i))
			pct(f, 8, m->valid ? m->l1[l1_cols[i].node] : NAN);
	if (r->cfg->counters->level >= 2)
		for (int i = 0; i < TD_NR_L2; i++)
			pct(f, 7, m->valid ? m->l2[l2_order[i]] : NAN);
	return flag;
}

/* Returns whether a row shown was flagged as multiplexed. */
static bool print_tasks(FILE *f, const struct report *r, unsigned int top)
{
	unsigned int shown = 0;
	bool flagged = false;

	if (r->cfg->per_thread)
		fprintf(f, "%8s %8s %-16s", "TID", "PID", "COMM");
	else
		fprintf(f, "%8s %-16s", "PID", "COMM");
	print_metric_heads(f, r);
	fprintf(f, "  CGROUP\n");

	for (size_t i = 0; i < r->nr_tasks && shown < top; i++) {
		const struct row *row = &r->tasks[i];
		const struct task_sample *t = row->task;

		if (row->idle)
			continue;
		shown++;
		if (r->cfg->per_thread)
			fprintf(f, "%8u %8u", t->key.id, t->val.tgid);
		else
			fprintf(f, "%8u", t->key.id);
		fputc(' ', f);
		table_put_safe(f, t->val.comm, TD_COMM_LEN, 16);
		flagged |= print_metrics(f, r, row);
		fputs("  ", f);
		table_put_safe(f, row->cgroup ? row->cgroup : "?", (size_t)-1, 0);
		fprintf(f, "%s\n", (t->val.flags & TD_TASK_EXITED) ? "  (exited)" : "");
	}
	return flagged;
}

static bool print_cgroups(FILE *f, const struct report *r, unsigned int top)
{
	unsigned int shown = 0;
	bool flagged = false;

	/* The name goes last, whole: Kubernetes labels and deep paths are long. */
	print_metric_heads(f, r);
	fprintf(f, "  %s\n",
		r->cfg->cgroup_opts && r->cfg->cgroup_opts->containers ? "CONTAINER" : "CGROUP");
	for (size_t i = 0; i < r->nr_cgroups && shown < top; i++) {
		const struct row *row = &r->cgroups[i];
		char unknown[32];
		const char *name = row->label ? row->label->label : row->cgroup;

		if (row->idle)
			continue;
		shown++;
		if (!name) {
			/* Removed before we could read its name. */
			snprintf(unknown, sizeof(unknown), "[id %llu]",
				 (unsigned long long)row->cgroup_id);
			name = unknown;
		}
		flagged |= print_metrics(f, r, row);
		fputs("  ", f);
		table_put_safe(f, name, row->label ? sizeof(row->label->label) : (size_t)-1, 0);
		fputc('\n', f);
	}
	return flagged;
}

/* --region: a row per region, process and cgroup, the region's name last. */
static bool print_regions(FILE *f, const struct report *r, unsigned int top)
{
	unsigned int shown = 0;
	bool flagged = false;

	if (!r->nr_regions)
		return false;
	fprintf(f, "%8s %-16s %8s", "PID", "COMM", "CALLS");
	print_metric_heads(f, r);
	fprintf(f, "  REGION  CGROUP\n");
	for (size_t i = 0; i < r->nr_regions && shown < top; i++) {
		const struct region_line *l = &r->regions[i];
		const struct row row = { .c = &l->src->c, .m = l->m };

		shown++;
		fprintf(f, "%8u ", l->src->tgid);
		table_put_safe(f, l->src->comm, TD_COMM_LEN, 16);
		fprintf(f, " %8llu", (unsigned long long)l->src->calls);
		flagged |= print_metrics(f, r, &row);
		fputs("  ", f);
		table_put_safe(f, l->name, (size_t)-1, 0);
		fputs("  ", f);
		table_put_safe(f, l->cgroup ? l->cgroup : "?", (size_t)-1, 0);
		fputc('\n', f);
	}
	return flagged;
}

/*
 * --self-stats: what tdtrace's BPF programs cost, in all and per program,
 * from the kernel's run-time stats. The switch programs' ns per run is the
 * cost per context switch.
 */
static void print_self(FILE *f, const struct report *r)
{
	unsigned long long runs, ns;

	report_self_sum(r, false, &runs, &ns);
	fprintf(f,
		"self: BPF programs ran %llu times, %.3f s of CPU in all (%.3f%% of the run's CPU "
		"time)\n",
		runs, ns / 1e9,
		r->duration_s * r->nr_cpus > 0 ? ns / 1e7 / (r->duration_s * r->nr_cpus) : 0.0);
	for (int i = 0; i < r->nr_self; i++) {
		const struct prog_cost *c = &r->self[i];

		fprintf(f, "  %-16s %12llu runs %8.0f ns per run%s\n", c->name, c->runs,
			(double)c->ns / c->runs, c->on_switch ? "  (per context switch)" : "");
	}
}

void output_table(FILE *f, const struct report *r, unsigned int top)
{
	bool flagged = r->system.multiplexed || r->system.never_counted;

	print_header(f, r);
	if (!r->cfg->per_cgroup)
		flagged |= print_tasks(f, r, top);
	flagged |= print_cgroups(f, r, top);
	flagged |= print_regions(f, r, top);
	if (r->summary && r->cfg->self_stats)
		print_self(f, r);
	/* Said below every table that has a '*', so that no scaled count passes as exact. */
	if (flagged)
		fputs("* multiplexed: another PMU user shared these counters; counts scaled by "
		      "time enabled / time running (- : not counted at all)\n",
		      f);
}
