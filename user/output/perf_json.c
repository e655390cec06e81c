// SPDX-License-Identifier: GPL-2.0
/* perf stat -j's lines. See perf_json.h. */
#include "output/json_writer.h"
#include "output/perf_json.h"
#include "output/perf_rows.h"

/* perf's spacing: "key" : value, comma and space between. */
static void key(FILE *f, bool *first, const char *name)
{
	fprintf(f, "%s\"%s\" : ", *first ? "{" : ", ", name);
	*first = false;
}

static void key_str(FILE *f, bool *first, const char *name, const char *v)
{
	key(f, first, name);
	json_write_cstring(f, v, (size_t)-1);
}

/* What perf's lines start with: the interval, then the aggregation (thread). */
static void start(FILE *f, bool *first, const struct report *r, const struct perf_entity *e)
{
	key(f, first, "interval");
	fprintf(f, "%.9f", r->elapsed_s);
	if (e->thread)
		key_str(f, first, "thread", e->thread);
}

static void entity(void *ctx, const struct report *r, const struct perf_entity *e)
{
	FILE *f = ctx;

	for (int i = 0; i < perf_nr_counters(r); i++) {
		struct perf_counter pc;
		bool first = true;
		char value[64];

		perf_counter(r, e, i, &pc);
		if (pc.counted)
			snprintf(value, sizeof(value), "%f", pc.value);
		else
			snprintf(value, sizeof(value), "<not counted>");
		start(f, &first, r, e);
		key_str(f, &first, "counter-value", value);
		key_str(f, &first, "unit", pc.unit);
		key_str(f, &first, "event", pc.event);
		if (e->cgroup) /* perf -G: after the event */
			key_str(f, &first, "cgroup", e->cgroup);
		key(f, &first, "event-runtime");
		fprintf(f, "%llu", pc.run_ns);
		key(f, &first, "pcnt-running");
		fprintf(f, "%.2f", pc.pcnt_running);
		key(f, &first, "metric-value");
		fprintf(f, "%f", pc.metric_unit ? pc.metric : 0.0);
		key_str(f, &first, "metric-unit", pc.metric_unit ? pc.metric_unit : "");
		fputs("}\n", f);
	}
	for (int i = 0; i < perf_nr_metrics(r); i++) {
		struct perf_metric pm;
		bool first = true;

		if (!perf_metric(r, e, i, &pm))
			continue;
		start(f, &first, r, e);
		/* perf's own metric lines carry no cgroup; without it a line's row is lost. */
		if (e->cgroup)
			key_str(f, &first, "cgroup", e->cgroup);
		key(f, &first, "metric-value");
		fprintf(f, "%f", pm.value);
		key_str(f, &first, "metric-unit", pm.unit);
		fputs("}\n", f);
	}
}

void output_perf_json(FILE *f, const struct report *r)
{
	if (!r->summary)
		perf_for_each_entity(r, NULL, entity, f);
}
