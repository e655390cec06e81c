// SPDX-License-Identifier: GPL-2.0
/*
 * AMD rows of the PMU model table (see models.h). Being filled in:
 * no rows yet, so model_find() finds no AMD model.
 */
#include "model/models.h"

const struct pmu_model amd_models[] = {
	{ 0 },
};
const int nr_amd_models = 0;
