/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Metric families in Prometheus' text format 0.0.4 or OpenMetrics 1.0, the
 * two a scraper may ask for. Only what tdtrace exports: counters, gauges
 * and info metrics, with HELP and (OpenMetrics) UNIT. Pure: writes to a
 * FILE (a memory stream in the exporter).
 */
#ifndef TD_METRICS_TEXT_H
#define TD_METRICS_TEXT_H

#include <stdbool.h>
#include <stdio.h>

enum metric_type { METRIC_COUNTER, METRIC_GAUGE, METRIC_INFO };

struct metrics_text {
	FILE *f;
	bool openmetrics;
	const char *family; /* without _total / _info */
	enum metric_type type;
};

/* Content-Type of each format, as the exposition formats give them. */
#define METRICS_TEXT_004 "text/plain; version=0.0.4; charset=utf-8"
#define METRICS_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"

void metrics_begin(struct metrics_text *m, FILE *f, bool openmetrics);

/*
 * Start family @name (a valid metric name, without _total or _info) of
 * @type, with @help and @unit (OpenMetrics only; NULL: none).
 */
void metrics_family(struct metrics_text *m, const char *name, enum metric_type type,
		    const char *help, const char *unit);

/*
 * One sample of the current family: @labels as name, value pairs ending
 * with NULL (NULL: none); values are escaped. Counters take the _total
 * suffix, info metrics _info and the value 1.
 */
void metrics_sample(struct metrics_text *m, const char *const *labels, double value);

/* End: OpenMetrics' "# EOF". */
void metrics_end(struct metrics_text *m);

/* Is @name a valid metric or label name ([a-zA-Z_:][a-zA-Z0-9_:]*, no ':' for labels)? */
bool metrics_valid_name(const char *name, bool label);

#endif /* TD_METRICS_TEXT_H */
