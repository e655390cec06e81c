/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libtdregion: TopDown of a program's own regions of code, read in the
 * process with no tracer running (the kernel's topdown.txt, "Using TopDown
 * metrics in user space"). Installed as <tdtrace/tdregion.h>; C and C++.
 *
 *	struct tdregion *td = tdregion_open(0);	(the calling thread's counters)
 *	struct tdregion_region r = TDREGION_REGION_INIT("parse");
 *	tdregion_begin(td, &r); parse(); tdregion_end(td, &r);
 *	struct tdregion_result res;
 *	tdregion_report(td, &r, &res);		(res.retiring, ..., or res.cpu_ns)
 *	tdregion_close(td);
 *
 * A context counts the thread that opened it, and only that thread may
 * use it (one context per thread). How it reads, and why, is
 * tdregion_mode() and tdregion_why(): rdpmc on the mmap'd pages where the
 * kernel allows it, else read() on the counting group, else (no PMU, no
 * model for the CPU, a counter that does not open) the thread's CPU time
 * alone, with TDREGION_TOPDOWN clear in the result: no TopDown number is
 * ever made up.
 */
#ifndef TDTRACE_TDREGION_H
#define TDTRACE_TDREGION_H

#ifdef __cplusplus
extern "C" {
#endif

/* Counters of one context: a model's counters, plus each group's two times. */
#define TDREGION_MAX_VALUES 32

/* How a context reads (tdregion_mode), and what a result holds (flags). */
enum tdregion_flags {
	TDREGION_TOPDOWN = 1 << 0,     /* the TopDown fields are numbers (level >= 1) */
	TDREGION_RDPMC = 1 << 1,       /* read with rdpmc from the mmap'd pages */
	TDREGION_READ = 1 << 2,	       /* read with read() on the counting group */
	TDREGION_SOFTWARE = 1 << 3,    /* the thread's CPU time only: no TopDown */
	TDREGION_MULTIPLEXED = 1 << 4, /* counts scaled by enabled / running, as perf */
	TDREGION_DROPPED = 1 << 5,     /* some calls were dropped: counts went backwards */
};

/* tdregion_open's flags. */
enum tdregion_open_flags {
	TDREGION_OPEN_NO_RDPMC = 1 << 0, /* read() even where rdpmc is allowed */
	TDREGION_OPEN_SOFTWARE = 1 << 1, /* CPU time only, even with a PMU */
};

struct tdregion;

/*
 * One region's accumulated counts. Fill with TDREGION_REGION_INIT (or
 * zero it and set name); the other fields belong to the library. A region
 * begun again before its end (recursion) counts the outermost call only.
 */
struct tdregion_region {
	const char *name;
	unsigned long long calls;   /* completed outermost calls */
	unsigned long long dropped; /* calls left out: a counter went backwards inside */
	int depth;
	unsigned long long begin[TDREGION_MAX_VALUES];
	unsigned long long sum[TDREGION_MAX_VALUES];
};

#define TDREGION_REGION_INIT(nm)                                                                   \
	{                                                                                          \
		(nm), 0, 0, 0, { 0 },                                                              \
		{                                                                                  \
			0                                                                          \
		}                                                                                  \
	}

struct tdregion_result {
	unsigned int flags; /* enum tdregion_flags */
	int level;	    /* 0: no TopDown, 1: level 1, 2: levels 1 and 2 */
	unsigned long long calls, dropped;
	/* CPU time in the region, ns: CLOCK_THREAD_CPUTIME_ID in software mode;
	   with a PMU the group's enabled time (perf's context time: it may fall
	   a few % short of the thread's CPU time when the thread is preempted
	   often); NaN if unknown. */
	double cpu_ns;
	double slots; /* pipeline slots (scaled), NaN without TopDown */
	/* Fractions of slots (0..1), perf's tma_* for the CPU's model; NaN where
	   absent (no TopDown, or a node the model or level does not have). */
	double retiring, bad_speculation, frontend_bound, backend_bound;
	double smt_contention; /* AMD's level-1 node: slots the SMT sibling took */
	double heavy_operations, light_operations, branch_mispredicts, machine_clears;
	double fetch_latency, fetch_bandwidth, memory_bound, core_bound;
	const char *model; /* perf's model name ("icelake"), or NULL */
};

/*
 * Open the calling thread's counters (@flags: enum tdregion_open_flags).
 * NULL only when out of memory (errno set); every other failure falls
 * back, said by tdregion_why().
 */
struct tdregion *tdregion_open(unsigned int flags);
void tdregion_close(struct tdregion *td);

/* TDREGION_RDPMC, TDREGION_READ or TDREGION_SOFTWARE, with TDREGION_TOPDOWN. */
unsigned int tdregion_mode(const struct tdregion *td);

/*
 * Why the context reads as it does, one line: "rdpmc", or why not rdpmc
 * ("rdpmc is off: ..."), or why no TopDown ("no PMU: ...").
 */
const char *tdregion_why(const struct tdregion *td);

/*
 * Begin and end @r on @td's thread. 0, or -1 with errno set: EINVAL when
 * called from another thread than @td's, or for an end with no begin.
 */
int tdregion_begin(struct tdregion *td, struct tdregion_region *r);
int tdregion_end(struct tdregion *td, struct tdregion_region *r);

/* Decode what @r accumulated into @out, with tdtrace's model formulas. 0 or -1. */
int tdregion_report(const struct tdregion *td, const struct tdregion_region *r,
		    struct tdregion_result *out);

/*
 * Reset the group's counters (PERF_EVENT_IOC_RESET), as topdown.txt asks
 * every few seconds: the 8-bit fractions lose precision as slots grow. Not
 * inside a region of @td (fails with EBUSY). tdregion_begin does it itself
 * when no region is open and the counters grew past a few seconds' worth.
 */
int tdregion_reset(struct tdregion *td);

#ifdef __cplusplus
}
#endif

#endif /* TDTRACE_TDREGION_H */
