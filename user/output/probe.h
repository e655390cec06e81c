/* SPDX-License-Identifier: GPL-2.0 */
/* tdtrace --probe: what this machine supports, per core PMU, and why. */
#ifndef TD_PROBE_H
#define TD_PROBE_H

#include <stdio.h>
#include "cli/options.h"
#include "model/plan.h"
#include "model/pmu_desc.h"

/*
 * Print what discovery found (@cpu) and what the plan made of it (@p,
 * valid when @planned is 0, else plan_models' error) to @f, as text or
 * with o->json as one JSON object. Returns EXIT_OK.
 */
int probe_print(FILE *f, const struct cpu_pmus *cpu, const struct plan *p, int planned,
		const struct options *o);

#endif /* TD_PROBE_H */
