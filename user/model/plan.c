// SPDX-License-Identifier: GPL-2.0
/* Plan: which counters, on which CPUs, in how large a map. */
#include <errno.h>
#include <string.h>
#include "model/plan.h"

int plan_counters(const struct options *o, const struct pmu_info *pmu, struct plan *p, FILE *err)
{
	memset(p, 0, sizeof(*p));
	p->max_entries = o->per_cgroup ? o->max_cgroups : o->max_tasks;
	if (o->test_members) {
		if (!counters_software_members(&p->counters, o->test_members))
			return 0;
		fprintf(err, "tdtrace: invalid value '%s' for --test-members\n",
			options_shown(o->test_members, (size_t)-1));
		return -EINVAL;
	}
	if (o->software) {
		counters_software(&p->counters);
		return 0;
	}
	if (!counters_topdown(pmu, &p->counters))
		return 0;
	fprintf(err,
		"tdtrace: no TopDown counters on this CPU (%s%s%s): %s; "
		"use --software for CPU time per process and cgroup\n",
		pmu->vendor[0] ? pmu->vendor : "unknown vendor", pmu->model[0] ? ", " : "",
		pmu->model, pmu->why);
	return -ENODEV;
}

void plan_cpus(struct plan *p, const struct pmu_info *pmu, const bool *online, FILE *err)
{
	bool left[PMU_MAX_CPUS];
	char list[256];
	int n = 0;

	/* Software counters exist on every CPU; TopDown only where its PMU is. */
	for (int cpu = 0; cpu < PMU_MAX_CPUS; cpu++) {
		bool covered = p->counters.software || pmu->cpus[cpu];

		p->cpus[cpu] = online[cpu] && covered;
		left[cpu] = online[cpu] && !covered;
		n += left[cpu];
	}
	if (!n)
		return;
	if (pmu_format_cpu_list(left, PMU_MAX_CPUS, list, sizeof(list)) < 0)
		strcpy(list + sizeof(list) - 4, "...");
	fprintf(err, "tdtrace: leaving out CPUs %s: not covered by PMU %s%s\n", list, pmu->name,
		pmu->hybrid ? " (E-cores have no TopDown metrics)" : "");
}

/* BPF maps, programs, links and BTF, stdio, -o, the command's pipes: a generous bound. */
#define TD_FILES_FIXED 128

unsigned long plan_files(const struct plan *p, const struct options *o)
{
	unsigned long cpus = 0;

	for (int cpu = 0; cpu < PMU_MAX_CPUS; cpu++)
		cpus += p->cpus[cpu];
	/* + 1 per CPU: --per-cgroup's cgroup-switches trigger. */
	return cpus * (p->counters.nr + 1) + o->nr_pids + TD_FILES_FIXED;
}
