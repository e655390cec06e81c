// SPDX-License-Identifier: GPL-2.0
/* The supported-CPU table of README, from the model table. */
#include "model/models.h"
#include "output/models_doc.h"

static void row(FILE *out, const struct pmu_model *m)
{
	int level = 1, groups = 0;

	for (int i = 0; i < m->nr_metrics; i++)
		if (m->metrics[i].level == 2)
			level = 2;
	for (int i = 0; i < m->nr_events; i++)
		if (m->events[i].group + 1 > groups)
			groups = m->events[i].group + 1;
	int n = 0;

	if (m->midr[0]) {
		/* arm64: /proc/cpuinfo's CPU implementer, part (variant, revision) */
		fprintf(out, "| `%s` | arm64 MIDR", m->name);
		for (size_t i = 0; i < sizeof(m->midr) / sizeof(m->midr[0]) && m->midr[i]; i++)
			fprintf(out, "%s 0x%08x", i ? "," : "", m->midr[i]);
		fputs(" (any revision)", out);
		goto rest;
	}
	for (size_t i = 0; i < sizeof(m->cpu_models) && m->cpu_models[i]; i++)
		n++;
	for (int i = 0; i < MODEL_MAX_RANGES && m->cpu_model_ranges[i].last; i++)
		n += 2;
	fprintf(out, "| `%s` | %s family 0x%x, model%s", m->name, m->vendor, m->family,
		n > 1 ? "s" : "");
	n = 0;
	for (size_t i = 0; i < sizeof(m->cpu_models) && m->cpu_models[i]; i++)
		fprintf(out, "%s 0x%02x", n++ ? "," : "", m->cpu_models[i]);
	for (int i = 0; i < MODEL_MAX_RANGES && m->cpu_model_ranges[i].last; i++)
		fprintf(out, "%s 0x%02x-0x%02x", n++ ? "," : "", m->cpu_model_ranges[i].first,
			m->cpu_model_ranges[i].last);
	if (m->stepping_min || m->stepping_max)
		fprintf(out, ", stepping %d-%d", m->stepping_min, m->stepping_max);
rest:
	fprintf(out, " | `%s`%s%s%s | %s | %d in %d group%s | %s%s%s | %s |\n", m->pmu,
		m->core ? " (" : "", m->core ? m->core : "", m->core ? ")" : "",
		level == 2 ? "1, 2" : "1", m->nr_events, groups, groups > 1 ? "s" : "",
		m->perf_groups ? "`" : "", m->perf_groups ? m->perf_groups : "-",
		m->perf_groups ? "`" : "", m->verified ? m->verified : "no");
}

void models_doc_write(FILE *out)
{
	fputs("| model (perf's name) | recognised by (/proc/cpuinfo) | PMU | levels | events per "
	      "CPU "
	      "| perf stat -M | checked on hardware |\n"
	      "| --- | --- | --- | --- | --- | --- | --- |\n",
	      out);
	for (int i = 0; i < nr_intel_models; i++)
		row(out, &intel_models[i]);
	for (int i = 0; i < nr_amd_models; i++)
		row(out, &amd_models[i]);
	for (int i = 0; i < nr_arm64_models; i++)
		row(out, &arm64_models[i]);
}
