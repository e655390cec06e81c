// SPDX-License-Identifier: GPL-2.0
/*
 * Open the counters, then the BPF object in libbpf's order: open ->
 * configure (const volatile knobs, map sizes, which programs load) ->
 * load -> fill the perf event array -> attach.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "tdtrace.h" /* before the skeleton, whose .bss uses its types */
#include "tdtrace.skel.h"
#include "tracer/tracer.h"
#include "cli/say.h"

/* Put every open counter fd into td_counters, at the program's slot * nr_cpu_ids + cpu. */
static int fill_counter_map(struct tdtrace *skel, const struct cpu_groups *g)
{
	int map_fd = bpf_map__fd(skel->maps.td_counters);
	__u32 stride = skel->rodata->nr_cpu_ids;

	for (int slot = 0; slot < g->nr_counters; slot++) {
		for (int cpu = 0; cpu < g->nr_cpus; cpu++) {
			int fd = cpu_groups_fd(g, cpu, slot);
			__u32 key = slot * stride + cpu;

			if (fd >= 0 && bpf_map_update_elem(map_fd, &key, &fd, BPF_ANY))
				return -errno;
		}
	}
	return 0;
}

/*
 * Run td_relayout on @cpu: it takes @l as its layout and reads afresh, in
 * the epoch of the other CPUs (it may have missed flushes while offline).
 */
static int relayout(struct tracer *tr, int cpu, const struct td_layout *l)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);

	tr->skel->bss->new_layout = *l;
	tr->skel->bss->new_layout.epoch = tr->coll.epoch;
	if (bpf_prog_test_run_opts(bpf_program__fd(tr->skel->progs.td_relayout), &opts))
		return -errno;
	return 0;
}

/* The layout of @set, for a CPU of PMU @k. */
static struct td_layout layout_of_set(const struct counter_set *set, int k)
{
	struct td_layout l = { .nr_counters = set->nr,
			       .nr_groups = counters_nr_groups(set),
			       .pmu = k };

	for (int slot = 0; slot < set->nr; slot++) {
		l.group[slot] = set->group[slot];
		l.leads[slot] = counters_leads(set, slot);
		l.direct[slot] = set->direct[slot];
	}
	return l;
}

/*
 * Give each counted CPU its counter layout through td_relayout: the slots
 * open there, in the groups of its PMU's set, as cpu_groups_open() opened
 * them, and the PMU's index (entries' key.pmu). Other CPUs keep
 * nr_counters 0: the program reads nothing there. A CPU that went offline
 * since its counters opened is left for the hotplug path to count again.
 */
static int set_cpu_layouts(struct tracer *tr, const struct plan *p)
{
	int nr_cpus = libbpf_num_possible_cpus();

	for (int cpu = 0; cpu < nr_cpus && cpu < PMU_MAX_CPUS; cpu++) {
		int k = tr->pmu_of[cpu], err;
		struct td_layout l;

		if (k < 0 || !tr->cpus[cpu])
			continue;
		l = layout_of_set(&p->pmus[k].counters, k);
		err = relayout(tr, cpu, &l);
		if (err == -ENXIO) {
			say(stderr, "CPU %d went offline: not counted until it returns", cpu);
			/* As the hotplug path does; not one of the CPUs counting announced. */
			tr->cpus[cpu] = false;
			cpu_groups_close_cpu(&tr->groups[k], cpu);
			tr->groups[k].nr_open--;
		} else if (err) {
			return err;
		}
	}
	return 0;
}

#define SELFCHECK_TRIES 50

/*
 * Read the members the plan marked direct (TopDown metric events under a
 * slots leader: counters_reads_direct) directly after one leader read (one
 * TopDown update per switch) only if td_selfcheck, run on every counted
 * CPU, found those reads equal to helper reads, of counts that had
 * moved, in groups whose leader had run. Every other member is read with
 * the helper. Says which on stderr.
 */
static int choose_member_reads(struct tracer *tr)
{
	struct tdtrace *skel = tr->skel;
	struct td_selfcheck *c = &skel->bss->selfcheck;
	int err;

	/*
	 * Counts just enabled may not have moved yet, nor a group been
	 * scheduled: look again, for up to 100 ms, until the check proves
	 * something either way.
	 */
	for (int tries = 0; tries < SELFCHECK_TRIES; tries++) {
		if (tries)
			nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
		memset(c, 0, sizeof(*c));
		err = run_on_cpus(bpf_program__fd(skel->progs.td_selfcheck), tr->cpus,
				  libbpf_num_possible_cpus());
		if (err)
			return err;
		if (c->behind || c->ahead || c->failed || (c->nonzero && !c->unscheduled))
			break;
	}
	/* Equal, or behind by under 1% (counts still growing between the two reads). */
	skel->bss->members_direct =
		c->reads && c->nonzero && !c->unscheduled && !c->behind && !c->ahead && !c->failed;
	say(stderr,
	    "%s (self-check: %llu of %llu member reads equal, %llu of a count above 0, %llu "
	    "stale, %llu ahead, %llu failed, %llu with a leader that had not run)",
	    skel->bss->members_direct ? "metric members read directly after one leader read"
				      : "members read with one helper call each",
	    (unsigned long long)c->equal, (unsigned long long)c->reads,
	    (unsigned long long)c->nonzero, (unsigned long long)c->behind,
	    (unsigned long long)c->ahead, (unsigned long long)c->failed,
	    (unsigned long long)c->unscheduled);
	return 0;
}

/*
 * --per-cgroup without targets: trigger on each CPU's cgroup-switches event
 * instead of every sched_switch, since a switch between tasks of one
 * cgroup changes no row. False (sched_switch stays) if the kernel has no
 * such event (before 5.13) or any CPU's fails to open.
 */
static bool open_cgroup_switches(struct tracer *tr)
{
	struct counter_set set;
	FILE *quiet = fopen("/dev/null", "w");
	int err;

	counters_cgroup_switches(&set);
	err = cpu_groups_open(&tr->cgroup_switches, &set, tr->cpus, libbpf_num_possible_cpus(),
			      quiet ? quiet : stderr);
	if (quiet)
		fclose(quiet);
	for (int cpu = 0; !err && cpu < tr->cgroup_switches.nr_cpus; cpu++)
		if (tr->cpus[cpu] && cpu_groups_fd(&tr->cgroup_switches, cpu, 0) < 0)
			err = -ENODEV;
	if (err)
		cpu_groups_close(&tr->cgroup_switches);
	return !err;
}

/* Set the knobs and map sizes, and choose the programs to load. */
static void configure(struct tracer *tr, const struct options *o, const struct plan *p,
		      const struct targets *t)
{
	struct tdtrace *skel = tr->skel;
	int nr_cpus = libbpf_num_possible_cpus(), most = 0, groups = 0;

	/* Bounds of every CPU's layout (set_cpu_layouts): the largest PMU's. */
	for (int k = 0; k < p->nr_pmus; k++) {
		if (p->pmus[k].counters.nr > most)
			most = p->pmus[k].counters.nr;
		if (counters_nr_groups(&p->pmus[k].counters) > groups)
			groups = counters_nr_groups(&p->pmus[k].counters);
	}
	/* And the run's width: what a re-plan mid-run may switch to (model/replan.h). */
	skel->rodata->nr_counters = most > p->width.counters ? most : p->width.counters;
	skel->rodata->nr_groups = groups > p->width.groups ? groups : p->width.groups;
	skel->rodata->per_thread = o->per_thread;
	skel->rodata->charge_tasks = !o->per_cgroup;
	skel->rodata->track_times = !p->pmus[0].counters.software;
	skel->rodata->filter_pids = t->filter_pids;
	for (int i = 0; i < t->nr_cgroups; i++) {
		skel->bss->cgroup_filter_id[i] = t->cgroups[i].id;
		skel->bss->cgroup_filter_level[i] = t->cgroups[i].level;
	}
	skel->rodata->nr_cgroup_filters = t->nr_cgroups;
	/* Regions need a read at every switch: what runs between two is one thread's. */
	tr->on_cgroup_switch =
		o->per_cgroup && !t->filtered && !o->nr_regions && open_cgroup_switches(tr);
	bpf_program__set_autoload(skel->progs.td_cgroup_switch, tr->on_cgroup_switch);
	bpf_program__set_autoload(skel->progs.td_idle, tr->on_cgroup_switch);
	bpf_program__set_autoattach(skel->progs.td_switch, !tr->on_cgroup_switch);
	/* Following forks costs a program on every fork: load it only when needed. */
	bpf_program__set_autoload(skel->progs.td_fork, t->filter_pids && !o->no_children);
	bpf_map__set_max_entries(skel->maps.td_traced_tgids, o->max_tasks);
	/* Indexed by CPU, read across CPUs by td_attach: plain arrays, one slot per CPU. */
	bpf_map__set_max_entries(skel->maps.td_running, nr_cpus);
	bpf_map__set_max_entries(skel->maps.td_moves, nr_cpus);
	skel->rodata->nr_cpu_ids = nr_cpus;
	/* One slot per counter and CPU possible: the program indexes slot * nr_cpus + cpu. */
	bpf_map__set_max_entries(skel->maps.td_counters, most * nr_cpus);
	/* One entry per (task, cgroup); with --per-cgroup, per cgroup. */
	bpf_map__set_max_entries(skel->maps.td_entries, p->max_entries);
	bpf_map__set_max_entries(skel->maps.td_vals, p->max_entries);
	/* Each entry holds the counts this run fills, no more (td_entry_bytes in tdtrace.h). */
	tr->packing = slot_packing(skel->rodata->nr_counters, skel->rodata->nr_groups,
				   skel->rodata->track_times);
	bpf_map__set_value_size(skel->maps.td_vals, tr->packing.stride);
	skel->rodata->changed_words = (p->max_entries + 63) / 64;
	bpf_map__set_max_entries(skel->maps.td_changed, 2 * skel->rodata->changed_words);
	bpf_map__set_max_entries(skel->maps.td_names, collector_names_bytes(p->max_entries));
	bpf_map__set_max_entries(skel->maps.td_free_slots, p->max_entries);
	skel->rodata->max_slots = p->max_entries;
	tracer_regions_configure(&tr->regions, skel, &tr->packing, p->max_entries);
}

static int load(struct tracer *tr, const struct options *o)
{
	char why[128];
	int err = tdtrace__load(tr->skel);

	if (!err)
		return 0;
	/* libbpf's own codes (4001 and up) mean nothing to strerror. */
	libbpf_strerror(err, why, sizeof(why));
	if (o->btf_path)
		say(stderr,
		    "failed to load BPF program with --btf %s: %s; is it this "
		    "kernel's BTF? (-v shows libbpf's log)",
		    options_shown(o->btf_path, (size_t)-1), why);
	else
		say(stderr, "failed to load BPF program: %s (-v shows the verifier log)", why);
	return err;
}

static int start_collector(struct tracer *tr, const struct plan *p)
{
	struct collector_maps m = {
		.entries_fd = bpf_map__fd(tr->skel->maps.td_entries),
		.vals_fd = bpf_map__fd(tr->skel->maps.td_vals),
		.changed_fd = bpf_map__fd(tr->skel->maps.td_changed),
		.names_fd = bpf_map__fd(tr->skel->maps.td_names),
		.free_fd = bpf_map__fd(tr->skel->maps.td_free_slots),
		.totals_fd = bpf_map__fd(tr->skel->maps.td_totals),
		.flush_fd = bpf_program__fd(tr->skel->progs.td_flush),
		.slot_gen = &tr->skel->bss->slot_gen,
		.names_lost = &tr->skel->bss->names_lost,
	};

	return collector_init(&tr->coll, &m, p->max_entries, &tr->packing, tr->cpus, tr->pmu_of);
}

/* Fill the maps, start the counters, choose how members are read. */
static int start_counting(struct tracer *tr, const struct plan *p)
{
	bool members = false, direct = false;
	int err = 0;

	for (int k = 0; k < tr->nr_pmus && !err; k++) {
		const struct counter_set *set = &p->pmus[k].counters;

		err = fill_counter_map(tr->skel, &tr->groups[k]);
		members |= tr->groups[k].nr_counters > 1;
		for (int slot = 0; slot < set->nr; slot++)
			direct |= set->direct[slot];
	}
	if (!err)
		err = set_cpu_layouts(tr, p);
	for (int k = 0; k < tr->nr_pmus && !err; k++)
		err = cpu_groups_enable(&tr->groups[k]);
	if (!err && direct)
		err = choose_member_reads(tr);
	else if (!err && members)
		say(stderr, "members read with one helper call each (none is a TopDown metric "
			    "event under a slots leader)");
	if (err)
		say(stderr, "failed to set up counters: %s", strerror(-err));
	return err;
}

/*
 * Each core PMU's counters on its CPUs. A PMU whose counters open on no
 * CPU is left out, said once; with none open, the first failure is the
 * error. tr->cpus and tr->pmu_of say which CPUs count, for which PMU.
 */
static int open_counters(struct tracer *tr, const struct plan *p)
{
	int nr_cpus = libbpf_num_possible_cpus(), first = 0;
	char why[sizeof(tr->groups[0].first_failure)] = "";

	memset(tr->pmu_of, -1, PMU_MAX_CPUS);
	tr->nr_pmus = p->nr_pmus;
	for (int k = 0; k < p->nr_pmus; k++) {
		bool *mine = calloc(PMU_MAX_CPUS, sizeof(*mine));
		int err;

		if (!mine)
			return -ENOMEM;
		for (int cpu = 0; cpu < PMU_MAX_CPUS; cpu++)
			mine[cpu] = p->pmu_of[cpu] == k;
		err = cpu_groups_open(&tr->groups[k], &p->pmus[k].counters, mine, nr_cpus, stderr);
		free(mine);
		if (err) {
			if (!first) {
				first = err;
				snprintf(why, sizeof(why), "%s", tr->groups[k].first_failure);
			}
			if (p->nr_pmus > 1)
				say(stderr, "leaving out %s: %s", p->pmus[k].pmu,
				    tr->groups[k].first_failure[0] ? tr->groups[k].first_failure
								   : "none of its CPUs is present");
			continue;
		}
		for (int cpu = 0; cpu < nr_cpus && cpu < PMU_MAX_CPUS; cpu++)
			if (cpu_groups_fd(&tr->groups[k], cpu, 0) >= 0) {
				tr->cpus[cpu] = true;
				tr->pmu_of[cpu] = k;
			}
	}
	for (int cpu = 0; cpu < PMU_MAX_CPUS; cpu++)
		if (tr->cpus[cpu])
			return 0;
	say(stderr, "failed to open counters on any CPU: %s", why[0] ? why : strerror(-first));
	return first ? first : -ENODEV;
}

int tracer_open(struct tracer *tr, const struct options *o, const struct plan *p,
		const struct targets *t)
{
	/*
	 * A log from the first load: on a failure at log level 0 libbpf loads
	 * again to get one, and a program the verifier gives up on is checked
	 * twice (tens of seconds). Its statistics always (-v prints
	 * each program's processed instructions); with -v, its whole log.
	 */
	LIBBPF_OPTS(bpf_object_open_opts, open_opts, .btf_custom_path = o->btf_path,
		    .kernel_log_level = o->verbose ? 1 | 4 : 4);
	struct tracer_regions regions = tr->regions;
	int err;

	memset(tr, 0, sizeof(*tr));
	tr->regions = regions;
	tr->stats_fd = -1;
	tr->cpus = calloc(PMU_MAX_CPUS, sizeof(*tr->cpus));
	tr->pmu_of = malloc(PMU_MAX_CPUS);
	if (!tr->cpus || !tr->pmu_of)
		return -ENOMEM;
	err = open_counters(tr, p);
	if (err)
		return err;

	tr->skel = tdtrace__open_opts(&open_opts);
	if (!tr->skel) {
		err = -errno;
		say(stderr, "failed to open BPF object: %s", strerror(-err));
		return err;
	}
	configure(tr, o, p, t);
	err = load(tr, o);
	if (!err)
		err = start_counting(tr, p);
	if (err)
		return err;
	err = start_collector(tr, p);
	if (err) {
		say(stderr, "failed to set up map reading: %s", strerror(-err));
		return err;
	}
	for (int i = 0; i < t->nr_pids && !err; i++)
		err = tracer_follow(tr, t->tgids[i]);
	if (err)
		return err;
	if (o->self_stats) {
		/* Stats stay on while this fd is open: nothing to undo at exit, even SIGKILL. */
		tr->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (tr->stats_fd < 0) {
			err = -errno;
			say(stderr, "failed to enable BPF run-time stats: %s", strerror(-err));
			return err;
		}
	}
	return 0;
}

int tracer_follow(struct tracer *tr, pid_t tgid)
{
	__u32 key = tgid;
	__u64 start = 0; /* filled in by the program at first sight */
	int err = 0;

	if (tgid > 0 && bpf_map_update_elem(bpf_map__fd(tr->skel->maps.td_traced_tgids), &key,
					    &start, BPF_ANY)) {
		err = -errno;
		say(stderr, "failed to set up targets: %s", strerror(-err));
	}
	/* A task that asked before this was added asks again (see pid_traced). */
	__atomic_fetch_add(&tr->skel->bss->pids_gen, 1, __ATOMIC_SEQ_CST);
	return err;
}

static int attach_cgroup_switches(struct tracer *tr)
{
	const struct cpu_groups *g = &tr->cgroup_switches;

	tr->cgsw_links = calloc(g->nr_cpus, sizeof(*tr->cgsw_links));
	if (!tr->cgsw_links)
		return -ENOMEM;
	for (int cpu = 0; cpu < g->nr_cpus; cpu++) {
		int fd = cpu_groups_fd(g, cpu, 0);

		if (fd < 0)
			continue;
		tr->cgsw_links[cpu] =
			bpf_program__attach_perf_event(tr->skel->progs.td_cgroup_switch, fd);
		if (!tr->cgsw_links[cpu])
			return -errno;
	}
	return 0;
}

/* The regions' half the collector has just closed. */
static int read_regions(struct tracer *tr, struct tally *tl)
{
	return tracer_regions_read(&tr->regions, (tr->coll.epoch - 1) & 1, &tl->delta.regions);
}

int tracer_attach(struct tracer *tr, struct tally *tl)
{
	int err = tdtrace__attach(tr->skel);

	if (!err && tr->on_cgroup_switch)
		err = attach_cgroup_switches(tr);
	if (!err && tracer_regions_attach(&tr->regions, tr->skel))
		return -1; /* said */
	if (err) {
		say(stderr, "failed to attach BPF programs: %s", strerror(-err));
		return err;
	}
	/* The baseline: what was charged before this moment is no interval's. */
	err = collector_read(&tr->coll, &tl->delta);
	if (!err)
		err = read_regions(tr, tl);
	if (err)
		say(stderr, "failed to read BPF maps: %s", strerror(-err));
	return err;
}

void tracer_announce(const struct tracer *tr, const struct plan *p, bool per_thread)
{
	char what[2048] = "";
	size_t n = 0;

	/* Built whole, then said as one line. */
#define ADD(...) (n += snprintf(what + n, n < sizeof(what) ? sizeof(what) - n : 0, __VA_ARGS__))
	for (int k = 0; k < tr->nr_pmus; k++) {
		const struct counter_set *cs = &p->pmus[k].counters;

		if (!tr->groups[k].nr_open)
			continue;
		if (cs->software)
			ADD("cpu-clock (--software)");
		else
			ADD("%sTopDown L%d (%s on %s)", k ? ", " : "", cs->level, cs->model->name,
			    p->pmus[k].pmu);
		ADD(" on %d CPUs", tr->groups[k].nr_open);
		if (cs->left_out[0])
			ADD(" [left out: %s]", cs->left_out);
	}
#undef ADD
	say(stderr, "counting %s%s%s; Ctrl-C to stop", what, per_thread ? " per thread" : "",
	    tr->on_cgroup_switch ? " at cgroup switches" : "");
}

/* @cpu is back: open its PMU's counters there again, then let the program read them. */
static void came_online(struct tracer *tr, const struct plan *p, int cpu)
{
	static const struct td_layout off;
	int k = tr->pmu_of[cpu], map_fd = bpf_map__fd(tr->skel->maps.td_counters);
	const struct counter_set *set;
	char why[CPU_GROUPS_WHY] = "";
	int err;

	if (k < 0)
		k = p->pmu_of[cpu] >= 0 ? p->pmu_of[cpu] : p->nr_pmus == 1 ? 0 : -1;
	if (k < 0 || !tr->groups[k].fd) {
		say(stderr,
		    "CPU %d came online: not counted, its core type is not known to "
		    "this run (start tdtrace again to count it)",
		    cpu);
		tr->pmu_of[cpu] = -2; /* said: not again */
		return;
	}
	set = &p->pmus[k].counters;
	/* Stop reading there while its counters change under the program. */
	err = relayout(tr, cpu, &off);
	if (!err)
		err = cpu_groups_reopen(&tr->groups[k], set, cpu, why, sizeof(why));
	for (int slot = 0; !err && slot < set->nr; slot++) {
		int fd = cpu_groups_fd(&tr->groups[k], cpu, slot);
		__u32 key = slot * tr->skel->rodata->nr_cpu_ids + cpu;

		if (bpf_map_update_elem(map_fd, &key, &fd, BPF_ANY))
			err = -errno;
	}
	if (!err) {
		struct td_layout l = layout_of_set(set, k);

		err = relayout(tr, cpu, &l);
	}
	if (err) {
		say(stderr, "CPU %d came online: not counted: %s", cpu,
		    why[0] ? why : strerror(-err));
		tr->pmu_of[cpu] = -2;
		return;
	}
	tr->cpus[cpu] = true;
	tr->pmu_of[cpu] = k;
	say(stderr, "CPU %d came online: counted from now", cpu);
}

void tracer_hotplug(struct tracer *tr, const struct plan *p, const bool *online,
		    const bool *changed)
{
	int nr_cpus = libbpf_num_possible_cpus();

	for (int cpu = 0; cpu < nr_cpus && cpu < PMU_MAX_CPUS; cpu++) {
		/* Offline and back between two looks: its counters are stale all the same. */
		bool cycled = changed && changed[cpu] && online[cpu] && tr->cpus[cpu];

		if ((!online[cpu] || cycled) && tr->cpus[cpu]) {
			tr->cpus[cpu] = false;
			if (!cycled)
				say(stderr,
				    "CPU %d went offline: not counted until it "
				    "returns",
				    cpu);
			if (tr->pmu_of[cpu] >= 0)
				cpu_groups_close_cpu(&tr->groups[tr->pmu_of[cpu]], cpu);
		}
		if (online[cpu] && !tr->cpus[cpu] && tr->pmu_of[cpu] != -2)
			came_online(tr, p, cpu);
	}
}

void tracer_pause(struct tracer *tr, int k)
{
	static const struct td_layout off;
	int nr_cpus = libbpf_num_possible_cpus();

	for (int cpu = 0; cpu < nr_cpus && cpu < PMU_MAX_CPUS; cpu++)
		if (tr->cpus[cpu] && tr->pmu_of[cpu] == k && relayout(tr, cpu, &off))
			say(stderr, "failed to stop charging on CPU %d: %s", cpu, strerror(errno));
}

/* @cpu of PMU @k counts @set in place of @was; says why not. */
static int replan_cpu(struct tracer *tr, int k, int cpu, const struct counter_set *was,
		      const struct counter_set *set)
{
	static const struct td_layout off;
	int map_fd = bpf_map__fd(tr->skel->maps.td_counters);
	__u32 stride = tr->skel->rodata->nr_cpu_ids;
	char why[CPU_GROUPS_WHY] = "";
	struct td_layout l;
	int err = relayout(tr, cpu, &off);

	if (!err)
		err = cpu_groups_reopen(&tr->groups[k], set, cpu, why, sizeof(why));
	for (int slot = 0; !err && slot < set->nr; slot++) {
		int fd = cpu_groups_fd(&tr->groups[k], cpu, slot);
		__u32 key = slot * stride + cpu;

		if (bpf_map_update_elem(map_fd, &key, &fd, BPF_ANY))
			err = -errno;
	}
	/* The map holds the old events too: let go of those no slot reads now. */
	for (int slot = set->nr; !err && slot < was->nr; slot++) {
		__u32 key = slot * stride + cpu;

		if (bpf_map_delete_elem(map_fd, &key) && errno != ENOENT)
			err = -errno;
	}
	if (!err) {
		l = layout_of_set(set, k);
		err = relayout(tr, cpu, &l);
	}
	if (err)
		say(stderr, "CPU %d: not counted from now: failed to open the new counters: %s",
		    cpu, why[0] ? why : strerror(-err));
	return err;
}

void tracer_replan(struct tracer *tr, int k, const struct counter_set *was,
		   const struct counter_set *set)
{
	int nr_cpus = libbpf_num_possible_cpus();

	for (int cpu = 0; cpu < nr_cpus && cpu < PMU_MAX_CPUS; cpu++) {
		if (!tr->cpus[cpu] || tr->pmu_of[cpu] != k || !replan_cpu(tr, k, cpu, was, set))
			continue;
		/* As a CPU that failed to come back online: closed, and said once. */
		cpu_groups_close_cpu(&tr->groups[k], cpu);
		tr->cpus[cpu] = false;
		tr->pmu_of[cpu] = -2;
	}
}

void tracer_retarget(struct tracer *tr, struct targets *t)
{
	if (!t->changed)
		return;
	for (int i = 0; i < t->nr_cgroups; i++) {
		tr->skel->bss->cgroup_filter_id[i] = t->cgroups[i].id;
		tr->skel->bss->cgroup_filter_level[i] = t->cgroups[i].level;
	}
	/* After the ids: every CPU's cached answers are stale from here. */
	__atomic_add_fetch(&tr->skel->bss->filter_gen, 1, __ATOMIC_SEQ_CST);
	t->changed = false;
}

int tracer_collect(struct tracer *tr, struct tally *tl)
{
	int err = collector_read(&tr->coll, &tl->delta);

	if (!err)
		err = read_regions(tr, tl);
	if (!err)
		err = tally_step(tl);
	if (err) {
		say(stderr, "failed to read BPF maps: %s", strerror(-err));
		return err;
	}
	return 0;
}

static void detach_cgroup_switches(struct tracer *tr)
{
	for (int cpu = 0; tr->cgsw_links && cpu < tr->cgroup_switches.nr_cpus; cpu++) {
		bpf_link__destroy(tr->cgsw_links[cpu]);
		tr->cgsw_links[cpu] = NULL;
	}
}

void tracer_detach(struct tracer *tr)
{
	tdtrace__detach(tr->skel);
	detach_cgroup_switches(tr);
	tracer_regions_detach(&tr->regions);
}

int tracer_self_cost(const struct tracer *tr, struct prog_cost *cost, int max)
{
	struct bpf_program *prog;
	int n = 0;

	bpf_object__for_each_program(prog, tr->skel->obj)
	{
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		/* Not loaded in this mode, or never ran: nothing it cost. */
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len) || !info.run_cnt)
			continue;
		if (n == max)
			break;
		snprintf(cost[n].name, sizeof(cost[n].name), "%s", bpf_program__name(prog));
		cost[n].on_switch = prog == tr->skel->progs.td_switch ||
				    prog == tr->skel->progs.td_cgroup_switch ||
				    prog == tr->skel->progs.td_idle;
		cost[n].runs = info.run_cnt;
		cost[n].ns = info.run_time_ns;
		n++;
	}
	return n;
}

int tracer_nr_cpus(const struct tracer *tr)
{
	int n = 0;

	for (int cpu = 0; cpu < PMU_MAX_CPUS; cpu++)
		n += tr->cpus[cpu];
	return n;
}

void tracer_close(struct tracer *tr)
{
	if (tr->stats_fd >= 0)
		close(tr->stats_fd);
	detach_cgroup_switches(tr);
	free(tr->cgsw_links);
	tracer_regions_free(&tr->regions);
	tdtrace__destroy(tr->skel);
	cpu_groups_close(&tr->cgroup_switches);
	for (int k = 0; k < TD_MAX_PMUS; k++)
		cpu_groups_close(&tr->groups[k]);
	collector_free(&tr->coll);
	free(tr->cpus);
	free(tr->pmu_of);
	memset(tr, 0, sizeof(*tr));
	tr->stats_fd = -1;
}
