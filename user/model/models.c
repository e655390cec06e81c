// SPDX-License-Identifier: GPL-2.0
/* Looking a model up in the table (models_intel.c, models_amd.c, models_arm64.c). */
#include <string.h>
#include "model/models.h"

static const struct {
	const struct pmu_model *rows;
	const int *nr;
} tables[] = {
	{ intel_models, &nr_intel_models },
	{ amd_models, &nr_amd_models },
	{ arm64_models, &nr_arm64_models },
};

#define for_each_model(m)                                                                  \
	for (size_t t_ = 0; t_ < sizeof(tables) / sizeof(tables[0]); t_++)                 \
		for (const struct pmu_model *m = tables[t_].rows;                          \
		     m < tables[t_].rows + *tables[t_].nr; m++)

static bool covers(const struct pmu_model *m, int cpu_model, int stepping)
{
	bool listed = false;

	for (size_t i = 0; i < sizeof(m->cpu_models) && m->cpu_models[i]; i++)
		if (m->cpu_models[i] == cpu_model)
			listed = true;
	for (size_t i = 0; i < MODEL_MAX_RANGES && m->cpu_model_ranges[i].last; i++)
		if (cpu_model >= m->cpu_model_ranges[i].first &&
		    cpu_model <= m->cpu_model_ranges[i].last)
			listed = true;
	if (!listed)
		return false;
	if (!m->stepping_min && !m->stepping_max)
		return true;
	return stepping >= m->stepping_min && stepping <= m->stepping_max;
}

const struct pmu_model *model_find(const char *vendor, int family, int cpu_model, int stepping,
				   const char *pmu)
{
	for_each_model(m) {
		if (strcmp(m->vendor, vendor) || m->family != family || strcmp(m->pmu, pmu))
			continue;
		if (covers(m, cpu_model, stepping))
			return m;
	}
	return NULL;
}

const struct pmu_model *model_find_midr(unsigned long long midr)
{
	for_each_model(m) {
		for (size_t i = 0; i < sizeof(m->midr) / sizeof(m->midr[0]) && m->midr[i]; i++)
			if (MODEL_MIDR_ID(midr) == m->midr[i])
				return m;
	}
	return NULL;
}

const struct pmu_model *model_at(int i)
{
	for_each_model(m) {
		if (!i--)
			return m;
	}
	return NULL;
}

const struct pmu_model *model_by_name(const char *name, const char *pmu)
{
	for_each_model(m) {
		if (strcmp(m->name, name))
			continue;
		if (!pmu || !strcmp(m->pmu, pmu))
			return m;
	}
	return NULL;
}
