// SPDX-License-Identifier: GPL-2.0
/* Prometheus text 0.0.4 and OpenMetrics 1.0 writing. See metrics_text.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "output/metrics_text.h"
#include "model/utf8.h"

void metrics_begin(struct metrics_text *m, FILE *f, bool openmetrics)
{
	m->f = f;
	m->openmetrics = openmetrics;
	m->family = NULL;
}

bool metrics_valid_name(const char *name, bool label)
{
	if (!name || !*name || (*name >= '0' && *name <= '9'))
		return false;
	for (const char *p = name; *p; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			  (*p >= '0' && *p <= '9') || *p == '_' || (*p == ':' && !label);

		if (!ok)
			return false;
	}
	return true;
}

/* HELP text: backslash and newline escaped (both formats). */
static void help_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/*
 * A label value: backslash, double quote and newline escaped, and each
 * byte of no valid UTF-8 sequence written as U+FFFD. Both formats take
 * UTF-8 only: one stray byte from a cgroup or process name would fail
 * the whole scrape.
 */
static void label_value(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), n;

	for (size_t i = 0; i < len; i += n ? n : 1) {
		n = utf8_seq_len(p + i, len - i);
		if (!n)
			fputs(UTF8_REPLACEMENT, f);
		else if (p[i] == '\\')
			fputs("\\\\", f);
		else if (p[i] == '"')
			fputs("\\\"", f);
		else if (p[i] == '\n')
			fputs("\\n", f);
		else
			fwrite(p + i, 1, n, f);
	}
}

static const char *suffix(const struct metrics_text *m)
{
	return m->type == METRIC_COUNTER ? "_total" : m->type == METRIC_INFO ? "_info" : "";
}

void metrics_family(struct metrics_text *m, const char *name, enum metric_type type,
		    const char *help, const char *unit)
{
	static const char *const om_types[] = { "counter", "gauge", "info" };

	m->family = name;
	m->type = type;
	if (m->openmetrics) {
		fprintf(m->f, "# TYPE %s %s\n", name, om_types[type]);
		if (unit)
			fprintf(m->f, "# UNIT %s %s\n", name, unit);
		fprintf(m->f, "# HELP %s ", name);
	} else {
		/* 0.0.4 names the samples' own name, and has no info type. */
		fprintf(m->f, "# HELP %s%s ", name, suffix(m));
	}
	help_text(m->f, help);
	fputc('\n', m->f);
	if (!m->openmetrics)
		fprintf(m->f, "# TYPE %s%s %s\n", name, suffix(m),
			type == METRIC_COUNTER ? "counter" : "gauge");
}

/* A value that reads back exactly: integers as integers, the rest with 17 digits. */
static void number(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(f, "%.0f", v);
	else {
		/* The shortest of 15 to 17 digits that reads back the same double. */
		char buf[32];

		for (int digits = 15; digits <= 17; digits++) {
			snprintf(buf, sizeof(buf), "%.*g", digits, v);
			if (strtod(buf, NULL) == v)
				break;
		}
		fputs(buf, f);
	}
}

void metrics_sample(struct metrics_text *m, const char *const *labels, double value)
{
	fprintf(m->f, "%s%s", m->family, suffix(m));
	if (labels && labels[0]) {
		fputc('{', m->f);
		for (int i = 0; labels[i] && labels[i + 1]; i += 2) {
			fprintf(m->f, "%s%s=\"", i ? "," : "", labels[i]);
			label_value(m->f, labels[i + 1]);
			fputc('"', m->f);
		}
		fputc('}', m->f);
	}
	fputc(' ', m->f);
	number(m->f, m->type == METRIC_INFO ? 1 : value);
	fputc('\n', m->f);
}

void metrics_end(struct metrics_text *m)
{
	if (m->openmetrics)
		fputs("# EOF\n", m->f);
}
