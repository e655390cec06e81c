/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What crosses between the BPF program (bpf/tdtrace.bpf.c) and the loader
 * (user/): the maps' keys and values the loader reads, and the types of
 * the program's globals it writes. The program's own state stays in its
 * file. The BPF side includes kernel_types.h first, user space <linux/types.h>.
 */
#ifndef TDTRACE_H
#define TDTRACE_H

/*
 * The BPF side reads, per CPU, up to TD_MAX_COUNTERS counters in up to
 * TD_MAX_GROUPS perf event groups; which counter is in which group, and
 * how many a CPU has, is data the loader sets (struct td_layout).
 */
#define TD_MAX_COUNTERS 24
#define TD_MAX_GROUPS	5
#define TD_COMM_LEN	16
#define TD_MAX_PMUS	4 /* core PMUs of one machine: cpu, or cpu_core, cpu_atom, ... */

/* Everything charged to one entity; cumulative since tdtrace started. */
struct td_counts {
	__u64 count[TD_MAX_COUNTERS]; /* raw counter deltas, summed, by slot */
	/* Each group's leader time_enabled and time_running deltas, summed. */
	__u64 enabled_ns[TD_MAX_GROUPS];
	__u64 running_ns[TD_MAX_GROUPS];
	__u64 slices; /* sched_switch slices charged */
};

/*
 * The BPF map's key: one process (or thread, with --per-thread) in one
 * cgroup v2. start_ns tells apart two processes that got the same PID one
 * after the other. Cgroup rows are summed from these in user space, so a
 * switch charges one entry, not two.
 */
struct td_key {
	__u32 id;  /* tgid, or pid with --per-thread; 0 for idle and with --per-cgroup */
	__u32 pmu; /* the core PMU of the CPU it ran on: hybrid parts count P- and E-cores apart */
	__u64 start_ns;	 /* task start time, boot-based; 0 with --per-cgroup */
	__u64 cgroup_id; /* cgroup v2 id, TD_IDLE_CGROUP_ID for the idle tasks */
};

#define TD_TASK_EXITED 0x1

/*
 * An entry's value in td_vals ("struct td_entry" in comments): its counts
 * in two halves by the epoch's parity (td_layout.epoch), nothing else.
 * While the CPUs charge one half, the loader reads the other, which no
 * program writes any more, and zeroes it: a half holds what was charged
 * in one interval. Entries and per-CPU totals are then read at one
 * consistent cut, and sum to each other exactly at every interval.
 *
 * A half is packed to the plan, not a struct td_counts: TD_HALF_WORDS
 * __u64 words, slices first, then the run's counters, then (with
 * per-entry times) each group's enabled and running times. The value's
 * size (td_entry_bytes) is set by the loader at load; the program works
 * it out from the same knobs. The slices word's top bit says the task
 * exited (its final switch was charged there). Who the entry is (its key,
 * name) is not in the value: the program tells the loader once, through
 * td_names. A half's slices word found 0 by the first charge in an epoch
 * sets the entry's bit in td_changed.
 */
#define TD_HALF_WORDS(nr, ng, times) (1 + (nr) + ((times) ? 2 * (ng) : 0))
#define TD_HALF_SLICES		     0
#define TD_HALF_COUNT(i)	     (1 + (i))
#define TD_HALF_ENABLED(nr, g)	     (1 + (nr) + (g))
#define TD_HALF_RUNNING(nr, ng, g)   (1 + (nr) + (ng) + (g))
#define TD_HALF_EXITED		     (1ULL << 63) /* in the slices word */

/* The bytes of one entry's value for @nr counters in @ng groups, with or without times. */
static inline unsigned int td_entry_bytes(int nr, int ng, int times)
{
	return 2 * 8 * TD_HALF_WORDS(nr, ng, times);
}

/*
 * Who a slot is, sent by the program through the td_names ring buffer:
 * when it makes an entry (TD_NAME_NEW), and when exec renames its task
 * (TD_NAME_EXEC: key unset). Records the ring could not hold are counted
 * (names_lost); the loader then finds keys in td_entries.
 */
#define TD_NAME_NEW  1
#define TD_NAME_EXEC 2

struct td_name {
	__u32 kind; /* TD_NAME_NEW or TD_NAME_EXEC */
	__u32 slot;
	struct td_key key;
	__u32 tgid;
	__u32 pad;
	char comm[TD_COMM_LEN];
};

/* The idle tasks (pid 0) are charged to this pseudo cgroup id. */
#define TD_IDLE_CGROUP_ID 0

/*
 * A CPU's counter layout, as the loader gives it: it writes new_layout in
 * the program's .bss, then runs td_relayout on that CPU, which copies it
 * into the CPU's own state (a per-CPU map cannot be written for one CPU
 * from user space without rewriting every CPU's state).
 *
 * Counter slot s of CPU c is td_counters[s * nr_cpu_ids + c], for s <
 * nr_counters; it belongs to group group[s] (< nr_groups), and leads it if
 * leads[s]. A group's leader comes before its members in slot order and
 * gives the whole group's enabled/running times. nr_counters 0: the CPU
 * is not counted (an E-core, a failed open, offline).
 */
struct td_layout {
	__u32 nr_counters;
	__u32 nr_groups;
	__u32 pmu; /* which core PMU (the plan's index): the key.pmu of what is charged there */
	__u32 pad;
	__u8 group[TD_MAX_COUNTERS];
	__u8 leads[TD_MAX_COUNTERS];
	/*
	 * Read directly (member_read.h) rather than with the helper, once
	 * td_selfcheck found it sound: only members whose count the kernel
	 * keeps current (counters_from_model decides; see counters.h).
	 */
	__u8 direct[TD_MAX_COUNTERS];
	/*
	 * The epoch (the loader's count of reads), whose parity says which
	 * half of the counts this CPU charges; td_flush moves it on. A CPU
	 * that missed flushes while offline takes the loader's, or the
	 * loader reads a half it still writes.
	 */
	__u64 epoch;
};

/* What td_selfcheck found, comparing direct and helper reads of the members. */
struct td_selfcheck {
	__u64 reads;  /* member reads compared */
	__u64 equal;  /* direct == helper */
	__u64 behind; /* direct < helper by more than 1%: the count was stale */
	__u64 ahead;  /* direct > helper: impossible if direct reads are sound */
	__u64 failed; /* a read failed */
	/* A direct member whose leader had not run: nothing it read proves anything. */
	__u64 unscheduled;
	__u64 nonzero; /* equal reads of a count above 0: without one, the check proved nothing */
};

/* -c PATH: at most this many cgroup subtrees. */
#define TD_MAX_CGROUP_FILTERS 8

/*
 * Per-CPU bookkeeping kept by the BPF program, one per epoch half (the
 * td_totals key is the parity). The conservation invariant, summed over
 * CPUs, holds exactly for every half the loader reads:
 *   sum(entries) + task_overflow + untraced == all
 * One map holds both task and cgroup attribution, so a full map drops
 * both: cgroup_overflow and cgroup_drops equal task_overflow and task_drops.
 */
struct td_cpu_totals {
	struct td_counts all;		  /* every delta read on this CPU */
	struct td_counts untraced;	  /* slices of tasks outside -c/-p/COMMAND */
	struct td_counts task_overflow;	  /* task map was full */
	struct td_counts cgroup_overflow; /* cgroup map was full */
	__u64 task_drops;		  /* slices that went to task_overflow */
	__u64 cgroup_drops;		  /* slices that went to cgroup_overflow */
	__u64 read_errors;		  /* failed counter reads (slice not charged) */
	__u64 follow_drops;		  /* forks not followed: traced-process map full */
	__u64 region_drops;		  /* region charges lost: the region map was full */
	__u64 region_nest_drops;	  /* region entries past TD_MAX_OPEN_REGIONS open */
	__u64 unseen_switches; /* switches out of a task not seen switching in (td_switch) */
};

/*
 * Regions (--region, --usdt): code between a call's entry and its return,
 * charged like a task. A thread has at most TD_MAX_OPEN_REGIONS regions
 * open at once; region ids are 1..TD_MAX_REGIONS (0: a free place).
 */
#define TD_MAX_OPEN_REGIONS 4
#define TD_MAX_REGIONS	    512

/*
 * --usdt: a marker's region is named by its string (tdtrace/region.h), at
 * most TD_USDT_NAME_LEN bytes with its NUL; each name the program meets
 * gets the next id from TD_USDT_FIRST_ID, at most TD_MAX_USDT_NAMES.
 */
#define TD_USDT_NAME_LEN   64
#define TD_USDT_FIRST_ID   (TD_MAX_REGIONS + 1)
#define TD_MAX_USDT_NAMES  1024
#define TD_REGION_ID_LIMIT (TD_USDT_FIRST_ID + TD_MAX_USDT_NAMES)

struct td_usdt_name {
	char s[TD_USDT_NAME_LEN];
};

/* One region in one process (key.id: its tgid) in one cgroup, on one core PMU. */
struct td_region_key {
	struct td_key task;
	__u32 region;
	__u32 pad;
};

/*
 * A region entry's value: this header, then its counts in two packed
 * halves by the epoch's parity, as an entry's (td_entry_bytes), but
 * cumulative; calls: outermost entries. Sized by the loader at load
 * (td_region_bytes).
 */
struct td_region_val {
	__u64 calls[2];
	__u32 tgid;
	__u32 pad;
	char comm[TD_COMM_LEN];
};

static inline unsigned int td_region_bytes(int nr, int ng, int times)
{
	return sizeof(struct td_region_val) + 2 * 8 * TD_HALF_WORDS(nr, ng, times);
}

#endif /* TDTRACE_H */
