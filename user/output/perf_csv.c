// SPDX-License-Identifier: GPL-2.0
/* perf stat -x's columns. See perf_csv.h. */
#include <math.h>
#include "output/perf_csv.h"
#include "output/perf_rows.h"

struct csv {
	FILE *f;
	const char *sep;
};

/* The interval as perf pads it, then the thread column of a process. */
static void start(const struct csv *o, const struct report *r, const struct perf_entity *e)
{
	fprintf(o->f, "%16.9f%s", r->elapsed_s, o->sep);
	if (e->thread)
		fprintf(o->f, "%s%s", e->thread, o->sep);
}

static void entity(void *ctx, const struct report *r, const struct perf_entity *e)
{
	const struct csv *o = ctx;
	const char *s = o->sep;
	FILE *f = o->f;

	for (int i = 0; i < perf_nr_counters(r); i++) {
		struct perf_counter pc;

		perf_counter(r, e, i, &pc);
		start(o, r, e);
		if (!pc.counted)
			fputs("<not counted>", f);
		else if (*pc.unit || floor(pc.value) != pc.value)
			fprintf(f, "%.2f", pc.value);
		else
			fprintf(f, "%.0f", pc.value);
		fprintf(f, "%s%s%s%s%s", s, pc.unit, s, pc.event, s);
		if (e->cgroup)
			fprintf(f, "%s%s", e->cgroup, s);
		fprintf(f, "%llu%s%.2f%s", pc.run_ns, s, pc.pcnt_running, s);
		if (pc.metric_unit)
			fprintf(f, "%.3f%s%s\n", pc.metric, s, pc.metric_unit);
		else
			fprintf(f, "%s\n", s);
	}
	for (int i = 0; i < perf_nr_metrics(r); i++) {
		struct perf_metric pm;

		if (!perf_metric(r, e, i, &pm))
			continue;
		start(o, r, e);
		fprintf(f, "%s%s%s", s, s, s); /* value, unit, event */
		if (e->cgroup)
			fprintf(f, "%s%s", e->cgroup, s);
		fprintf(f, "%s%s%.1f%s%s\n", s, s, pm.value, s, pm.unit); /* run, pcnt */
	}
}

void output_perf_csv(FILE *f, const struct report *r, const char *sep)
{
	struct csv o = { .f = f, .sep = sep };

	if (!r->summary)
		perf_for_each_entity(r, sep, entity, &o);
}
