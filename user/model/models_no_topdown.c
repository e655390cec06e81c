// SPDX-License-Identifier: GPL-2.0
/*
 * CPUs that perf's x86 or arm64 mapfile.csv names but whose pmu-events
 * carry no TopDown metrics (no TopdownL1/L2 group, no *-metrics.json) in the
 * newest perf checked, v7.3: recognised, so that tdtrace says so rather
 * than guess a row from another model's formulas.
 */
#include <string.h>
#include "model/models.h"

static const struct model_no_topdown no_topdown[] = {
	/* mapfile.csv: GenuineIntel-6-(CC|D5|E5),v1.07,pantherlake */
	{ "pantherlake", "Panther Lake", "GenuineIntel", 6, { 0xcc, 0xd5, 0xe5 }, { 0 } },
	/* mapfile.csv: GenuineIntel-18-[13],v1.00,novalake */
	{ "novalake", "Nova Lake", "GenuineIntel", 18, { 0x01, 0x03 }, { 0 } },
	/*
	 * arm64 cores with the STALL_SLOT events (their pmu-events list them)
	 * but no TopdownL1 metrics in perf: mapfile.csv's MIDRs.
	 */
	{ "cortex-a78", "Arm Cortex-A78", "", 0, { 0 }, { 0x410fd410, 0x410fd4b0 } },
	{ "cortex-x1", "Arm Cortex-X1", "", 0, { 0 }, { 0x410fd440, 0x410fd4c0 } },
	{ "cortex-a510", "Arm Cortex-A510", "", 0, { 0 }, { 0x410fd460 } },
	{ "cortex-a710", "Arm Cortex-A710", "", 0, { 0 }, { 0x410fd470 } },
	{ "cortex-x2", "Arm Cortex-X2", "", 0, { 0 }, { 0x410fd480 } },
	{ "monaka", "Fujitsu MONAKA", "", 0, { 0 }, { 0x460f0030 } },
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

const struct model_no_topdown *model_find_no_topdown_midr(unsigned long long midr)
{
	for (size_t i = 0; i < sizeof(no_topdown) / sizeof(no_topdown[0]); i++) {
		const struct model_no_topdown *n = &no_topdown[i];

		for (size_t j = 0; j < sizeof(n->midr) / sizeof(n->midr[0]) && n->midr[j]; j++)
			if (n->midr[j] == MODEL_MIDR_ID(midr))
				return n;
	}
	return NULL;
}
