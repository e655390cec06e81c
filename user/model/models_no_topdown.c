// SPDX-License-Identifier: GPL-2.0
/*
 * CPUs that perf's x86 mapfile.csv names but whose pmu-events carry no
 * TopDown metrics (no TopdownL1/L2 group, no *-metrics.json) in the
 * newest perf checked, v7.3: recognised, so that tdtrace says so rather
 * than guess a row from another model's formulas.
 */
#include <string.h>
#include "model/models.h"

static const struct model_no_topdown no_topdown[] = {
	/* mapfile.csv: GenuineIntel-6-(CC|D5|E5),v1.07,pantherlake */
	{ "pantherlake", "Panther Lake", "GenuineIntel", 6, { 0xcc, 0xd5, 0xe5 } },
	/* mapfile.csv: GenuineIntel-18-[13],v1.00,novalake */
	{ "novalake", "Nova Lake", "GenuineIntel", 18, { 0x01, 0x03 } },
};

const struct model_no_topdown *model_find_no_topdown(const char *vendor, int family, int cpu_model)
{
	for (size_t i = 0; i < sizeof(no_topdown) / sizeof(no_topdown[0]); i++) {
		const struct model_no_topdown *n = &no_topdown[i];

		if (strcmp(n->vendor, vendor) || n->family != family)
			continue;
		for (size_t j = 0; j < sizeof(n->cpu_models) && n->cpu_models[j]; j++)
			if (n->cpu_models[j] == cpu_model)
				return n;
	}
	return NULL;
}
