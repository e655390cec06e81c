/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --region BINARY:SYMBOL: resolve each region's binary and symbol before
 * anything is attached (a bad one is a usage error), attach a uprobe and
 * a uretprobe per region with its id as the BPF cookie, and read the
 * regions' map each interval. The pure part is model/regions.h.
 */
#ifndef TD_TRACER_REGIONS_H
#define TD_TRACER_REGIONS_H

#include <limits.h>
#include <stdbool.h>
#include "cli/options.h"
#include "host/targets.h"
#include "model/regions.h"
#include "model/slot_reads.h"

struct tdtrace;
struct bpf_link;

struct region_spec {
	const char *name; /* as given: BINARY:SYMBOL, the region's name in the output */
	char path[PATH_MAX];
	char symbol[256];
};

#define TD_MAX_USDT_BINARIES 16

struct tracer_regions {
	struct region_spec *v; /* region id i + 1 is v[i] */
	int nr;
	char (*usdt)[PATH_MAX]; /* --usdt: the programs and libraries with markers */
	int nr_usdt;
	char *usdt_names[TD_MAX_USDT_NAMES]; /* id TD_USDT_FIRST_ID + i, once met */
	int usdt_fd;
	struct bpf_link **links; /* entry and return of each region */
	int nr_links;
	int map_fd;
	struct slot_packing pk;	   /* the counts' packing in each value (struct td_region_val) */
	void *val;		   /* scratch: one value, td_region_bytes() */
	struct region_set seen[2]; /* each epoch half's counts at the last read */
	struct region_set gone[2]; /* keys of processes found gone: at the last read, at this one */
};

/*
 * Resolve every --region of @o: BINARY a path, or a name looked up in the
 * -p processes' mappings, the library directories and PATH; SYMBOL a
 * function in its symbol table. With -p, BINARY must be mapped by one of
 * them. --usdt: BINARY, or each -p process's program, or COMMAND's,
 * must hold tdtrace/region.h's markers. Prints a one-line error; 0 or
 * -errno (a usage error).
 */
int tracer_regions_resolve(struct tracer_regions *rg, const struct options *o,
			   const struct targets *t);

/* Before load: the knobs, the map's size, and the programs only if there are regions. */
void tracer_regions_configure(struct tracer_regions *rg, struct tdtrace *skel,
			      const struct slot_packing *pk, unsigned int max_entries);

/* After load: the uprobes of every region, the USDT probes of every --usdt binary. Prints a
 * one-line error; 0 or -errno. */
int tracer_regions_attach(struct tracer_regions *rg, struct tdtrace *skel);

/*
 * Read the map: each entry's half @closed against the last read, what
 * changed into @delta (emptied first). 0 or -errno.
 */
int tracer_regions_read(struct tracer_regions *rg, unsigned int closed, struct region_set *delta);

void tracer_regions_detach(struct tracer_regions *rg);
void tracer_regions_free(struct tracer_regions *rg);

#endif /* TD_TRACER_REGIONS_H */
