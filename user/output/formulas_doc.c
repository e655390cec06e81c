// SPDX-License-Identifier: GPL-2.0
/* Each model row's events and formula text as a JSON line (mkdoc formulas). */
#include "model/models.h"
#include "output/formulas_doc.h"
#include "output/json_writer.h"

static void key(FILE *out, const char *sep, const char *name, const char *s)
{
	fprintf(out, "%s\"%s\":", sep, name);
	if (s)
		json_write_cstring(out, s, (size_t)-1);
	else
		fputs("null", out);
}

static void row(FILE *out, const struct pmu_model *m)
{
	key(out, "{", "model", m->name);
	key(out, ",", "pmu", m->pmu);
	key(out, ",", "vendor", m->vendor);
	key(out, ",", "pmu_events", m->pmu_events);
	key(out, ",", "source", m->source);
	key(out, ",", "perf_groups", m->perf_groups);
	key(out, ",", "slots", m->slots);
	fputs(",\"events\":[", out);
	for (int i = 0; i < m->nr_events; i++) {
		const struct model_event *e = &m->events[i];

		key(out, i ? ",{" : "{", "name", e->name);
		key(out, ",", "alias", e->alias);
		key(out, ",", "sysfs", e->sysfs);
		/* a string: JSON numbers lose bits above 2^53 in some readers */
		fprintf(out, ",\"config\":\"0x%llx\"", (unsigned long long)e->config);
		fprintf(out, ",\"group\":%d,\"flags\":%u}", e->group, e->flags);
	}
	fputs("],\"metrics\":[", out);
	for (int i = 0; i < m->nr_metrics; i++) {
		const struct model_metric *mm = &m->metrics[i];

		key(out, i ? ",{" : "{", "name", mm->name);
		fprintf(out, ",\"level\":%d", mm->level);
		key(out, ",", "expr", mm->expr);
		key(out, ",", "plain", mm->plain);
		fputc('}', out);
	}
	fputs("]}\n", out);
}

void formulas_doc_write(FILE *out)
{
	const struct pmu_model *m;

	for (int i = 0; (m = model_at(i)); i++)
		row(out, m);
}
