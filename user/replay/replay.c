// SPDX-License-Identifier: GPL-2.0
/*
 * tdtrace report: each recorded line's counts through its model again.
 * jansson reads the lines (a well-kept parser; tdtrace writes JSON by
 * hand only because it must be fast, and reading needs no speed).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <jansson.h>
#include "cli/options.h"
#include "model/decode.h"
#include "model/models.h"
#include "output/toplev_csv.h"
#include "replay/replay.h"

struct replay {
	FILE *out, *err;
	bool json;
	bool toplev; /* --format=toplev-csv: the system lines' nodes, for toplev's plots */
	const char *file;
	long line;
	long last_interval; /* table: a heading when the interval changes */
	const char *last_phase;
};

static long long integer(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : 0;
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
		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			fprintf(r->err, "tdtrace report: %s:%ld: bad count for %s\n", r->file,
				r->line, m->events[i].name);
			return -EINVAL;
		}
		if (set->nr == TD_MAX_COUNTERS) {
			fprintf(r->err,
				"tdtrace report: %s:%ld: more than %d counts of model %s: this "
				"tdtrace counts fewer events per CPU\n",
				r->file, r->line, TD_MAX_COUNTERS, m->name);
			return -EINVAL;
		}
		c->count[set->nr] = json_integer_value(v);
		set->name[set->nr] = m->events[i].name;
		set->event[set->nr++] = i;
		set->opened[i] = true;
		if (m->events[i].flags & MODEL_EV_L2)
			set->level = 2;
	}
	return 0;
}

/* "process 1234 comm", "cgroup /a/b", "system" */
static void identity(json_t *o, const char *type, char *buf, size_t size)
{
	const char *name = json_string_value(json_object_get(o, "comm"));

	if (!strcmp(type, "cgroup"))
		name = json_string_value(json_object_get(o, "cgroup"));
	if (!strcmp(type, "system"))
		snprintf(buf, size, "system");
	else if (json_object_get(o, "pid") || json_object_get(o, "tid"))
		snprintf(buf, size, "%s %lld %s", type,
			 integer(o, json_object_get(o, "tid") ? "tid" : "pid"), name ? name : "?");
	else
		snprintf(buf, size, "%s %s", type, name ? name : "?");
}

static void table_heading(struct replay *r, json_t *o, const struct counter_set *set,
			  const struct td_decoding *d)
{
	long interval = (long)integer(o, "interval");
	const char *phase = json_string_value(json_object_get(o, "phase"));

	if (interval == r->last_interval && phase && r->last_phase && !strcmp(phase, r->last_phase))
		return;
	r->last_interval = interval;
	r->last_phase = phase && !strcmp(phase, "summary") ? "summary" : "interval";
	fprintf(r->out, "\n%s %ld, model %s, level %d\n%-40s %12s", r->last_phase, interval,
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

/* One recorded line: decode it and write it. -EINVAL said on r->err. */
static int replay_line(struct replay *r, json_t *o)
{
	json_t *counts = json_object_get(o, "counts");
	const char *mode = json_string_value(json_object_get(o, "mode"));
	const char *model = json_string_value(json_object_get(o, "model"));
	const char *type = json_string_value(json_object_get(o, "type"));
	const struct pmu_model *m;
	struct counter_set set;
	struct td_decoding d;
	struct td_metrics met;
	struct td_counts c = {};
	char err[256], who[128];

	if (integer(o, "schema") != 2) {
		fprintf(r->err,
			"tdtrace report: %s:%ld: schema %lld, not 2: only lines of this tdtrace "
			"name their model\n",
			r->file, r->line, integer(o, "schema"));
		return -EINVAL;
	}
	if (!counts || !type || (mode && strcmp(mode, "topdown")))
		return 0; /* software lines and lines without counts have nothing to decode */
	if (!model || !(m = model_by_name(model, json_string_value(json_object_get(o, "pmu"))))) {
		fprintf(r->err, "tdtrace report: %s:%ld: unknown model '%s'\n", r->file, r->line,
			model ? options_shown(model, (size_t)-1) : "(none)");
		return -EINVAL;
	}
	if (recorded_set(m, counts, &set, &c, r))
		return -EINVAL;
	c.enabled_ns[0] = integer(o, "time_enabled_ns");
	c.running_ns[0] = integer(o, "time_running_ns");
	if (td_decoding_init(&d, &set, json_is_true(json_object_get(o, "smt_on")), err,
			     sizeof(err))) {
		fprintf(r->err, "tdtrace report: %s:%ld: %s\n", r->file, r->line, err);
		return -EINVAL;
	}
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
		json_object_set_new(o, "slots", json_real(met.slots));
		for (int i = 0; i < m->nr_metrics; i++) {
			const struct model_metric *mm = &m->metrics[i];

			if (mm->level < 1 || mm->level > set.level)
				continue;
			json_object_set_new(o, mm->name,
					    met.valid && !isnan(met.value[i])
						    ? json_real(100 * met.value[i])
						    : json_null());
		}
		json_dumpf(o, r->out, JSON_COMPACT | JSON_PRESERVE_ORDER);
		fputc('\n', r->out);
		return 0;
	}
	table_heading(r, o, &set, &d);
	identity(o, type, who, sizeof(who));
	fprintf(r->out, "%-40.40s %12.0f", who, met.slots);
	for (int i = 0; i < TD_NR_L1; i++)
		if (d.l1[i] >= 0)
			pct(r->out, met.valid ? met.l1[i] : NAN);
	for (int i = 0; set.level >= 2 && i < TD_NR_L2; i++)
		if (d.l2[i] >= 0)
			pct(r->out, met.valid ? met.l2[i] : NAN);
	fputc('\n', r->out);
	return 0;
}

static int usage(FILE *err, const char *what)
{
	fprintf(err, "tdtrace report: %s (usage: tdtrace report [--json] [FILE])\n", what);
	return EXIT_USAGE;
}

int replay_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct replay r = { .out = out, .err = err, .file = "-", .last_interval = -1 };
	char *buf = NULL;
	size_t size = 0;
	FILE *in = stdin;
	int ret = EXIT_OK;

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
	if (strcmp(r.file, "-")) {
		in = fopen(r.file, "r");
		if (!in) {
			fprintf(err, "tdtrace report: failed to open %s: %s\n",
				options_shown(r.file, (size_t)-1), strerror(errno));
			return EXIT_FAIL;
		}
	}
	if (r.toplev)
		toplev_header(out);
	while (getline(&buf, &size, in) > 0) {
		json_error_t jerr;
		json_t *o;

		r.line++;
		if (buf[strspn(buf, " \t\r\n")] == '\0')
			continue;
		o = json_loads(buf, JSON_DISABLE_EOF_CHECK, &jerr);
		if (!json_is_object(o)) {
			fprintf(err, "tdtrace report: %s:%ld: not a JSON object: %s\n", r.file,
				r.line, jerr.text);
			json_decref(o);
			ret = EXIT_FAIL;
			break;
		}
		if (replay_line(&r, o))
			ret = EXIT_FAIL;
		json_decref(o);
		if (ret)
			break;
	}
	if (ferror(in)) {
		fprintf(err, "tdtrace report: failed to read %s: %s\n", r.file, strerror(errno));
		ret = EXIT_FAIL;
	}
	free(buf);
	if (in != stdin)
		fclose(in);
	return ret;
}
