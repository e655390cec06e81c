// SPDX-License-Identifier: GPL-2.0
/*
 * Counter model: perf_event_attr for the TopDown group (slots leader plus
 * metric members) built from what pmu_discover() found, or cpu-clock alone.
 */
#include <errno.h>
#include <string.h>
#include "model/counters.h"

/* The kernel doc asks for GROUP on the metric events; times give multiplexing. */
#define TD_READ_FORMAT                                                                             \
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_GROUP)

int counters_topdown(const struct pmu_info *pmu, struct counter_set *set)
{
	int i;

	memset(set, 0, sizeof(*set));
	if (pmu->level < 1)
		return -ENODEV;
	set->level = pmu->level;
	set->nr = pmu->level >= 2 ? TD_NR_ROLES : TD_BE_BOUND + 1;
	set->software = false;
	for (i = 0; i < set->nr; i++) {
		struct perf_event_attr *attr = &set->attr[i];

		attr->type = pmu->type;
		attr->size = sizeof(*attr);
		attr->config = pmu->events[i].config[0];
		attr->config1 = pmu->events[i].config[1];
		attr->config2 = pmu->events[i].config[2];
		attr->read_format = TD_READ_FORMAT;
		/*
		 * Counting only: metric events refuse sampling, and the BPF
		 * read helper refuses inherit. Members follow the leader, which
		 * is enabled once the whole group is open.
		 */
		attr->disabled = i == TD_SLOTS;
		set->name[i] = pmu_event_names[i];
	}
	return 0;
}

int counters_software_members(struct counter_set *set, const char *list)
{
	static const struct {
		const char *name;
		__u64 config;
	} known[] = {
		{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK },
		{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
	};
	const char *p = list;

	int group = 0;
	bool leads = false;

	counters_software(set);
	while (*p) {
		size_t len = strcspn(p, ",/");
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
		set->name[set->nr++] = known[k].name;
		leads = p[len] == '/';
		if (leads && ++group == TD_MAX_GROUPS)
			return -EINVAL;
		p += len + (p[len] != 0);
	}
	return leads ? -EINVAL : 0; /* a '/' with no event after it */
}

bool counters_leads(const struct counter_set *set, int i)
{
	return i == 0 || set->group[i] != set->group[i - 1];
}

int counters_nr_groups(const struct counter_set *set)
{
	return set->nr ? set->group[set->nr - 1] + 1 : 0;
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
}
