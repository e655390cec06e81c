// SPDX-License-Identifier: GPL-2.0
/* Plan: which counters, on which CPUs, in how large a map. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "model/counts.h"
#include "model/models.h"
#include "model/plan.h"
#include "cli/say.h"

/* "cpu_atom CPUs 16-23" for a message. */
static void named_cpus(const struct core_pmu *pmu, char *buf, size_t size)
{
	char list[200];

	if (pmu_format_cpu_list(pmu->cpus, PMU_MAX_CPUS, list, sizeof(list)) < 0)
		strcpy(list + sizeof(list) - 4, "...");
	snprintf(buf, size, "%s CPUs %s", pmu->name, list);
}

/* Plan @pmu from its model into p->pmus[p->nr_pmus]; -ENODEV with why in @why. */
static int plan_pmu(const struct cpu_pmus *cpu, const struct core_pmu *pmu, int level,
		    struct plan *p, char *why, size_t size)
{
	const struct pmu_model *m = pmu->midr ? model_find_midr(pmu->midr)
					      : model_find(cpu->vendor, cpu->family, cpu->model,
							   cpu->stepping, pmu->name);
	struct pmu_plan *pp = &p->pmus[p->nr_pmus];
	char err[200];

	if (!m) {
		const struct model_no_topdown *n;
		int len;

		if (pmu->midr) {
			n = model_find_no_topdown_midr(pmu->midr);
			len = snprintf(why, size, "no TopDown model for arm64 MIDR 0x%08llx on %s",
				       pmu->midr, pmu->name);
		} else {
			n = model_find_no_topdown(cpu->vendor, cpu->family, cpu->model);
			len = snprintf(why, size,
				       "no TopDown model for %s family 0x%x model 0x%x on %s",
				       cpu->vendor[0] ? cpu->vendor : "this vendor", cpu->family,
				       cpu->model, pmu->name);
		}
		if (n && len >= 0 && (size_t)len < size)
			snprintf(why + len, size - len,
				 ": perf has no TopDown formulas for %s (%s) yet, as of its "
				 "pmu-events %s%s",
				 n->cpu, n->name, MODEL_NO_TOPDOWN_PERF,
				 pmu->midr ? ", though the core has the STALL_SLOT events" : "");
		return -ENODEV;
	}
	if (m->requires && !core_pmu_event(pmu, m->requires)) {
		snprintf(why, size, "%s has no %s event, which model %s needs", pmu->name,
			 m->requires, m->name);
		return -ENODEV;
	}
	if (counters_from_model(m, pmu, level, cpu->nmi_watchdog == 1, &pp->counters, err,
				sizeof(err))) {
		snprintf(why, size, "%s", err);
		return -ENODEV;
	}
	snprintf(pp->pmu, sizeof(pp->pmu), "%s", pmu->name);
	pp->core = m->core;
	memcpy(pp->cpus, pmu->cpus, sizeof(pp->cpus));
	pp->nr_cpus = pmu->nr_cpus;
	pp->midr = pmu->midr;
	pp->slots = pmu->slots;
	p->nr_pmus++;
	return 0;
}

/* Every count of the run fits the widest PMU's counters and groups. */
static struct td_width plan_counts_width(const struct plan *p)
{
	int nr = 1, groups = 1;

	for (int i = 0; i < p->nr_pmus; i++) {
		const struct counter_set *cs = &p->pmus[i].counters;

		if (cs->nr > nr)
			nr = cs->nr;
		if (cs->nr_groups > groups)
			groups = cs->nr_groups;
	}
	return (struct td_width){ .counters = nr, .groups = groups };
}

int plan_models(const struct options *o, const struct cpu_pmus *cpu, const bool *online,
		struct plan *p, FILE *err)
{
	char why[PMU_MAX_CORE_PMUS][256], where[256];
	int nr_why = 0;

	memset(p, 0, sizeof(*p));
	memset(p->pmu_of, -1, sizeof(p->pmu_of));
	p->max_entries = o->per_cgroup ? o->max_cgroups : o->max_tasks;
	p->smt_on = cpu->smt_on;
	if (o->software) {
		struct pmu_plan *pp = &p->pmus[p->nr_pmus++];

		strcpy(pp->pmu, "software");
		if (!o->test_members)
			counters_software(&pp->counters);
		else if (counters_software_members(&pp->counters, o->test_members)) {
			if (err)
				say(err, "invalid value '%s' for --test-members",
				    options_shown(o->test_members, (size_t)-1));
			return -EINVAL;
		}
		for (int c = 0; c < PMU_MAX_CPUS; c++)
			pp->nr_cpus += pp->cpus[c] = online[c];
	}
	for (int i = 0; !o->software && i < cpu->nr_pmus; i++) {
		if (!plan_pmu(cpu, &cpu->pmu[i], o->level ? (int)o->level : 2, p, why[nr_why],
			      sizeof(why[0])))
			continue;
		/* Another core type may still be counted: say what this one loses. */
		named_cpus(&cpu->pmu[i], where, sizeof(where));
		snprintf(p->notes[p->nr_notes++], sizeof(p->notes[0]), "%s: %s", where,
			 why[nr_why]);
		if (err)
			say(err, "leaving out %s: %s", where, why[nr_why]);
		nr_why++;
	}
	if (!p->nr_pmus && err) {
		say(err,
		    "no TopDown counters on this CPU (%s%s%s): %s; use --software for "
		    "CPU time per process and cgroup",
		    cpu->vendor[0] ? cpu->vendor : "unknown vendor", cpu->model_name[0] ? ", " : "",
		    cpu->model_name, cpu->nr_pmus ? why[0] : cpu->why);
	}
	if (!p->nr_pmus)
		return -ENODEV;
	for (int i = 0; i < p->nr_pmus; i++)
		for (int c = 0; c < PMU_MAX_CPUS; c++)
			if (p->pmus[i].cpus[c] && online[c] && p->pmu_of[c] < 0) {
				p->pmu_of[c] = i;
				p->cpus[c] = true;
			}
	p->width = plan_counts_width(p);
	return 0;
}

#define TD_MIN_ENTRIES 10240
#define TD_MAX_ENTRIES 4000000

unsigned int plan_entry_bytes(const struct plan *p)
{
	bool times = p->nr_pmus && !p->pmus[0].counters.software;

	return td_entry_bytes(td_width_counters(p->width), td_width_groups(p->width), times);
}

/*
 * The hash's share of an entry, about: the kernel's element (its header,
 * 48 bytes on 64-bit, the key and the slot rounded to 8), its bucket (16
 * bytes, 2^k of them), the free-slot queue's 4 bytes and the changed bits.
 */
static unsigned int hash_bytes(unsigned long long entries)
{
	unsigned long long buckets = 1;

	while (buckets < entries)
		buckets *= 2;
	return 48 + sizeof(struct td_key) + 8 +
	       (unsigned int)(16 * buckets / (entries ? entries : 1)) + 4 + 1;
}

void plan_map_size(const struct options *o, const struct machine_size *sz, struct plan *p)
{
	unsigned long long want, cap, entry;
	unsigned long unit;
	char why[160];

	p->entry_bytes = plan_entry_bytes(p);
	if (o->per_cgroup || o->max_tasks_given) {
		p->max_entries = o->per_cgroup ? o->max_cgroups : o->max_tasks;
		snprintf(why, sizeof(why), "%s", o->per_cgroup ? "--max-cgroups" : "--max-tasks");
	} else {
		/* Entries are per process unless -t: a thread pool costs one. */
		unit = !o->per_thread && sz->processes ? sz->processes : sz->threads;
		want = 4ULL * unit;
		/* Worst case for the cap: 2^k buckets for 2^k + 1 entries. */
		entry = p->entry_bytes + hash_bytes(3);
		cap = sz->mem_bytes ? sz->mem_bytes / 100 / entry : TD_MAX_ENTRIES;
		/* No more tasks than pid_max are alive at once: two entries each is plenty. */
		if (sz->pid_max && want > 2ULL * sz->pid_max)
			want = 2ULL * sz->pid_max;
		if (want < TD_MIN_ENTRIES)
			want = TD_MIN_ENTRIES;
		if (want > cap)
			want = cap > TD_MIN_ENTRIES ? cap : TD_MIN_ENTRIES;
		if (want > TD_MAX_ENTRIES)
			want = TD_MAX_ENTRIES;
		p->max_entries = want;
		snprintf(why, sizeof(why),
			 "%lu %s at start, x4, at most 2 x pid_max %lu, at least %d, at most 1%% of "
			 "memory",
			 unit, unit == sz->threads ? "threads" : "processes", sz->pid_max,
			 TD_MIN_ENTRIES);
	}
	p->hash_bytes = hash_bytes(p->max_entries);
	snprintf(p->map_note, sizeof(p->map_note),
		 "%u entries of %u bytes, and about %u in the hash: %.1f MiB (%s)", p->max_entries,
		 p->entry_bytes, p->hash_bytes,
		 (double)p->max_entries * (p->entry_bytes + p->hash_bytes) / (1 << 20), why);
}

/* BPF maps, programs, links and BTF, stdio, -o, the command's pipes: a generous bound. */
#define TD_FILES_FIXED 128

unsigned long plan_files(const struct plan *p, const struct options *o)
{
	unsigned long files = 0;

	for (int i = 0; i < p->nr_pmus; i++)
		files += p->pmus[i].nr_cpus * (p->pmus[i].counters.nr + 1);
	/* + 1 per CPU: --per-cgroup's cgroup-switches trigger. */
	return files + o->nr_pids + (o->listen ? EXPORTER_FILES : 0) + TD_FILES_FIXED;
}
