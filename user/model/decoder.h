/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model's formulas, ready to run: its metrics' perf expressions compiled
 * against the events that were opened, for one level. Pure.
 */
#ifndef TD_DECODER_H
#define TD_DECODER_H

#include <stdbool.h>
#include <stddef.h>
#include "model/expr.h"
#include "model/models.h"

/* #literals perf's expressions may use, after the events and metrics. */
enum { DECODER_SMT_ON, DECODER_CORE_WIDE, DECODER_NR_CONSTANTS };

struct td_decoder {
	const struct pmu_model *model;
	int level;	     /* highest level shown: 1 or 2 */
	bool opened[MODEL_MAX_EVENTS]; /* by model event */
	bool plain;	     /* a correction event is missing: every metric uses its plain form */
	bool computed[MODEL_MAX_METRICS]; /* compiled: level <= the decoder's, and its events opened */
	struct expr expr[MODEL_MAX_METRICS];
	double constants[DECODER_NR_CONSTANTS];
	int slots; /* index of the model's slots metric */
};

/*
 * Compile @m's metrics up to @level for the events in @opened (by model
 * event; NULL: all of them). Without a MODEL_EV_CORRECTION event, metrics
 * use their plain form and d->plain says so. A level-1 metric whose
 * events were not opened is an error; a level-2 one is left out
 * (computed false), as is one that needs a MODEL_EV_OPTIONAL event that was
 * not opened. @smt_on sets #SMT_on. Returns 0, or -EINVAL with a
 * one-line reason in @err (a bad table row).
 */
int td_decoder_init(struct td_decoder *d, const struct pmu_model *m, int level, const bool *opened,
		    bool smt_on, char *err, size_t errlen);

/*
 * Every computed metric of @d from @counts (by model event: index i is
 * m->events[i], a missing event's value unused) into @out (by model
 * metric, NaN where not computed or where perf would print no value).
 */
void td_decoder_eval(const struct td_decoder *d, const double *counts, double *out);

/* The index of metric @name in d->model, or -1. */
int td_decoder_metric(const struct td_decoder *d, const char *name);

#endif /* TD_DECODER_H */
