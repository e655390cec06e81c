// SPDX-License-Identifier: GPL-2.0
/* libtdregion's pure arithmetic. See fields.h. */
#include <string.h>
#include "tdregion/fields.h"

int tdr_metric_field(__u64 config)
{
	/* The kernel's is_metric_event(): event 0x00, umask 0x80 .. 0x87. */
	unsigned int umask = (config >> 8) & 0xff;

	if ((config & 0xff) || umask < 0x80 || umask > 0x87)
		return -1;
	return (int)(umask - 0x80);
}

__u64 tdr_metric_slots(__u64 metrics, int field, __u64 slots)
{
	unsigned int f = tdr_fraction(metrics, field);

	/* slots < 2^56 keeps the product in 64 bits; beyond it, divide first. */
	if (slots >> 56)
		return slots / 0xff * f + slots % 0xff * f / 0xff;
	return slots * f / 0xff;
}

__u64 tdr_pmc_count(__s64 offset, __u64 pmc, unsigned int width)
{
	__s64 v;

	if (!width || width > 64)
		return (__u64)offset;
	v = (__s64)(pmc << (64 - width)) >> (64 - width);
	return (__u64)(offset + v);
}

__u64 tdr_page_ns(__u64 cyc, __u64 time_offset, __u32 time_mult, __u16 time_shift, bool short_tsc,
		  __u64 time_cycles, __u64 time_mask)
{
	__u64 quot, rem;

	if (short_tsc)
		cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	/* cyc * mult >> shift without overflowing: whole and fractional parts. */
	quot = cyc >> time_shift;
	rem = cyc & (((__u64)1 << time_shift) - 1);
	return time_offset + quot * time_mult + ((rem * time_mult) >> time_shift);
}

int tdr_first_without_rdpmc(struct perf_event_mmap_page *const *pages, int n)
{
	for (int i = 0; i < n; i++)
		if (!pages[i]->cap_user_rdpmc)
			return i;
	return -1;
}

bool tdr_delta(const __u64 *end, const __u64 *begin, __u64 *out, int n)
{
	for (int i = 0; i < n; i++)
		if (end[i] < begin[i])
			return false;
	for (int i = 0; i < n; i++)
		out[i] = end[i] - begin[i];
	return true;
}

void tdr_to_counts(const struct counter_set *set, const __u64 *v, struct td_counts *c)
{
	int groups = counters_nr_groups(set);

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < set->nr; i++)
		c->count[i] = v[i];
	for (int g = 0; g < groups && g < TD_MAX_GROUPS; g++) {
		c->enabled_ns[g] = v[tdr_times_at(set, g)];
		c->running_ns[g] = v[tdr_times_at(set, g) + 1];
	}
}
