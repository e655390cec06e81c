/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Regions (--region BINARY:SYMBOL): the pure part. Parsing a region's
 * spec, and sets of region rows (one region in one process and cgroup, on
 * one core PMU) as read from the BPF map each interval: differences of
 * the closed epoch half, a running sum for the summary. No syscalls.
 */
#ifndef TD_REGIONS_H
#define TD_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "tdtrace.h"

struct region_row {
	struct td_region_key key;
	struct td_counts c;
	__u64 calls;	  /* outermost entries */
	const char *name; /* the region's, kept by whoever read it; NULL: unknown */
	__u32 tgid;
	char comm[TD_COMM_LEN];
};

/* Rows sorted by key (region_key_cmp). */
struct region_set {
	struct region_row *v;
	size_t nr, cap;
};

int region_key_cmp(const struct td_region_key *a, const struct td_region_key *b);

/*
 * "BINARY:SYMBOL", split at the last ':' (ELF symbol names, C++'s
 * mangled ones too, have none): both non-empty, SYMBOL without '/'.
 * @binary and @symbol point into @buf (of @len bytes). 0 or -EINVAL.
 */
int region_spec_split(const char *spec, char *buf, size_t len, const char **binary,
		      const char **symbol);

/* The row of @key in @s, NULL if none. */
struct region_row *region_find(const struct region_set *s, const struct td_region_key *key);

/* The row of @key, made (zeroed, in key order) if new; NULL without memory. */
struct region_row *region_get(struct region_set *s, const struct td_region_key *key);

/* Take the row of @key out of @s, keeping the order; nothing if there is none. */
void region_remove(struct region_set *s, const struct td_region_key *key);

/* acc += d row by row: counts and calls summed, names from d. 0 or -ENOMEM. */
int region_set_add(struct region_set *acc, const struct region_set *d);

/* A region entry's value, its halves unpacked (model/slot_reads.h). */
struct region_val_read {
	struct td_counts c[2];
	__u64 calls[2];
	__u32 tgid;
	char comm[TD_COMM_LEN];
};

/*
 * One region entry as read from the map: its half @closed, cumulative,
 * against @seen's (that half's value at the last read). The difference
 * goes into @delta unless it is nothing; @seen keeps the new value.
 * 0 or -ENOMEM.
 */
int region_read_half(struct region_set *seen, struct region_set *delta,
		     const struct td_region_key *key, const struct region_val_read *val,
		     unsigned int closed);

void region_set_clear(struct region_set *s);
void region_set_free(struct region_set *s);

#endif /* TD_REGIONS_H */
