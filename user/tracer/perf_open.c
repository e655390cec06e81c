// SPDX-License-Identifier: GPL-2.0
/* perf_event_open of one group per CPU. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include "host/perf_why.h"
#include "tracer/perf_open.h"
#include "cli/say.h"

static int perf_event_open(struct perf_event_attr *attr, int cpu, int group_fd)
{
	return syscall(__NR_perf_event_open, attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

int cpu_groups_fd(const struct cpu_groups *g, int cpu, int role)
{
	return g->fd[cpu * TD_MAX_COUNTERS + role];
}

static void close_cpu(struct cpu_groups *g, int cpu)
{
	for (int role = TD_MAX_COUNTERS - 1; role >= 0; role--) {
		int *fd = &g->fd[cpu * TD_MAX_COUNTERS + role];

		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
}

/*
 * Open @set's groups on @cpu into g's slots of that CPU; on failure close
 * what opened, name the event in *@event and return its errno.
 */
static int open_cpu(struct cpu_groups *g, const struct counter_set *set, int cpu,
		    const char **event)
{
	for (int role = 0; role < set->nr; role++) {
		struct perf_event_attr attr = set->attr[role];
		int lead = role, leader, fd;

		/* Its group's leader: the nearest leading counter before it (0 leads). */
		while (lead > 0 && !g->leads[lead])
			lead--;
		leader = lead == role ? -1 : cpu_groups_fd(g, cpu, lead);
		fd = perf_event_open(&attr, cpu, leader);
		if (fd < 0) {
			int e = errno;

			*event = set->name[role];
			close_cpu(g, cpu);
			return e;
		}
		g->fd[cpu * TD_MAX_COUNTERS + role] = fd;
	}
	return 0;
}

static int enable_cpu(struct cpu_groups *g, int cpu)
{
	for (int role = 0; role < g->nr_counters; role++) {
		int fd = cpu_groups_fd(g, cpu, role);

		if (g->leads[role] && fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			return -errno;
	}
	return 0;
}

int cpu_groups_reopen(struct cpu_groups *g, const struct counter_set *set, int cpu, char *why_not,
		      size_t len)
{
	const char *event = "";
	int e;

	if (!g->fd || cpu >= g->nr_cpus)
		return -ENODEV;
	close_cpu(g, cpu);
	/* The same set after hotplug; a re-planned one (model/replan.h) may lead elsewhere. */
	g->nr_counters = set->nr;
	for (int role = 0; role < TD_MAX_COUNTERS; role++)
		g->leads[role] = role < set->nr && counters_leads(set, role);
	e = open_cpu(g, set, cpu, &event);
	if (e) {
		snprintf(why_not, len, "failed to open %s: %s", event, perf_open_why(e));
		return -e;
	}
	return enable_cpu(g, cpu);
}

void cpu_groups_close_cpu(struct cpu_groups *g, int cpu)
{
	if (g->fd && cpu < g->nr_cpus)
		close_cpu(g, cpu);
}

int cpu_groups_open(struct cpu_groups *g, const struct counter_set *set, const bool *cpus,
		    int nr_cpus, FILE *err)
{
	int first_err = 0;
	char *left_out = NULL;
	size_t left_out_len = 0;
	FILE *lines;

	memset(g, 0, sizeof(*g));
	/* Held back: if no CPU opens, one line says why, not one per CPU. */
	lines = open_memstream(&left_out, &left_out_len);
	if (!lines)
		return -ENOMEM;
	g->nr_cpus = nr_cpus;
	g->nr_counters = set->nr;
	for (int role = 0; role < set->nr; role++)
		g->leads[role] = counters_leads(set, role);
	g->fd = malloc(sizeof(int) * nr_cpus * TD_MAX_COUNTERS);
	if (!g->fd) {
		fclose(lines);
		free(left_out);
		return -ENOMEM;
	}
	memset(g->fd, -1, sizeof(int) * nr_cpus * TD_MAX_COUNTERS);

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		const char *event;
		int e;

		if (cpus && !cpus[cpu])
			continue;
		e = open_cpu(g, set, cpu, &event);
		if (!e) {
			g->nr_open++;
			continue;
		}
		if (!first_err) {
			first_err = e;
			snprintf(g->first_failure, sizeof(g->first_failure),
				 "CPU %d: failed to open %s: %s", cpu, event, perf_open_why(e));
		}
		say(lines, "leaving out CPU %d: failed to open %s: %s", cpu, event,
		    perf_open_why(e));
	}
	fclose(lines);
	if (!g->nr_open) {
		char why_first[sizeof(g->first_failure)];

		free(left_out);
		memcpy(why_first, g->first_failure, sizeof(why_first));
		cpu_groups_close(g); /* clears *g */
		memcpy(g->first_failure, why_first, sizeof(why_first));
		return -(first_err ? first_err : ENODEV);
	}
	fputs(left_out, err);
	free(left_out);
	return 0;
}

int cpu_groups_enable(struct cpu_groups *g)
{
	for (int cpu = 0; cpu < g->nr_cpus; cpu++) {
		int err = enable_cpu(g, cpu);

		if (err)
			return err;
	}
	return 0;
}

void cpu_groups_close(struct cpu_groups *g)
{
	if (!g->fd)
		return;
	for (int cpu = 0; cpu < g->nr_cpus; cpu++)
		close_cpu(g, cpu);
	free(g->fd);
	memset(g, 0, sizeof(*g));
}
