/* SPDX-License-Identifier: GPL-2.0 */
/* A perf event array indexed by CPU, one per counter (bench/floor.bpf.c only). */
#ifndef TD_PERF_EVENT_ARRAY_H
#define TD_PERF_EVENT_ARRAY_H

/* max_entries 0: libbpf sizes it to the number of possible CPUs. */
#define PERF_EVENT_ARRAY(name)                                                                     \
	struct {                                                                                   \
		__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);                                       \
		__uint(key_size, sizeof(u32));                                                     \
		__uint(value_size, sizeof(u32));                                                   \
	} name SEC(".maps")

#endif /* TD_PERF_EVENT_ARRAY_H */
