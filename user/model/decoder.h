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

#define DECODER_MAX_CPUID_TESTS 4 /* distinct strcmp_cpuid_str(ID) of one model */

/*
 * #literals perf's expressions may use, after the events and metrics,
 * then the value of each strcmp_cpuid_str(ID).
 */
enum {
	DECODER_SMT_ON,
	DECODER_CORE_WIDE,
	DECODER_SLOTS, /* arm64 #slots: the core PMU's caps/slots */
	DECODER_CPUID_TEST,
	DECODER_NR_CONSTANTS = DECODER_CPUID_TEST + DECODER_MAX_CPUID_TESTS
};

struct td_decoder {
	const struct pmu_model *model;
	int level;	     /* highest level shown: 1 or 2 */
	bool opened[MODEL_MAX_EVENTS]; /* by model event */
	bool plain;	     /* a correction event is missing: every metric uses its plain form */
	bool computed[MODEL_MAX_METRICS]; /* compiled: level <= the decoder's, and its events opened */
	bool percent[MODEL_MAX_METRICS];  /* given in percent: divided by 100 */
	struct expr expr[MODEL_MAX_METRICS];
	double constants[DECODER_NR_CONSTANTS];
	unsigned long long cpuid_test[DECODER_MAX_CPUID_TESTS]; /* each ID, a MIDR */
	int nr_cpuid_tests;
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
 * What perf reads from the machine on arm64: #slots (@slots_per_cycle,
 * the core PMU's caps/slots; 0 where it has none, as perf) and its cpuid
 * (@cpuid, the MIDR text "0x00000000410fd493"; NULL: unknown, and
 * strcmp_cpuid_str() is NaN, as perf's without a cpuid). Before eval.
 */
void td_decoder_set_cpu(struct td_decoder *d, double slots_per_cycle, const char *cpuid);

/*
 * Every computed metric of @d from @counts (by model event: index i is
 * m->events[i], a missing event's value unused) into @out (by model
 * metric, NaN where not computed or where perf would print no value), as
 * fractions: a level-1/2 metric perf gives in percent (pmu_model.percent, but
 * for its fractions) / 100.
 */
void td_decoder_eval(const struct td_decoder *d, const double *counts, double *out);

/* The index of metric @name in d->model, or -1. */
int td_decoder_metric(const struct td_decoder *d, const char *name);

#endif /* TD_DECODER_H */
