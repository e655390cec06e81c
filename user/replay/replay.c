// SPDX-License-Identifier: GPL-2.0
/*
 * tdtrace report: each recorded line's counts through its model again.
 * jansson reads the lines (a well-kept parser; tdtrace writes JSON by
 * hand only because it must be fast, and reading needs no speed).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cli/options.h"
#include "model/decode.h"
#include "model/models.h"
#include "output/table.h"
#include "output/toplev_csv.h"
#include "replay/replay.h"
#include "cli/say.h"

struct replay {
	FILE *out, *err;
	bool json;
	bool toplev; /* --format=toplev-csv: the system lines' nodes, for toplev's plots */
	const char *file;
	char *shown; /* @file as an error line may show it */
	long line;
	/* table: a heading when the interval, the phase or the model changes */
	long last_interval;
	const char *last_phase;
	const struct pmu_model *last_model;
	int last_level;
};

static long long integer(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : 0;
}

/* One line refused: a one-line error naming the file and the line. */
__attribute__((format(printf, 2, 3))) static int refuse(struct replay *r, const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	say_in(r->err, "report", "%s:%ld: %s", r->shown, r->line, why);
	return -EINVAL;
}

/* @s as an error line may show it, copied to @buf (options_shown has one buffer). */
static const char *shown(const char *s, char *buf, size_t size)
{
	snprintf(buf, size, "%s", options_shown(s, (size_t)-1));
	return buf;
}

/* A JSON value as an error line may show it: "2", [1], null. */
static const char *shown_json(json_t *v, char *buf, size_t size)
{
	char *text = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;

	shown(text ? text : "(none)", buf, size);
	free(text);
	return buf;
}

/*
 * The counter set of @m that recorded @counts: a counter for each model
 * event the line has a count for, in the line's order of events. Level 2
 * when any level-2 event was counted.
 */
static int recorded_set(const struct pmu_model *m, json_t *counts, struct counter_set *set,
			struct td_counts *c, struct replay *r)
{
	memset(set, 0, sizeof(*set));
	set->model = m;
	set->level = 1;
	for (int i = 0; i < m->nr_events; i++) {
		json_t *v = json_object_get(counts, m->events[i].name);

		if (!v)
			continue;
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return refuse(r, "bad count for %s: not an integer >= 0",
				      m->events[i].name);
		if (set->nr == TD_MAX_COUNTERS)
			return refuse(r,
				      "more than %d counts of model %s: this tdtrace counts fewer "
				      "events per CPU",
				      TD_MAX_COUNTERS, m->name);
		c->count[set->nr] = json_integer_value(v);
		set->name[set->nr] = m->events[i].name;
		set->event[set->nr++] = i;
		set->opened[i] = true;
		if (m->events[i].flags & MODEL_EV_L2)
			set->level = 2;
	}
	return 0;
}

/*
 * "process 1234 comm", "cgroup /a/b", "cgroup shop/web" (rolled up by
 * --group-by), "region ./prog:work 1234 comm", "system"
 */
static void identity(json_t *o, const char *type, char *buf, size_t size)
{
	const char *name = json_string_value(json_object_get(o, "comm"));
	const char *region = json_string_value(json_object_get(o, "region"));

	if (!strcmp(type, "cgroup")) {
		name = json_string_value(json_object_get(o, "cgroup"));
		if (!name)
			name = json_string_value(json_object_get(o, "label"));
	}
	if (!strcmp(type, "system"))
		snprintf(buf, size, "system");
	else if (!strcmp(type, "region"))
		snprintf(buf, size, "region %s %lld %s", region ? region : "?", integer(o, "pid"),
			 name ? name : "?");
	else if (json_object_get(o, "pid") || json_object_get(o, "tid"))
		snprintf(buf, size, "%s %lld %s", type,
			 integer(o, json_object_get(o, "tid") ? "tid" : "pid"), name ? name : "?");
	else
		snprintf(buf, size, "%s %s", type, name ? name : "?");
}

/*
 * A heading when the interval, the phase or the model changes (@set NULL:
 * a --software line).
 */
static void table_heading(struct replay *r, json_t *o, const struct counter_set *set,
			  const struct td_decoding *d)
{
	long interval = (long)integer(o, "interval");
	const char *phase = json_string_value(json_object_get(o, "phase"));
	const struct pmu_model *model = set ? set->model : NULL;

	phase = phase && !strcmp(phase, "summary") ? "summary" : "interval";
	if (interval == r->last_interval && r->last_phase && !strcmp(phase, r->last_phase) &&
	    model == r->last_model && (!set || set->level == r->last_level))
		return;
	r->last_interval = interval;
	r->last_phase = phase;
	r->last_model = model;
	r->last_level = set ? set->level : 0;
	if (!set) {
		fprintf(r->out, "\n%s %ld, software (cpu-clock)\n%-40s %12s %8s\n", phase, interval,
			"ENTITY", "CPU_MS", "CPU%");
		return;
	}
	fprintf(r->out, "\n%s %ld, model %s, level %d\n%-40s %12s", phase, interval,
		set->model->name, set->level, "ENTITY", "SLOTS");
	for (int i = 0; i < TD_NR_L1; i++)
		if (d->l1[i] >= 0)
			fprintf(r->out, " %8.8s", td_l1_nodes[i]);
	for (int i = 0; set->level >= 2 && i < TD_NR_L2; i++)
		if (d->l2[i] >= 0)
			fprintf(r->out, " %8.8s", td_l2_nodes[i]);
	fputc('\n', r->out);
}

static void pct(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " %8s", "-");
	else
		fprintf(f, " %8.2f", 100 * v);
}

/* The row's name, as the live table writes names: control bytes as '?'. */
static void table_entity(struct replay *r, json_t *o, const char *type)
{
	char who[128];

	identity(o, type, who, sizeof(who));
	table_put_safe(r->out, who, 40, 40);
}

/* The line again, as it came, with what was decoded set in it. */
static void json_line(struct replay *r, json_t *o)
{
	json_dumpf(o, r->out, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', r->out);
}

/*
 * A --software line: CPU time, nothing to decode. Its cpu-clock count is
 * checked; the line comes back as it is, or as a table row.
 */
static int software_line(struct replay *r, json_t *o, json_t *counts, const char *type)
{
	json_t *v = json_object_get(counts, "cpu-clock");
	json_t *ns = json_object_get(o, "cpu_ns"), *share = json_object_get(o, "cpu_pct");

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return refuse(r, "bad count for cpu-clock: not an integer >= 0");
	if (r->toplev) /* as the live tracer refuses --format=toplev-csv with --software */
		return refuse(r, "a --software line has no TopDown nodes for --format=toplev-csv");
	if (r->json) {
		json_line(r, o);
		return 0;
	}
	table_heading(r, o, NULL, NULL);
	table_entity(r, o, type);
	if (json_is_number(ns))
		fprintf(r->out, " %12.1f", json_number_value(ns) / 1e6);
	else
		fprintf(r->out, " %12s", "-");
	if (json_is_number(share))
		fprintf(r->out, " %8.2f\n", json_number_value(share));
	else
		fprintf(r->out, " %8s\n", "-");
	return 0;
}

/* The model row that counted the line: by its name and, if given, its PMU. */
static const struct pmu_model *line_model(struct replay *r, json_t *o)
{
	json_t *name = json_object_get(o, "model"), *pmu = json_object_get(o, "pmu");
	const struct pmu_model *m;
	char a[128], b[128];

	if (!json_is_string(name)) {
		refuse(r, "model %s is not a model's name", shown_json(name, a, sizeof(a)));
		return NULL;
	}
	if (pmu && !json_is_string(pmu)) {
		refuse(r, "pmu %s is not a PMU's name", shown_json(pmu, a, sizeof(a)));
		return NULL;
	}
	m = model_by_name(json_string_value(name), json_string_value(pmu));
	if (m)
		return m;
	if (model_by_name(json_string_value(name), NULL))
		refuse(r, "model '%s' has no row for PMU '%s'",
		       shown(json_string_value(name), a, sizeof(a)),
		       shown(json_string_value(pmu), b, sizeof(b)));
	else
		refuse(r, "unknown model '%s'", shown(json_string_value(name), a, sizeof(a)));
	return NULL;
}

/* @key of @o, if there, a count of nanoseconds: *ns (0 if absent), or -EINVAL (said). */
static int time_ns(struct replay *r, json_t *o, const char *key, __u64 *ns)
{
	json_t *v = json_object_get(o, key);
	char buf[128];

	*ns = 0;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return refuse(r, "%s %s is not an integer >= 0", key,
			      shown_json(v, buf, sizeof(buf)));
	*ns = json_integer_value(v);
	return 0;
}

/* A TopDown line: its counts through its model's formulas. */
static int topdown_line(struct replay *r, json_t *o, json_t *counts, const char *type)
{
	const struct pmu_model *m = line_model(r, o);
	struct counter_set set;
	struct td_decoding d;
	struct td_metrics met;
	struct td_counts c = {};
	json_t *smt = json_object_get(o, "smt_on");
	json_t *version = json_object_get(o, "pmu_events");
	json_t *slots = json_object_get(o, "slots_per_cycle"), *cpuid = json_object_get(o, "cpuid");
	char err[256];

	if (!m || recorded_set(m, counts, &set, &c, r) ||
	    time_ns(r, o, "time_enabled_ns", &c.enabled_ns[0]) ||
	    time_ns(r, o, "time_running_ns", &c.running_ns[0]))
		return -EINVAL;
	if (smt && !json_is_boolean(smt))
		return refuse(r, "smt_on %s is not true or false",
			      shown_json(smt, err, sizeof(err)));
	/* Lines before this field have none; it names the formulas, and changes nothing. */
	if (version && !json_is_string(version) && !json_is_null(version))
		return refuse(r, "pmu_events %s is not a version's name or null",
			      shown_json(version, err, sizeof(err)));
	/* arm64: perf's #slots and the MIDR its formulas may test (fields, not counts) */
	if (slots && (!json_is_number(slots) || json_number_value(slots) < 0))
		return refuse(r, "slots_per_cycle %s is not a number >= 0",
			      shown_json(slots, err, sizeof(err)));
	if (cpuid && !json_is_string(cpuid) && !json_is_null(cpuid))
		return refuse(r, "cpuid %s is not a MIDR's text or null",
			      shown_json(cpuid, err, sizeof(err)));
	if (td_decoding_init(&d, &set, json_is_true(smt), err, sizeof(err)))
		return refuse(r, "%s", err);
	td_decoder_set_cpu(&d.decoder, slots ? json_number_value(slots) : 0,
			   json_string_value(cpuid));
	td_decode(&d, &c, &met);
	if (r->toplev) {
		const char *phase = json_string_value(json_object_get(o, "phase"));

		/* The run's summary would be one more point at the last interval's time. */
		if (!strcmp(type, "system") && !(phase && !strcmp(phase, "summary")))
			toplev_nodes(r->out, json_number_value(json_object_get(o, "elapsed_s")), &c,
				     &met);
		return 0;
	}
	if (r->json) {
		/* The metrics below are this build's formulas': say whose. */
		json_object_set_new(o, "pmu_events",
				    m->pmu_events ? json_string(m->pmu_events) : json_null());
		/* As the live output: null where the counters never ran. */
		json_object_set_new(o, "slots",
				    met.never_counted ? json_null() : json_real(met.slots));
		for (int i = 0; i < m->nr_metrics; i++) {
			const struct model_metric *mm = &m->metrics[i];

			if (mm->level < 1 || mm->level > set.level)
				continue;
			json_object_set_new(o, mm->name,
					    met.valid && !isnan(met.value[i])
						    ? json_real(100 * met.value[i])
						    : json_null());
		}
		json_line(r, o);
		return 0;
	}
	table_heading(r, o, &set, &d);
	table_entity(r, o, type);
	if (met.never_counted)
		fprintf(r->out, " %12s", "-");
	else
		fprintf(r->out, " %12.0f", met.slots);
	for (int i = 0; i < TD_NR_L1; i++)
		if (d.l1[i] >= 0)
			pct(r->out, met.valid ? met.l1[i] : NAN);
	for (int i = 0; set.level >= 2 && i < TD_NR_L2; i++)
		if (d.l2[i] >= 0)
			pct(r->out, met.valid ? met.l2[i] : NAN);
	fputc('\n', r->out);
	return 0;
}

static bool one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(s, *set))
			return true;
	return false;
}

/*
 * One recorded line: checked, decoded and written. Every line either
 * comes back or is refused with -EINVAL, said on r->err.
 */
static int replay_line(struct replay *r, json_t *o)
{
	static const char *const types[] = { "system", "process", "thread", "cgroup", "region",
					     NULL };
	json_t *schema = json_object_get(o, "schema"), *counts = json_object_get(o, "counts");
	json_t *type = json_object_get(o, "type"), *mode = json_object_get(o, "mode");
	char buf[128];

	if (!json_is_integer(schema) || json_integer_value(schema) != 2)
		return refuse(r, "schema %s, not 2: only lines of this tdtrace name their model",
			      shown_json(schema, buf, sizeof(buf)));
	if (!json_is_string(type) || !one_of(json_string_value(type), types))
		return refuse(r, "type %s is not system, process, thread, cgroup or region",
			      shown_json(type, buf, sizeof(buf)));
	if (!json_is_object(counts))
		return refuse(r, "counts %s is not an object of counts by event name",
			      shown_json(counts, buf, sizeof(buf)));
	if (json_is_string(mode) && !strcmp(json_string_value(mode), "topdown"))
		return topdown_line(r, o, counts, json_string_value(type));
	if (json_is_string(mode) && !strcmp(json_string_value(mode), "software"))
		return software_line(r, o, counts, json_string_value(type));
	return refuse(r, "mode %s is not topdown or software", shown_json(mode, buf, sizeof(buf)));
}

static int usage(FILE *err, const char *what)
{
	say_in(err, "report", "%s (usage: tdtrace report [--json] [FILE])", what);
	return EXIT_USAGE;
}

/*
 * One line of input (@len bytes, NULs too): blank, or exactly one JSON
 * object, whose keys appear once each. Returns 0 or -EINVAL (said).
 */
static int read_line(struct replay *r, const char *buf, size_t len)
{
	json_error_t jerr;
	char text[256];
	json_t *o;
	int err;

	if (len && buf[len - 1] == '\n')
		len--; /* not part of the line: jansson would quote it in its error */
	if (strspn(buf, " \t\r\n") >= len)
		return 0;
	if (memchr(buf, '\0', len))
		return refuse(r, "a NUL byte at column %zu: not JSON text",
			      (size_t)((const char *)memchr(buf, '\0', len) - buf) + 1);
	o = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!o)
		return refuse(r, "not one JSON object: %s at column %d",
			      shown(jerr.text, text, sizeof(text)), jerr.column);
	err = json_is_object(o) ? replay_line(r, o) : refuse(r, "not a JSON object");
	json_decref(o);
	return err;
}

int replay_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct replay r = { .out = out, .err = err, .file = "-", .last_interval = -1 };
	char *buf = NULL;
	size_t size = 0;
	ssize_t len;
	FILE *in = stdin;
	int ret = EXIT_OK, werr = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j"))
			r.json = true;
		else if (!strcmp(argv[i], "--format=toplev-csv"))
			r.toplev = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs("Usage: tdtrace report [--json | --format=toplev-csv] [FILE]\n"
			      "Decode JSON lines recorded by tdtrace --json (FILE, or stdin) "
			      "again\n"
			      "with this build's model formulas; print tables, or with --json the\n"
			      "lines with their metrics recomputed, or the machine's nodes as\n"
			      "toplev's CSV (--format=toplev-csv) for pmu-tools' plots.\n",
			      out);
			return EXIT_OK;
		} else if (argv[i][0] == '-' && argv[i][1])
			return usage(err, "unknown option");
		else if (r.file[0] != '-' || r.file[1])
			return usage(err, "one FILE at most");
		else
			r.file = argv[i];
	}
	r.shown = strdup(options_shown(r.file, (size_t)-1));
	if (!r.shown)
		return EXIT_FAIL;
	if (strcmp(r.file, "-")) {
		in = fopen(r.file, "r");
		if (!in) {
			say_in(err, "report", "failed to open %s: %s", r.shown, strerror(errno));
			free(r.shown);
			return EXIT_FAIL;
		}
	}
	if (r.toplev)
		toplev_header(out);
	/* Every line: it comes back, or it is refused and the exit code says so. */
	while ((len = getline(&buf, &size, in)) > 0) {
		r.line++;
		errno = 0;
		if (read_line(&r, buf, (size_t)len))
			ret = EXIT_FAIL;
		if (ferror(out)) { /* the reader left, or the disk is full: stop now */
			werr = errno ? errno : EIO;
			break;
		}
	}
	if (ferror(in)) {
		say_in(err, "report", "failed to read %s: %s", r.shown, strerror(errno));
		ret = EXIT_FAIL;
	}
	if (!werr && fflush(out))
		werr = errno ? errno : EIO;
	/* EPIPE: `tdtrace report | head` is fine, as for the live output. */
	if (werr && werr != EPIPE) {
		say_in(err, "report", "failed to write the output: %s", strerror(werr));
		ret = EXIT_FAIL;
	}
	free(buf);
	free(r.shown);
	if (in != stdin)
		fclose(in);
	return ret;
}
