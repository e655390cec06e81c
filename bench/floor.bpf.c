// SPDX-License-Identifier: GPL-2.0
/*
 * Reference programs for `make bench`: what any sched_switch tracer pays
 * before it does anything of its own.
 *   floor_empty: dispatch only (the floor of a tp_btf program);
 *   floor_read:  reads the same counters as tdtrace, and nothing else.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "tdtrace.h"
#include "perf_event_array.h"

char LICENSE[] SEC("license") = "GPL";

const volatile int nr_counters = 1;

PERF_EVENT_ARRAY(floor_counter_0);
PERF_EVENT_ARRAY(floor_counter_1);
PERF_EVENT_ARRAY(floor_counter_2);
PERF_EVENT_ARRAY(floor_counter_3);
PERF_EVENT_ARRAY(floor_counter_4);
PERF_EVENT_ARRAY(floor_counter_5);
PERF_EVENT_ARRAY(floor_counter_6);
PERF_EVENT_ARRAY(floor_counter_7);
PERF_EVENT_ARRAY(floor_counter_8);

SEC("tp_btf/sched_switch")
int BPF_PROG(floor_empty, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	return 0;
}

static __always_inline void read_one(void *array, int role)
{
	struct bpf_perf_event_value v;

	if (role < nr_counters)
		bpf_perf_event_read_value(array, BPF_F_CURRENT_CPU, &v, sizeof(v));
}

SEC("tp_btf/sched_switch")
int BPF_PROG(floor_read, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	read_one(&floor_counter_0, 0);
	read_one(&floor_counter_1, 1);
	read_one(&floor_counter_2, 2);
	read_one(&floor_counter_3, 3);
	read_one(&floor_counter_4, 4);
	read_one(&floor_counter_5, 5);
	read_one(&floor_counter_6, 6);
	read_one(&floor_counter_7, 7);
	read_one(&floor_counter_8, 8);
	return 0;
}
