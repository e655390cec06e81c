// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/cli/options.h: defaults, every option, one-line errors
 * for bad values, --help/--version, and parsing twice in one process.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/help.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "model/cgroup_rows.h" /* enum cgroup_group */

/* An argv for options_parse: "tdtrace" first, NULL last. */
#define ARGV(...) ((char *[]){ "tdtrace", __VA_ARGS__, NULL })

struct parsed {
	enum options_result res;
	struct options o;
	char *out, *err;
	size_t out_len, err_len;
};

static int argv_count(char **argv)
{
	int n = 0;

	while (argv[n])
		n++;
	return n;
}

/*
 * The buffers of the one live struct parsed, freed by the teardown if a
 * failed assertion left the test before parsed_free().
 */
static char *pending_out, *pending_err;

/* Parse @argv with out and err captured in memory. */
static void parse(struct parsed *p, char **argv)
{
	FILE *out, *err;

	memset(p, 0, sizeof(*p));
	out = open_memstream(&p->out, &p->out_len);
	err = open_memstream(&p->err, &p->err_len);
	assert_non_null(out);
	assert_non_null(err);
	/* Garbage that options_parse must overwrite. */
	memset(&p->o, 0x5a, sizeof(p->o));
	p->res = options_parse(argv_count(argv), argv, &p->o, out, err);
	assert_int_equal(fclose(out), 0);
	assert_int_equal(fclose(err), 0);
	pending_out = p->out;
	pending_err = p->err;
}

static void parsed_free(struct parsed *p)
{
	free(p->out);
	free(p->err);
	p->out = p->err = NULL;
	pending_out = pending_err = NULL;
}

static int free_pending(void **state)
{
	(void)state;
	free(pending_out);
	free(pending_err);
	pending_out = pending_err = NULL;
	return 0;
}

/* Parsed and accepted, nothing printed anywhere. */
static void parse_ok(struct parsed *p, char **argv)
{
	parse(p, argv);
	if (p->res != OPTIONS_RUN || p->err_len || p->out_len)
		fail_msg("%s ...: result %d, err '%s', out '%s'", argv[1] ? argv[1] : "(none)",
			 p->res, p->err, p->out);
}

static void assert_defaults_except(const struct options *o, const char *except)
{
	if (!strstr(except, "interval"))
		assert_int_equal(o->interval_ms, 1000);
	if (!strstr(except, "duration"))
		assert_true(o->duration_s == 0);
	if (!strstr(except, "top"))
		assert_int_equal(o->top, 10);
	if (!strstr(except, "json"))
		assert_false(o->json);
	if (!strstr(except, "software"))
		assert_false(o->software);
	if (!strstr(except, "per_thread"))
		assert_false(o->per_thread);
	if (!strstr(except, "probe"))
		assert_false(o->probe);
	if (!strstr(except, "verbose"))
		assert_false(o->verbose);
	if (!strstr(except, "btf"))
		assert_null(o->btf_path);
	if (!strstr(except, "output"))
		assert_null(o->output);
	if (!strstr(except, "sysfs"))
		assert_string_equal(o->sysfs_root, "/");
	if (!strstr(except, "max_tasks"))
		assert_int_equal(o->max_tasks, 10240);
	if (!strstr(except, "max_cgroups"))
		assert_int_equal(o->max_cgroups, 4096);
}

/*
 * getopt keeps hidden state between calls. Start each test from a fresh
 * state so that one failure cannot spill into the next test; the
 * parse-twice tests below make their two calls back to back on purpose.
 */
static int reset_getopt(void **state)
{
	char *argv[] = { "reset", NULL };

	(void)state;
	optind = 0;
	opterr = 0;
	while (getopt(1, argv, "") != -1)
		;
	return 0;
}

static void test_defaults(void **state)
{
	struct parsed p;

	(void)state;
	parse_ok(&p, (char *[]){ "tdtrace", NULL });
	assert_defaults_except(&p.o, "");
	parsed_free(&p);
}

static void test_interval_forms(void **state)
{
	static const char *const forms[][3] = {
		{ "-I", "500" },      { "-I500" },	 { "--interval", "500" },
		{ "--interval=500" }, { "--inter=500" }, /* unique prefix */
	};
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		char *argv[] = { "tdtrace", (char *)forms[i][0], (char *)forms[i][1], NULL };

		parse_ok(&p, argv);
		assert_int_equal(p.o.interval_ms, 500);
		assert_defaults_except(&p.o, "interval");
		parsed_free(&p);
	}
	/* The bounds themselves are valid. */
	parse_ok(&p, ARGV("-I", "1"));
	assert_int_equal(p.o.interval_ms, 1);
	parsed_free(&p);
	parse_ok(&p, ARGV("-I", "3600000"));
	assert_int_equal(p.o.interval_ms, 3600000);
	parsed_free(&p);
}

static void test_duration(void **state)
{
	struct parsed p;

	(void)state;
	parse_ok(&p, ARGV("-d", "10"));
	assert_true(p.o.duration_s == 10.0);
	assert_defaults_except(&p.o, "duration");
	parsed_free(&p);
	parse_ok(&p, ARGV("--duration=0.25"));
	assert_true(p.o.duration_s == 0.25);
	parsed_free(&p);
	parse_ok(&p, ARGV("-d2.5"));
	assert_true(p.o.duration_s == 2.5);
	parsed_free(&p);
	parse_ok(&p, ARGV("--duration", "1e3"));
	assert_true(p.o.duration_s == 1000.0);
	parsed_free(&p);
}

static void test_top(void **state)
{
	struct parsed p;

	(void)state;
	parse_ok(&p, ARGV("-n", "20"));
	assert_int_equal(p.o.top, 20);
	assert_defaults_except(&p.o, "top");
	parsed_free(&p);
	parse_ok(&p, ARGV("--top=1"));
	assert_int_equal(p.o.top, 1);
	parsed_free(&p);
	parse_ok(&p, ARGV("--top", "3"));
	assert_int_equal(p.o.top, 3);
	parsed_free(&p);
	parse_ok(&p, ARGV("-n7"));
	assert_int_equal(p.o.top, 7);
	parsed_free(&p);
}

static void test_flags(void **state)
{
	static const struct {
		const char *arg;
		const char *field;
	} flags[] = {
		{ "-j", "json" },	{ "--json", "json" },
		{ "-s", "software" },	{ "--software", "software" },
		{ "-t", "per_thread" }, { "--per-thread", "per_thread" },
		{ "-v", "verbose" },	{ "--verbose", "verbose" },
		{ "--probe", "probe" },
	};
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		char *argv[] = { "tdtrace", (char *)flags[i].arg, NULL };
		const struct options *o = &p.o;
		bool set;

		parse_ok(&p, argv);
		if (!strcmp(flags[i].field, "json"))
			set = o->json;
		else if (!strcmp(flags[i].field, "software"))
			set = o->software;
		else if (!strcmp(flags[i].field, "per_thread"))
			set = o->per_thread;
		else if (!strcmp(flags[i].field, "verbose"))
			set = o->verbose;
		else
			set = o->probe;
		if (!set)
			fail_msg("%s did not set %s", flags[i].arg, flags[i].field);
		assert_defaults_except(o, flags[i].field);
		parsed_free(&p);
	}

	/* Short flags cluster. */
	parse_ok(&p, ARGV("-jstv"));
	assert_true(p.o.json && p.o.software && p.o.per_thread && p.o.verbose);
	assert_false(p.o.probe);
	parsed_free(&p);
}

static void test_paths_and_sizes(void **state)
{
	struct parsed p;

	(void)state;
	parse_ok(&p, ARGV("--btf", "/tmp/vmlinux"));
	assert_string_equal(p.o.btf_path, "/tmp/vmlinux");
	assert_defaults_except(&p.o, "btf");
	parsed_free(&p);
	parse_ok(&p, ARGV("--btf=/x"));
	assert_string_equal(p.o.btf_path, "/x");
	parsed_free(&p);

	parse_ok(&p, ARGV("-o", "td.jsonl"));
	assert_string_equal(p.o.output, "td.jsonl");
	assert_defaults_except(&p.o, "output");
	parsed_free(&p);
	parse_ok(&p, ARGV("--output=/tmp/a b"));
	assert_string_equal(p.o.output, "/tmp/a b");
	parsed_free(&p);

	parse_ok(&p, ARGV("--sysfs-root", "tests/fixtures/sysfs/vm"));
	assert_string_equal(p.o.sysfs_root, "tests/fixtures/sysfs/vm");
	assert_defaults_except(&p.o, "sysfs");
	parsed_free(&p);

	parse_ok(&p, ARGV("--max-tasks", "16"));
	assert_int_equal(p.o.max_tasks, 16);
	assert_defaults_except(&p.o, "max_tasks");
	parsed_free(&p);
	parse_ok(&p, ARGV("--max-tasks=4000000"));
	assert_int_equal(p.o.max_tasks, 4000000);
	parsed_free(&p);

	parse_ok(&p, ARGV("--max-cgroups", "16"));
	assert_int_equal(p.o.max_cgroups, 16);
	assert_defaults_except(&p.o, "max_cgroups");
	parsed_free(&p);
	parse_ok(&p, ARGV("--max-cgroups=1000000"));
	assert_int_equal(p.o.max_cgroups, 1000000);
	parsed_free(&p);
}

static void test_all_together(void **state)
{
	struct parsed p;

	(void)state;
	parse_ok(&p,
		 ARGV("-I", "250", "--duration=3", "-n", "5", "--json", "-s", "-t", "--probe", "-v",
		      "--btf=/b", "--sysfs-root=/r", "--max-tasks=100", "--max-cgroups", "200"));
	assert_int_equal(p.o.interval_ms, 250);
	assert_true(p.o.duration_s == 3.0);
	assert_int_equal(p.o.top, 5);
	assert_true(p.o.json && p.o.software && p.o.per_thread && p.o.probe && p.o.verbose);
	assert_string_equal(p.o.btf_path, "/b");
	assert_string_equal(p.o.sysfs_root, "/r");
	assert_int_equal(p.o.max_tasks, 100);
	assert_int_equal(p.o.max_cgroups, 200);
	parsed_free(&p);

	/* A flag given twice is still just set (values twice: bad_cases). */
	parse_ok(&p, ARGV("-j", "--json", "-s", "-s"));
	assert_true(p.o.json && p.o.software);
	parsed_free(&p);
}

/* -c and -p accumulate; the row and target options that go with them. */
static void test_targets_and_rows(void **state)
{
	struct parsed p;

	(void)state;
	parse_ok(&p, ARGV("-c", "a", "--cgroup=/b c", "-c", "d"));
	assert_int_equal(p.o.nr_cgroups, 3);
	assert_string_equal(p.o.cgroups[0], "a");
	assert_string_equal(p.o.cgroups[1], "/b c");
	assert_string_equal(p.o.cgroups[2], "d");
	parsed_free(&p);
	parse_ok(&p, ARGV("-c", "1", "-c", "2", "-c", "3", "-c", "4", "-c", "5", "-c", "6", "-c",
			  "7", "-c", "8"));
	assert_int_equal(p.o.nr_cgroups, TD_MAX_CGROUP_FILTERS);
	parsed_free(&p);

	parse_ok(&p, ARGV("-p", "1,22", "--pid=333", "-p", "2147483647", "--no-children"));
	assert_int_equal(p.o.nr_pids, 4);
	assert_int_equal(p.o.pids[0], 1);
	assert_int_equal(p.o.pids[1], 22);
	assert_int_equal(p.o.pids[2], 333);
	assert_int_equal(p.o.pids[3], 2147483647);
	assert_true(p.o.no_children);
	assert_null(p.o.command);
	parsed_free(&p);

	parse_ok(&p, ARGV("--per-cgroup", "--depth", "0"));
	assert_true(p.o.per_cgroup);
	assert_int_equal(p.o.depth, 0);
	parsed_free(&p);
	parse_ok(&p, ARGV("--depth=64"));
	assert_int_equal(p.o.depth, 64);
	parsed_free(&p);
	parse_ok(&p, ARGV("--containers"));
	assert_true(p.o.containers);
	assert_int_equal(p.o.depth, -1);
	parsed_free(&p);

	/* COMMAND after --, its own options left alone, even -I twice. */
	parse_ok(&p, ARGV("-I", "5", "--no-children", "--", "cmd", "-I", "6", "-I", "7"));
	assert_non_null(p.o.command);
	assert_string_equal(p.o.command[0], "cmd");
	assert_string_equal(p.o.command[4], "7");
	assert_null(p.o.command[5]);
	assert_int_equal(p.o.interval_ms, 5);
	parsed_free(&p);
}

/* --group-by: each value, --containers implied; --runtime-root: each runtime, repeatable. */
static void test_kubernetes(void **state)
{
	static const struct {
		const char *arg;
		int want;
	} by[] = {
		{ "--group-by=container", GROUP_CONTAINER },
		{ "--group-by=pod", GROUP_POD },
		{ "--group-by=namespace", GROUP_NAMESPACE },
	};
	struct parsed p;

	(void)state;
	parse_ok(&p, ARGV("--containers"));
	assert_int_equal(p.o.group_by, GROUP_CONTAINER);
	assert_null(p.o.containerd_root);
	assert_null(p.o.crio_run_root);
	assert_null(p.o.crio_root);
	assert_null(p.o.docker_root);
	parsed_free(&p);
	for (size_t i = 0; i < sizeof(by) / sizeof(by[0]); i++) {
		parse_ok(&p, ARGV((char *)by[i].arg));
		assert_int_equal(p.o.group_by, by[i].want);
		assert_true(p.o.containers);
		assert_int_equal(p.o.depth, -1);
		parsed_free(&p);
	}
	parse_ok(&p, ARGV("--containers", "--group-by", "pod"));
	assert_int_equal(p.o.group_by, GROUP_POD);
	parsed_free(&p);

	parse_ok(&p, ARGV("--runtime-root", "containerd=/a", "--runtime-root=crio-run=/b",
			  "--runtime-root", "crio=/c=d", "--runtime-root", "docker="));
	assert_string_equal(p.o.containerd_root, "/a");
	assert_string_equal(p.o.crio_run_root, "/b");
	assert_string_equal(p.o.crio_root, "/c=d");
	assert_string_equal(p.o.docker_root, ""); /* left out */
	assert_false(p.o.containers);
	parsed_free(&p);
	/* One runtime alone leaves the others at their defaults. */
	parse_ok(&p, ARGV("--runtime-root=crio=/x"));
	assert_string_equal(p.o.crio_root, "/x");
	assert_null(p.o.crio_run_root);
	assert_null(p.o.containerd_root);
	assert_null(p.o.docker_root);
	parsed_free(&p);
}

/* One bad command line, and what its error line must name. */
struct bad_case {
	const char *args[19];
	const char *names;
};

static const struct bad_case bad_cases[] = {
	{ { "-I", "0" }, "--interval" },
	{ { "-I", "3600001" }, "--interval" },
	{ { "-I", "abc" }, "--interval" },
	{ { "-I", "10x" }, "--interval" },
	{ { "-I", "" }, "--interval" },
	{ { "-I", "-5" }, "--interval" },
	{ { "-I", " 5" }, "--interval" },
	{ { "-I", "\t5" }, "--interval" },
	{ { "-I", "+5" }, "--interval" },
	{ { "-I", "99999999999999999999" }, "--interval" },
	{ { "--interval=5 " }, "--interval" },
	{ { "--top", "0" }, "--top" },
	{ { "--top", "-3" }, "--top" },
	{ { "-n", "1.5" }, "--top" },
	{ { "-n", "100001" }, "--top" },
	{ { "-d", "0" }, "--duration" },
	{ { "-d", "-1" }, "--duration" },
	{ { "-d", "abc" }, "--duration" },
	{ { "-d", "nan" }, "--duration" },
	{ { "-d", "inf" }, "--duration" },
	{ { "-d", "1e9" }, "--duration" },
	{ { "-d", "" }, "--duration" },
	{ { "-d", "\t5" }, "--duration" },
	{ { "-d", "5s" }, "--duration" },
	{ { "--max-tasks", "15" }, "--max-tasks" },
	{ { "--max-tasks", "4000001" }, "--max-tasks" },
	{ { "--max-cgroups", "0" }, "--max-cgroups" },
	{ { "--max-cgroups", "1000001" }, "--max-cgroups" },
	{ { "--btf", "" }, "--btf" },
	{ { "--btf=" }, "--btf" },
	{ { "-o", "" }, "--output" },
	{ { "--output=" }, "--output" },
	{ { "--sysfs-root", "" }, "--sysfs-root" },
	{ { "--bogus" }, "--bogus" },
	{ { "-y" }, "-y" },
	{ { "-jy" }, "-y" },
	/* an unknown letter before the end of its word, after a long option (fuzz_options) */
	{ { "--json", "-yj" }, "'-y'" },
	{ { "--json", "-1e308d", "90" }, "'-1'" },
	{ { "-I" }, "-I" },
	{ { "--interval" }, "--interval" },
	{ { "--json=1" }, "--json" },
	{ { "--probe=1" }, "--probe" },
	{ { "foo" }, "foo" },
	{ { "-j", "foo" }, "foo" },
	/* every numeric option: huge, hex, leading space, trailing garbage, sign */
	{ { "-I", "18446744073709551616" }, "--interval" },
	{ { "-I", "4294967296" }, "--interval" },
	{ { "-I", "0x10" }, "--interval" },
	{ { "-n", "" }, "--top" },
	{ { "-n", "18446744073709551615" }, "--top" },
	{ { "-n", " 5" }, "--top" },
	{ { "-n", "5 " }, "--top" },
	{ { "-n", "0x5" }, "--top" },
	{ { "-d", "18446744073709551616" }, "--duration" },
	{ { "-d", "1e400" }, "--duration" },
	{ { "-d", "0x10" }, "--duration" },
	{ { "-d", "+5" }, "--duration" },
	{ { "-d", "1,5" }, "--duration" },
	{ { "--depth", "" }, "--depth" },
	{ { "--depth", "-1" }, "--depth" },
	{ { "--depth", "65" }, "--depth" },
	{ { "--depth", "18446744073709551616" }, "--depth" },
	{ { "--depth", "one" }, "--depth" },
	{ { "--depth", "1x" }, "--depth" },
	{ { "--depth", " 1" }, "--depth" },
	{ { "--depth", "0x1" }, "--depth" },
	{ { "--max-tasks", "" }, "--max-tasks" },
	{ { "--max-tasks", "-16" }, "--max-tasks" },
	{ { "--max-tasks", "18446744073709551616" }, "--max-tasks" },
	{ { "--max-tasks", "1k" }, "--max-tasks" },
	{ { "--max-cgroups", "0x100" }, "--max-cgroups" },
	{ { "--max-cgroups", " 100" }, "--max-cgroups" },
	{ { "-p", "" }, "--pid" },
	{ { "-p", "0" }, "--pid" },
	{ { "-p", "-1" }, "--pid" },
	{ { "-p", "2147483648" }, "--pid" },
	{ { "-p", "18446744073709551616" }, "--pid" },
	{ { "-p", "init" }, "--pid" },
	{ { "-p", "12x" }, "--pid" },
	{ { "-p", " 12" }, "--pid" },
	{ { "-p", "0x12" }, "--pid" },
	{ { "-p", "1,,2" }, "--pid" },
	{ { "-p", "1," }, "--pid" },
	{ { "-p", ",1" }, "--pid" },
	{ { "-c", "" }, "--cgroup" },
	{ { "-c", "1", "-c", "2", "-c", "3", "-c", "4", "-c", "5", "-c", "6", "-c", "7", "-c", "8",
	    "-c", "9" },
	  "at most 8" },
	/* an option that takes one value, given twice */
	{ { "-I", "5", "-I", "7" }, "--interval given twice" },
	{ { "-I5", "--interval=5" }, "--interval given twice" },
	{ { "-d", "1", "-d", "2" }, "--duration given twice" },
	{ { "-n", "1", "--top", "2" }, "--top given twice" },
	{ { "-o", "a", "-o", "b" }, "--output given twice" },
	{ { "--btf", "a", "--btf", "b" }, "--btf given twice" },
	{ { "--sysfs-root", "a", "--sysfs-root=b" }, "--sysfs-root given twice" },
	{ { "--max-tasks", "16", "--max-tasks", "16" }, "--max-tasks given twice" },
	{ { "--max-cgroups=16", "--max-cgroups=17" }, "--max-cgroups given twice" },
	{ { "--depth", "1", "--depth", "2" }, "--depth given twice" },
	{ { "--test-members=a", "--test-members=b" }, "--test-members given twice" },
	/* Kubernetes: a roll-up that is none of the three, a runtime or a place that is not one */
	{ { "--group-by=pods" }, "--group-by" },
	{ { "--group-by=" }, "--group-by" },
	{ { "--group-by", "Pod" }, "--group-by" },
	{ { "--group-by", "pod " }, "--group-by" },
	{ { "--group-by" }, "--group-by" },
	{ { "--group-by=pod", "--group-by=namespace" }, "--group-by given twice" },
	{ { "--runtime-root=containerd" }, "--runtime-root" },
	{ { "--runtime-root=containerd=run/k8s" }, "--runtime-root" },
	{ { "--runtime-root=docker=./containers" }, "--runtime-root" },
	{ { "--runtime-root=podman=/x" }, "--runtime-root" },
	{ { "--runtime-root=cri-o=/x" }, "--runtime-root" },
	{ { "--runtime-root==/x" }, "--runtime-root" },
	{ { "--runtime-root=" }, "--runtime-root" },
	{ { "--runtime-root=crio-ru=/x" }, "--runtime-root" },
	{ { "--runtime-root=containerd-=/x" }, "--runtime-root" },
	{ { "--runtime-root", "docker=/a", "--runtime-root", "dockerd=/b" }, "'dockerd=/b'" },
	/* formats: unknown names, separators that would not parse, two different choices */
	{ { "--format", "xml" }, "--format" },
	{ { "--format=" }, "--format" },
	{ { "--format", "JSON" }, "--format" },
	{ { "--format", "json", "--format", "json" }, "--format given twice" },
	{ { "-x", "" }, "--field-separator" },
	{ { "-x", "1" }, "--field-separator" },
	{ { "-x", "." }, "--field-separator" },
	{ { "-x", "a\nb" }, "--field-separator" },
	{ { "-j", "--format=perf-json" }, "different formats" },
	{ { "--format=perf-json", "-j" }, "different formats" },
	{ { "-x", ";", "--format=json" }, "different formats" },
	{ { "--format=toplev-csv", "-x", "," }, "different formats" },
	{ { "--format=toplev-csv", "-s" }, "--software" },
	/* combinations that contradict each other */
	{ { "-t", "--per-cgroup" }, "--per-cgroup" },
	{ { "--containers", "--depth", "1" }, "--containers" },
	{ { "--group-by=pod", "--depth", "1" }, "--depth" },
	{ { "--depth=0", "--group-by=namespace" }, "--depth" },
	{ { "--no-children" }, "--no-children" },
	{ { "-p", "1", "--", "true" }, "COMMAND" },
	{ { "--" }, "--" },
	/* control bytes and escape sequences in what an error line quotes */
	{ { "-I", "1\n2" }, "'1\\x0a2'" },
	{ { "-n", "\x1b[2J" }, "'\\x1b[2J'" },
	{ { "-d", "\xff" }, "'\\xff'" },
	{ { "--bo\ngus=1" }, "'--bo\\x0agus'" },
	{ { "-\x1b" }, "'-\\x1b'" },
	{ { "-j", "ex\rtra" }, "'ex\\x0dtra'" },
};

/* Why @p is not the one-line error that @c asks for, or NULL if it is. */
static const char *bad_case_problem(const struct bad_case *c, const struct parsed *p)
{
	const char *nl = memchr(p->err, '\n', p->err_len);

	if (p->res != OPTIONS_BAD)
		return "not OPTIONS_BAD";
	if (p->out_len)
		return "printed to out";
	if (strlen(p->err) != p->err_len)
		return "NUL byte in the error";
	if (strncmp(p->err, "tdtrace: ", 9))
		return "error does not start with 'tdtrace: '";
	if (!nl || nl != p->err + p->err_len - 1)
		return "error is not exactly one line";
	for (size_t i = 0; i + 1 < p->err_len; i++)
		if ((unsigned char)p->err[i] < 0x20 || (unsigned char)p->err[i] >= 0x7f)
			return "a control byte or non-ASCII in the error";
	if (!strstr(p->err, c->names))
		return "error does not name the option";
	return NULL;
}

/* Every case is checked; the failures are listed together at the end. */
static void test_bad_values(void **state)
{
	int failures = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		char *argv[21] = { "tdtrace" }, shown[256] = "";
		const char *problem;
		struct parsed p;

		for (int a = 0; c->args[a]; a++) {
			argv[a + 1] = (char *)c->args[a];
			snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), " '%s'",
				 c->args[a]);
		}

		reset_getopt(NULL);
		parse(&p, argv);
		problem = bad_case_problem(c, &p);
		if (problem) {
			print_error("bad_cases[%zu] tdtrace%s: %s (result %d, err \"%s\")\n", i,
				    shown, problem, p.res, p.err);
			failures++;
		}
		parsed_free(&p);
	}
	if (failures)
		fail_msg("%d bad command lines were not refused as expected", failures);
}

/* The value that was refused is quoted in the error. */
static void test_bad_value_quoted(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, ARGV("-I", "10x"));
	assert_int_equal(p.res, OPTIONS_BAD);
	assert_non_null(strstr(p.err, "'10x'"));
	parsed_free(&p);
}

static void test_help(void **state)
{
	static const char *const helps[] = { "--help", "-h" };
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		parse(&p, (char *[]){ "tdtrace", (char *)helps[i], NULL });
		assert_int_equal(p.res, OPTIONS_DONE);
		assert_int_equal(p.err_len, 0);
		assert_non_null(strstr(p.out, "Usage:"));
		assert_non_null(strstr(p.out, "Examples:"));
		/* Every long option is documented, except the test-only one. */
		assert_non_null(strstr(p.out, "--interval"));
		assert_non_null(strstr(p.out, "--max-cgroups"));
		assert_non_null(strstr(p.out, "--software"));
		parsed_free(&p);
	}
	/* --help wins over the options after it. */
	parse(&p, ARGV("--help", "-I", "0"));
	assert_int_equal(p.res, OPTIONS_DONE);
	assert_int_equal(p.err_len, 0);
	parsed_free(&p);
}

static void test_version(void **state)
{
	static const char *const versions[] = { "--version", "-V" };
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		parse(&p, (char *[]){ "tdtrace", (char *)versions[i], NULL });
		assert_int_equal(p.res, OPTIONS_DONE);
		assert_int_equal(p.err_len, 0);
		assert_true(p.out_len > 0);
		assert_int_equal(strncmp(p.out, "tdtrace ", 8), 0);
		/* One line. */
		assert_ptr_equal(strchr(p.out, '\n'), p.out + p.out_len - 1);
		parsed_free(&p);
	}
}

/* Two full parses back to back: the second sees only its own argv. */
static void test_parse_twice(void **state)
{
	struct parsed p;

	(void)state;
	parse_ok(&p, ARGV("-j", "-I", "5", "--top=3"));
	assert_true(p.o.json);
	parsed_free(&p);
	parse_ok(&p, ARGV("-n", "4"));
	assert_int_equal(p.o.top, 4);
	assert_defaults_except(&p.o, "top");
	parsed_free(&p);
	parse_ok(&p, (char *[]){ "tdtrace", NULL });
	assert_defaults_except(&p.o, "");
	parsed_free(&p);
}

/* After an error in the middle of "-yj", the next parse must not see the 'j'. */
static void test_parse_twice_after_error(void **state)
{
	char *first[] = { "tdtrace", "-yj", NULL };
	struct parsed p;

	(void)state;
	parse(&p, first);
	assert_int_equal(p.res, OPTIONS_BAD);
	parsed_free(&p);
	parse(&p, (char *[]){ "tdtrace", NULL });
	assert_int_equal(p.res, OPTIONS_RUN);
	assert_int_equal(p.err_len, 0);
	assert_defaults_except(&p.o, "");
	parsed_free(&p);
}

/* Same after --help in the middle of "-hj". */
static void test_parse_twice_after_help(void **state)
{
	char *first[] = { "tdtrace", "-hj", NULL };
	struct parsed p;

	(void)state;
	parse(&p, first);
	assert_int_equal(p.res, OPTIONS_DONE);
	parsed_free(&p);
	parse(&p, ARGV("-I", "7"));
	assert_int_equal(p.res, OPTIONS_RUN);
	assert_int_equal(p.err_len, 0);
	assert_int_equal(p.o.interval_ms, 7);
	assert_defaults_except(&p.o, "interval");
	parsed_free(&p);
}

/* --format, -j and -x: the format, perf's separator, and where toplev's files go. */
static void test_formats(void **state)
{
	struct parsed p;

	(void)state;
	parse_ok(&p, ARGV("--format=perf-json"));
	assert_int_equal(p.o.format, FORMAT_PERF_JSON);
	assert_false(p.o.json);
	parsed_free(&p);
	parse_ok(&p, ARGV("--format", "perf-csv"));
	assert_int_equal(p.o.format, FORMAT_PERF_CSV);
	assert_string_equal(p.o.csv_sep, ","); /* perf's -x, */
	parsed_free(&p);
	/* -x and perf-csv name one format: -x's separator, in either order */
	parse_ok(&p, ARGV("-x", ";", "--format=perf-csv"));
	assert_string_equal(p.o.csv_sep, ";");
	parsed_free(&p);
	parse_ok(&p, ARGV("--format=perf-csv", "-x", "\t"));
	assert_int_equal(p.o.format, FORMAT_PERF_CSV);
	assert_string_equal(p.o.csv_sep, "\t");
	parsed_free(&p);
	parse_ok(&p, ARGV("-j", "--format=json"));
	assert_int_equal(p.o.format, FORMAT_JSON);
	assert_true(p.o.json);
	parsed_free(&p);
	parse_ok(&p, ARGV("--format=json"));
	assert_true(p.o.json); /* as -j */
	parsed_free(&p);
	/* toplev-csv's -o is a DIR/ or PREFIX, not a FILE to open */
	parse_ok(&p, ARGV("--format=toplev-csv", "-o", "runs/"));
	assert_int_equal(p.o.format, FORMAT_TOPLEV_CSV);
	assert_null(p.o.output);
	assert_string_equal(p.o.toplev_split, "runs/");
	parsed_free(&p);
	parse_ok(&p, ARGV("--format=perf-json", "-o", "runs/x"));
	assert_string_equal(p.o.output, "runs/x");
	assert_null(p.o.toplev_split);
	parsed_free(&p);
}

/* README's option block is --help, byte for byte (the table makes both). */
static void test_readme_is_help(void **state)
{
	static const char begin[] = "<!-- options: made by `tdtrace --help`";
	char *readme = NULL, *help = NULL, *block, *end;
	size_t readme_len = 0, help_len = 0;
	FILE *f, *mem;
	int c;

	(void)state;
	/* Tests are built and run from the top of the tree, as make does. */
	f = fopen("README.md", "r");
	if (!f)
		fail_msg("failed to open README.md (run from the top of the tree)");
	mem = open_memstream(&readme, &readme_len);
	while ((c = fgetc(f)) != EOF)
		fputc(c, mem);
	fclose(f);
	fclose(mem);
	mem = open_memstream(&help, &help_len);
	help_write(mem);
	fclose(mem);

	block = strstr(readme, begin);
	assert_non_null(block);
	block = strstr(block, "\n```\n");
	assert_non_null(block);
	block += 5;
	end = strstr(block, "```\n<!-- options end -->");
	assert_non_null(end);
	*end = '\0';
	if (strcmp(block, help))
		fail_msg("README.md's option block differs from tdtrace --help: paste --help "
			 "between the markers");
	free(readme);
	free(help);
}

/* --help's lines fit HELP_WIDTH, and every documented row is in it once. */
static void test_help_from_table(void **state)
{
	char *help = NULL, *line;
	size_t len = 0;
	FILE *mem;

	(void)state;
	mem = open_memstream(&help, &len);
	help_write(mem);
	fclose(mem);
	for (line = help; *line;) {
		size_t n = strcspn(line, "\n");

		if (n > HELP_WIDTH)
			fail_msg("help line longer than %d: %.*s", HELP_WIDTH, (int)n, line);
		line += n + (line[n] == '\n');
	}
	for (int i = 0; i < nr_option_rows; i++) {
		const struct option_row *r = &option_rows[i];
		char want[64];
		const char *at;

		if (!r->name)
			continue;
		/* As an option line starts: "\n  -I, --interval=" or "\n      --depth=". */
		snprintf(want, sizeof(want), "\n  %c%c%c --%s%s", r->letter ? '-' : ' ',
			 r->letter ? r->letter : ' ', r->letter ? ',' : ' ', r->name,
			 r->arg ? (r->optional ? "[=" : "=") : "");
		at = strstr(help, want);
		if (r->hidden) {
			/* Hidden rows say why they exist, and are nowhere in --help. */
			assert_non_null(at ? NULL : r->hidden);
			assert_true(strlen(r->hidden) > 20);
			continue;
		}
		if (!at)
			fail_msg("--%s is not in --help", r->name);
		assert_null(strstr(at + 1, want));
		assert_non_null(r->help);
		/* A value's error says what was expected. */
		if (r->arg)
			assert_non_null(r->expected);
	}
	free(help);
}

/* No two rows share a name or a letter: getopt would take the first. */
static void test_table_unique(void **state)
{
	(void)state;
	for (int i = 0; i < nr_option_rows; i++)
		for (int j = i + 1; j < nr_option_rows; j++) {
			const struct option_row *a = &option_rows[i], *b = &option_rows[j];

			if (a->name && b->name && !strcmp(a->name, b->name))
				fail_msg("--%s twice in the option table", a->name);
			if (a->letter && a->letter == b->letter)
				fail_msg("-%c twice in the option table", a->letter);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_defaults, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_interval_forms, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_duration, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_top, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_flags, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_paths_and_sizes, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_all_together, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_targets_and_rows, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_kubernetes, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_bad_values, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_bad_value_quoted, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_help, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_version, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_parse_twice, reset_getopt, free_pending),
		cmocka_unit_test_setup_teardown(test_parse_twice_after_error, reset_getopt,
						free_pending),
		cmocka_unit_test_setup_teardown(test_parse_twice_after_help, reset_getopt,
						free_pending),
		cmocka_unit_test_setup_teardown(test_formats, reset_getopt, free_pending),
		cmocka_unit_test(test_readme_is_help),
		cmocka_unit_test(test_help_from_table),
		cmocka_unit_test(test_table_unique),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
