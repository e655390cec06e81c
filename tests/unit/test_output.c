// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/model/report.h: report_build() on a hand-made snapshot,
 * then output_json() (every line must parse with jansson) and
 * output_table() (only printable ASCII, the right rows in the right order).
 * TopDown counter sets come from the sysfs fixtures; run from the
 * repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/report.h"
#include "testlake.h"
#include "output/json.h"
#include "output/table.h"
#include "sorted_snapshot.h"

/* perf's names for the testlake row's nodes, in enum td_l1 / td_l2 order. */
static const char *const l1_names[] = { "tma_retiring", "tma_bad_speculation", "tma_frontend_bound",
					"tma_backend_bound" };
static const char *const l2_names[TD_NR_L2] = {
	"tma_heavy_operations", "tma_light_operations", "tma_branch_mispredicts",
	"tma_machine_clears",	"tma_fetch_latency",	"tma_fetch_bandwidth",
	"tma_memory_bound",	"tma_core_bound",
};

/* A comm with '"', '\\', ESC, newline and a byte that is not UTF-8. */
static const char odd_comm[TD_COMM_LEN] = { 'q', '"', 'b', '\\', 0x1b, '\n', (char)0xff, 'z' };
/* What JSON must give back for it: the 0xff byte as U+FFFD. */
static const char odd_comm_json[] = "q\"b\\\x1b\n\xef\xbf\xbdz";
/* What the table must print for it. */
static const char odd_comm_table[] = "q\"b\\???z";
/* 16 bytes and no NUL: the whole field is the name. */
static const char full_comm[TD_COMM_LEN] = "0123456789abcdef";

enum { IDLE, WEB, DB, MUX, NODATA, NR_TASKS };

/* Hand-made TopDown counts in the Ice Lake set's slot order, and times. */
static const struct task_spec {
	__u32 pid;
	const char *comm; /* TD_COMM_LEN bytes */
	__u64 cgroup;
	__u64 count[TD_MAX_COUNTERS];
	__u64 enabled, running, slices;
} task_specs[NR_TASKS] = {
	/* The idle tasks have the most slots but are never a table row. */
	[IDLE] = { 0,
		   "swapper/0",
		   TD_IDLE_CGROUP_ID,
		   { 900000, 300000, 100000, 200000, 300000, 100000, 50000, 100000, 150000 },
		   1000000000,
		   1000000000,
		   500 },
	/* L1 40/10/20/30 %, L2 children 16/6/12/18 %. */
	[WEB] = { 100,
		  odd_comm,
		  2001,
		  { 5000, 2000, 500, 1000, 1500, 800, 300, 600, 900 },
		  1000000,
		  1000000,
		  10 },
	/* L1 sum is slots, in awkward thirds. */
	[DB] = { 200,
		 full_comm,
		 2002,
		 { 2500, 833, 833, 1, 833, 100, 400, 1, 800 },
		 500000,
		 500000,
		 7 },
	/* Counted half the time: scale 2, 2000 slots once scaled. */
	[MUX] = { 400,
		  "mux",
		  2002,
		  { 1000, 400, 100, 200, 300, 100, 50, 100, 150 },
		  2000,
		  1000,
		  3 },
	/* Charged a slice but counted nothing. */
	[NODATA] = { 300, "nodata", 2003, { 0 }, 0, 0, 1 },
};

/* enabled / running of all tasks together: the mux task makes it > 1. */
static double system_scale(void)
{
	__u64 e = 0, r = 0;

	for (int i = 0; i < NR_TASKS; i++) {
		e += task_specs[i].enabled;
		r += task_specs[i].running;
	}
	return (double)e / (double)r;
}

/* Displayed order by slots: web 5000, db 2500, mux 2000 (scaled), nodata 0. */
static const __u32 pid_order[] = { 100, 200, 400, 300 };

struct lines {
	json_t *v[64];
	size_t nr;
};

struct fx {
	struct lines l; /* parsed JSON lines, freed by the teardown */
	struct counter_set cs;
	struct td_decoding decoding;
	struct snapshot s;
	struct cgroup_names names;
	struct report_config cfg;
	struct report r;
	char *out;
	size_t len;
};

static void fill_counts(struct td_counts *c, const struct task_spec *t, bool software)
{
	memset(c, 0, sizeof(*c));
	if (software) {
		/* cpu-clock alone, in ns. */
		c->count[TD_SLOTS] = t->count[TD_SLOTS] * 1000;
	} else {
		memcpy(c->count, t->count, sizeof(c->count));
	}
	c->enabled_ns[0] = t->enabled;
	c->running_ns[0] = t->running;
	c->slices = t->slices;
}

static struct cgroup_sample *cgroup_of(struct snapshot *s, __u64 id)
{
	for (size_t i = 0; i < s->nr_cgroups; i++)
		if (s->cgroups[i].id == id)
			return &s->cgroups[i];
	assert_int_equal(snapshot_reserve(s, s->nr_tasks, s->nr_cgroups + 1), 0);
	memset(&s->cgroups[s->nr_cgroups], 0, sizeof(s->cgroups[0]));
	s->cgroups[s->nr_cgroups].id = id;
	return &s->cgroups[s->nr_cgroups++];
}

/* The snapshot of task_specs: tasks, their cgroups, and the totals. */
static void build_snapshot(struct snapshot *s, bool software)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(snapshot_reserve(s, NR_TASKS, 0), 0);
	for (int i = 0; i < NR_TASKS; i++) {
		const struct task_spec *t = &task_specs[i];
		struct task_sample *ts = &s->tasks[s->nr_tasks++];

		memset(ts, 0, sizeof(*ts));
		ts->key.id = t->pid;
		ts->key.start_ns = 1000 + t->pid;
		fill_counts(&ts->val.c, t, software);
		ts->val.cgroup_id = t->cgroup;
		ts->val.tgid = t->pid;
		memcpy(ts->val.comm, t->comm, strnlen(t->comm, TD_COMM_LEN));
		td_counts_add(&cgroup_of(s, t->cgroup)->c, &ts->val.c, s->width);
		td_counts_add(&s->totals.all, &ts->val.c, s->width);
	}
	snapshot_sort(s);
}

static void fx_report(struct fx *fx)
{
	memset(&fx->r, 0, sizeof(fx->r));
	fx->cfg.counters = &fx->cs;
	fx->cfg.decoding = &fx->decoding;
	fx->r.cfg = &fx->cfg;
	fx->r.nr_cpus = 4;
	fx->r.duration_s = 1.0;
	fx->r.elapsed_s = 3.0;
	fx->r.interval = 3;
	fx->r.timestamp = 1700000000.5;
	assert_int_equal(report_build(&fx->r, &fx->s, &fx->names), 0);
}

/* TopDown @level 1 or 2 of the testlake row, or 0 for --software. */
static struct fx *fx_new(int level)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	if (level) {
		char err[256];

		assert_int_equal(testlake_counters(level, &fx->cs), 0);
		assert_int_equal(td_decoding_init(&fx->decoding, &fx->cs, false, err, sizeof(err)),
				 0);
	} else {
		counters_software(&fx->cs);
	}
	if (!level)
		assert_int_equal(td_decoding_init(&fx->decoding, &fx->cs, false, NULL, 0), 0);
	build_snapshot(&fx->s, !level);
	assert_int_equal(cgroup_names_init(&fx->names, NULL), 0);
	fx_report(fx);
	return fx;
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->nr; i++)
		json_decref(l->v[i]);
	l->nr = 0;
}

static int fx_free(void **state)
{
	struct fx *fx = *state;

	if (!fx)
		return 0;
	lines_free(&fx->l);
	report_free(&fx->r);
	snapshot_free(&fx->s);
	cgroup_names_free(&fx->names);
	free(fx->out);
	free(fx);
	*state = NULL;
	return 0;
}

static int setup_l2(void **state)
{
	*state = fx_new(2);
	return 0;
}

static int setup_l1(void **state)
{
	*state = fx_new(1);
	return 0;
}

static int setup_software(void **state)
{
	*state = fx_new(0);
	return 0;
}

static void render_json(struct fx *fx)
{
	FILE *f;

	free(fx->out);
	fx->out = NULL;
	f = open_memstream(&fx->out, &fx->len);
	assert_non_null(f);
	output_json(f, &fx->r);
	assert_int_equal(fclose(f), 0);
}

static void render_table(struct fx *fx, unsigned int top)
{
	FILE *f;

	free(fx->out);
	fx->out = NULL;
	f = open_memstream(&fx->out, &fx->len);
	assert_non_null(f);
	output_table(f, &fx->r, top);
	assert_int_equal(fclose(f), 0);
}

/* JSON lines --------------------------------------------------------------------------------- */

/* Parse every line of the output; each must be one JSON object. */
static void parse_lines(struct fx *fx, struct lines *l)
{
	const char *p = fx->out, *end = fx->out + fx->len;

	lines_free(l);
	assert_true(fx->len > 0);
	assert_int_equal(fx->out[fx->len - 1], '\n');
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		json_error_t err;
		json_t *v;

		assert_non_null(nl);
		assert_true(l->nr < 64);
		v = json_loadb(p, nl - p, JSON_REJECT_DUPLICATES, &err);
		if (!v)
			fail_msg("line %zu does not parse (%s): %.*s", l->nr + 1, err.text,
				 (int)(nl - p), p);
		assert_true(json_is_object(v));
		l->v[l->nr++] = v;
		p = nl + 1;
	}
}

static const char *type_of(json_t *o)
{
	const char *t = json_string_value(json_object_get(o, "type"));

	assert_non_null(t);
	return t;
}

static json_t *find_line(const struct lines *l, const char *type, const char *key, json_int_t v)
{
	for (size_t i = 0; i < l->nr; i++) {
		json_t *k = json_object_get(l->v[i], key);

		if (!strcmp(type_of(l->v[i]), type) && json_is_integer(k) &&
		    json_integer_value(k) == v)
			return l->v[i];
	}
	fail_msg("no %s line with %s %lld", type, key, (long long)v);
	return NULL;
}

static json_t *get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		fail_msg("no \"%s\" in %s line", key, type_of(o));
	return v;
}

static double number(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	if (!json_is_number(v))
		fail_msg("\"%s\" in %s line is not a number", key, type_of(o));
	return json_number_value(v);
}

static void assert_near(double got, double want, double eps, const char *what)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("%s = %.17g, expected %.17g", what, got, want);
}

static bool has_tma_key(json_t *o)
{
	for (void *it = json_object_iter(o); it; it = json_object_iter_next(o, it))
		if (!strncmp(json_object_iter_key(it), "tma_", 4))
			return true;
	return false;
}

/* Schema, types in order, and the fields every line has. */
static void check_common(struct fx *fx, const struct lines *l, const char *task_type)
{
	const char *mode = fx->cs.software ? "software" : "topdown";

	assert_int_equal(l->nr, 1 + fx->r.nr_tasks + fx->r.nr_cgroups);
	for (size_t i = 0; i < l->nr; i++) {
		json_t *o = l->v[i], *counts = get(o, "counts");
		const char *want = i == 0 ? "system" : i <= fx->r.nr_tasks ? task_type : "cgroup";

		assert_true(json_is_integer(get(o, "schema")));
		assert_int_equal(json_integer_value(get(o, "schema")), 2);
		assert_string_equal(type_of(o), want);
		assert_string_equal(json_string_value(get(o, "phase")), "interval");
		assert_string_equal(json_string_value(get(o, "mode")), mode);
		assert_true(json_is_integer(get(o, "interval")));
		assert_int_equal(json_integer_value(get(o, "interval")), 3);
		assert_near(number(o, "timestamp"), 1700000000.5, 1e-6, "timestamp");
		assert_near(number(o, "duration_s"), 1.0, 1e-12, "duration_s");
		assert_near(number(o, "elapsed_s"), 3.0, 1e-12, "elapsed_s");
		assert_true(json_is_integer(get(o, "slices")));
		assert_true(json_is_integer(get(o, "time_enabled_ns")));
		assert_true(json_is_integer(get(o, "time_running_ns")));
		assert_true(json_is_boolean(get(o, "multiplexed")));
		number(o, "scale");
		/* Raw counts by perf's names, one per counter in use. */
		assert_true(json_is_object(counts));
		assert_int_equal(json_object_size(counts), fx->cs.nr);
		for (int c = 0; c < fx->cs.nr; c++)
			assert_true(json_is_integer(json_object_get(counts, fx->cs.name[c])));
		for (void *it = json_object_iter(counts); it;
		     it = json_object_iter_next(counts, it))
			assert_true(json_is_integer(json_object_iter_value(it)));
		if (fx->cs.software) {
			number(o, "cpu_ns");
			number(o, "cpu_pct");
		} else {
			number(o, "slots");
			number(o, "slots_pct");
			assert_true(json_is_boolean(get(o, "valid")));
			/* Schema 2: the model by perf's name; no l1_coverage (perf has none). */
			assert_string_equal(json_string_value(get(o, "model")), "testlake");
			/* ... and the pmu-events version its formulas follow. */
			assert_string_equal(json_string_value(get(o, "pmu_events")),
					    "perf testlake-1");
			assert_null(json_object_get(o, "l1_coverage"));
		}
		if (!strcmp(want, "cgroup") || !strcmp(want, task_type)) {
			assert_true(json_is_integer(get(o, "cgroup_id")));
			assert_true(json_is_boolean(get(o, "idle")));
		}
	}
}

/* A task line's identity and counts against its spec. */
static void check_task_line(struct fx *fx, json_t *o, const struct task_spec *t)
{
	json_t *counts = get(o, "counts");

	assert_true(json_is_integer(get(o, "pid")));
	assert_int_equal(json_integer_value(get(o, "pid")), t->pid);
	assert_int_equal(json_integer_value(get(o, "start_ns")), 1000 + t->pid);
	assert_int_equal(json_integer_value(get(o, "cgroup_id")), t->cgroup);
	assert_int_equal(json_integer_value(get(o, "slices")), t->slices);
	assert_int_equal(json_integer_value(get(o, "time_enabled_ns")), t->enabled);
	assert_int_equal(json_integer_value(get(o, "time_running_ns")), t->running);
	assert_false(json_boolean_value(get(o, "exited")));
	for (int c = 0; c < fx->cs.nr; c++)
		assert_int_equal(json_integer_value(json_object_get(counts, fx->cs.name[c])),
				 fx->cs.software ? t->count[c] * 1000 : t->count[c]);
}

static void test_json_topdown_l2(void **state)
{
	struct fx *fx = *state;
	static const double web_l2[TD_NR_L2] = { 16, 24, 6, 4, 12, 8, 18, 12 };
	struct lines *l = &fx->l;
	json_t *o;

	assert_int_equal(fx->cs.level, 2);
	render_json(fx);
	parse_lines(fx, l);
	check_common(fx, l, "process");
	for (int i = 0; i < NR_TASKS; i++)
		check_task_line(fx, find_line(l, "process", "pid", task_specs[i].pid),
				&task_specs[i]);

	/* Every valid line: L1 sums to 100, all eight L2 present as numbers. */
	for (size_t i = 0; i < l->nr; i++) {
		double sum = 0;

		o = l->v[i];
		if (!json_is_true(get(o, "valid")))
			continue;
		for (int k = 0; k < 4; k++)
			sum += number(o, l1_names[k]);
		assert_near(sum, 100, 0.1, "sum of L1");
		for (int k = 0; k < TD_NR_L2; k++)
			number(o, l2_names[k]);
	}

	o = find_line(l, "process", "pid", 100);
	assert_true(json_is_true(get(o, "valid")));
	assert_near(number(o, "tma_retiring"), 40, 0.005, "tma_retiring");
	assert_near(number(o, "tma_bad_speculation"), 10, 0.005, "tma_bad_speculation");
	assert_near(number(o, "tma_frontend_bound"), 20, 0.005, "tma_frontend_bound");
	assert_near(number(o, "tma_backend_bound"), 30, 0.005, "tma_backend_bound");
	for (int k = 0; k < TD_NR_L2; k++)
		assert_near(number(o, l2_names[k]), web_l2[k], 0.005, l2_names[k]);
	assert_near(number(o, "slots"), 5000, 1e-9, "slots");
	/* Share of all slots, idle included: 5000 of 908500, scaled. */
	/* Six decimals: within half of the last one. */
	assert_near(number(o, "slots_pct"), 100.0 * 5000 / (908500 * system_scale()), 5e-7,
		    "slots_pct");
	assert_false(json_boolean_value(get(o, "multiplexed")));
	assert_near(number(o, "scale"), 1, 0, "scale");

	/* The awkward thirds: 33.32 + 33.32 + 0.04 + 33.32. */
	o = find_line(l, "process", "pid", 200);
	assert_near(number(o, "tma_frontend_bound"), 0.04, 0.005, "tma_frontend_bound");
	/* fetch latency 1/2500 = 0.04 %, all of the front end: bandwidth 0. */
	assert_near(number(o, "tma_fetch_latency"), 0.04, 0.005, "tma_fetch_latency");
	assert_near(number(o, "tma_fetch_bandwidth"), 0, 0.005, "tma_fetch_bandwidth");

	/* The system line adds everything up. */
	o = l->v[0];
	assert_int_equal(json_integer_value(get(o, "cpus")), 4);
	assert_near(number(o, "slots"), 908500 * system_scale(), 1e-6, "system slots");
	assert_true(json_is_true(get(o, "multiplexed")));
	assert_int_equal(json_integer_value(get(o, "time_enabled_ns")), 1001502000);
	assert_int_equal(json_integer_value(get(o, "time_running_ns")), 1001501000);
	assert_int_equal(json_integer_value(get(o, "task_drops")), 0);
	assert_true(json_is_object(get(o, "task_overflow")));
	assert_true(json_is_object(get(o, "cgroup_overflow")));
	lines_free(l);
}

static void test_json_comm(void **state)
{
	struct fx *fx = *state;
	struct lines *l = &fx->l;
	json_t *o;

	render_json(fx);
	parse_lines(fx, l);

	o = find_line(l, "process", "pid", 100);
	assert_true(json_is_string(get(o, "comm")));
	assert_int_equal(json_string_length(get(o, "comm")), strlen(odd_comm_json));
	assert_memory_equal(json_string_value(get(o, "comm")), odd_comm_json,
			    strlen(odd_comm_json));

	/* A 16-byte comm has no NUL: all 16 bytes, nothing after. */
	o = find_line(l, "process", "pid", 200);
	assert_string_equal(json_string_value(get(o, "comm")), "0123456789abcdef");

	o = find_line(l, "process", "pid", 400);
	assert_string_equal(json_string_value(get(o, "comm")), "mux");
	lines_free(l);
}

/* The idle tasks and their pseudo cgroup are in JSON, marked as idle. */
static void test_json_idle_and_cgroups(void **state)
{
	struct fx *fx = *state;
	struct lines *l = &fx->l;
	json_t *o;

	render_json(fx);
	parse_lines(fx, l);
	o = find_line(l, "process", "pid", 0);
	assert_true(json_is_true(get(o, "idle")));
	assert_string_equal(json_string_value(get(o, "comm")), "[idle]");
	o = find_line(l, "process", "pid", 100);
	assert_true(json_is_false(get(o, "idle")));
	/* No cgroup v2 mount: names are null. */
	assert_true(json_is_null(get(o, "cgroup")));

	o = find_line(l, "cgroup", "cgroup_id", TD_IDLE_CGROUP_ID);
	assert_true(json_is_true(get(o, "idle")));
	assert_string_equal(json_string_value(get(o, "cgroup")), "[idle]");
	o = find_line(l, "cgroup", "cgroup_id", 2002);
	assert_true(json_is_false(get(o, "idle")));
	assert_true(json_is_null(get(o, "cgroup")));
	/* db + mux: 2500 + 1000 raw, 10 slices. */
	assert_int_equal(json_integer_value(get(o, "slices")), 10);
	assert_int_equal(json_integer_value(json_object_get(get(o, "counts"), "slots")), 3500);
	assert_int_equal(json_integer_value(get(o, "time_enabled_ns")), 502000);
	assert_int_equal(json_integer_value(get(o, "time_running_ns")), 501000);
	lines_free(l);
}

static void test_json_no_data(void **state)
{
	struct fx *fx = *state;
	struct lines *l = &fx->l;
	json_t *o;

	render_json(fx);
	parse_lines(fx, l);
	o = find_line(l, "process", "pid", 300);
	assert_true(json_is_false(get(o, "valid")));
	assert_near(number(o, "slots"), 0, 0, "slots");
	for (int k = 0; k < 4; k++)
		assert_true(json_is_null(get(o, l1_names[k])));
	for (int k = 0; k < TD_NR_L2; k++)
		assert_true(json_is_null(get(o, l2_names[k])));
	o = find_line(l, "cgroup", "cgroup_id", 2003);
	assert_true(json_is_false(get(o, "valid")));
	assert_true(json_is_null(get(o, "tma_retiring")));
	assert_true(json_is_null(get(o, "tma_memory_bound")));
	lines_free(l);
}

static void test_json_multiplexed(void **state)
{
	struct fx *fx = *state;
	struct lines *l = &fx->l;
	json_t *o;

	render_json(fx);
	parse_lines(fx, l);
	o = find_line(l, "process", "pid", 400);
	assert_true(json_is_true(get(o, "multiplexed")));
	assert_near(number(o, "scale"), 2, 0, "scale");
	assert_near(number(o, "slots"), 2000, 1e-9, "slots");
	/* The raw count stays raw. */
	assert_int_equal(json_integer_value(json_object_get(get(o, "counts"), "slots")), 1000);
	/* Scaling does not change the ratios: 40/10/20/30. */
	assert_near(number(o, "tma_retiring"), 40, 0.005, "tma_retiring");
	o = find_line(l, "process", "pid", 100);
	assert_true(json_is_false(get(o, "multiplexed")));
	lines_free(l);
}

static void test_json_topdown_l1(void **state)
{
	struct fx *fx = *state;
	struct lines *l = &fx->l;
	json_t *o;

	assert_int_equal(fx->cs.level, 1);
	render_json(fx);
	parse_lines(fx, l);
	check_common(fx, l, "process");
	o = find_line(l, "process", "pid", 100);
	assert_near(number(o, "tma_backend_bound"), 30, 0.005, "tma_backend_bound");
	for (size_t i = 0; i < l->nr; i++)
		for (int k = 0; k < TD_NR_L2; k++)
			assert_null(json_object_get(l->v[i], l2_names[k]));
	lines_free(l);
}

/*
 * arm64's fields beside the counts: perf's #slots (slots_per_cycle) and
 * the cpuid, on every TopDown line when the PMU has a MIDR, else absent.
 */
static void test_json_arm64_fields(void **state)
{
	struct fx *fx = *state;
	struct lines *l = &fx->l;

	render_json(fx);
	parse_lines(fx, l);
	for (size_t i = 0; i < l->nr; i++) {
		assert_null(json_object_get(l->v[i], "cpuid"));
		assert_null(json_object_get(l->v[i], "slots_per_cycle"));
	}
	lines_free(l);
	fx->cfg.slots_per_cycle = 5;
	fx->cfg.cpuid = "0x00000000410fd492";
	render_json(fx);
	parse_lines(fx, l);
	assert_true(l->nr > 0);
	for (size_t i = 0; i < l->nr; i++) {
		assert_string_equal(json_string_value(json_object_get(l->v[i], "cpuid")),
				    "0x00000000410fd492");
		assert_int_equal(json_integer_value(json_object_get(l->v[i], "slots_per_cycle")),
				 5);
	}
	lines_free(l);
}

static void test_json_software(void **state)
{
	struct fx *fx = *state;
	struct lines *l = &fx->l;
	json_t *o;

	render_json(fx);
	parse_lines(fx, l);
	check_common(fx, l, "process");
	for (size_t i = 0; i < l->nr; i++) {
		assert_false(has_tma_key(l->v[i]));
		assert_null(json_object_get(l->v[i], "slots"));
		assert_null(json_object_get(l->v[i], "valid"));
	}
	for (int i = 0; i < NR_TASKS; i++) {
		const struct task_spec *t = &task_specs[i];
		double scale = t->running ? (double)t->enabled / t->running : 1;

		o = find_line(l, "process", "pid", t->pid);
		check_task_line(fx, o, t);
		assert_near(number(o, "cpu_ns"), t->count[TD_SLOTS] * 1000 * scale, 1e-6, "cpu_ns");
		/* Of one CPU for one second. */
		assert_near(number(o, "cpu_pct"), 100.0 * t->count[TD_SLOTS] * 1000 * scale / 1e9,
			    5e-7, "cpu_pct");
	}
	o = find_line(l, "process", "pid", 400);
	assert_near(number(o, "cpu_ns"), 2000000, 1e-6, "cpu_ns");
	assert_true(json_is_true(get(o, "multiplexed")));
	assert_int_equal(json_object_size(get(o, "counts")), 1);
	assert_int_equal(json_integer_value(json_object_get(get(o, "counts"), "cpu-clock")),
			 1000000);
	lines_free(l);
}

static void test_json_per_thread_summary(void **state)
{
	struct fx *fx = *state;
	struct lines *l = &fx->l;
	json_t *o;

	fx->cfg.per_thread = true;
	fx->r.summary = true;
	render_json(fx);
	parse_lines(fx, l);
	assert_string_equal(type_of(l->v[0]), "system");
	assert_string_equal(json_string_value(get(l->v[0], "phase")), "summary");
	o = find_line(l, "thread", "tid", 100);
	assert_int_equal(json_integer_value(get(o, "pid")), 100);
	assert_string_equal(json_string_value(get(o, "phase")), "summary");
	for (size_t i = 0; i < l->nr; i++)
		assert_string_not_equal(type_of(l->v[i]), "process");
	lines_free(l);
}

/* The report ------------------------------------------------------------------------------- */

static void test_report_rows(void **state)
{
	struct fx *fx = *state;

	assert_int_equal(fx->r.nr_tasks, NR_TASKS);
	assert_int_equal(fx->r.nr_cgroups, 4);
	assert_non_null(fx->r.idle);
	assert_int_equal(fx->r.idle->count[TD_SLOTS], 900000);
	assert_ptr_equal(fx->r.totals, &fx->s.totals);
	/* Rows by slots, largest first: the idle row leads here. */
	assert_true(fx->r.tasks[0].idle);
	for (size_t i = 1; i < fx->r.nr_tasks; i++) {
		assert_true(fx->r.tasks[i - 1].m.slots >= fx->r.tasks[i].m.slots);
		assert_int_equal(fx->r.tasks[i].task->key.id, pid_order[i - 1]);
		assert_false(fx->r.tasks[i].idle);
		assert_null(fx->r.tasks[i].cgroup);
	}
	for (size_t i = 1; i < fx->r.nr_cgroups; i++)
		assert_true(fx->r.cgroups[i - 1].m.slots >= fx->r.cgroups[i].m.slots);
	assert_true(fx->r.cgroups[0].idle);
	assert_true(fx->r.system.valid);
	report_free(&fx->r);
	assert_null(fx->r.tasks);
	assert_null(fx->r.cgroups);
	assert_int_equal(fx->r.nr_tasks, 0);
}

/*
 * Rows are sorted by the slots they show, which are scaled when
 * multiplexed: 1500 raw at scale 2 (3000) comes before 2500 unscaled.
 */
static void test_report_sort_scaled(void **state)
{
	struct fx *fx = *state;

	for (size_t i = 0; i < fx->s.nr_tasks; i++)
		if (fx->s.tasks[i].key.id == 400)
			fx->s.tasks[i].val.c.count[TD_SLOTS] = 1500;
	report_free(&fx->r);
	fx_report(fx);
	for (size_t i = 1; i < fx->r.nr_tasks; i++)
		if (fx->r.tasks[i - 1].m.slots < fx->r.tasks[i].m.slots)
			fail_msg("row %zu (pid %u, %.0f slots) before row %zu (pid %u, %.0f slots)",
				 i - 1, fx->r.tasks[i - 1].task->key.id, fx->r.tasks[i - 1].m.slots,
				 i, fx->r.tasks[i].task->key.id, fx->r.tasks[i].m.slots);
}

/*
 * A table's limit: rows for the largest few only, each the same row (task,
 * slots, fractions, cgroup) as in the whole report, and the idle counts
 * found wherever the idle row ranks.
 */
static void test_report_limit(void **state)
{
	struct fx *fx = *state;
	struct row all[NR_TASKS];
	size_t nr_all = fx->r.nr_tasks;

	assert_int_equal(nr_all, NR_TASKS);
	memcpy(all, fx->r.tasks, sizeof(all));
	for (unsigned int limit = 1; limit <= NR_TASKS; limit++) {
		size_t want = limit + 1 < NR_TASKS ? limit + 1 : NR_TASKS;

		report_free(&fx->r);
		fx->cfg.limit = limit;
		fx_report(fx);
		assert_int_equal(fx->r.nr_tasks, want);
		for (size_t i = 0; i < want; i++) {
			assert_ptr_equal(fx->r.tasks[i].task, all[i].task);
			assert_ptr_equal(fx->r.tasks[i].cgroup, all[i].cgroup);
			assert_true(fx->r.tasks[i].m.slots == all[i].m.slots);
			assert_memory_equal(fx->r.tasks[i].m.l1, all[i].m.l1, sizeof(all[i].m.l1));
		}
		assert_non_null(fx->r.idle);
	}
	/* The idle tasks ranked last: not among the rows, still the report's idle. */
	for (size_t i = 0; i < fx->s.nr_tasks; i++)
		if (fx->s.tasks[i].key.id == 0)
			fx->s.tasks[i].val.c.count[TD_SLOTS] = 1;
	report_free(&fx->r);
	fx->cfg.limit = 1;
	fx_report(fx);
	assert_int_equal(fx->r.nr_tasks, 2);
	assert_false(fx->r.tasks[0].idle || fx->r.tasks[1].idle);
	assert_non_null(fx->r.idle);
	assert_int_equal(fx->r.idle->count[TD_SLOTS], 1);
}

/* Table -------------------------------------------------------------------------------------- */

static void assert_terminal_safe(const struct fx *fx)
{
	for (size_t i = 0; i < fx->len; i++) {
		unsigned char c = fx->out[i];

		if (c != '\n' && (c < 0x20 || c >= 0x7f))
			fail_msg("byte 0x%02x at offset %zu of the table", c, i);
	}
}

struct table {
	char *task_head, *cgroup_head;
	char *task_rows[16], *cgroup_rows[16];
	int nr_task_rows, nr_cgroup_rows;
	char copy[16384];
};

static bool first_word_is(const char *line, const char *word)
{
	char w[32];

	return sscanf(line, "%31s", w) == 1 && !strcmp(w, word);
}

static bool last_word_is(const char *line, const char *word)
{
	size_t len = strlen(line), wlen = strlen(word);

	return len > wlen && line[len - wlen - 1] == ' ' && !strcmp(line + len - wlen, word);
}

/*
 * Split the table: a header block, the task head ("PID" or "TID" first)
 * and its rows, the cgroup head (metric heads, then "CGROUP" last) and its rows.
 */
static void split_table(const struct fx *fx, struct table *t)
{
	char *save = NULL, *line;
	int part = 0;

	memset(t, 0, sizeof(*t));
	assert_true(fx->len < sizeof(t->copy));
	memcpy(t->copy, fx->out, fx->len);
	for (line = strtok_r(t->copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (part == 0 && (first_word_is(line, "PID") || first_word_is(line, "TID"))) {
			t->task_head = line;
			part = 1;
		} else if (part == 1 && last_word_is(line, "CGROUP")) {
			t->cgroup_head = line;
			part = 2;
		} else if (part == 1) {
			assert_true(t->nr_task_rows < 16);
			t->task_rows[t->nr_task_rows++] = line;
		} else if (part == 2 && line[0] != '*') {
			assert_true(t->nr_cgroup_rows < 16);
			t->cgroup_rows[t->nr_cgroup_rows++] = line;
		}
	}
	assert_non_null(t->task_head);
	assert_non_null(t->cgroup_head);
}

/*
 * The word of @row under the word @head of @head_line. Task rows are
 * matched from the right, where heads and values line up one to one (the
 * name columns on the left may be one or two words); cgroup rows from the
 * left (their name, last, may be two words).
 */
static void assert_column_at(const char *head_line, const char *row, const char *head,
			     const char *want, bool from_left)
{
	char h[1024], r[1024], *save = NULL, *w;
	char *hw[40], *rw[40];
	int nh = 0, nr = 0, i;

	assert_true(strlen(head_line) < sizeof(h) && strlen(row) < sizeof(r));
	strcpy(h, head_line);
	strcpy(r, row);
	for (w = strtok_r(h, " ", &save); w && nh < 40; w = strtok_r(NULL, " ", &save))
		hw[nh++] = w;
	for (w = strtok_r(r, " ", &save); w && nr < 40; w = strtok_r(NULL, " ", &save))
		rw[nr++] = w;
	/* The task table ends in CGROUP, the cgroup table does not. */
	for (i = 0; i < nh && strcmp(hw[i], head); i++)
		;
	if (i == nh)
		fail_msg("no column %s in: %s", head, head_line);
	if (!from_left)
		i = nr - (nh - i);
	if (i < 0 || i >= nr)
		fail_msg("row too short for column %s: %s", head, row);
	if (strcmp(rw[i], want))
		fail_msg("column %s shows %s, expected %s, in: %s", head, rw[i], want, row);
}

static unsigned int row_pid(const char *row)
{
	unsigned int pid;

	assert_int_equal(sscanf(row, "%u", &pid), 1);
	return pid;
}

/* What the web task's row shows (its cgroup's row shows the same). */
static const struct {
	const char *head, *value;
} web_columns[] = {
	{ "SLOTS", "5.00K" },  { "FRONTEND", "20.0" }, { "BAD_SPEC", "10.0" },
	{ "BACKEND", "30.0" }, { "RETIRING", "40.0" }, { "RT.HVY", "16.0" },
	{ "RT.LGT", "24.0" },  { "BS.BRM", "6.0" },    { "BS.MCL", "4.0" },
	{ "FE.LAT", "12.0" },  { "FE.BW", "8.0" },     { "BE.MEM", "18.0" },
	{ "BE.CORE", "12.0" },
};

static void test_table_topdown_l2(void **state)
{
	struct fx *fx = *state;
	static const char *const heads[] = { "SLOTS",	"%SLOTS",   "FRONTEND", "BAD_SPEC",
					     "BACKEND", "RETIRING", "FE.LAT",	"FE.BW",
					     "BS.BRM",	"BS.MCL",   "BE.MEM",	"BE.CORE",
					     "RT.HVY",	"RT.LGT" };
	static struct table t;

	render_table(fx, 10);
	assert_terminal_safe(fx);
	split_table(fx, &t);
	assert_non_null(strstr(fx->out, "TopDown L2"));
	assert_non_null(strstr(t.task_head, "COMM"));
	assert_non_null(strstr(t.task_head, "CGROUP"));
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		if (!strstr(t.task_head, heads[i]) || !strstr(t.cgroup_head, heads[i]))
			fail_msg("column %s missing", heads[i]);
	}

	/* Every task but the idle ones, by slots. */
	assert_int_equal(t.nr_task_rows, 4);
	for (int i = 0; i < t.nr_task_rows; i++)
		assert_int_equal(row_pid(t.task_rows[i]), pid_order[i]);
	assert_null(strstr(fx->out, "swapper"));
	assert_null(strstr(fx->out, "[idle]"));

	/* The odd comm is made printable, the 16-byte one kept whole. */
	assert_non_null(strstr(t.task_rows[0], odd_comm_table));
	assert_non_null(strstr(t.task_rows[1], "0123456789abcdef"));
	/* The multiplexed row is marked, the others not. */
	assert_non_null(strstr(t.task_rows[2], "*"));
	assert_null(strstr(t.task_rows[0], "*"));
	/* No data: dashes, not numbers. */
	assert_non_null(strstr(t.task_rows[3], " - "));

	/* Cgroups without names, by slots, the idle pseudo cgroup left out. */
	assert_int_equal(t.nr_cgroup_rows, 3);
	assert_true(last_word_is(t.cgroup_rows[0], "2001]"));
	assert_true(last_word_is(t.cgroup_rows[1], "2002]"));
	assert_true(last_word_is(t.cgroup_rows[2], "2003]"));
	assert_null(strstr(fx->out, "[id 0]"));
}

/* Each value under its own head: web's L1 and L2 in per cent. */
static void test_table_l2_columns(void **state)
{
	struct fx *fx = *state;
	static struct table t;

	render_table(fx, 10);
	split_table(fx, &t);
	assert_true(t.nr_task_rows > 0 && t.nr_cgroup_rows > 0);
	for (size_t i = 0; i < sizeof(web_columns) / sizeof(web_columns[0]); i++) {
		assert_column_at(t.task_head, t.task_rows[0], web_columns[i].head,
				 web_columns[i].value, false);
		/* cgroup 2001 holds web alone. */
		assert_column_at(t.cgroup_head, t.cgroup_rows[0], web_columns[i].head,
				 web_columns[i].value, true);
	}
}

static void test_table_top(void **state)
{
	struct fx *fx = *state;
	static struct table t;

	for (unsigned int top = 1; top <= 5; top++) {
		int want_tasks = top < 4 ? top : 4, want_cgroups = top < 3 ? top : 3;

		render_table(fx, top);
		assert_terminal_safe(fx);
		split_table(fx, &t);
		assert_int_equal(t.nr_task_rows, want_tasks);
		assert_int_equal(t.nr_cgroup_rows, want_cgroups);
		/* The idle row does not use up one of the top rows. */
		assert_int_equal(row_pid(t.task_rows[0]), 100);
	}
}

static void test_table_topdown_l1(void **state)
{
	struct fx *fx = *state;
	static struct table t;

	render_table(fx, 10);
	assert_terminal_safe(fx);
	split_table(fx, &t);
	assert_non_null(strstr(fx->out, "TopDown L1"));
	assert_non_null(strstr(t.task_head, "RETIRING"));
	assert_null(strstr(fx->out, "FE.LAT"));
	assert_null(strstr(fx->out, "RT.HVY"));
	assert_int_equal(t.nr_task_rows, 4);
}

static void test_table_software(void **state)
{
	struct fx *fx = *state;
	static struct table t;

	render_table(fx, 10);
	assert_terminal_safe(fx);
	split_table(fx, &t);
	assert_non_null(strstr(t.task_head, "%CPU"));
	assert_non_null(strstr(t.task_head, "CPU_MS"));
	assert_non_null(strstr(t.cgroup_head, "CPU_MS"));
	assert_null(strstr(fx->out, "FRONTEND"));
	assert_null(strstr(fx->out, "FE.LAT"));
	assert_int_equal(t.nr_task_rows, 4);
	for (int i = 0; i < t.nr_task_rows; i++)
		assert_int_equal(row_pid(t.task_rows[i]), pid_order[i]);
	/* web: 5 ms of one second on one CPU: 0.5 %, 5.0 ms, 10 slices. */
	assert_non_null(strstr(t.task_rows[0], "   0.5        5.0       10"));
	/* Idle: 900 ms of the 4 CPUs' 4000 ms. */
	assert_non_null(strstr(fx->out, "idle 900.0 ms"));
}

static void test_table_per_thread(void **state)
{
	struct fx *fx = *state;
	static struct table t;

	fx->cfg.per_thread = true;
	render_table(fx, 10);
	assert_terminal_safe(fx);
	split_table(fx, &t);
	assert_true(first_word_is(t.task_head, "TID"));
	assert_non_null(strstr(t.task_head, "PID"));
	assert_int_equal(t.nr_task_rows, 4);
	assert_int_equal(row_pid(t.task_rows[0]), 100);
}

/* Multiplexing ------------------------------------------------------------------------------ */

/*
 * Give task @pid (and its cgroup, and the totals) these leader times and
 * rebuild the report. perf's convention (perf_event_open(2); bpf.h on
 * bpf_perf_event_read_value): a count that ran only part of the time is
 * scaled by enabled / running; running 0 means it never counted at all.
 */
static void set_times(struct fx *fx, __u32 pid, __u64 enabled, __u64 running)
{
	for (size_t i = 0; i < fx->s.nr_tasks; i++) {
		struct td_counts *c = &fx->s.tasks[i].val.c;
		struct cgroup_sample *cg;

		if (fx->s.tasks[i].key.id != pid)
			continue;
		cg = cgroup_of(&fx->s, fx->s.tasks[i].val.cgroup_id);
		cg->c.enabled_ns[0] += enabled - c->enabled_ns[0];
		cg->c.running_ns[0] += running - c->running_ns[0];
		fx->s.totals.all.enabled_ns[0] += enabled - c->enabled_ns[0];
		fx->s.totals.all.running_ns[0] += running - c->running_ns[0];
		c->enabled_ns[0] = enabled;
		c->running_ns[0] = running;
	}
	report_free(&fx->r);
	fx_report(fx);
}

#define FOOTNOTE "* multiplexed: another PMU user shared these counters; counts scaled"

/* The row of @pid in the task table. */
static const char *task_row(const struct table *t, unsigned int pid)
{
	for (int i = 0; i < t->nr_task_rows; i++)
		if (row_pid(t->task_rows[i]) == pid)
			return t->task_rows[i];
	fail_msg("no row for pid %u", pid);
	return NULL;
}

/*
 * The byte of @row under the last letter of the header word @head (shift
 * 0), or just after it (shift 1): where the mark goes after %SLOTS, which
 * is one wider than its number, and after CPU_MS.
 */
static char at_head_end(const char *head_line, const char *row, const char *head, int shift)
{
	const char *h = strstr(head_line, head);
	size_t at;

	assert_non_null(h);
	at = h - head_line + strlen(head) - 1 + shift;
	assert_true(strlen(row) > at);
	return row[at];
}

/*
 * TopDown: mux (enabled 2000, running 1000) is marked after %SLOTS and
 * nodata, made never counted (enabled 1000, running 0), shows '-' and the
 * mark instead of 0 slots; the others are not marked; the footnote says so.
 */
static void test_table_multiplexed_topdown(void **state)
{
	struct fx *fx = *state;
	static struct table t;

	set_times(fx, 300, 1000, 0);
	render_table(fx, 10);
	assert_terminal_safe(fx);
	split_table(fx, &t);
	assert_int_equal(at_head_end(t.task_head, task_row(&t, 400), "%SLOTS", 0), '*');
	assert_int_equal(at_head_end(t.task_head, task_row(&t, 300), "%SLOTS", 0), '*');
	assert_non_null(strstr(task_row(&t, 300), "       -     -* "));
	assert_int_equal(at_head_end(t.task_head, task_row(&t, 100), "%SLOTS", 0), ' ');
	assert_int_equal(at_head_end(t.task_head, task_row(&t, 200), "%SLOTS", 0), ' ');
	/* Still in its column: the ratios are dashes, the 2003 cgroup too. */
	assert_column_at(t.task_head, task_row(&t, 300), "RETIRING", "-", false);
	assert_true(last_word_is(t.cgroup_rows[2], "2003]"));
	assert_int_equal(at_head_end(t.cgroup_head, t.cgroup_rows[2], "%SLOTS", 0), '*');
	assert_non_null(strstr(fx->out, "[multiplexed: counted "));
	assert_non_null(strstr(fx->out, FOOTNOTE));
}

/* --software: the mark takes the space after CPU_MS; SLICES stay in their column. */
static void test_table_multiplexed_software(void **state)
{
	struct fx *fx = *state;
	static struct table t;

	set_times(fx, 300, 1000, 0);
	render_table(fx, 10);
	assert_terminal_safe(fx);
	split_table(fx, &t);
	assert_int_equal(at_head_end(t.task_head, task_row(&t, 400), "CPU_MS", 1), '*');
	/* mux: 1 ms raw, 2 ms scaled; 3 slices under SLICES */
	assert_non_null(strstr(task_row(&t, 400), "    0.2        2.0*       3"));
	assert_non_null(strstr(task_row(&t, 300), "     -          -*       1"));
	assert_int_equal(at_head_end(t.task_head, task_row(&t, 100), "CPU_MS", 1), ' ');
	assert_int_equal(at_head_end(t.task_head, task_row(&t, 200), "CPU_MS", 1), ' ');
	assert_column_at(t.task_head, task_row(&t, 300), "SLICES", "1", false);
	assert_non_null(strstr(fx->out, FOOTNOTE));
}

/* Counted all the time: no mark, no header flag, no footnote. */
static void test_table_not_multiplexed(void **state)
{
	struct fx *fx = *state;

	set_times(fx, 400, 1000, 1000);
	assert_false(fx->r.system.multiplexed);
	render_table(fx, 10);
	assert_terminal_safe(fx);
	assert_null(strchr(fx->out, '*'));
	assert_null(strstr(fx->out, "multiplexed"));
}

/*
 * JSON: the flag with both times, the scale, the scaled count; never
 * counted is flagged too, with null for what was not counted.
 */
static void test_json_multiplexed_times(void **state)
{
	struct fx *fx = *state;
	struct lines *l = &fx->l;
	json_t *o;

	set_times(fx, 300, 1000, 0);
	render_json(fx);
	parse_lines(fx, l);
	o = find_line(l, "process", "pid", 400);
	assert_true(json_is_true(get(o, "multiplexed")));
	assert_int_equal(json_integer_value(get(o, "time_enabled_ns")), 2000);
	assert_int_equal(json_integer_value(get(o, "time_running_ns")), 1000);
	assert_near(number(o, "scale"), 2, 0, "scale");
	o = find_line(l, "process", "pid", 300);
	assert_true(json_is_true(get(o, "multiplexed")));
	assert_int_equal(json_integer_value(get(o, "time_enabled_ns")), 1000);
	assert_int_equal(json_integer_value(get(o, "time_running_ns")), 0);
	assert_true(json_is_null(get(o, "scale")));
	assert_true(json_is_null(get(o, "slots")));
	assert_true(json_is_null(get(o, "slots_pct")));
	assert_true(json_is_false(get(o, "valid")));
	o = find_line(l, "cgroup", "cgroup_id", 2003);
	assert_true(json_is_true(get(o, "multiplexed")));
	assert_true(json_is_null(get(o, "slots")));
	o = find_line(l, "process", "pid", 200);
	assert_true(json_is_false(get(o, "multiplexed")));
	assert_near(number(o, "scale"), 1, 0, "scale");
	assert_true(json_is_true(get(l->v[0], "multiplexed")));
	lines_free(l);

	/* Counted all the time now: no flag, scale 1. */
	set_times(fx, 400, 1000, 1000);
	render_json(fx);
	parse_lines(fx, l);
	o = find_line(l, "process", "pid", 400);
	assert_true(json_is_false(get(o, "multiplexed")));
	assert_near(number(o, "scale"), 1, 0, "scale");
	lines_free(l);
}

/* --software has no slots: cpu_ns and cpu_pct are what go null. */
static void test_json_never_counted_software(void **state)
{
	struct fx *fx = *state;
	struct lines *l = &fx->l;
	json_t *o;

	set_times(fx, 300, 1000, 0);
	render_json(fx);
	parse_lines(fx, l);
	o = find_line(l, "process", "pid", 300);
	assert_true(json_is_true(get(o, "multiplexed")));
	assert_true(json_is_null(get(o, "cpu_ns")));
	assert_true(json_is_null(get(o, "cpu_pct")));
	o = find_line(l, "process", "pid", 100);
	assert_true(json_is_false(get(o, "multiplexed")));
	assert_true(json_is_number(get(o, "cpu_ns")));
	lines_free(l);
}

/* A long cgroup path is the last column: printed whole, made safe, never cut. */
static void test_table_long_cgroup_path(void **state)
{
	struct fx *fx = *state;
	char path[600], shown[600];
	int found = 0;

	/* 10 levels of 50 bytes, one with ESC and a byte that is not UTF-8 */
	path[0] = '\0';
	for (int i = 0; i < 10; i++)
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%049d", i);
	memcpy(path + 100, "\x1b[2J\xff", 5);
	memcpy(shown, path, sizeof(path));
	memcpy(shown + 100, "?[2J?", 5);
	for (size_t i = 0; i < fx->r.nr_tasks; i++)
		fx->r.tasks[i].cgroup = path;
	for (size_t i = 0; i < fx->r.nr_cgroups; i++)
		fx->r.cgroups[i].cgroup = path;
	render_table(fx, 10);
	assert_terminal_safe(fx);
	/* Whole, at the end of each of the 4 task rows and the 3 cgroup rows. */
	for (char *at = strstr(fx->out, shown); at; at = strstr(at + 1, shown)) {
		assert_true(at[-2] == ' ' && at[-1] == ' ');
		assert_true(at[strlen(shown)] == '\n');
		found++;
	}
	assert_int_equal(strlen(path), 500);
	assert_int_equal(found, 4 + 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json_topdown_l2, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_json_comm, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_json_idle_and_cgroups, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_json_no_data, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_json_multiplexed, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_json_arm64_fields, setup_l1, fx_free),
		cmocka_unit_test_setup_teardown(test_json_topdown_l1, setup_l1, fx_free),
		cmocka_unit_test_setup_teardown(test_json_software, setup_software, fx_free),
		cmocka_unit_test_setup_teardown(test_json_per_thread_summary, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_report_rows, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_report_sort_scaled, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_report_limit, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_table_topdown_l2, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_table_l2_columns, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_table_top, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_table_topdown_l1, setup_l1, fx_free),
		cmocka_unit_test_setup_teardown(test_table_software, setup_software, fx_free),
		cmocka_unit_test_setup_teardown(test_table_per_thread, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_table_long_cgroup_path, setup_software,
						fx_free),
		cmocka_unit_test_setup_teardown(test_table_multiplexed_topdown, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_table_multiplexed_software, setup_software,
						fx_free),
		cmocka_unit_test_setup_teardown(test_table_not_multiplexed, setup_l1, fx_free),
		cmocka_unit_test_setup_teardown(test_json_multiplexed_times, setup_l2, fx_free),
		cmocka_unit_test_setup_teardown(test_json_never_counted_software, setup_software,
						fx_free),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
