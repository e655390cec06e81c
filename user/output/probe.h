/* SPDX-License-Identifier: GPL-2.0 */
/* tdtrace --probe: what this machine supports, and why. */
#ifndef TD_PROBE_H
#define TD_PROBE_H

#include <stdio.h>
#include "cli/options.h"
#include "host/pmu.h"

/* Print the report to @f. Returns EXIT_OK. */
int probe_print(FILE *f, const struct pmu_info *pmu, const struct options *o);

#endif /* TD_PROBE_H */
