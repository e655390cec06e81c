// SPDX-License-Identifier: GPL-2.0
/* Compile a model's metrics once; evaluate them per row. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/decoder.h"

/*
 * Variables of the compiled expressions: the model's events first, then
 * its metrics, then the #literals. A metric may use only those before it
 * in the table, which keeps evaluation one pass. A metric that uses an
 * event not opened, or a metric not computed, is not computed either.
 */
struct resolving {
	struct td_decoder *d;
	int upto;	     /* metrics before this one may be used */
	const char *missing; /* an event it uses that was not opened */
	bool required;	     /* ... and that event is not MODEL_EV_OPTIONAL */
};

#define CPUID_CALL "strcmp_cpuid_str("

/* The variable of strcmp_cpuid_str(@id), "ID)": one per distinct ID. */
static int cpuid_test(struct td_decoder *d, const char *id)
{
	const struct pmu_model *m = d->model;
	unsigned long long midr;
	char *end;

	midr = strtoull(id, &end, 16);
	if (end == id || strcmp(end, ")"))
		return -1;
	for (int i = 0; i < d->nr_cpuid_tests; i++)
		if (d->cpuid_test[i] == midr)
			return m->nr_events + m->nr_metrics + DECODER_CPUID_TEST + i;
	if (d->nr_cpuid_tests == DECODER_MAX_CPUID_TESTS)
		return -1;
	d->cpuid_test[d->nr_cpuid_tests] = midr;
	d->constants[DECODER_CPUID_TEST + d->nr_cpuid_tests] = NAN;
	return m->nr_events + m->nr_metrics + DECODER_CPUID_TEST + d->nr_cpuid_tests++;
}

static int resolve(void *ctx, const char *name)
{
	struct resolving *r = ctx;
	const struct pmu_model *m = r->d->model;

	for (int i = 0; i < m->nr_events; i++) {
		const struct model_event *e = &m->events[i];

		/* perf's event names are not case sensitive (arm64's sbsa.json: "cpu_cycles") */
		if (strcasecmp(e->name, name) && (!e->alias || strcasecmp(e->alias, name)))
			continue;
		if (!r->d->opened[i] && !r->missing) {
			r->missing = e->name;
			r->required = !(e->flags & MODEL_EV_OPTIONAL);
		}
		return i;
	}
	for (int i = 0; i < r->upto; i++) {
		if (strcmp(m->metrics[i].name, name))
			continue;
		if (!r->d->computed[i] && !r->missing)
			r->missing = m->metrics[i].name;
		return m->nr_events + i;
	}
	if (!strcmp(name, "#SMT_on"))
		return m->nr_events + m->nr_metrics + DECODER_SMT_ON;
	if (!strcmp(name, "#core_wide"))
		return m->nr_events + m->nr_metrics + DECODER_CORE_WIDE;
	if (!strcmp(name, "#slots"))
		return m->nr_events + m->nr_metrics + DECODER_SLOTS;
	if (!strncmp(name, CPUID_CALL, strlen(CPUID_CALL)))
		return cpuid_test(r->d, name + strlen(CPUID_CALL));
	return -1;
}

static bool listed(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

int td_decoder_init(struct td_decoder *d, const struct pmu_model *m, int level, const bool *opened,
		    bool smt_on, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->model = m;
	d->level = level;
	d->slots = -1;
	for (int i = 0; i < m->nr_events; i++) {
		d->opened[i] = opened ? opened[i] : true;
		if (!d->opened[i] && (m->events[i].flags & MODEL_EV_CORRECTION))
			d->plain = true;
	}
	d->constants[DECODER_SMT_ON] = smt_on;
	/* A per-task tool never counts whole cores at once (perf's #core_wide is 0). */
	d->constants[DECODER_CORE_WIDE] = 0;
	for (int i = 0; i < m->nr_metrics; i++) {
		const struct model_metric *mm = &m->metrics[i];
		struct resolving r = { .d = d, .upto = i };
		const char *text = d->plain && mm->plain ? mm->plain : mm->expr;

		if (!strcmp(mm->name, m->slots))
			d->slots = i;
		d->percent[i] = m->percent && mm->level && !listed(m->fractions, mm->name);
		if (mm->level > level)
			continue;
		if (expr_compile(text, resolve, &r, &d->expr[i], err, errlen))
			return -EINVAL;
		if (r.missing && r.required && mm->level == 1) {
			snprintf(err, errlen, "%s: %s needs %s, which was not opened", m->name,
				 mm->name, r.missing);
			return -EINVAL;
		}
		d->computed[i] = !r.missing;
	}
	if (d->slots < 0) {
		snprintf(err, errlen, "%s: no slots metric '%s'", m->name, m->slots);
		return -EINVAL;
	}
	return 0;
}

#define MIDR_VARIANT  0xf00000ull
#define MIDR_REVISION 0xfull

/*
 * perf's strcmp_cpuid_str() on arm64 (tools/perf/arch/arm64/util/header.c):
 * the same MIDR but for variant and revision, and a revision (variant,
 * then revision) at least the tested one's.
 */
static bool midr_at_least(unsigned long long cpu, unsigned long long test)
{
	unsigned long long id = ~(MIDR_VARIANT | MIDR_REVISION);

	if ((cpu & id) != (test & id))
		return false;
	return (cpu & (MIDR_VARIANT | MIDR_REVISION)) >= (test & (MIDR_VARIANT | MIDR_REVISION));
}

void td_decoder_set_cpu(struct td_decoder *d, double slots_per_cycle, const char *cpuid)
{
	unsigned long long midr = 0;
	char *end = NULL;

	d->constants[DECODER_SLOTS] = slots_per_cycle;
	if (cpuid)
		midr = strtoull(cpuid, &end, 16);
	for (int i = 0; i < d->nr_cpuid_tests; i++)
		d->constants[DECODER_CPUID_TEST + i] =
			!cpuid || end == cpuid || *end ? NAN
						       : midr_at_least(midr, d->cpuid_test[i]);
}

void td_decoder_eval(const struct td_decoder *d, const double *counts, double *out)
{
	const struct pmu_model *m = d->model;
	double vars[MODEL_MAX_EVENTS + MODEL_MAX_METRICS + DECODER_NR_CONSTANTS];
	double *metric = vars + m->nr_events;

	for (int i = 0; i < m->nr_events; i++)
		vars[i] = d->opened[i] ? counts[i] : NAN;
	memcpy(metric + m->nr_metrics, d->constants, sizeof(d->constants));
	for (int i = 0; i < m->nr_metrics; i++) {
		metric[i] = d->computed[i] ? expr_eval(&d->expr[i], vars) : NAN;
		out[i] = d->percent[i] ? metric[i] / 100 : metric[i];
	}
}

int td_decoder_metric(const struct td_decoder *d, const char *name)
{
	for (int i = 0; i < d->model->nr_metrics; i++)
		if (!strcmp(d->model->metrics[i].name, name))
			return i;
	return -1;
}
