// SPDX-License-Identifier: GPL-2.0
/* The exporter's metric families, from reports. See prometheus.h. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/options.h"
#include "model/container.h"
#include "output/metrics_text.h"
#include "output/prometheus.h"

struct exposition_seen {
	__u64 cgroup_id;
	const char *pmu; /* the report's PMU label, or NULL */
	__u64 slices;	 /* its slices when last seen */
	double moved;	 /* when they last changed */
};

void exposition_init(struct exposition *x, double grace_s, unsigned int processes, bool self_stats)
{
	memset(x, 0, sizeof(*x));
	x->grace_s = grace_s;
	x->processes = processes;
	x->self_stats = self_stats;
}

void exposition_free(struct exposition *x)
{
	free(x->seen);
	free(x->index);
	memset(x, 0, sizeof(*x));
}

/*
 * The cell of (@id, @pmu) in x->index: where it is, or the empty cell
 * where it would go. A scan of every cgroup for each of them cost
 * seconds of CPU a minute at 10,000 cgroups.
 */
static size_t *cell(const struct exposition *x, __u64 id, const char *pmu)
{
	size_t mask = x->index_cells - 1;
	size_t i = (size_t)((id ^ (uintptr_t)pmu) * 0x9e3779b97f4a7c15ull >> 20) & mask;

	while (x->index[i] &&
	       (x->seen[x->index[i] - 1].cgroup_id != id || x->seen[x->index[i] - 1].pmu != pmu))
		i = (i + 1) & mask;
	return &x->index[i];
}

static struct exposition_seen *find(const struct exposition *x, __u64 id, const char *pmu)
{
	size_t *c;

	if (!x->index_cells)
		return NULL;
	c = cell(x, id, pmu);
	return *c ? &x->seen[*c - 1] : NULL;
}

/* Room for one more in seen, and its index at most half full. 0 or -ENOMEM. */
static int grow(struct exposition *x)
{
	size_t cap = x->cap_seen ? 2 * x->cap_seen : 64;
	void *p;

	if (x->nr_seen < x->cap_seen)
		return 0;
	p = realloc(x->seen, cap * sizeof(*x->seen));
	if (!p)
		return -ENOMEM;
	x->seen = p;
	x->cap_seen = cap;
	p = calloc(2 * cap, sizeof(*x->index));
	if (!p)
		return -ENOMEM;
	free(x->index);
	x->index = p;
	x->index_cells = 2 * cap;
	for (size_t i = 0; i < x->nr_seen; i++)
		*cell(x, x->seen[i].cgroup_id, x->seen[i].pmu) = i + 1;
	return 0;
}

int exposition_update(struct exposition *x, const struct report *const *reports, int n, double now)
{
	for (int k = 0; k < n; k++) {
		const struct report *r = reports[k];

		for (size_t i = 0; i < r->nr_cgroups; i++) {
			const struct row *row = &r->cgroups[i];
			struct exposition_seen *s = find(x, row->cgroup_id, r->cfg->pmu);

			if (!s) {
				if (grow(x))
					return -ENOMEM;
				s = &x->seen[x->nr_seen++];
				*cell(x, row->cgroup_id, r->cfg->pmu) = x->nr_seen;
				*s = (struct exposition_seen){ .cgroup_id = row->cgroup_id,
							       .pmu = r->cfg->pmu,
							       .slices = row->c->slices,
							       .moved = now };
			} else if (s->slices != row->c->slices) {
				s->slices = row->c->slices;
				s->moved = now;
			}
		}
	}
	return 0;
}

/* Is this cgroup row still exported? Rows seen move; quiet ones go after the grace period. */
static bool live(const struct exposition *x, const struct report *r, const struct row *row,
		 double now)
{
	const struct exposition_seen *s = find(x, row->cgroup_id, r->cfg->pmu);

	return !s || now - s->moved <= x->grace_s;
}

/*
 * The cgroup label: its path, "[idle]", "" for a pod or namespace rolled up
 * (--group-by), or "[id N]" for one whose name was not read.
 */
static const char *cgroup_label(const struct row *row, char *buf, size_t size)
{
	if (row->idle)
		return "[idle]";
	if (row->cgroup)
		return row->cgroup;
	if (row->cgroup_id & K8S_GROUP_ID_BIT)
		return "";
	snprintf(buf, size, "[id %llu]", (unsigned long long)row->cgroup_id);
	return buf;
}

#define LABELS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* A row's Kubernetes names as labels, as cAdvisor puts them: "" when it has none. */
struct k8s_labels {
	const char *namespace, *pod, *container;
};

static struct k8s_labels k8s_labels(const struct row *row)
{
	if (!row->k8s)
		return (struct k8s_labels){ "", "", "" };
	return (struct k8s_labels){ row->k8s->namespace, row->k8s->pod,
				    k8s_container_name(row->k8s) };
}

#define K8S_LABELS(k) "namespace", (k).namespace, "pod", (k).pod, "container", (k).container

/* Per cgroup: slots (or CPU seconds) and slots per TopDown node. */
static void cgroups(const struct exposition *x, struct metrics_text *m,
		    const struct report *const *reports, int n, double now)
{
	bool software = reports[0]->cfg->counters->software;
	char buf[48];

	if (software) {
		metrics_family(m, "tdtrace_cpu_seconds", METRIC_COUNTER,
			       "CPU time of the tasks of this cgroup subtree, by the cpu-clock "
			       "software counter read at each context switch (tdtrace --software)",
			       "seconds");
		for (int k = 0; k < n; k++)
			for (size_t i = 0; i < reports[k]->nr_cgroups; i++) {
				const struct row *row = &reports[k]->cgroups[i];

				if (live(x, reports[k], row, now) && !row->m.never_counted)
					metrics_sample(m,
						       LABELS("cgroup",
							      cgroup_label(row, buf, sizeof(buf)),
							      K8S_LABELS(k8s_labels(row))),
						       row->m.slots / 1e9);
			}
		return;
	}
	metrics_family(m, "tdtrace_slots", METRIC_COUNTER,
		       "Pipeline slots of the tasks of this cgroup subtree: the model's slots "
		       "(perf's tma_info_thread_slots, or total_dispatch_slots on AMD) from the "
		       "CPU's counters read at each context switch, scaled when multiplexed",
		       NULL);
	for (int k = 0; k < n; k++)
		for (size_t i = 0; i < reports[k]->nr_cgroups; i++) {
			const struct row *row = &reports[k]->cgroups[i];
			const char *pmu = reports[k]->cfg->pmu;
			const char *cg = cgroup_label(row, buf, sizeof(buf));

			if (!live(x, reports[k], row, now) || row->m.never_counted)
				continue;
			/* On hybrid parts the PMU parts the series; the NULL ends them otherwise.
			 */
			metrics_sample(m,
				       LABELS("cgroup", cg, K8S_LABELS(k8s_labels(row)),
					      pmu ? "pmu" : NULL, pmu),
				       row->m.slots);
		}
	metrics_family(m, "tdtrace_topdown_slots", METRIC_COUNTER,
		       "Pipeline slots of this cgroup subtree in one TopDown node (level 1 or "
		       "2): the model's fraction (perf's formula) times its slots; a node's "
		       "rate over tdtrace_slots_total's is perf's tma_ metric",
		       NULL);
	for (int k = 0; k < n; k++)
		for (size_t i = 0; i < reports[k]->nr_cgroups; i++) {
			const struct row *row = &reports[k]->cgroups[i];
			const char *pmu = reports[k]->cfg->pmu;
			const char *cg = cgroup_label(row, buf, sizeof(buf));

			if (!live(x, reports[k], row, now) || !row->m.valid)
				continue;
			for (int l = 0; l < TD_NR_L1 + TD_NR_L2; l++) {
				bool l1 = l < TD_NR_L1;
				double f = l1 ? row->m.l1[l] : row->m.l2[l - TD_NR_L1];
				const char *node = l1 ? td_l1_nodes[l] : td_l2_nodes[l - TD_NR_L1];

				if (isnan(f))
					continue;
				metrics_sample(m,
					       LABELS("cgroup", cg, K8S_LABELS(k8s_labels(row)),
						      "level", l1 ? "1" : "2", "node", node,
						      pmu ? "pmu" : NULL, pmu),
					       f * row->m.slots);
			}
		}
}

/* Container metadata once per cgroup, not on every series. */
static void cgroup_info(const struct exposition *x, struct metrics_text *m,
			const struct report *const *reports, int n, double now)
{
	char buf[48];

	metrics_family(m, "tdtrace_cgroup", METRIC_INFO,
		       "What each cgroup is: container kind (docker, containerd, crio, podman, "
		       "lxc, pod, user, unit, none), id, Kubernetes pod uid, and a name, parsed "
		       "from its path; a Kubernetes container's namespace, pod and container "
		       "from its runtime's state on this node",
		       NULL);
	for (size_t i = 0; n && i < reports[0]->nr_cgroups; i++) {
		const struct row *row = &reports[0]->cgroups[i];
		struct container c = { 0 };
		const char *cg = cgroup_label(row, buf, sizeof(buf));

		if (!live(x, reports[0], row, now))
			continue;
		if (row->label) {
			c = *row->label; /* with --containers, named (and rolled up) already */
		} else if (row->cgroup) {
			container_parse(row->cgroup, &c);
			if (row->k8s)
				k8s_format_label(row->k8s, c.label, sizeof(c.label));
		}
		metrics_sample(m,
			       LABELS("cgroup", cg, K8S_LABELS(k8s_labels(row)), "kind",
				      container_kind_name(c.kind), "id", c.id, "pod_uid", c.pod_uid,
				      "name", c.label[0] ? c.label : cg),
			       1);
	}
}

/* The top processes by slots (--listen-processes). */
static void processes(const struct exposition *x, struct metrics_text *m,
		      const struct report *const *reports, int n)
{
	bool software = reports[0]->cfg->counters->software;
	char pid[16], buf[48];

	if (!x->processes)
		return;
	metrics_family(m, software ? "tdtrace_process_cpu_seconds" : "tdtrace_process_slots",
		       METRIC_COUNTER,
		       software ? "CPU time of one of the busiest processes (--listen-processes)"
				: "Pipeline slots of one of the busiest processes "
				  "(--listen-processes), as tdtrace_slots_total",
		       software ? "seconds" : NULL);
	for (int k = 0; k < n; k++) {
		unsigned int shown = 0;

		/* Rows are sorted by slots, largest first; the idle tasks are not a process. */
		for (size_t i = 0; i < reports[k]->nr_tasks && shown < x->processes; i++) {
			const struct row *row = &reports[k]->tasks[i];
			char comm[TD_COMM_LEN + 1] = { 0 };

			if (row->idle || row->m.never_counted)
				continue;
			memcpy(comm, row->task->val.comm, TD_COMM_LEN);
			snprintf(pid, sizeof(pid), "%u", row->task->key.id);
			metrics_sample(m,
				       LABELS("pid", pid, "comm", comm, "cgroup",
					      cgroup_label(row, buf, sizeof(buf))),
				       software ? row->m.slots / 1e9 : row->m.slots);
			shown++;
		}
	}
}

/* One region line's labels: the region, the process, its cgroup, the PMU on hybrid parts. */
#define REGION_LABELS(l, pid, comm, cg, pmu)                                                        \
	"region", (l)->name, "pid", pid, "comm", comm, "cgroup", cg, (pmu) ? "pmu" : NULL, pmu

/*
 * --region and --usdt: per region, process and cgroup, its outermost
 * calls, and its CPU time (--software) or slots and slots per TopDown
 * node, as the cgroup families.
 */
static void regions(struct metrics_text *m, const struct report *const *reports, int n)
{
	bool software = reports[0]->cfg->counters->software;

	if (!reports[0]->cfg->regions)
		return;
	for (int family = 0; family < 3; family++) {
		if (family == 0)
			metrics_family(m, "tdtrace_region_calls", METRIC_COUNTER,
				       "Outermost calls of a region (--region, --usdt) in one process "
				       "and cgroup",
				       NULL);
		else if (family == 1)
			metrics_family(m, software ? "tdtrace_region_cpu_seconds" : "tdtrace_region_slots",
				       METRIC_COUNTER,
				       software ? "CPU time inside a region, its on-CPU part only"
						: "Pipeline slots inside a region, as tdtrace_slots_total",
				       software ? "seconds" : NULL);
		else if (!software)
			metrics_family(m, "tdtrace_region_topdown_slots", METRIC_COUNTER,
				       "Pipeline slots inside a region in one TopDown node, as "
				       "tdtrace_topdown_slots_total",
				       NULL);
		else
			break;
		for (int k = 0; k < n; k++)
			for (size_t i = 0; i < reports[k]->nr_regions; i++) {
				const struct region_line *l = &reports[k]->regions[i];
				const char *pmu = reports[k]->cfg->pmu, *cg = l->cgroup ? l->cgroup : "";
				char pid[16], comm[TD_COMM_LEN + 1] = { 0 };

				memcpy(comm, l->src->comm, TD_COMM_LEN);
				snprintf(pid, sizeof(pid), "%u", l->src->tgid);
				if (family == 0) {
					metrics_sample(m, LABELS(REGION_LABELS(l, pid, comm, cg, pmu)),
						       l->src->calls);
					continue;
				}
				if (family == 1) {
					if (!l->m.never_counted)
						metrics_sample(
							m, LABELS(REGION_LABELS(l, pid, comm, cg, pmu)),
							software ? l->m.slots / 1e9 : l->m.slots);
					continue;
				}
				for (int t = 0; l->m.valid && t < TD_NR_L1 + TD_NR_L2; t++) {
					bool l1 = t < TD_NR_L1;
					double f = l1 ? l->m.l1[t] : l->m.l2[t - TD_NR_L1];

					if (!isnan(f))
						metrics_sample(
							m,
							LABELS("level", l1 ? "1" : "2", "node",
							       l1 ? td_l1_nodes[t]
								  : td_l2_nodes[t - TD_NR_L1],
							       REGION_LABELS(l, pid, comm, cg, pmu)),
							f * l->m.slots);
				}
			}
	}
}

/*
 * --self-stats: each BPF program's runs and run time, as bpftool shows
 * them; the switch program's (td_switch, or td_cgroup_switch with
 * --per-cgroup) cost per context switch is the ratio of its two rates.
 */
static void self_cost(struct metrics_text *m, const struct report *r)
{
	metrics_family(m, "tdtrace_bpf_program_runs", METRIC_COUNTER,
		       "Runs of each of tdtrace's BPF programs (--self-stats, the kernel's BPF "
		       "run-time statistics)",
		       NULL);
	for (int i = 0; i < r->nr_self; i++)
		metrics_sample(m, LABELS("program", r->self[i].name), r->self[i].runs);
	metrics_family(m, "tdtrace_bpf_program_seconds", METRIC_COUNTER,
		       "Time spent in each: a program's cost per run is the ratio of the two rates",
		       "seconds");
	for (int i = 0; i < r->nr_self; i++)
		metrics_sample(m, LABELS("program", r->self[i].name), r->self[i].ns / 1e9);
}

/* tdtrace's own health: what it lost, whether it added up, how it ran. */
static void health(const struct exposition *x, struct metrics_text *m,
		   const struct report *const *reports, int n)
{
	const struct report *r = reports[0];
	double enabled = 0, running = 0;
	__u64 errors = 0, drops = 0;

	for (int k = 0; k < n; k++) {
		errors += reports[k]->totals->read_errors;
		drops += reports[k]->totals->task_drops;
		enabled += reports[k]->totals->all.enabled_ns[0] / 1e9;
		running += reports[k]->totals->all.running_ns[0] / 1e9;
	}
	metrics_family(m, "tdtrace_read_errors", METRIC_COUNTER,
		       "Counter reads that failed in the BPF program (that slice went to the next "
		       "charge on its CPU)",
		       NULL);
	metrics_sample(m, NULL, errors);
	metrics_family(m, "tdtrace_overflow_slices", METRIC_COUNTER,
		       "Slices charged to overflow because the entry map was full (--max-tasks)",
		       NULL);
	metrics_sample(m, NULL, drops);
	metrics_family(m, "tdtrace_conserved", METRIC_GAUGE,
		       "1 when every count of the run so far is accounted for: entries, overflow "
		       "and untraced add up exactly to the per-CPU totals",
		       NULL);
	metrics_sample(m, NULL, r->conserved);
	if (!r->cfg->counters->software) {
		metrics_family(m, "tdtrace_counters_enabled_seconds", METRIC_COUNTER,
			       "Time the counting groups' leaders were enabled, summed over CPUs",
			       "seconds");
		metrics_sample(m, NULL, enabled);
		metrics_family(m, "tdtrace_counters_running_seconds", METRIC_COUNTER,
			       "Time they were counting: below enabled when another PMU user "
			       "multiplexed them (counts are then scaled)",
			       "seconds");
		metrics_sample(m, NULL, running);
	}
	metrics_family(m, "tdtrace_cpus", METRIC_GAUGE, "CPUs counted in the last interval", NULL);
	metrics_sample(m, NULL, r->nr_cpus);
	if (x->self_stats)
		self_cost(m, r);
	metrics_family(m, "tdtrace_build", METRIC_INFO, "tdtrace's version, and the model counting",
		       NULL);
	for (int k = 0; k < n; k++) {
		const struct counter_set *cs = reports[k]->cfg->counters;

		metrics_sample(m,
			       LABELS("version", TDTRACE_VERSION, "model",
				      cs->model ? cs->model->name : "software", "pmu",
				      cs->model ? cs->model->pmu : "software"),
			       1);
	}
}

void exposition_write(const struct exposition *x, FILE *f, bool openmetrics,
		      const struct report *const *reports, int n, double now)
{
	struct metrics_text m;

	metrics_begin(&m, f, openmetrics);
	if (n) {
		cgroups(x, &m, reports, n, now);
		cgroup_info(x, &m, reports, n, now);
		processes(x, &m, reports, n);
		regions(&m, reports, n);
		health(x, &m, reports, n);
	}
	metrics_end(&m);
}
