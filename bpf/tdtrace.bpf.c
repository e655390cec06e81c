// SPDX-License-Identifier: GPL-2.0
/*
 * BPF attribute: at every sched_switch, read this CPU's counters, take the
 * delta since the previous switch on this CPU, and charge it to the entry
 * of the task that is switching out in its cgroup v2 (cgroup rows are
 * summed in user space).
 *
 * sched_switch fires before the switch, so the outgoing task is still
 * `current` and its cgroup is the one to charge.
 *
 * In order: knobs set before load, globals the loader writes while the
 * programs run, the programs' own types, maps, helpers, then programs.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>
#include "tdtrace.h"
#include "member_read.h"

char LICENSE[] SEC("license") = "GPL";

/* ---------------------------------------------------------------- knobs */

/*
 * Set by the loader before load; the verifier prunes what they turn off.
 * nr_counters and nr_groups: the most counter slots and groups any CPU
 * has, bounds on the per-CPU layout (struct td_layout), so that with one
 * counter the verifier prunes the loops after one round.
 */
const volatile int nr_counters = 1;
const volatile int nr_groups = 1;
/* CPUs possible: td_counters' stride, td_running's size (td_attach's scan). */
const volatile __u32 nr_cpu_ids = 1;
const volatile bool per_thread = false;
const volatile bool charge_tasks = true;  /* false with --per-cgroup: entries per cgroup */
const volatile bool track_times = true;	  /* per-entry enabled/running sums */
const volatile bool filter_pids = false;  /* -p or COMMAND: only td_traced_tgids */
const volatile int nr_cgroup_filters = 0; /* -c: only these cgroup subtrees */
const volatile __u32 max_slots = 10240;	  /* td_vals' size */
const volatile __u32 changed_words =
	1; /* td_changed's words per half: max_slots / 64, rounded up */

/* ------------------------------------------ globals the loader writes */

/*
 * Which cgroups -c names: .bss, not .rodata, because with --wait-cgroup
 * the loader changes them while the program runs (a cgroup created, or
 * removed and created again, at a -c path; id 0 matches nothing). It
 * writes the ids and levels, then moves filter_gen on, which empties the
 * answers cached in td_filter_cache.
 */
volatile __u64 cgroup_filter_id[TD_MAX_CGROUP_FILTERS];
volatile int cgroup_filter_level[TD_MAX_CGROUP_FILTERS];
volatile __u32 filter_gen;
volatile __u32 slot_gen; /* moved on after the loader deleted entries: see td_entries */
volatile __u32 pids_gen; /* moved on when the loader adds a process to follow */
/*
 * Read the members whose layout says direct (member_read.h) directly: set
 * only if td_selfcheck found it sound. Other members always use the helper.
 */
volatile bool members_direct;
/* A CPU's new layout, written just before the loader runs td_relayout there. */
struct td_layout new_layout;

/* Written by the programs, read by the loader. */
volatile __u32 slots_used;     /* slots of td_vals ever handed out */
volatile __u64 names_lost;     /* td_names records the ring had no room for */
struct td_selfcheck selfcheck; /* what td_selfcheck found */

/* ------------------------------------------------ the programs' own types */

/* cgroup moves of tasks running on CPUs past this are not split (see td_attach). */
#define TD_MAX_SCAN_CPUS 1024

/*
 * Per CPU: its layout (as the loader gave it, through td_relayout; its
 * epoch moved on by td_flush), and the baseline of the next delta.
 * Layout: counter slot s of CPU c is td_counters[s * nr_cpu_ids + c], for
 * s < nr_counters; it belongs to group group[s], and leads it if
 * leads[s]. nr_counters 0: the CPU is not counted.
 *
 * What every switch reads or writes comes first, the first slot and group
 * of each array near the layout: with one counter (--software) a switch
 * touches 3 lines here before the delta, not 10.
 */
struct cpu_state {
	struct td_layout layout;
	__u64 primed; /* the first read on a CPU only sets the baseline */
	__u64 last_enabled[TD_MAX_GROUPS];
	__u64 last_running[TD_MAX_GROUPS];
	__u64 last[TD_MAX_COUNTERS];
	/*
	 * Scratch of a switch, too big for the BPF stack: the reads, made
	 * the delta in place once every read succeeded (take_delta), and
	 * its part before a move.
	 */
	struct td_counts delta;
	struct td_counts moved;
	__u64 member_event[TD_MAX_COUNTERS]; /* struct perf_event * of each member, once found */
	__u64 scratch;			     /* see member_event() in member_read.h */
};

/*
 * This CPU's counter layout, clamped to the global bounds: the loops
 * below stop at nr slots and ng groups.
 */
struct layout {
	int nr;
	int ng;
	u32 pmu; /* key.pmu of what is charged here */
};

/*
 * cgroup moves of running tasks. td_running[cpu] says which task runs on
 * each CPU, in which cgroup, traced or not (kept at every switch). When
 * td_attach sees a running task moved, it leaves a pending move for that
 * CPU; the next read there splits the delta at the move, the part before
 * going to the old cgroup. Both are plain arrays indexed by CPU (sized by
 * the loader) because the mover runs on another CPU. Each CPU writes its
 * struct running at every switch: one cache line each, or two CPUs
 * switching at once take the line from each other.
 */
struct running {
	u64 cgroup_id;
	u32 pid;
	u32 tgid;
	u32 traced;
	u32 valid; /* written once: td_unseen counts only after a first switch here */
} __attribute__((aligned(64)));

struct pending_move {
	u64 when_ns; /* bpf_ktime_get_ns() just after the move */
	u64 old_cgroup_id;
	u32 old_traced;
	u32 pid; /* written last; 0 = none */
};
/* Before 6.1 a cgroup kept its ancestors' ids rather than pointers. */
struct cgroup___pre61 {
	int level;
	u64 ancestor_ids[];
} __attribute__((preserve_access_index));

/*
 * Per CPU, the -c answer for recently seen cgroup ids, direct-mapped. A
 * cgroup's ancestors never change and v2 ids are never reused, so an entry
 * goes stale only when the filter itself changes (filter_gen); a
 * collision only costs a walk.
 */
#define TD_FILTER_CACHE 256

struct filter_cache {
	struct {
		u64 cgroup_id;
		u32 traced;
		u32 gen; /* filter_gen when cached: another is stale */
	} slot[TD_FILTER_CACHE];
};

/* Per task, what it last charged: which slot, for which cgroup and core PMU. */
struct task_slot {
	u64 cgroup_id;
	u32 slot;
	u32 gen; /* slot_gen then */
	u32 pmu;
	u32 valid;
};

/*
 * Per CPU, the -p answer for recently seen threads, direct-mapped by
 * thread id. The answer never changes for a thread (its tgid and start
 * time are its own for life); its id and its own start time name it (a
 * reused id comes with another start time). The loader moves pids_gen on
 * when it adds a process, which empties the cache.
 */
#define TD_PID_CACHE 256

struct pid_cache {
	struct {
		u64 start;
		u32 pid;
		u32 pad;
		u32 gen; /* pids_gen + 1 then; 0: empty */
		u32 traced;
	} slot[TD_PID_CACHE];
};

/* ----------------------------------------------------------------- maps */

/*
 * Every counter of every CPU in one perf event array, at slot * nr_cpu_ids
 * + cpu, as perf's BPF cgroup counter lays
 * out its events: the program reads any number of counters from one map.
 * The loader sets max_entries (slots in use * nr_cpu_ids) before load.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(u32));
	__uint(value_size, sizeof(u32));
	__uint(max_entries, 1);
} td_counters SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct cpu_state);
} td_cpu_state SEC(".maps");

/* Keyed by epoch parity: see td_entry_bytes in tdtrace.h. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, u32);
	__type(value, struct td_cpu_totals);
} td_totals SEC(".maps");

/*
 * Entries: one per (task, cgroup, core PMU), or per (cgroup, core PMU)
 * with --per-cgroup. td_entries names each entry's slot; its counts are
 * td_vals[slot], which the loader reads through a memory mapping. A task
 * finds its slot in its own local storage (td_task_slot), without
 * hashing its key, at every switch but the first in a cgroup; the hash
 * is looked up only then. The loader sets the three sizes (--max-tasks).
 *
 * Slots are handed out in order (slots_used) and, once the loader has
 * deleted an exited task's entry, again from td_free_slots. The loader
 * deletes only entries of tasks that are gone, whose local storage went
 * with them; it then moves slot_gen on all the same, so that no slot
 * cached before a deletion is used after it.
 */
/* Not preallocated: its kernel memory follows the entries in use, not --max-tasks. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 10240);
	__type(key, struct td_key);
	__type(value, u32);
} td_entries SEC(".maps");

/* Values of td_entry_bytes(): the loader sets value_size to the plan's. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 10240);
	__uint(key_size, sizeof(u32));
	__uint(value_size, 8);
} td_vals SEC(".maps");

/*
 * Which entries were charged in each half: a bit per slot, half h's
 * words at h * changed_words. Set at an entry's first charge in an epoch
 * (charge_slot); the loader reads the closed half's bits,
 * visits only those entries, and clears them.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 2);
	__type(key, u32);
	__type(value, u64);
} td_changed SEC(".maps");

/* New entries' keys and names, and renames at exec (struct td_name); sized by the loader. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} td_names SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 10240);
	__type(value, u32);
} td_free_slots SEC(".maps");

/*
 * -p and COMMAND: traced processes by tgid. The value is the process's
 * start time, so that a reused PID does not match; 0 (set by the loader,
 * which cannot see start times) is filled in at first sight.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, u32);
	__type(value, u64);
} td_traced_tgids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct running);
} td_running SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct pending_move);
} td_moves SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct filter_cache);
} td_filter_cache SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_slot);
} td_task_slot SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct pid_cache);
} td_pid_cache SEC(".maps");

/* -------------------------------------------------------------- helpers */

static __always_inline u64 cgroup_ancestor_id(struct cgroup *cg, int level)
{
	/*
	 * barrier_var keeps clang from hoisting either branch's address
	 * arithmetic above the check: libbpf poisons the branch whose field
	 * this kernel lacks, and the verifier must never reach it.
	 */
	if (bpf_core_field_exists(cg->ancestors)) {
		struct cgroup *a;

		barrier_var(cg);
		a = BPF_CORE_READ(cg, ancestors[level]);
		return a ? BPF_CORE_READ(a, kn, id) : 0;
	}
	barrier_var(cg);
	return BPF_CORE_READ((struct cgroup___pre61 *)cg, ancestor_ids[level]);
}

/* The ancestor walk for -c: several probe reads, so its answers are cached below. */
static __always_inline bool cgroup_under_filter(struct cgroup *cg)
{
	int level = cg->level;

	for (int k = 0; k < TD_MAX_CGROUP_FILTERS; k++) {
		if (k >= nr_cgroup_filters)
			break;
		/* Read once, and bounded for the verifier: the loader may change it. */
		int want = cgroup_filter_level[k];

		if (want < 0 || want > 255)
			continue;
		if (level >= want && cgroup_ancestor_id(cg, want) == cgroup_filter_id[k])
			return true;
	}
	return false;
}

/* Is @t's cgroup v2 one of the -c cgroups, or below one? */
static __always_inline bool in_cgroup_filter(struct task_struct *t)
{
	struct cgroup *cg = t->cgroups->dfl_cgrp;
	u64 id = cg->kn->id;
	struct filter_cache *cache;
	u32 zero = 0, i = id & (TD_FILTER_CACHE - 1), gen = filter_gen;
	bool yes;

	cache = bpf_map_lookup_elem(&td_filter_cache, &zero);
	if (cache && cache->slot[i].cgroup_id == id && cache->slot[i].gen == gen)
		return cache->slot[i].traced;
	yes = cgroup_under_filter(cg);
	if (cache) {
		cache->slot[i].cgroup_id = id;
		cache->slot[i].traced = yes;
		cache->slot[i].gen = gen;
	}
	return yes;
}

/* Is @t a thread of a -p or COMMAND process? */
static __always_inline bool pid_traced(struct task_struct *t)
{
	u64 start = t->start_time, *want;
	u32 pid = t->pid, zero = 0, i = pid & (TD_PID_CACHE - 1), gen = pids_gen + 1;
	struct pid_cache *cache = bpf_map_lookup_elem(&td_pid_cache, &zero);
	u32 tgid = t->tgid;
	bool yes;

	if (cache && cache->slot[i].pid == pid && cache->slot[i].start == start &&
	    cache->slot[i].gen == gen)
		return cache->slot[i].traced;
	want = bpf_map_lookup_elem(&td_traced_tgids, &tgid);
	if (!want)
		yes = false;
	else if (*want == 0)
		yes = (*want = t->group_leader->start_time, true);
	else
		yes = *want == t->group_leader->start_time;
	if (cache) {
		cache->slot[i].pid = pid;
		cache->slot[i].start = start;
		cache->slot[i].gen = gen;
		cache->slot[i].traced = yes;
	}
	return yes;
}

/* -c and -p together trace the intersection. */
static __always_inline bool traced(struct task_struct *t)
{
	if (filter_pids && !pid_traced(t))
		return false;
	if (nr_cgroup_filters && !in_cgroup_filter(t))
		return false;
	return true;
}

/*
 * This CPU's entry of td_running: looked up once per program run and
 * handed to what reads or writes it.
 */
static __always_inline struct running *running_here(void)
{
	u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&td_running, &cpu);
}

/* Does @r name @t: was @t seen switching in here (or moved by td_attach since)? */
static __always_inline bool names(const struct running *r, struct task_struct *t)
{
	return r && r->pid == t->pid && r->tgid == t->tgid;
}

/* Remember in @r what runs on this CPU now, for td_attach. */
static __always_inline void note_running(struct running *r, struct task_struct *t, bool t_traced)
{
	if (!r)
		return;
	r->pid = t->pid;
	r->tgid = t->tgid;
	r->traced = t_traced;
	r->valid = 1;
	r->cgroup_id = t->pid ? t->cgroups->dfl_cgrp->kn->id : TD_IDLE_CGROUP_ID;
}

/*
 * Whether @prev is traced was worked out when it was switched in, and kept
 * in td_running (td_attach updates it if the task moves): one lookup saved
 * per switch.
 */
static __always_inline bool traced_when_switched_in(const struct running *r,
						    struct task_struct *prev)
{
	if (names(r, prev))
		return r->traced;
	return traced(prev);
}

/*
 * The cgroup of @prev: recorded when it was switched in (and updated by
 * td_attach if it moved), which saves a helper call per switch.
 */
static __always_inline u64 running_cgroup(const struct running *r, struct task_struct *prev)
{
	if (!prev->pid)
		return TD_IDLE_CGROUP_ID;
	if (names(r, prev))
		return r->cgroup_id;
	return bpf_get_current_cgroup_id();
}

/* This CPU's struct cpu_state: for the global functions, which look it up themselves. */
static __always_inline struct cpu_state *cpu_state_here(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&td_cpu_state, &zero);
}

/* The index of counter @slot of this CPU in td_counters. */
static __always_inline u32 counter_key(int slot, u32 cpu)
{
	return (u32)slot * nr_cpu_ids + cpu;
}

/* A member's count, from its struct perf_event (member_read.h), cached in @st. */
static __always_inline int read_direct(int slot, u32 cpu, struct cpu_state *st, u64 *count)
{
	if (slot < 0 || slot >= TD_MAX_COUNTERS)
		return -1;
	return read_member_direct(&td_counters, counter_key(slot, cpu), &st->member_event[slot],
				  &st->scratch, count);
}

/* A helper read of counter @slot of this CPU (the kernel checks it is this CPU's). */
static __always_inline int read_helper(int slot, u32 cpu, struct bpf_perf_event_value *v)
{
	return bpf_perf_event_read_value(&td_counters, counter_key(slot, cpu), v, sizeof(*v));
}

static __always_inline struct layout layout_of(const struct cpu_state *st)
{
	struct layout l = { .nr = st->layout.nr_counters,
			    .ng = st->layout.nr_groups,
			    .pmu = st->layout.pmu };

	if (l.nr > nr_counters)
		l.nr = nr_counters;
	if (l.ng > nr_groups)
		l.ng = nr_groups;
	return l;
}

/*
 * Is the struct perf_event of slot @slot also that of another of the
 * first @nr slots of this CPU? A global function: td_selfcheck calls it
 * in its own loop over the slots.
 */
__noinline int event_shared(int slot, int nr)
{
	struct cpu_state *st;

	st = cpu_state_here();
	if (!st || slot < 0 || slot >= TD_MAX_COUNTERS)
		return 0;
	for (int other = 0; other < TD_MAX_COUNTERS; other++) {
		if (other >= nr || other >= nr_counters)
			break;
		if (other != slot && st->member_event[other] == st->member_event[slot])
			return 1;
	}
	return 0;
}

/*
 * Compare, for one member, a direct read with a helper read taken just
 * after. Only after its leader has run (@ran): an unscheduled group's
 * counts are equal both ways and prove nothing.
 */
static __always_inline void check_member(int slot, u32 cpu, struct cpu_state *st, struct layout l,
					 bool ran)
{
	struct bpf_perf_event_value v;
	u64 direct;

	if (!ran) {
		selfcheck.unscheduled++;
		return;
	}
	if (read_direct(slot, cpu, st, &direct) || read_helper(slot, cpu, &v)) {
		selfcheck.failed++;
		return;
	}
	selfcheck.reads++;
	/* Each member must be its own event: equal counts of two events prove nothing. */
	if (event_shared(slot, l.nr)) {
		selfcheck.failed++;
		return;
	}
	if (direct == v.counter) {
		selfcheck.equal++;
		selfcheck.nonzero += direct > 0;
	} else if (direct > v.counter)
		selfcheck.ahead++;
	else if ((v.counter - direct) * 100 > v.counter)
		selfcheck.behind++;
}

/*
 * The per-counter loops are global functions: the verifier checks each
 * once, with nr and ng unknown. Inlined, each exit of a loop bounded by
 * the per-CPU layout carried its own copy of all that follows it (a
 * million instructions for td_switch with 24 counters in 5 groups and
 * -c). Their arguments: pointers to memory, maybe NULL to the verifier,
 * and scalars; the per-CPU state they look up themselves.
 */

/* *@v, a read, made the delta since the baseline *@last, which moves on to it. */
static __always_inline void since_last(u64 *v, u64 *last)
{
	u64 now = *v;

	*v = now - *last;
	*last = now;
}

/*
 * Make the reads in st->delta the delta: less the baseline st->last, for
 * the first @nr counters and @ng groups, the baseline moved on to the
 * reads.
 */
static __always_inline void take_delta(struct cpu_state *st, int nr, int ng)
{
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		if (i >= nr || i >= nr_counters)
			break;
		since_last(&st->delta.count[i], &st->last[i]);
	}
	for (int g = 0; g < TD_MAX_GROUPS; g++) {
		if (g >= ng || g >= nr_groups)
			break;
		since_last(&st->delta.enabled_ns[g], &st->last_enabled[g]);
		since_last(&st->delta.running_ns[g], &st->last_running[g]);
	}
	st->delta.slices = 1;
}

/*
 * This CPU's delta since its last read, in st->delta: read the first @nr
 * counters into st->delta.count, and the first @ng groups' enabled and
 * running times, each from its leader (a group is scheduled as one), into
 * st->delta.enabled_ns and running_ns; then, every read done, make them
 * the delta. A failed read keeps the old baseline: the next delta covers
 * this slice too.
 */
__noinline int read_counters(int nr, int ng)
{
	u32 cpu = bpf_get_smp_processor_id();
	struct bpf_perf_event_value v;
	struct cpu_state *st;

	st = cpu_state_here();
	if (!st)
		return -1;
	for (int slot = 0; slot < TD_MAX_COUNTERS; slot++) {
		if (slot >= nr || slot >= nr_counters)
			break;
		if (st->layout.leads[slot]) {
			u32 g = st->layout.group[slot];

			if (g >= TD_MAX_GROUPS || read_helper(slot, cpu, &v))
				return -1;
			st->delta.count[slot] = v.counter;
			st->delta.enabled_ns[g] = v.enabled;
			st->delta.running_ns[g] = v.running;
		} else if (members_direct && st->layout.direct[slot]) {
			/* After their leader's read: their counts are current already. */
			if (read_direct(slot, cpu, st, &st->delta.count[slot]))
				return -1;
		} else {
			if (read_helper(slot, cpu, &v))
				return -1;
			st->delta.count[slot] = v.counter;
		}
	}
	take_delta(st, nr, ng);
	return 0;
}

#define TD_ADD_ATOMIC 1 /* atomic adds: other CPUs may add to it at the same time */
#define TD_ADD_TIMES  2 /* the groups' times too */

/* dst += d, the first @nr counts and (with TD_ADD_TIMES) @ng groups' times. */
__noinline int add_counts(struct td_counts *dst, const struct td_counts *d, int nr, int ng,
			  int flags)
{
	bool atomic = flags & TD_ADD_ATOMIC;

	if (!dst || !d)
		return 0;
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		if (i >= nr || i >= nr_counters)
			break;
		if (atomic)
			__sync_fetch_and_add(&dst->count[i], d->count[i]);
		else
			dst->count[i] += d->count[i];
	}
	for (int g = 0; (flags & TD_ADD_TIMES) && g < TD_MAX_GROUPS; g++) {
		if (g >= ng || g >= nr_groups)
			break;
		if (atomic) {
			__sync_fetch_and_add(&dst->enabled_ns[g], d->enabled_ns[g]);
			__sync_fetch_and_add(&dst->running_ns[g], d->running_ns[g]);
		} else {
			dst->enabled_ns[g] += d->enabled_ns[g];
			dst->running_ns[g] += d->running_ns[g];
		}
	}
	if (atomic)
		__sync_fetch_and_add(&dst->slices, d->slices);
	else
		dst->slices += d->slices;
	return 0;
}

/* dst += d on this CPU only (per-CPU maps need no atomics). */
static __always_inline void add_local(struct td_counts *dst, const struct td_counts *d,
				      struct layout l)
{
	add_counts(dst, d, l.nr, l.ng, TD_ADD_TIMES);
}

/* The entry's key of @prev in @cgroup_id, on a CPU of core PMU @pmu. */
static __always_inline struct td_key entry_key(struct task_struct *prev, u64 cgroup_id, u32 pmu)
{
	struct task_struct *owner = per_thread ? prev : prev->group_leader;
	struct td_key key = { .cgroup_id = cgroup_id, .pmu = pmu };

	/* --per-cgroup: one entry per cgroup, whatever the task. */
	if (charge_tasks) {
		key.id = per_thread ? prev->pid : prev->tgid;
		/* Each CPU's idle task starts at its own time: keep them one row. */
		key.start_ns = prev->pid ? owner->start_time : 0;
	}
	return key;
}

/* Tell the loader who slot @slot is: a new entry (@key) or, at exec, its new name. */
static __always_inline void send_name(u32 kind, u32 slot, const struct td_key *key, u32 tgid,
				      struct task_struct *owner)
{
	struct td_name *n = bpf_ringbuf_reserve(&td_names, sizeof(*n), 0);

	if (!n) {
		/* The loader finds the key in td_entries instead. */
		__sync_fetch_and_add(&names_lost, 1);
		return;
	}
	n->kind = kind;
	n->slot = slot;
	n->key = *key;
	n->tgid = tgid;
	n->pad = 0;
	__builtin_memset(n->comm, 0, sizeof(n->comm));
	if (owner)
		bpf_probe_read_kernel_str(n->comm, sizeof(n->comm), owner->comm);
	/* Read at the next interval: no wakeup. */
	bpf_ringbuf_submit(n, BPF_RB_NO_WAKEUP);
}

/*
 * A slot for a new entry @key of @prev, @key pointing at it, and the
 * loader told (td_names). -1 when every slot is taken.
 */
static __always_inline s64 new_slot(struct task_struct *prev, const struct td_key *key)
{
	struct task_struct *owner = per_thread ? prev : prev->group_leader;
	u32 slot;

	if (bpf_map_pop_elem(&td_free_slots, &slot)) {
		/* Never past the end, however many switches ask while it is full. */
		if (slots_used >= max_slots)
			return -1;
		slot = __sync_fetch_and_add(&slots_used, 1);
		if (slot >= max_slots)
			return -1;
	}
	/* The loader zeroed a freed slot before giving it back. */
	if (bpf_map_update_elem(&td_entries, key, &slot, BPF_NOEXIST)) {
		/* Another CPU made it first (two threads of a process), or the hash is full. */
		bpf_map_push_elem(&td_free_slots, &slot, 0);
		return -1;
	}
	if (charge_tasks)
		send_name(TD_NAME_NEW, slot, key, prev->tgid, owner);
	else
		send_name(TD_NAME_NEW, slot, key, 0, NULL);
	return slot;
}

/*
 * The slot of @prev's entry: the one its local storage keeps, or, the
 * first time in this cgroup (or after the loader deleted entries), the
 * hash's, making the entry if there is none. -1 if the map is full.
 */
static __always_inline s64 entry_of(struct task_struct *prev, u64 cgroup_id, u32 pmu)
{
	struct task_slot *ts;
	struct td_key key;
	u32 gen = slot_gen;
	u32 *found;
	s64 made;

	ts = bpf_task_storage_get(&td_task_slot, prev, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (ts && ts->valid && ts->gen == gen && ts->cgroup_id == cgroup_id && ts->pmu == pmu)
		return ts->slot;
	key = entry_key(prev, cgroup_id, pmu);
	found = bpf_map_lookup_elem(&td_entries, &key);
	if (found) {
		made = *found;
	} else {
		made = new_slot(prev, &key);
		if (made < 0) {
			/* Lost a race for it? Then it is there now. */
			found = bpf_map_lookup_elem(&td_entries, &key);
			if (!found)
				return -1;
			made = *found;
		}
	}
	if (ts) {
		ts->cgroup_id = cgroup_id;
		ts->slot = made;
		ts->gen = gen;
		ts->pmu = pmu;
		ts->valid = 1;
	}
	return made;
}

/* Half @epoch & 1 of the packed counts at @counts (see td_entry_bytes in tdtrace.h). */
static __always_inline u64 *packed_half(void *counts, u32 epoch)
{
	return (u64 *)counts + (epoch & 1) * TD_HALF_WORDS(nr_counters, nr_groups, track_times);
}

/*
 * A packed half @w += d, with atomic adds (other CPUs may charge it at
 * the same time), over the run's width: the knobs are constants to the
 * verifier, so these loops cost it nothing per layout. Past a CPU's own
 * layout, d holds zeros. Returns the slices word as it was.
 */
static __always_inline u64 add_packed(u64 *w, const struct td_counts *d)
{
	u64 slices_before = __sync_fetch_and_add(&w[TD_HALF_SLICES], d->slices);
	int nr = nr_counters, ng = nr_groups;

	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		if (i >= nr)
			break;
		__sync_fetch_and_add(&w[TD_HALF_COUNT(i)], d->count[i]);
	}
	/* Software counters are never multiplexed: their times would say nothing. */
	for (int g = 0; track_times && g < TD_MAX_GROUPS; g++) {
		if (g >= ng)
			break;
		__sync_fetch_and_add(&w[TD_HALF_ENABLED(nr, g)], d->enabled_ns[g]);
		__sync_fetch_and_add(&w[TD_HALF_RUNNING(nr, ng, g)], d->running_ns[g]);
	}
	return slices_before;
}

/*
 * Set slot @slot's bit in td_changed for @epoch's half: the loader visits
 * only the entries charged.
 */
static __always_inline void mark_charged(u32 slot, u32 epoch)
{
	u32 word = (epoch & 1) * changed_words + slot / 64;
	u64 *bits = bpf_map_lookup_elem(&td_changed, &word);

	if (bits)
		__sync_fetch_and_or(bits, 1ull << (slot & 63));
}

/*
 * Charge @d to slot @slot in @epoch's half: NULL if there is no such slot,
 * else that half. The first charge there since the loader zeroed it (its
 * slices word was 0) marks the slot; a charge that is no slice (a region's
 * read, the part of a slice before a cgroup move) marks it again, which
 * costs an atomic and changes nothing.
 */
static __always_inline u64 *charge_slot(s64 slot, u32 epoch, const struct td_counts *d)
{
	u64 *w;
	u32 key;

	if (slot < 0)
		return NULL;
	key = slot;
	w = bpf_map_lookup_elem(&td_vals, &key);
	if (!w)
		return NULL;
	w = packed_half(w, epoch);
	if (!add_packed(w, d))
		mark_charged(key, epoch);
	return w;
}

static __always_inline void charge_entry(struct task_struct *prev, u64 cgroup_id, u32 epoch,
					 const struct td_counts *d, struct td_cpu_totals *tot,
					 struct layout l)
{
	u64 *w = charge_slot(entry_of(prev, cgroup_id, l.pmu), epoch, d);

	if (!w) {
		/* Map full: keep the delta, count the drop (for tasks and cgroups alike). */
		add_local(&tot->task_overflow, d, l);
		add_local(&tot->cgroup_overflow, d, l);
		tot->task_drops++;
		tot->cgroup_drops++;
		return;
	}

	/*
	 * Exiting (exit_state is set just before the final switch). For a
	 * process, only once the last thread has left do_exit. The loader
	 * deletes the entry after a whole interval without charges.
	 */
	if (charge_tasks && prev->exit_state && (per_thread || !prev->signal->live.counter))
		__sync_fetch_and_or(&w[TD_HALF_SLICES], TD_HALF_EXITED);
}

#include "region.h"

/* @d to @t (or to untraced) in @epoch's half. */
static __always_inline void charge(struct task_struct *t, bool traced_, u64 cgroup_id, u32 epoch,
				   const struct td_counts *d, struct td_cpu_totals *tot,
				   struct layout l)
{
	if (!traced_) {
		add_local(&tot->untraced, d, l);
		return;
	}
	charge_entry(t, cgroup_id, epoch, d, tot, l);
	charge_regions(t, cgroup_id, epoch & 1, d, tot, l, false);
}

/*
 * v * num / den for num <= den, without overflow: v % den * num needs den < 2^32.
 * A global function, so that the verifier checks its loop once, not at
 * every call for every range of den (it is called per slot and group).
 */
__noinline u64 scale(u64 v, u64 num, u64 den)
{
	/* More than 4.3 s between reads: drop low bits of both (bounded for the verifier). */
	for (int i = 0; i < 32 && den >> 32; i++) {
		num >>= 1;
		den >>= 1;
	}
	if (!den)
		return 0;
	return v / den * num + v % den * num / den;
}

/*
 * Move the share @before / @span of this CPU's st->delta to st->moved:
 * the first @nr counts and @ng groups' times.
 */
__noinline int split_delta(u64 before, u64 span, int nr, int ng)
{
	struct cpu_state *st;

	st = cpu_state_here();
	if (!st)
		return 0;
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		if (i >= nr || i >= nr_counters)
			break;
		st->moved.count[i] = scale(st->delta.count[i], before, span);
		st->delta.count[i] -= st->moved.count[i];
	}
	for (int g = 0; g < TD_MAX_GROUPS; g++) {
		if (g >= ng || g >= nr_groups)
			break;
		st->moved.enabled_ns[g] = scale(st->delta.enabled_ns[g], before, span);
		st->moved.running_ns[g] = scale(st->delta.running_ns[g], before, span);
		st->delta.enabled_ns[g] -= st->moved.enabled_ns[g];
		st->delta.running_ns[g] -= st->moved.running_ns[g];
	}
	return 0;
}

/*
 * If @t was moved to another cgroup while running here, charge the part of
 * @d before the move to its old cgroup (or to untraced) and leave the rest
 * in @d. The time since the last read is group 0's enabled-time delta;
 * the share before the move is exact for cpu-clock and, for TopDown, an
 * estimate in proportion to time.
 */
static __always_inline void split_at_move(struct task_struct *t, u32 epoch, struct td_counts *d,
					  struct td_cpu_totals *tot, struct cpu_state *st,
					  struct layout l)
{
	u32 cpu = bpf_get_smp_processor_id();
	struct pending_move *mv = bpf_map_lookup_elem(&td_moves, &cpu);
	struct td_counts *old = &st->moved;
	u64 since_move, before, span = d->enabled_ns[0];

	if (!mv || !mv->pid)
		return;
	if (mv->pid != t->pid || !span) {
		mv->pid = 0; /* stale: that task is no longer running here */
		return;
	}
	since_move = bpf_ktime_get_ns() - mv->when_ns;
	before = span > since_move ? span - since_move : 0;
	split_delta(before, span, l.nr, l.ng); /* d is st->delta, old st->moved */
	/* The slice goes on, and ends, in the new cgroup: the old part adds no slice. */
	old->slices = 0;
	charge(t, mv->old_traced, mv->old_cgroup_id, epoch, old, tot, l);
	mv->pid = 0;
}

/*
 * Charge @prev with this CPU's counter deltas since the last read here;
 * a task outside the -c/-p/COMMAND targets goes to the untraced bucket.
 * Only the slots and groups of this CPU's layout are touched: st->delta
 * and st->moved keep zeros past them.
 */
static __always_inline int account_to(struct task_struct *prev, bool prev_traced, u64 cgroup_id)
{
	struct td_cpu_totals *tot;
	struct cpu_state *st;
	struct td_counts *d;
	struct layout l;
	u32 zero = 0, epoch, half;

	st = bpf_map_lookup_elem(&td_cpu_state, &zero);
	if (!st)
		return 0;
	l = layout_of(st);
	/* A CPU left out (an E-core, a failed open, onlined later) has nothing to read. */
	if (l.nr <= 0)
		return 0;
	/* Read once: td_flush may move the epoch on only between two programs on this CPU. */
	epoch = st->layout.epoch;
	half = epoch & 1;
	tot = bpf_map_lookup_elem(&td_totals, &half);
	if (!tot)
		return 0;

	if (read_counters(l.nr, l.ng)) {
		tot->read_errors++;
		return 0;
	}
	d = &st->delta;
	if (!st->primed) {
		st->primed = 1;
		return 0;
	}

	add_local(&tot->all, d, l);
	/* The idle tasks (pid 0) belong to no cgroup; keep them apart. */
	split_at_move(prev, epoch, d, tot, st, l);
	charge(prev, prev_traced, cgroup_id, epoch, d, tot, l);
	return 0;
}

/*
 * Charge @prev (to its own cgroup) with this CPU's deltas since the last
 * read; @r is this CPU's td_running.
 */
static __always_inline int account(struct task_struct *prev, bool prev_traced,
				   const struct running *r)
{
	return account_to(prev, prev_traced, running_cgroup(r, prev));
}

/* ------------------------------------------------------------- programs */

/*
 * A switch out of a task this program did not see come in on this CPU
 * (td_running names another): the kernel switched without the tracepoint
 * firing, or this program missed a run. The slice read now then spans
 * more than @prev's: counted (unseen_switches), so that a user sees when
 * attribution on a machine is approximate.
 */
static __always_inline void note_unseen(const struct running *r, struct task_struct *prev)
{
	struct td_cpu_totals *tot;
	struct cpu_state *st;
	u32 zero = 0, half;

	if (!r || !r->valid || names(r, prev))
		return;
	st = bpf_map_lookup_elem(&td_cpu_state, &zero);
	if (!st)
		return;
	half = st->layout.epoch & 1;
	tot = bpf_map_lookup_elem(&td_totals, &half);
	if (tot)
		tot->unseen_switches++;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(td_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct running *r = running_here();
	bool prev_traced, next_traced;

	note_unseen(r, prev);
	if (!filter_pids && !nr_cgroup_filters) {
		account(prev, true, r);
		note_running(r, next, true);
		return 0;
	}
	/*
	 * Between two untraced tasks read nothing: the next read, when a
	 * traced task comes in, charges the gap to the untraced bucket.
	 */
	prev_traced = traced_when_switched_in(r, prev);
	next_traced = traced(next);
	if (prev_traced || next_traced)
		account(prev, prev_traced, r);
	note_running(r, next, next_traced);
	/* The last thread's final switch: free its slot, or a fork-heavy COMMAND fills the map. */
	if (filter_pids && prev->exit_state && !prev->signal->live.counter) {
		u32 tgid = prev->tgid;

		bpf_map_delete_elem(&td_traced_tgids, &tgid);
	}
	return 0;
}

/*
 * Not attached: the loader runs it on each CPU (BPF_PROG_TEST_RUN with
 * BPF_F_TEST_RUN_ON_CPU, an IPI) at every interval boundary, so that the
 * task running there is charged up to now, not only when it next switches
 * out. A spinning task would otherwise land in whichever interval its
 * slice ends in.
 *
 * It then moves this CPU to the next epoch: from here on, charges go to
 * the other half. The IPI runs with interrupts off, between programs
 * (sched_switch, cgroup-switches and cpu_idle programs run with interrupts
 * off too), so once it has run on every CPU, nothing writes the closed
 * half and the loader reads it whole.
 */
SEC("raw_tp")
int td_flush(void *ctx)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct running *r = running_here();
	bool t_traced = traced(t);
	struct cpu_state *st;
	u32 zero = 0;

	account(t, t_traced, r);
	note_running(r, t, t_traced);
	st = bpf_map_lookup_elem(&td_cpu_state, &zero);
	if (st)
		st->layout.epoch++;
	return 0;
}

/*
 * Run by the loader on a CPU (BPF_F_TEST_RUN_ON_CPU): on each counted CPU
 * before attaching, and again on one that went offline or came back. It
 * takes the layout in new_layout for this CPU. Its counters may be new
 * perf events, so the cached member pointers go and the baseline is read
 * here and now: no delta spans the old and the new counters, and the
 * slice running from this moment is charged at the next switch (a lone
 * task may not switch before the next interval). It also takes the
 * loader's epoch: offline, a CPU misses the others' flushes.
 */
SEC("raw_tp")
int td_relayout(void *ctx)
{
	struct cpu_state *st;
	struct layout l;
	u32 zero = 0;

	st = bpf_map_lookup_elem(&td_cpu_state, &zero);
	if (!st)
		return 0;
	st->layout.nr_counters = new_layout.nr_counters;
	st->layout.nr_groups = new_layout.nr_groups;
	st->layout.pmu = new_layout.pmu;
	st->layout.epoch = new_layout.epoch;
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		st->layout.group[i] = new_layout.group[i];
		st->layout.leads[i] = new_layout.leads[i];
		st->layout.direct[i] = new_layout.direct[i];
		st->member_event[i] = 0;
	}
	st->primed = 0;
	/*
	 * Charges add every column the knobs size, trusting zeros past this
	 * CPU's layout: a layout with fewer counters or groups than the one
	 * before must not leave the old reads there.
	 */
	__builtin_memset(&st->delta, 0, sizeof(st->delta));
	__builtin_memset(&st->moved, 0, sizeof(st->moved));
	/* From a zero baseline, the read below sets it to the counts now. */
	__builtin_memset(st->last, 0, sizeof(st->last));
	__builtin_memset(st->last_enabled, 0, sizeof(st->last_enabled));
	__builtin_memset(st->last_running, 0, sizeof(st->last_running));
	l = layout_of(st);
	if (l.nr <= 0 || read_counters(l.nr, l.ng))
		return 0; /* not primed: the next read sets the baseline */
	st->primed = 1;
	return 0;
}

/*
 * Run by the loader on each counted CPU (BPF_F_TEST_RUN_ON_CPU) before
 * attaching: every member to be read directly is compared just after its
 * group leader's read, if that leader has run (time_running above 0).
 */
SEC("raw_tp")
int td_selfcheck(void *ctx)
{
	u32 cpu = bpf_get_smp_processor_id(), zero = 0;
	struct bpf_perf_event_value v;
	struct cpu_state *st;
	struct layout l;
	bool ran = false;

	st = bpf_map_lookup_elem(&td_cpu_state, &zero);
	if (!st)
		return 0;
	l = layout_of(st);
	for (int slot = 0; slot < TD_MAX_COUNTERS; slot++) {
		if (slot >= l.nr)
			break;
		if (st->layout.leads[slot]) {
			/* Slot order: a group's leader comes before its members. */
			ran = false;
			if (read_helper(slot, cpu, &v))
				selfcheck.failed++;
			else
				ran = v.running > 0;
		} else if (st->layout.direct[slot]) {
			check_member(slot, cpu, st, l, ran);
		}
	}
	return 0;
}

/*
 * A task (or a whole thread group) moved to another cgroup: cgroup.procs
 * written, a runtime placing a process. Fires in the mover's context just
 * after the move. For every CPU running a moved task, leave a pending move
 * there with the old cgroup from td_running. No counters are read here:
 * they can only be read on their own CPU.
 */
SEC("tp_btf/cgroup_attach_task")
int BPF_PROG(td_attach, struct cgroup *dst, const char *path, struct task_struct *task,
	     bool threadgroup)
{
	u64 now = bpf_ktime_get_ns(), dst_id = dst->kn->id;
	u32 tgid = task->tgid, pid = task->pid;
	bool now_traced;

	/* The tracepoint fires for v1 hierarchies too; only v2 moves change what we charge. */
	if (dst->root->hierarchy_id != 0)
		return 0;
	now_traced = traced(task); /* the whole group moved alike: same answer for each thread */

	for (u32 cpu = 0; cpu < TD_MAX_SCAN_CPUS && cpu < nr_cpu_ids; cpu++) {
		u32 key = cpu; /* the counter stays in a register, where the verifier tracks it */
		struct running *r = bpf_map_lookup_elem(&td_running, &key);
		struct pending_move *mv;

		if (!r || !r->pid || r->cgroup_id == dst_id)
			continue;
		if (threadgroup ? r->tgid != tgid : r->pid != pid)
			continue;
		mv = bpf_map_lookup_elem(&td_moves, &key);
		if (!mv)
			continue;
		mv->when_ns = now;
		mv->old_cgroup_id = r->cgroup_id;
		mv->old_traced = r->traced;
		mv->pid = r->pid;
		/* A second move in the same slice splits from here. */
		r->cgroup_id = dst_id;
		r->traced = now_traced;
	}
	return 0;
}

/*
 * --per-cgroup without targets: attached to each CPU's cgroup-switches
 * software event instead of sched_switch, so it runs only when the cgroup
 * changes (perf's BPF cgroup counter does the same). The kernel counts it
 * in perf_event_task_sched_out, before the switch: current is the task
 * leaving, and everything since the last read here was spent in its cgroup.
 */
SEC("perf_event")
int td_cgroup_switch(struct bpf_perf_event_data *ctx)
{
	account(bpf_get_current_task_btf(), true, running_here());
	return 0;
}

/*
 * With td_cgroup_switch only: the idle task shares the root cgroup, so
 * going idle or leaving idle for a root-cgroup task is no cgroup switch.
 * Split at idle instead: entering idle, what ran since the last read was
 * in the root cgroup (anything elsewhere was charged at its cgroup switch);
 * leaving idle, it was idle.
 */
#define TD_PWR_EVENT_EXIT ((unsigned int)-1)

SEC("tp_btf/cpu_idle")
int BPF_PROG(td_idle, unsigned int state, unsigned int cpu_id)
{
	struct task_struct *t = bpf_get_current_task_btf();

	if (state == TD_PWR_EVENT_EXIT)
		account_to(t, true, TD_IDLE_CGROUP_ID);
	else
		account_to(t, true, t->cgroups->dfl_cgrp->kn->id);
	return 0;
}

/* -p and COMMAND follow new processes (threads share the tgid already). */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(td_fork, struct task_struct *parent, struct task_struct *child)
{
	u32 ctgid = child->tgid, zero = 0;
	u64 start = child->start_time;

	if (!filter_pids || child->pid != ctgid || !traced(parent))
		return 0;
	if (bpf_map_update_elem(&td_traced_tgids, &ctgid, &start, BPF_ANY)) {
		/* Not part of the conservation sums: any half will do, it is read in turn. */
		struct td_cpu_totals *tot = bpf_map_lookup_elem(&td_totals, &zero);

		if (tot)
			tot->follow_drops++;
	}
	return 0;
}

/* exec renames the process: keep the row's name current. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(td_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	u32 zero = 0, pmu = 0, *slot;
	struct cpu_state *st = bpf_map_lookup_elem(&td_cpu_state, &zero);
	struct td_key key;

	regions_exec(p);
	if (!charge_tasks)
		return 0;
	/* The entry of the core type it runs on now. */
	if (st)
		pmu = st->layout.pmu;
	/* Its entry in the cgroup it runs in now (exec runs in the task). */
	key = entry_key(p, bpf_get_current_cgroup_id(), pmu);
	slot = bpf_map_lookup_elem(&td_entries, &key);
	if (slot)
		send_name(TD_NAME_EXEC, *slot, &key, p->tgid, p);
	return 0;
}
