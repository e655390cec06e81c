// SPDX-License-Identifier: GPL-2.0
/*
 * One snapshot of a libtdregion context's counters (fields.h's layout):
 * rdpmc on the mmap'd pages, as the kernel's perf_event_mmap_page comment
 * and topdown.txt describe; or read() on each group; or the thread's CPU
 * time.
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include "tdregion/context.h"
#include "tdregion/fields.h"

#define barrier() __asm__ __volatile__("" ::: "memory")

#if defined(__x86_64__) || defined(__i386__)
static inline __u64 rdpmc(unsigned int counter)
{
	unsigned int lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (__u64)hi << 32;
}

static inline __u64 rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (__u64)hi << 32;
}
#else
static inline __u64 rdpmc(unsigned int counter)
{
	return 0; /* never called: try_rdpmc() refuses rdpmc off x86 */
}

static inline __u64 rdtsc(void)
{
	return 0;
}
#endif

/* The time since the page's last update, ns (cap_user_time). */
static __u64 page_time_delta(const volatile struct perf_event_mmap_page *p)
{
	return tdr_page_ns(rdtsc(), p->time_offset, p->time_mult, p->time_shift,
			   p->cap_user_time_short, p->time_cycles, p->time_mask);
}

/*
 * Every counter from its page under the pages' seqlocks: count = offset +
 * the rdpmc value, sign-extended from pmc_width; a metric event is offset
 * + its PERF_METRICS fraction of its leader's raw slots register (what the
 * kernel has not folded into the count yet, reset with it). A counter not
 * on the PMU right now (index 0) is its offset. Times are the leaders'
 * time_enabled and time_running, brought up to now with cap_user_time,
 * else both 0 (not known: no scaling, no CPU time).
 */
static int snapshot_rdpmc(struct tdregion *td, __u64 *v)
{
	const struct counter_set *set = &td->set;
	__u32 seq[TD_MAX_COUNTERS];
	__u64 raw[TD_MAX_COUNTERS];

	for (int tries = 0; tries < 100; tries++) {
		bool same = true;
		int g = 0;

		for (int i = 0; i < set->nr; i++)
			seq[i] = td->page[i]->lock;
		barrier();
		for (int i = 0; i < set->nr; i++) {
			const volatile struct perf_event_mmap_page *p = td->page[i];
			unsigned int idx = p->cap_user_rdpmc ? p->index : 0;
			__s64 offset = p->offset;

			raw[i] = idx ? rdpmc(idx - 1) : 0;
			if (!idx)
				v[i] = (__u64)offset;
			else if (td->metric_field[i] >= 0)
				v[i] = (__u64)offset +
				       tdr_metric_slots(
					       raw[i], td->metric_field[i],
					       tdr_pmc_raw(raw[td->slots_of[i]],
							   td->page[td->slots_of[i]]->pmc_width));
			else
				v[i] = tdr_pmc_count(offset, raw[i], p->pmc_width);
			if (counters_leads(set, i)) {
				__u64 enabled = 0, running = 0;

				if (p->cap_user_time) {
					__u64 delta = page_time_delta(p);

					enabled = p->time_enabled + delta;
					running = p->time_running + (idx ? delta : 0);
				}
				v[tdr_times_at(set, g)] = enabled;
				v[tdr_times_at(set, g) + 1] = running;
				g++;
			}
		}
		barrier();
		for (int i = 0; i < set->nr; i++)
			same &= td->page[i]->lock == seq[i];
		if (same)
			return 0;
	}
	return -EAGAIN;
}

/* Each group with read(): PERF_FORMAT_GROUP with both times. */
static int snapshot_read(struct tdregion *td, __u64 *v)
{
	const struct counter_set *set = &td->set;
	__u64 buf[3 + TD_MAX_COUNTERS];

	for (int i = 0, g = 0; i < set->nr; i++) {
		int n = 0;
		ssize_t len;

		if (!counters_leads(set, i))
			continue;
		while (i + n < set->nr && set->group[i + n] == set->group[i])
			n++;
		len = read(td->fd[i], buf, sizeof(buf));
		if (len < 0)
			return -errno;
		if (len < (ssize_t)((3 + n) * sizeof(__u64)) || buf[0] != (__u64)n)
			return -EIO;
		v[tdr_times_at(set, g)] = buf[1];
		v[tdr_times_at(set, g) + 1] = buf[2];
		for (int k = 0; k < n; k++)
			v[i + k] = buf[3 + k];
		g++;
	}
	return 0;
}

/* The thread's CPU time in the slots role, and as both times. */
static int snapshot_software(__u64 *v)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return -errno;
	v[0] = v[1] = v[2] = (__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec;
	return 0;
}

int tdr_snapshot(struct tdregion *td, __u64 *v)
{
	if (td->mode & TDREGION_RDPMC)
		return snapshot_rdpmc(td, v);
	if (td->mode & TDREGION_READ)
		return snapshot_read(td, v);
	return snapshot_software(v);
}
