// SPDX-License-Identifier: GPL-2.0
/*
 * Intel rows of the PMU model table (see models.h). Being filled in:
 * no rows yet, so model_find() finds no Intel model.
 */
#include "model/models.h"

const struct pmu_model intel_models[] = {
	{ 0 },
};
const int nr_intel_models = 0;
