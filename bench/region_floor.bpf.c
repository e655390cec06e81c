// SPDX-License-Identifier: GPL-2.0
/*
 * Reference programs for bench/region.sh: what any tracer of a function or
 * of a marker pair pays before it does anything of its own.
 *   rfloor_entry, rfloor_exit: an empty uprobe and uretprobe;
 *   rfloor_begin, rfloor_end:  an empty USDT pair (argument fetched, unused).
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>

char LICENSE[] SEC("license") = "GPL";

SEC("uprobe")
int rfloor_entry(struct pt_regs *ctx)
{
	return 0;
}

SEC("uretprobe")
int rfloor_exit(struct pt_regs *ctx)
{
	return 0;
}

/* The same argument tdtrace's USDT programs take: the region's name. */
SEC("usdt")
int BPF_USDT(rfloor_begin, const char *name)
{
	return 0;
}

SEC("usdt")
int BPF_USDT(rfloor_end, const char *name)
{
	return 0;
}
