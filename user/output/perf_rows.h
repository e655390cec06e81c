/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perf's two formats (perf_json.c, perf_csv.c) print, apart from how:
 * the entities of a report as perf would aggregate them, and each one's
 * counter lines and metric lines with perf's numbers. The machine is
 * perf's -a, a process perf's --per-thread ("comm-pid"), a cgroup row
 * perf's -G (its path). Each raw event is a counter line (scaled count,
 * its group's run time and percent running); with --software the one
 * counter is cpu-clock in msec with perf's "CPUs utilized". Each TopDown
 * metric of the model up to the report's level is a metric line, in
 * percent, its unit perf's "%  tma_frontend_bound".
 */
#ifndef TD_PERF_ROWS_H
#define TD_PERF_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include "model/report.h"

/* Who lines are about, as perf spells it. */
struct perf_entity {
	const char *thread; /* "comm-pid" for a process or thread, else NULL */
	const char *cgroup; /* a cgroup row's path, else NULL */
	const struct td_counts *c;
	const struct td_metrics *m;
};

/* One counter line. */
struct perf_counter {
	char event[96];	  /* perf's name; "cpu_core/slots/" on hybrid parts */
	const char *unit; /* "msec" for cpu-clock, else "" */
	bool counted;	  /* false: perf's "<not counted>" */
	double value;	  /* scaled count, or msec */
	unsigned long long run_ns;
	double pcnt_running;
	const char *metric_unit; /* the event's own metric ("CPUs utilized"), or NULL */
	double metric;
};

/* One metric line. */
struct perf_metric {
	char unit[96]; /* "%  tma_backend_bound": perf's scale, two spaces, the name */
	double value;  /* in percent */
};

typedef void (*perf_entity_fn)(void *ctx, const struct report *r, const struct perf_entity *e);

/*
 * Call @fn for the machine, each process (thread) and each cgroup row of
 * @r, in that order. A comm's control characters, and @avoid's first
 * character if @avoid is given (a CSV separator), become '_'.
 */
void perf_for_each_entity(const struct report *r, const char *avoid, perf_entity_fn fn, void *ctx);

/* Counter lines per entity. */
int perf_nr_counters(const struct report *r);

/* Counter line @i (< perf_nr_counters()) of @e. */
void perf_counter(const struct report *r, const struct perf_entity *e, int i,
		  struct perf_counter *pc);

/* Model metric @i of @e as a metric line: false when it is not one (level 0, deeper, no value). */
bool perf_metric(const struct report *r, const struct perf_entity *e, int i,
		 struct perf_metric *pm);

/* Metrics of the model (the range of perf_metric's @i); 0 with --software. */
int perf_nr_metrics(const struct report *r);

#endif /* TD_PERF_ROWS_H */
