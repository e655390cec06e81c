// SPDX-License-Identifier: GPL-2.0
/*
 * Counter sets: perf_event_attr for a model's counting groups on one core
 * PMU (counters_from_model), or cpu-clock alone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "model/counters.h"

/* The kernel doc asks for GROUP on the metric events; times give multiplexing. */
#define TD_READ_FORMAT                                                                             \
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_GROUP)

/* Append "@what: @why" to set->left_out, "; " between. */
static void left_out(struct counter_set *set, const char *what, const char *why)
{
	size_t n = strlen(set->left_out);

	snprintf(set->left_out + n, sizeof(set->left_out) - n, "%s%s: %s", n ? "; " : "", what,
		 why);
}

/* May @e be left out rather than fail the model? */
static bool dispensable(const struct model_event *e)
{
	return e->flags & (MODEL_EV_CORRECTION | MODEL_EV_OPTIONAL);
}

/* Which events to open at @level: those the PMU has, or -ENODEV naming one it lacks. */
static int wanted(const struct pmu_model *m, const struct core_pmu *pmu, int *level, bool *want,
		  struct counter_set *set, char *err, size_t errlen)
{
	for (int i = 0; i < m->nr_events; i++) {
		const struct model_event *e = &m->events[i];

		want[i] = !(e->flags & MODEL_EV_L2) || *level >= 2;
		if (!want[i] || !e->sysfs || core_pmu_event(pmu, e->sysfs))
			continue;
		want[i] = false;
		if (dispensable(e)) {
			left_out(set, e->name, "not in the PMU's events/");
		} else if (e->flags & MODEL_EV_L2) {
			/* Level 1 only: start over without the level-2 events. */
			left_out(set, "level 2", "the PMU has no event");
			*level = 1;
			return wanted(m, pmu, level, want, set, err, errlen);
		} else {
			snprintf(err, errlen, "%s has no event %s (%s/events/%s)", pmu->name,
				 e->name, pmu->name, e->sysfs);
			return -ENODEV;
		}
	}
	return 0;
}

/*
 * Is @e on fixed counter 1, which the NMI watchdog holds when on? The
 * watchdog opens a pinned PERF_COUNT_HW_CPU_CYCLES per CPU
 * (kernel/watchdog_perf.c); Intel maps it to 0x003c
 * (intel_perfmon_event_map), whose only fixed counter is 1
 * (FIXED_EVENT_CONSTRAINT(0x003c, 1), arch/x86/events/intel/core.c). Our
 * own 0x003c then needs a generic counter. AMD has no fixed counters: its
 * rows say the watchdog's generic counter in watchdog_counters.
 */
static bool watchdog_fixed(const struct pmu_model *m, const struct model_event *e)
{
	return (e->flags & MODEL_EV_FIXED) && !e->sysfs && (e->config & 0xffffULL) == 0x003c &&
	       m->vendor && !strcmp(m->vendor, "GenuineIntel");
}

/* The generic counters event @i takes: 0 on a fixed counter it has to itself. */
static int generic(const struct pmu_model *m, int i, bool watchdog_on)
{
	const struct model_event *e = &m->events[i];

	return !(e->flags & MODEL_EV_FIXED) || (watchdog_on && watchdog_fixed(m, e));
}

/* Drop optional events of groups that need more generic counters than @budget. */
static void fit(const struct pmu_model *m, int budget, bool watchdog_on, bool *want, const int *grp,
		struct counter_set *set)
{
	for (int g = 0; g < MODEL_MAX_GROUPS; g++) {
		int used = 0;

		for (int i = 0; i < m->nr_events; i++)
			used += want[i] && grp[i] == g && generic(m, i, watchdog_on);
		for (int i = m->nr_events - 1; i >= 0 && used > budget; i--) {
			const struct model_event *e = &m->events[i];

			if (!want[i] || grp[i] != g || !(e->flags & MODEL_EV_OPTIONAL))
				continue;
			want[i] = false;
			used--;
			left_out(set, e->name,
				 "the NMI watchdog holds a counter (sysctl kernel.nmi_watchdog=0 "
				 "frees it)");
		}
	}
}

/* The generic counters the events of group @g take. */
static int group_generic(const struct pmu_model *m, bool watchdog_on, const bool *want,
			 const int *grp, int g)
{
	int used = 0;

	for (int i = 0; i < m->nr_events; i++)
		used += want[i] && grp[i] == g && generic(m, i, watchdog_on);
	return used;
}

/*
 * A group that still needs more generic counters than @budget (Skylake's
 * group 0 with SMT on and the watchdog: cycles lose fixed counter 1, 5
 * generic events for 4 counters) would pass validation at open and never
 * be scheduled. Move its last members into a later group with a counter
 * to spare (Haswell's group 4: three generic events beside a fixed one),
 * else into a group of their own after the others: the kernel
 * multiplexes it, and it is scaled by its own times, as every group is.
 * -ENOSPC if no group is left for them.
 */
static int split(const struct pmu_model *m, int budget, bool watchdog_on, const bool *want,
		 int *grp)
{
	int last = 0;

	for (int i = 0; i < m->nr_events; i++)
		if (want[i] && grp[i] > last)
			last = grp[i];
	for (int g = 0; g <= last; g++) {
		int used = group_generic(m, watchdog_on, want, grp, g), first = -1;

		for (int i = 0; i < m->nr_events && first < 0; i++)
			if (want[i] && grp[i] == g)
				first = i;
		for (int i = m->nr_events - 1; i > first && used > budget; i--) {
			int to = g + 1;

			if (!want[i] || grp[i] != g || !generic(m, i, watchdog_on))
				continue;
			while (to <= last && group_generic(m, watchdog_on, want, grp, to) >= budget)
				to++;
			if (to > last && ++last >= MODEL_MAX_GROUPS)
				return -ENOSPC;
			grp[i] = to;
			used--;
		}
	}
	return 0;
}

/* Which events at @level, in which groups: wanted(), fit() and split() in turn. */
static int choose(const struct pmu_model *m, const struct core_pmu *pmu, int *level,
		  bool watchdog_on, bool *want, int *grp, struct counter_set *set, char *err,
		  size_t errlen)
{
	int budget = m->gp_counters - (watchdog_on ? m->watchdog_counters : 0);

	if (wanted(m, pmu, level, want, set, err, errlen))
		return -ENODEV;
	for (int i = 0; i < m->nr_events; i++)
		grp[i] = m->events[i].group;
	fit(m, budget, watchdog_on, want, grp, set);
	return split(m, budget, watchdog_on, want, grp);
}

int counters_from_model(const struct pmu_model *m, const struct core_pmu *pmu, int level,
			bool watchdog_on, struct counter_set *set, char *err, size_t errlen)
{
	bool want[MODEL_MAX_EVENTS];
	int grp[MODEL_MAX_EVENTS];
	bool has_l2 = false;
	int ret;

	memset(set, 0, sizeof(*set));
	/* A row past the table's bounds is refused, never read past. */
	if (m->nr_events > MODEL_MAX_EVENTS) {
		snprintf(err, errlen, "%s on %s needs more than %d counters per CPU", m->name,
			 pmu->name, MODEL_MAX_EVENTS);
		return -ENODEV;
	}
	set->model = m;
	for (int i = 0; i < m->nr_metrics; i++)
		has_l2 |= m->metrics[i].level == 2;
	if (!has_l2 && level > 1)
		level = 1;
	ret = choose(m, pmu, &level, watchdog_on, want, grp, set, err, errlen);
	if (ret == -ENOSPC && level > 1) {
		/* No group left for what the watchdog pushes out: level 1 alone. */
		memset(set->left_out, 0, sizeof(set->left_out));
		level = 1;
		ret = choose(m, pmu, &level, watchdog_on, want, grp, set, err, errlen);
		left_out(set, "level 2",
			 "the NMI watchdog holds fixed counter 1 and no counting group is left "
			 "(sysctl kernel.nmi_watchdog=0 frees it)");
	}
	if (ret == -ENOSPC)
		snprintf(err, errlen,
			 "%s on %s: the NMI watchdog holds fixed counter 1 and level 1 does not "
			 "fit the counters left (sysctl kernel.nmi_watchdog=0 frees it)",
			 m->name, pmu->name);
	if (ret)
		return -ENODEV;

	/* By group, each in table order: a group's first event is its leader. */
	for (int g = 0; g < MODEL_MAX_GROUPS; g++) {
		bool leader = true;

		for (int i = 0; i < m->nr_events; i++) {
			const struct model_event *e = &m->events[i];
			const struct pmu_named_event *ne;
			struct perf_event_attr *attr;

			if (!want[i] || grp[i] != g)
				continue;
			if (set->nr == TD_MAX_COUNTERS) {
				snprintf(err, errlen,
					 "%s on %s needs more than %d counters per CPU", m->name,
					 pmu->name, TD_MAX_COUNTERS);
				return -ENODEV;
			}
			attr = &set->attr[set->nr];
			attr->type = pmu->type;
			attr->size = sizeof(*attr);
			if (e->sysfs) {
				ne = core_pmu_event(pmu, e->sysfs);
				attr->config = ne->config[0];
				attr->config1 = ne->config[1];
				attr->config2 = ne->config[2];
			} else {
				attr->config = e->config;
			}
			attr->read_format = TD_READ_FORMAT;
			/*
			 * The host only, as perf's :H (and perf stat's default): on a
			 * KVM host no guest time is counted, and no VM with a
			 * mediated vPMU is refused while tdtrace runs, nor tdtrace
			 * while one runs (kernel/events/core.c, 7.0 on:
			 * mediated_pmu_account_event() refuses an event without
			 * exclude_guest with -EOPNOTSUPP while such a VM exists;
			 * perf_create_mediated_pmu() refuses the VM with -EBUSY
			 * while such an event exists).
			 */
			attr->exclude_guest = 1;
			/*
			 * Counting only: metric events refuse sampling, and the
			 * BPF read helper refuses inherit. Each leader waits to
			 * be enabled once every group of the CPU is open.
			 */
			attr->disabled = leader;
			/* Groups are numbered in slot order, without gaps, for the BPF side. */
			if (leader)
				set->nr_groups++;
			set->name[set->nr] = e->name;
			set->group[set->nr] = set->nr_groups - 1;
			set->event[set->nr] = i;
			set->opened[i] = true;
			set->nr++;
			leader = false;
		}
	}
	set->level = level;
	for (int i = 0; i < set->nr; i++)
		set->direct[i] = counters_reads_direct(set, i);
	return 0;
}

/*
 * The kernel's encodings (arch/x86/include/asm/perf_event.h): INTEL_TD_SLOTS
 * and INTEL_TD_METRIC_RETIRING .. INTEL_TD_METRIC_MEM_BOUND, compared as
 * is_slots_event() and is_metric_event() do (arch/x86/events/perf_event.h),
 * on the event and umask bits (INTEL_ARCH_EVENT_MASK).
 */
#define TD_INTEL_EVENT_MASK 0xffffULL
#define TD_INTEL_SLOTS	    0x0400ULL
#define TD_INTEL_METRIC_MIN 0x8000ULL
#define TD_INTEL_METRIC_MAX 0x8700ULL

bool counters_reads_direct(const struct counter_set *set, int i)
{
	const struct perf_event_attr *a = &set->attr[i], *lead;
	__u64 config = a->config & TD_INTEL_EVENT_MASK;
	int l = i;

	if (i <= 0 || i >= set->nr || counters_leads(set, i) || !set->model ||
	    !set->model->vendor || strcmp(set->model->vendor, "GenuineIntel"))
		return false;
	while (l > 0 && !counters_leads(set, l))
		l--;
	lead = &set->attr[l];
	return lead->type == a->type && (lead->config & TD_INTEL_EVENT_MASK) == TD_INTEL_SLOTS &&
	       !(config & 0xff) && config >= TD_INTEL_METRIC_MIN && config <= TD_INTEL_METRIC_MAX;
}

int counters_software_members(struct counter_set *set, const char *list)
{
	/* current: the kernel adds to its count as it happens (perf_swevent_event). */
	static const struct {
		const char *name;
		__u64 config;
		bool current;
	} known[] = {
		{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK, false },
		{ "task-clock", PERF_COUNT_SW_TASK_CLOCK, false },
		{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES, true },
		{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS, true },
		{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS, true },
		/* Never happens on x86: a member whose count stays 0. */
		{ "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS, true },
	};
	const char *p = list;

	int group = 0;
	bool leads = false;

	counters_software(set);
	while (*p) {
		size_t len = strcspn(p, ",/!");
		bool forced = p[len] == '!';
		size_t k;

		for (k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			if (strlen(known[k].name) == len && !strncmp(known[k].name, p, len))
				break;
		if (k == sizeof(known) / sizeof(known[0]) || set->nr == TD_MAX_COUNTERS)
			return -EINVAL;
		set->attr[set->nr] = set->attr[0];
		set->attr[set->nr].config = known[k].config;
		/* Members follow their leader; a leader starts disabled, as counter 0 does. */
		set->attr[set->nr].disabled = leads;
		set->group[set->nr] = group;
		set->event[set->nr] = k; /* which event, as a model's index says (replan.c) */
		set->direct[set->nr] = !leads && (known[k].current || forced);
		set->name[set->nr++] = known[k].name;
		if (forced && (leads || (p[len + 1] && p[len + 1] != ',' && p[len + 1] != '/')))
			return -EINVAL; /* '!' on a leader, or not right after a name */
		len += forced;
		leads = p[len] == '/';
		if (leads && ++group == TD_MAX_GROUPS)
			return -EINVAL;
		p += len + (p[len] != 0);
	}
	set->nr_groups = counters_nr_groups(set);
	return leads ? -EINVAL : 0; /* a '/' with no event after it */
}

bool counters_leads(const struct counter_set *set, int i)
{
	return i == 0 || set->group[i] != set->group[i - 1];
}

int counters_nr_groups(const struct counter_set *set)
{
	int most = -1;

	/* The highest index: a re-planned set's groups need not come in order (replan.h). */
	for (int i = 0; i < set->nr; i++)
		if (set->group[i] > most)
			most = set->group[i];
	return most + 1;
}

void counters_cgroup_switches(struct counter_set *set)
{
	memset(set, 0, sizeof(*set));
	set->nr = 1;
	set->software = true;
	set->attr[0].type = PERF_TYPE_SOFTWARE;
	set->attr[0].size = sizeof(set->attr[0]);
	set->attr[0].config = PERF_COUNT_SW_CGROUP_SWITCHES;
	set->attr[0].sample_period = 1;
	set->name[0] = "cgroup-switches";
}

void counters_software(struct counter_set *set)
{
	struct perf_event_attr *attr = &set->attr[TD_SLOTS];

	memset(set, 0, sizeof(*set));
	set->nr = 1;
	set->level = 0;
	set->software = true;
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->disabled = 1;
	set->name[TD_SLOTS] = "cpu-clock";
	set->nr_groups = 1;
}
