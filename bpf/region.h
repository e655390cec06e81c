/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Regions (--region BINARY:SYMBOL, --usdt): the code between a call's
 * entry and its return, or between a BEGIN and an END marker of
 * tdtrace/region.h, charged like one more key of the thread that runs it.
 * Included by tdtrace.bpf.c after its helpers; its programs are attached
 * by the loader (user/tracer/regions.c): a uprobe and a uretprobe per
 * --region, the region id in the BPF cookie; the USDT programs map the
 * marker's name to an id (td_usdt_names).
 *
 * A read charges the delta since the last read on this CPU to the
 * thread's entry AND to every region open on the thread (charge_regions,
 * called from charge()). The uprobes read at entry and at return; a
 * switch, a flush or a cgroup move in between charges the open regions
 * as it charges the thread, so a region counts only its on-CPU part.
 *
 * Meaning (README "Regions"): per thread at most TD_MAX_OPEN_REGIONS
 * regions are open at once; each gets the inclusive counts of the time it
 * is open. A region entered again while open (recursion) only deepens it:
 * the outermost call counts, and `calls` counts outermost calls. An entry
 * past the bound is counted in region_nest_drops, never charged.
 *
 * CONCURRENCY. td_switch, td_flush (an IPI), td_cgroup_switch, td_idle
 * and td_relayout run with interrupts off: none interrupts another on a
 * CPU. The uprobe programs run in process context with interrupts on, so
 * any of those may run in the middle of one, on the same CPU's cpu_state.
 * Hence the uprobe path:
 *   - reads into its own stack, never st->delta, and with the
 *     helper only (no direct member reads: their pointer cache is reset
 *     by td_relayout). Not a per-CPU scratch either: since 6.1 a uprobe
 *     program runs preemptible with no per-CPU recursion guard, so two
 *     uprobe programs of two tasks can overlap on one CPU;
 *   - takes the baseline with one atomic exchange per value:
 *       old = xchg(&st->last[i], cur);  delta = cur - old;
 *   - adds to the per-CPU totals with atomic adds (a plain += there could
 *     lose the add of a read that interrupts it).
 * Why the sums stay exact: let the uprobe read c1, and a read R that
 * interrupts it (before its exchange) read c2 >= c1 and store last = c2,
 * charging c2 - c0 to current. The uprobe's exchange then returns c2 and
 * charges c1 - c2 (a "negative" delta in u64 arithmetic, which wraps),
 * leaving last = c1; the next read charges c3 - c1. Sum charged to
 * current: (c2 - c0) + (c1 - c2) + (c3 - c1) = c3 - c0, exact, and the
 * same task is current all along: R runs on this CPU on behalf of the
 * task it interrupted (a switch away from it charges it too). An
 * interrupting read after the exchange just sees last = c1. The
 * per-CPU totals get the same deltas, so conservation holds. Preempted
 * between the read and the exchange, the uprobe sees the other task's
 * slices come back with the wrap-around: its thread is exact, its open
 * regions may take a slice of off-CPU time in that window (a few hundred
 * ns; rare).
 *
 * The half charged is read once, before the read: a flush that interrupts
 * the uprobe moves the epoch on, and the uprobe's charge lands in the
 * half being closed just after. The uprobe resumes as the IPI returns,
 * microseconds before the loader reads that half; should the loader read
 * first (the uprobe preempted right then), it sees the charge at its next
 * read of that half, a running sum. The one loss: a "negative" charge
 * that lands after the loader read the half makes the half's sum smaller
 * than what the loader saw, and the loader's difference saturates at 0
 * (counts of that window, a few hundred ns, counted twice). The pending
 * cgroup move split is left to the next switch or flush.
 *
 * Exec closes the old image's regions after one more read (regions_exec);
 * an exit needs nothing: every read charged the thread's regions up to
 * it, and the open set goes with the task's storage.
 */
#ifndef TD_REGION_H
#define TD_REGION_H

/* One load or store, not merged, split or repeated by the compiler. */
#define TD_ONCE(x) (*(volatile __typeof__(x) *)&(x))

const volatile bool regions_on = false; /* any --region or --usdt: td_exec clears open regions */

/* Per thread: its open regions; id 0 is a free place. */
struct task_regions {
	u32 id[TD_MAX_OPEN_REGIONS];
	u32 depth[TD_MAX_OPEN_REGIONS]; /* recursion: entries of the region still open */
	u32 lost;			/* entries past the bound whose return is still to come */
	u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_regions);
} td_task_regions SEC(".maps");

/* Region entries; the loader sizes it (--max-tasks) and reads it each interval. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 10240);
	__uint(key_size, sizeof(struct td_region_key));
	__uint(value_size, sizeof(struct td_region_val)); /* td_region_bytes(), set by the loader */
} td_regions SEC(".maps");

/* Never written: the zeroed value a new region entry starts from (too big for the stack). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(u32));
	__uint(value_size, sizeof(struct td_region_val)); /* as td_regions' */
} td_region_zero SEC(".maps");

static __always_inline void count_drop(u64 *counter, bool atomic)
{
	if (atomic)
		__sync_fetch_and_add(counter, 1);
	else
		(*counter)++;
}

/*
 * Who and where a charge goes, as scalars: what region_val needs of the
 * task, so that charge_open_regions can be a global
 * function (its arguments: pointers to memory and scalars only).
 */
struct region_charge {
	u64 cgroup_id;
	u64 start_ns; /* the process's start time; 0 with --per-cgroup */
	u64 leader;   /* the group leader's struct task_struct, for its comm */
	u32 tgid;     /* 0 with --per-cgroup */
	u32 pmu;
	u32 half;
	u32 atomic; /* from the uprobe path: interrupts on (see above) */
};

static __always_inline struct region_charge region_charge_of(struct task_struct *t, u64 cgroup_id,
							     u32 half, struct layout l, bool atomic)
{
	struct region_charge rc = {
		.cgroup_id = cgroup_id, .pmu = l.pmu, .half = half & 1, .atomic = atomic
	};

	if (charge_tasks) {
		rc.tgid = t->tgid;
		rc.start_ns = t->group_leader->start_time;
		rc.leader = (u64)BPF_CORE_READ(t, group_leader);
	}
	return rc;
}

/*
 * The counts of region @id for @rc's process (with --per-cgroup: for its
 * cgroup alone) in its cgroup on its PMU, made if new; NULL if full.
 */
static __always_inline struct td_region_val *region_val(u32 id, const struct region_charge *rc)
{
	struct td_region_key key = {
		.task = { .id = rc->tgid,
			  .pmu = rc->pmu,
			  .start_ns = rc->start_ns,
			  .cgroup_id = rc->cgroup_id },
		.region = id,
	};
	struct td_region_val *val;
	u32 zero = 0;

	val = bpf_map_lookup_elem(&td_regions, &key);
	if (val)
		return val;
	val = bpf_map_lookup_elem(&td_region_zero, &zero);
	if (!val)
		return NULL;
	/* Another CPU may make it first (two threads): then it is there. */
	bpf_map_update_elem(&td_regions, &key, val, BPF_NOEXIST);
	val = bpf_map_lookup_elem(&td_regions, &key);
	if (val && rc->tgid && !val->tgid) {
		val->tgid = rc->tgid;
		bpf_probe_read_kernel_str(
			val->comm, sizeof(val->comm),
			(const void *)(rc->leader +
				       bpf_core_field_offset(struct task_struct, comm)));
	}
	return val;
}

/*
 * @d to every region open in @tr. A global function, as scale(): the
 * verifier checks it once, not inlined at each charge for every layout
 * (inlined, td_switch passed the verifier's million instructions with 24
 * counters).
 */
__noinline int charge_open_regions(struct task_regions *tr, const struct td_counts *d,
				   struct td_cpu_totals *tot, const struct region_charge *rc)
{
	/* The verifier takes a global function's pointers as maybe NULL. */
	if (!tr || !d || !tot || !rc)
		return 0;
	for (int i = 0; i < TD_MAX_OPEN_REGIONS; i++) {
		/* Read once: a uprobe this read interrupted may be opening or closing it. */
		u32 id = TD_ONCE(tr->id[i]);
		struct td_region_val *val;

		if (!id)
			continue;
		val = region_val(id, rc);
		if (!val) {
			count_drop(&tot->region_drops, rc->atomic);
			continue;
		}
		add_packed(packed_half(val + 1, rc->half), d);
	}
	return 0;
}

/* @d to every region open on @t (charge()'s hook); @atomic: from a uprobe. */
static __always_inline void charge_regions(struct task_struct *t, u64 cgroup_id, u32 half,
					   const struct td_counts *d, struct td_cpu_totals *tot,
					   struct layout l, bool atomic)
{
	struct region_charge rc;
	struct task_regions *tr;

	if (!regions_on)
		return;
	tr = bpf_task_storage_get(&td_task_regions, t, 0, 0);
	if (!tr)
		return;
	rc = region_charge_of(t, cgroup_id, half, l, atomic);
	charge_open_regions(tr, d, tot, &rc);
}

/*
 * dst += d with atomic adds: per-CPU totals from the uprobe path (see
 * above). Totals keep the group times even where entries do not.
 */
static __always_inline void add_totals_atomic(struct td_counts *dst, const struct td_counts *d,
					      struct layout l)
{
	add_counts(dst, d, l.nr, l.ng, TD_ADD_ATOMIC | TD_ADD_TIMES);
}

/* *@v = *@v - old baseline, the baseline set to *@v in one atomic exchange. */
static __always_inline void exchange(u64 *last, u64 *v)
{
	*v -= __sync_lock_test_and_set(last, *v);
}

/*
 * The uprobe path's delta (a global function, as read_counters): read
 * this CPU's first @nr counters with the helper into @d, and each group's
 * enabled/running times from its leader, then make them deltas, each
 * value exchanged with its baseline (the first @ng groups' times).
 */
__noinline int region_read(struct td_counts *d, int nr, int ng)
{
	u32 cpu = bpf_get_smp_processor_id();
	struct bpf_perf_event_value v;
	struct cpu_state *st;

	st = cpu_state_here();
	if (!st || !d)
		return -1;
	for (int slot = 0; slot < TD_MAX_COUNTERS; slot++) {
		if (slot >= nr || slot >= nr_counters)
			break;
		if (read_helper(slot, cpu, &v))
			return -1;
		d->count[slot] = v.counter;
		if (st->layout.leads[slot]) {
			u32 g = st->layout.group[slot];

			if (g >= TD_MAX_GROUPS)
				return -1;
			d->enabled_ns[g] = v.enabled;
			d->running_ns[g] = v.running;
		}
	}
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		if (i >= nr || i >= nr_counters)
			break;
		exchange(&st->last[i], &d->count[i]);
	}
	for (int g = 0; g < TD_MAX_GROUPS; g++) {
		if (g >= ng || g >= nr_groups)
			break;
		exchange(&st->last_enabled[g], &d->enabled_ns[g]);
		exchange(&st->last_running[g], &d->running_ns[g]);
	}
	return 0;
}

/*
 * The uprobe path's read: the delta since the last read on this CPU, with
 * the baseline exchanged atomically, charged to current (@t) and its open
 * regions. Nothing if the CPU is not counted or not primed yet.
 */
static __always_inline void region_account(struct task_struct *t)
{
	struct td_cpu_totals *tot;
	struct td_counts d;
	struct cpu_state *st;
	struct layout l;
	u32 zero = 0, epoch, half;
	u64 cgroup_id;

	st = bpf_map_lookup_elem(&td_cpu_state, &zero);
	if (!st)
		return;
	l = layout_of(st);
	if (l.nr <= 0 || !TD_ONCE(st->primed))
		return;
	epoch = TD_ONCE(st->layout.epoch);
	half = epoch & 1;
	tot = bpf_map_lookup_elem(&td_totals, &half);
	if (!tot)
		return;
	__builtin_memset(&d, 0, sizeof(d));
	if (region_read(&d, l.nr, l.ng)) {
		__sync_fetch_and_add(&tot->read_errors, 1);
		return;
	}
	/* Not a slice: the thread's slice goes on, and ends at its switch. */
	add_totals_atomic(&tot->all, &d, l);

	cgroup_id = bpf_get_current_cgroup_id();
	if (!charge_slot(entry_of(t, cgroup_id, l.pmu), epoch, &d)) {
		add_totals_atomic(&tot->task_overflow, &d, l);
		add_totals_atomic(&tot->cgroup_overflow, &d, l);
		__sync_fetch_and_add(&tot->task_drops, 1);
		__sync_fetch_and_add(&tot->cgroup_drops, 1);
	}
	charge_regions(t, cgroup_id, half, &d, tot, l, true);
}

/* Outside the targets (-p, -c, COMMAND)? Uncached: the caches are not the uprobe path's to write.
 */
static __always_inline bool region_traced(struct task_struct *t)
{
	u32 tgid = t->tgid;
	u64 *want;

	if (filter_pids) {
		want = bpf_map_lookup_elem(&td_traced_tgids, &tgid);
		if (!want || (*want && *want != t->group_leader->start_time))
			return false;
	}
	if (nr_cgroup_filters && !cgroup_under_filter(t->cgroups->dfl_cgrp))
		return false;
	return true;
}

/* Open region @id on @t: deeper if open, else in a free place, else lost. */
static __always_inline void region_open(struct task_struct *t, struct task_regions *tr, u32 id)
{
	struct region_charge rc;
	struct td_cpu_totals *tot;
	struct td_region_val *val;
	struct cpu_state *st;
	u32 zero = 0, half;
	int free = -1;

	for (int i = 0; i < TD_MAX_OPEN_REGIONS; i++) {
		if (tr->id[i] == id) {
			tr->depth[i]++;
			return;
		}
		if (!tr->id[i] && free < 0)
			free = i;
	}
	st = bpf_map_lookup_elem(&td_cpu_state, &zero);
	half = st ? TD_ONCE(st->layout.epoch) & 1 : 0;
	if (free < 0 || free >= TD_MAX_OPEN_REGIONS) {
		tr->lost++;
		tot = bpf_map_lookup_elem(&td_totals, &half);
		if (tot)
			__sync_fetch_and_add(&tot->region_nest_drops, 1);
		return;
	}
	rc = region_charge_of(t, bpf_get_current_cgroup_id(), half,
			      (struct layout){ .pmu = st ? st->layout.pmu : 0 }, true);
	val = region_val(id, &rc);
	if (val)
		__sync_fetch_and_add(&val->calls[half], 1);
	tr->depth[free] = 1;
	/* Published last: a read that interrupts us sees it whole or not at all. */
	TD_ONCE(tr->id[free]) = id;
}

static __always_inline void region_close(struct task_regions *tr, u32 id)
{
	for (int i = 0; i < TD_MAX_OPEN_REGIONS; i++) {
		if (tr->id[i] != id)
			continue;
		if (tr->depth[i] > 1)
			tr->depth[i]--;
		else
			TD_ONCE(tr->id[i]) = 0;
		return;
	}
	/* Not open: the return of an entry past the bound (or of one the kernel skipped). */
	if (tr->lost)
		tr->lost--;
}

/* An entry (@enter) or a return of region @id on the current thread. */
static __always_inline int region_event(u32 id, bool enter)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct task_regions *tr;

	if (!id || id >= TD_REGION_ID_LIMIT || !region_traced(t))
		return 0;
	tr = bpf_task_storage_get(&td_task_regions, t, 0,
				  enter ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	/* Up to here with the regions open before: then open or close. */
	region_account(t);
	if (!tr)
		return 0;
	if (enter)
		region_open(t, tr, id);
	else
		region_close(tr, id);
	return 0;
}

SEC("uprobe")
int td_region_enter(struct pt_regs *ctx)
{
	return region_event(bpf_get_attach_cookie(ctx), true);
}

SEC("uretprobe")
int td_region_exit(struct pt_regs *ctx)
{
	return region_event(bpf_get_attach_cookie(ctx), false);
}

/* --usdt: each marker name met gets an id (the loader reads the names). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TD_MAX_USDT_NAMES);
	__type(key, struct td_usdt_name);
	__type(value, u32);
} td_usdt_names SEC(".maps");

volatile __u32 usdt_names_used; /* ids handed out so far */

/*
 * The id of the region named by the string at @user_name; 0 if it cannot
 * be read (a page not in memory: tdtrace/region.h touches it first), or
 * past TD_MAX_USDT_NAMES names: both counted in region_drops.
 */
static __always_inline u32 usdt_region_id(const char *user_name)
{
	struct td_usdt_name name;
	u32 *found, id, zero = 0;
	struct td_cpu_totals *tot;

	__builtin_memset(&name, 0, sizeof(name));
	if (bpf_probe_read_user_str(name.s, sizeof(name.s), user_name) <= 0)
		id = TD_MAX_USDT_NAMES;
	else if ((found = bpf_map_lookup_elem(&td_usdt_names, &name)))
		return *found;
	else if (usdt_names_used < TD_MAX_USDT_NAMES)
		id = __sync_fetch_and_add(&usdt_names_used, 1);
	else
		id = TD_MAX_USDT_NAMES;
	if (id >= TD_MAX_USDT_NAMES) {
		tot = bpf_map_lookup_elem(&td_totals, &zero);
		if (tot)
			__sync_fetch_and_add(&tot->region_drops, 1);
		return 0;
	}
	id += TD_USDT_FIRST_ID;
	/* Another thread may name it first: its id then (this one is not used). */
	if (bpf_map_update_elem(&td_usdt_names, &name, &id, BPF_NOEXIST)) {
		found = bpf_map_lookup_elem(&td_usdt_names, &name);
		return found ? *found : 0;
	}
	return id;
}

SEC("usdt")
int BPF_USDT(td_usdt_begin, const char *name)
{
	return region_event(usdt_region_id(name), true);
}

/*
 * The read first, then the name: reading and hashing the name (several
 * microseconds in a VM) stays out of the region, as it does at BEGIN.
 */
SEC("usdt")
int BPF_USDT(td_usdt_end, const char *name)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct task_regions *tr;
	u32 id;

	if (!region_traced(t))
		return 0;
	tr = bpf_task_storage_get(&td_task_regions, t, 0, 0);
	if (!tr)
		return 0; /* nothing open on this thread */
	region_account(t);
	id = usdt_region_id(name);
	if (id && id < TD_REGION_ID_LIMIT)
		region_close(tr, id);
	return 0;
}

/*
 * exec (@p is current): the old image's regions never return. Charge
 * them up to now, as a return would, then close them all.
 */
static __always_inline void regions_exec(struct task_struct *p)
{
	struct task_regions *tr;
	bool open = false;

	if (!regions_on)
		return;
	tr = bpf_task_storage_get(&td_task_regions, p, 0, 0);
	if (!tr)
		return;
	for (int i = 0; i < TD_MAX_OPEN_REGIONS; i++)
		open |= tr->id[i] != 0;
	if (open)
		region_account(p);
	for (int i = 0; i < TD_MAX_OPEN_REGIONS; i++) {
		tr->depth[i] = 0;
		TD_ONCE(tr->id[i]) = 0;
	}
	tr->lost = 0;
}

#endif /* TD_REGION_H */
