/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decode and output one report: a set of entries (one interval, or the
 * whole run) checked for conservation, turned into named, decoded rows,
 * and written as a table or as JSON lines.
 */
#ifndef TD_RENDER_H
#define TD_RENDER_H

#include <stdbool.h>
#include "cli/options.h"
#include "host/targets.h"
#include "model/cgroup_names.h"
#include "model/entries.h"
#include "model/plan.h"
#include "model/report.h"
#include "output/file.h"
#include "output/prometheus.h"
#include "output/toplev_csv.h"

/*
 * Where metrics go (--listen): the exporter's publish, with its handle.
 * A function, so that this layer does not link the HTTP library.
 */
struct metrics_sink {
	int (*publish)(void *ctx, const char *text004, size_t len004, const char *openmetrics,
		       size_t len_om);
	void *ctx; /* NULL: no exporter */
};

struct renderer {
	/* One report per core PMU per interval: hybrid parts count P- and E-cores apart. */
	struct report_config cfg[TD_MAX_PMUS];
	char cpuid[TD_MAX_PMUS][24]; /* arm64: each PMU's MIDR text, cfg[].cpuid */
	struct td_decoding decoding[TD_MAX_PMUS];
	int nr_cpus[TD_MAX_PMUS]; /* planned CPUs of each PMU */
	int nr_pmus;
	int nr_counters; /* the largest PMU's: conservation checks this many slots */
	bool times;	 /* group times are kept per entry (not with --software) */
	struct cgroup_rows_opts rows;
	bool json;
	unsigned int top;
	struct output_file *out;
	const struct cgroup_names *names; /* read by the collect stage: only looked up here */
	const struct targets *targets;	  /* -c cgroups that went away are said in each report */
	struct snapshot view;		  /* reused from one report to the next */
	bool print;			  /* tables or JSON lines (not with --listen alone) */
	enum output_format format;
	const char *csv_sep; /* perf-csv */
	bool toplev_header;  /* toplev-csv on the output: the header is written */
	bool split;	     /* toplev-csv with -o: a file per entity, nothing on the output */
	struct toplev_split toplev;
	bool said; /* the last error is said already */

	/* --listen: the whole run so far as metrics, published at each interval */
	struct metrics_sink sink;
	struct exposition exposition;
	struct report_config metrics_cfg[TD_MAX_PMUS]; /* every row, not --top's */
	struct snapshot metrics_view[TD_MAX_PMUS];
};

/*
 * What to show, from the options, the plan and the targets; where to write
 * it. 0, or -errno said on stderr when the model's formulas do not compile
 * or toplev-csv's -o DIR/ or PREFIX cannot be used.
 */
int renderer_init(struct renderer *rd, const struct options *o, const struct plan *p,
		  const struct targets *t, struct output_file *out,
		  const struct cgroup_names *names, struct metrics_sink sink);

/*
 * PMU @k of @p counts another set (the NMI watchdog's re-plan,
 * model/replan.h): its formulas are compiled again for what it counts now,
 * the metrics of events no longer opened null. 0, or -EINVAL said on stderr.
 */
int renderer_replan(struct renderer *rd, const struct plan *p, int k);

/*
 * Build @r's rows from @s and write them, a report per core PMU. @r holds
 * what was measured (interval, times, CPUs); its rows are freed again. Returns 0, -EPIPE
 * when the reader is gone (nothing said), or -errno said on stderr.
 */
int render(struct renderer *rd, struct report *r, const struct entry_set *s);

/*
 * --listen: @tl's run so far, as metrics for the exporter to serve from
 * now on (a report per PMU, @r's measures): from its cgroup sums alone
 * without --listen-processes. 0, or -errno said.
 */
int render_metrics(struct renderer *rd, struct report *r, const struct tally *tl);

void renderer_free(struct renderer *rd);

#endif /* TD_RENDER_H */
