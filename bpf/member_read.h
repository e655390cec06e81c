/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Direct reads of a group member's count: one TopDown update per switch
 * instead of one per event. NOT YET RUN ON TOPDOWN HARDWARE: verified here
 * only with eagerly updated software events (tests/integration/
 * test_members.c); the program uses it only for the slots the plan marks
 * direct (counters_reads_direct: a topdown-* metric event under a slots
 * leader) and only where td_selfcheck found it equal to helper reads, of
 * counts above 0 in groups that had run, on every counted CPU, and says
 * which it chose. Any other member's count (a generic or fixed counter:
 * UOP_DROPPING, Skylake, E-core and AMD events) is brought up to date only
 * on a read, a stop or an overflow, so a direct read of it is stale.
 *
 * Why it is sound on Intel with PERF_METRICS: bpf_perf_event_read_value()
 * on any TopDown event goes perf_event_read_local() -> x86_pmu_read() ->
 * intel_pmu_read_event() -> intel_pmu_update_topdown_event(), which
 * disables the PMU, reads FIXED_CTR3 (slots) and PERF_METRICS, adds the
 * slot-scaled share to the count of *every* active TopDown event on this
 * CPU (icl_update_topdown_event() walks cpuc->active_mask), clears both
 * registers and re-enables the PMU. So after one helper read of the slots
 * leader, every metric member's event->count is already current: reading
 * it directly gives the same value without a second full update.
 */
#ifndef TD_MEMBER_READ_H
#define TD_MEMBER_READ_H

/*
 * The struct perf_event * in entry @key of perf event array @counters
 * (bpf_array.ptrs[key] -> bpf_event_entry.event); 0 if there is none.
 * Cached in *@cached: the fds stay open for the whole run. The verifier
 * allows no arithmetic on a map pointer, so its address goes through a
 * map value (*@scratch) first, which a privileged program may do.
 */
static __always_inline u64 member_event(void *counters, u32 key, u64 *cached, u64 *scratch)
{
	u64 ev = *cached, addr, entry, ee = 0;

	if (ev)
		return ev;
	*scratch = (u64)counters;
	addr = *(volatile u64 *)scratch;
	entry = addr + bpf_core_field_offset(struct bpf_array, ptrs) + (u64)key * sizeof(void *);
	if (bpf_probe_read_kernel(&ee, sizeof(ee), (void *)entry) || !ee)
		return 0;
	if (bpf_probe_read_kernel(
		    &ev, sizeof(ev),
		    (void *)(ee + bpf_core_field_offset(struct bpf_event_entry, event))))
		return 0;
	*cached = ev;
	return ev;
}

/* The member's count, read from its struct perf_event: 0, or -1 if it cannot be. */
static __always_inline int read_member_direct(void *counters, u32 key, u64 *cached, u64 *scratch,
					      u64 *count)
{
	u64 ev = member_event(counters, key, cached, scratch);

	if (!ev)
		return -1;
	return bpf_probe_read_kernel(
		count, sizeof(*count),
		(void *)(ev + bpf_core_field_offset(struct perf_event, count)));
}

#endif /* TD_MEMBER_READ_H */
