/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's types as the BPF programs (bpf/tdtrace.bpf.c,
 * bench/floor.bpf.c) see them: only the types and fields they touch, in
 * place of a whole vmlinux.h dumped from one machine's BTF.
 *
 * Why not one generated vmlinux.h per architecture: a header can only be
 * generated from a kernel's BTF of that architecture, and none is at hand
 * for arm64 where tdtrace is built; a dump of one kernel also ties the tree
 * to that kernel's layouts for nothing. The layouts below need not match
 * any kernel: every struct is preserve_access_index, so each field access
 * is a CO-RE relocation that libbpf resolves against the running kernel's
 * BTF by name (as it did with vmlinux.h, which is declared the same way).
 * What must match is each field's name and kind (an integer, a pointer, a
 * struct, an array), and the size of an integer that is loaded.
 *
 * The uapi part (map types, flags, struct bpf_perf_event_value) is fixed
 * ABI, the same on every architecture (linux/bpf.h).
 */
#ifndef TD_KERNEL_TYPES_H
#define TD_KERNEL_TYPES_H

typedef signed char __s8;
typedef unsigned char __u8;
typedef short int __s16;
typedef short unsigned int __u16;
typedef int __s32;
typedef unsigned int __u32;
typedef long long int __s64;
typedef long long unsigned int __u64;
typedef __s8 s8;
typedef __u8 u8;
typedef __s16 s16;
typedef __u16 u16;
typedef __s32 s32;
typedef __u32 u32;
typedef __s64 s64;
typedef __u64 u64;
/* By value in libbpf's bpf_helper_defs.h. */
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;

typedef _Bool bool;
enum {
	false = 0,
	true = 1,
};

typedef int pid_t;

#ifndef BPF_NO_PRESERVE_ACCESS_INDEX
#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)
#endif

/* ------------------------------------------------------ uapi: linux/bpf.h */

enum bpf_map_type {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PERF_EVENT_ARRAY = 4,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_QUEUE = 22,
	BPF_MAP_TYPE_RINGBUF = 27,
	BPF_MAP_TYPE_TASK_STORAGE = 29,
};

/* bpf_map_update_elem() flags */
enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
};

/* map_flags */
enum {
	BPF_F_NO_PREALLOC = 1,
	BPF_F_MMAPABLE = 1024,
};

/* bpf_perf_event_read_value() flags */
enum {
	BPF_F_INDEX_MASK = 4294967295ULL,
	BPF_F_CURRENT_CPU = 4294967295ULL,
};

/* bpf_ringbuf_submit() flags */
enum {
	BPF_RB_NO_WAKEUP = 1,
};

/* bpf_task_storage_get() flags */
enum {
	BPF_LOCAL_STORAGE_GET_F_CREATE = 1,
};

struct bpf_perf_event_value {
	__u64 counter;
	__u64 enabled;
	__u64 running;
};

/* A perf_event program's context; its fields (regs differ by architecture) are never read. */
struct bpf_perf_event_data;

/* ------------------------------------------- the kernel's, read by CO-RE */

typedef struct {
	int counter;
} atomic_t;

/* perf_event.count: only its offset is used (member_read.h reads 8 bytes there). */
typedef struct {
	s64 counter;
} local64_t;

struct kernfs_node {
	u64 id;
};

struct cgroup_root {
	int hierarchy_id;
};

struct cgroup {
	struct kernfs_node *kn;
	struct cgroup_root *root;
	int level;
	/* Since 6.1; cgroup___pre61 in tdtrace.bpf.c is the older layout. */
	struct cgroup *ancestors[0];
};

struct css_set {
	struct cgroup *dfl_cgrp;
};

struct signal_struct {
	atomic_t live;
};

struct task_struct {
	int exit_state;
	pid_t pid;
	pid_t tgid;
	struct task_struct *group_leader;
	u64 start_time;
	struct css_set *cgroups;
	struct signal_struct *signal;
	char comm[16];
};

/* Only passed on (sched_process_exec's argument). */
struct linux_binprm;

struct perf_event {
	local64_t count;
};

/* A perf event array's entry (kernel/bpf/arraymap.c). */
struct bpf_event_entry {
	struct perf_event *event;
};

/* The kernel's ptrs[] sits in an anonymous union: CO-RE finds it there by name. */
struct bpf_array {
	void *ptrs[0];
};

/*
 * For libbpf's usdt.bpf.h, whose PT_REGS_IP (bpf_tracing.h names it rip
 * outside the kernel) it reads only on kernels without BPF cookies, before
 * 5.15: below the minimum, a path the verifier drops, so that libbpf's
 * poisoned relocation of a field no kernel has is never run. USDT
 * arguments are read at offsets libbpf works out for the machine.
 */
struct pt_regs {
	long unsigned int rip;
};

/* The same on arm64, where bpf_tracing.h's PT_REGS_IP casts to user_pt_regs and reads pc. */
struct user_pt_regs {
	__u64 regs[31];
	__u64 sp;
	__u64 pc;
	__u64 pstate;
};

#ifndef BPF_NO_PRESERVE_ACCESS_INDEX
#pragma clang attribute pop
#endif

#endif /* TD_KERNEL_TYPES_H */
