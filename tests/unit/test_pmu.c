// SPDX-License-Identifier: GPL-2.0
/*
 * PMU discovery against the fake roots in tests/fixtures/sysfs and against
 * trees made on the fly. Run from the repository root.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host/pmu.h"

#define FIXTURES "tests/fixtures/sysfs"

static struct pmu_info *discover_ok(const char *root)
{
	struct pmu_info *info = calloc(1, sizeof(*info));

	assert_non_null(info);
	assert_int_equal(pmu_discover(root, info), 0);
	return info;
}

static const struct pmu_format_field *field(const struct pmu_info *info, const char *name)
{
	int i;

	for (i = 0; i < info->format.nr; i++) {
		if (!strcmp(info->format.field[i].name, name))
			return &info->format.field[i];
	}
	return NULL;
}

static void assert_cpus(const struct pmu_info *info, int lo, int hi)
{
	int i;

	assert_int_equal(info->nr_cpus, hi - lo + 1);
	for (i = 0; i < PMU_MAX_CPUS; i++)
		assert_int_equal(info->cpus[i], i >= lo && i <= hi);
}

/* Slots and the metric events are event 0x00 with umask 0x4 and 0x80..0x87. */
static void assert_topdown_configs(const struct pmu_info *info, int nr)
{
	int i;

	assert_true(info->events[TD_SLOTS].present);
	assert_int_equal(info->events[TD_SLOTS].config[0], 0x400);
	for (i = TD_RETIRING; i < nr; i++) {
		assert_true(info->events[i].present);
		assert_int_equal(info->events[i].config[0], 0x8000 + ((i - TD_RETIRING) << 8));
		assert_int_equal(info->events[i].config[1], 0);
		assert_int_equal(info->events[i].config[2], 0);
	}
	for (; i < TD_NR_ROLES; i++)
		assert_false(info->events[i].present);
}

static void test_event_names(void **state)
{
	(void)state;
	assert_string_equal(pmu_event_names[TD_SLOTS], "slots");
	assert_string_equal(pmu_event_names[TD_RETIRING], "topdown-retiring");
	assert_string_equal(pmu_event_names[TD_BE_BOUND], "topdown-be-bound");
	assert_string_equal(pmu_event_names[TD_HEAVY_OPS], "topdown-heavy-ops");
	assert_string_equal(pmu_event_names[TD_MEM_BOUND], "topdown-mem-bound");
}

static void test_icelake(void **state)
{
	struct pmu_info *info = discover_ok(FIXTURES "/icelake");
	const struct pmu_format_field *f;

	(void)state;
	assert_string_equal(info->name, "cpu");
	assert_int_equal(info->type, 4);
	assert_false(info->hybrid);
	assert_int_equal(info->level, 1);
	assert_string_equal(info->why, "");
	assert_cpus(info, 0, 7);
	assert_string_equal(info->vendor, "GenuineIntel");
	assert_string_equal(info->model, "Intel(R) Core(TM) i7-1065G7 CPU @ 1.30GHz");
	assert_topdown_configs(info, TD_BE_BOUND + 1);
	assert_int_equal(info->events[TD_RETIRING].config[0], 0x8000);

	/* All 12 format/ files, parsed. */
	assert_int_equal(info->format.nr, 12);
	f = field(info, "umask");
	assert_non_null(f);
	assert_int_equal(f->word, 0);
	assert_int_equal(f->mask, 0xff00);
	f = field(info, "any");
	assert_non_null(f);
	assert_int_equal(f->mask, 1ULL << 21);
	f = field(info, "frontend");
	assert_non_null(f);
	assert_int_equal(f->word, 1);
	assert_int_equal(f->mask, 0xffffff);
	f = field(info, "offcore_rsp");
	assert_non_null(f);
	assert_int_equal(f->mask, ~0ULL);
	free(info);
}

static void test_sapphirerapids(void **state)
{
	struct pmu_info *info = discover_ok(FIXTURES "/sapphirerapids");

	(void)state;
	assert_string_equal(info->name, "cpu");
	assert_int_equal(info->type, 4);
	assert_false(info->hybrid);
	assert_int_equal(info->level, 2);
	assert_cpus(info, 0, 111);
	assert_string_equal(info->vendor, "GenuineIntel");
	assert_string_equal(info->model, "Intel(R) Xeon(R) Platinum 8480+");
	assert_topdown_configs(info, TD_NR_ROLES);
	assert_int_equal(info->events[TD_MEM_BOUND].config[0], 0x8700);
	assert_int_equal(info->events[TD_HEAVY_OPS].config[0], 0x8400);
	free(info);
}

static void test_alderlake(void **state)
{
	struct pmu_info *info = discover_ok(FIXTURES "/alderlake");

	(void)state;
	/* cpu_core wins over cpu_atom; only the P-cores count. */
	assert_string_equal(info->name, "cpu_core");
	assert_int_equal(info->type, 4);
	assert_true(info->hybrid);
	assert_int_equal(info->level, 2);
	assert_cpus(info, 0, 15);
	assert_string_equal(info->vendor, "GenuineIntel");
	assert_string_equal(info->model, "12th Gen Intel(R) Core(TM) i9-12900K");
	assert_topdown_configs(info, TD_NR_ROLES);
	free(info);
}

static void test_vm(void **state)
{
	struct pmu_info *info = discover_ok(FIXTURES "/vm");

	(void)state;
	assert_int_equal(info->level, 0);
	assert_string_equal(info->name, "");
	assert_non_null(strstr(info->why, "no core PMU"));
	assert_non_null(strstr(info->why, FIXTURES "/vm/sys/bus/event_source/devices"));
	/* The fixture is this project's own build machine, a KVM guest on Zen 5. */
	assert_string_equal(info->vendor, "AuthenticAMD");
	assert_string_equal(info->model, "AMD EPYC");
	free(info);
}

static void test_root_trailing_slash(void **state)
{
	struct pmu_info *info = discover_ok(FIXTURES "/vm/");

	(void)state;
	/* No "//" in the message. */
	assert_non_null(strstr(info->why, FIXTURES "/vm/sys/bus"));
	free(info);
	info = discover_ok(FIXTURES "/icelake/");
	assert_int_equal(info->level, 1);
	free(info);
}

static void test_missing_root(void **state)
{
	struct pmu_info *info = calloc(1, sizeof(*info));

	(void)state;
	assert_non_null(info);
	assert_int_equal(pmu_discover(FIXTURES "/no-such-machine", info), -ENOENT);
	/* A directory without sys/bus/event_source/devices is no system root. */
	assert_int_equal(pmu_discover(FIXTURES, info), -ENOENT);
	assert_int_equal(info->level, 0);
	/* A file is not a directory. */
	assert_true(pmu_discover(FIXTURES "/README.md", info) < 0);
	free(info);
}

static void test_parse_format(void **state)
{
	struct pmu_format_field f;

	(void)state;
	assert_int_equal(pmu_parse_format("config:0-7\n", &f), 0);
	assert_int_equal(f.word, 0);
	assert_int_equal(f.mask, 0xff);

	assert_int_equal(pmu_parse_format("config:21", &f), 0);
	assert_int_equal(f.word, 0);
	assert_int_equal(f.mask, 1ULL << 21);

	assert_int_equal(pmu_parse_format("config:0-7,32-35\n", &f), 0);
	assert_int_equal(f.mask, 0xf000000ffULL);

	assert_int_equal(pmu_parse_format("config:63", &f), 0);
	assert_int_equal(f.mask, 1ULL << 63);

	assert_int_equal(pmu_parse_format("config1:0-63\n", &f), 0);
	assert_int_equal(f.word, 1);
	assert_int_equal(f.mask, ~0ULL);

	assert_int_equal(pmu_parse_format("config2:4-5", &f), 0);
	assert_int_equal(f.word, 2);
	assert_int_equal(f.mask, 0x30);
}

static void test_parse_format_garbage(void **state)
{
	static const char *const bad[] = {
		"",	      "\n",	     "config",	   "config:",	    "config3:0-3",
		"confi:0-7",  "foo:0-7",     "config:7-0", "config:64",	    "config:0-64",
		"config:a-b", "config:0-7,", "config:-3",  "config:0x1-2",  "config:1 2",
		"config:+1",  "config:0--7", "config:,1",  "config1:0-7:8", "config:3-",
	};
	struct pmu_format_field f = { .word = 7, .mask = 0x1234 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (pmu_parse_format(bad[i], &f) != -EINVAL)
			fail_msg("format '%s' was accepted", bad[i]);
	}
	/* Untouched on error. */
	assert_int_equal(f.word, 7);
	assert_int_equal(f.mask, 0x1234);
}

/* A format like the x86 core PMU's, plus a made-up non-contiguous field. */
static void make_format(struct pmu_format *fmt)
{
	static const struct {
		const char *name, *text;
	} src[] = {
		{ "event", "config:0-7" },	{ "umask", "config:8-15" },
		{ "edge", "config:18" },	{ "inv", "config:23" },
		{ "cmask", "config:24-31" },	{ "ldlat", "config1:0-15" },
		{ "split", "config:0-3,8-11" }, { "offcore_rsp", "config1:0-63" },
		{ "extra", "config2:32-39" },
	};
	size_t i;

	memset(fmt, 0, sizeof(*fmt));
	for (i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
		strcpy(fmt->field[i].name, src[i].name);
		assert_int_equal(pmu_parse_format(src[i].text, &fmt->field[i]), 0);
	}
	fmt->nr = i;
}

static void test_encode(void **state)
{
	struct pmu_format fmt;
	struct pmu_event ev;
	char err[128] = "";

	(void)state;
	make_format(&fmt);
	assert_int_equal(pmu_encode_event("event=0x00,umask=0x4\n", &fmt, &ev, err, sizeof(err)),
			 0);
	assert_true(ev.present);
	assert_int_equal(ev.config[0], 0x400);

	assert_int_equal(pmu_encode_event("event=0x00,umask=0x87", &fmt, &ev, err, sizeof(err)), 0);
	assert_int_equal(ev.config[0], 0x8700);

	/* Decimal values, and a term in config1. */
	assert_int_equal(pmu_encode_event("event=205,umask=1,ldlat=3", &fmt, &ev, err, sizeof(err)),
			 0);
	assert_int_equal(ev.config[0], 0x1cd);
	assert_int_equal(ev.config[1], 3);
	assert_int_equal(ev.config[2], 0);

	/* Bare terms mean 1. */
	assert_int_equal(
		pmu_encode_event("event=0x3c,edge,inv,cmask=0xff", &fmt, &ev, err, sizeof(err)), 0);
	assert_int_equal(ev.config[0], 0x3c | 1ULL << 18 | 1ULL << 23 | 0xffULL << 24);

	/* Value bits fill the mask lowest first, across its gap. */
	assert_int_equal(pmu_encode_event("split=0x5a", &fmt, &ev, err, sizeof(err)), 0);
	assert_int_equal(ev.config[0], 0x50a);

	/* A 64-bit field takes a full 64-bit value; config2 works too. */
	assert_int_equal(pmu_encode_event("offcore_rsp=0xffffffffffffffff,extra=0x81", &fmt, &ev,
					  err, sizeof(err)),
			 0);
	assert_int_equal(ev.config[1], ~0ULL);
	assert_int_equal(ev.config[2], 0x81ULL << 32);
}

static void test_encode_errors(void **state)
{
	struct pmu_format fmt;
	struct pmu_event ev;
	char err[128];

	(void)state;
	make_format(&fmt);

	err[0] = '\0';
	assert_int_equal(pmu_encode_event("event=0x3c,umask=0x100", &fmt, &ev, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "umask"));
	assert_false(ev.present);

	assert_int_equal(pmu_encode_event("split=0x100", &fmt, &ev, err, sizeof(err)), -EINVAL);

	err[0] = '\0';
	assert_int_equal(pmu_encode_event("event=0x3c,period=2000003", &fmt, &ev, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "period"));
	assert_null(strchr(err, '\n'));

	/* "even" is a prefix of "event", not a match. */
	err[0] = '\0';
	assert_int_equal(pmu_encode_event("even=1", &fmt, &ev, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "even"));

	err[0] = '\0';
	assert_int_equal(pmu_encode_event("", &fmt, &ev, err, sizeof(err)), -EINVAL);
	assert_true(err[0] != '\0');
	assert_int_equal(pmu_encode_event(" \n", &fmt, &ev, err, sizeof(err)), -EINVAL);
	assert_int_equal(pmu_encode_event("event=", &fmt, &ev, err, sizeof(err)), -EINVAL);
	assert_int_equal(pmu_encode_event("event=0x3c,", &fmt, &ev, err, sizeof(err)), -EINVAL);
	assert_int_equal(pmu_encode_event(",event=0x3c", &fmt, &ev, err, sizeof(err)), -EINVAL);
	assert_int_equal(pmu_encode_event("=3", &fmt, &ev, err, sizeof(err)), -EINVAL);
	assert_int_equal(pmu_encode_event("event=0xzz", &fmt, &ev, err, sizeof(err)), -EINVAL);
	assert_int_equal(pmu_encode_event("event=-1", &fmt, &ev, err, sizeof(err)), -EINVAL);
	assert_int_equal(pmu_encode_event("event=0x10000000000000000", &fmt, &ev, err, sizeof(err)),
			 -EINVAL);
	/* A tiny error buffer is still terminated. */
	assert_int_equal(pmu_encode_event("nope=1", &fmt, &ev, err, 4), -EINVAL);
	assert_int_equal(strlen(err), 3);
}

static void test_cpu_list(void **state)
{
	bool cpus[16];
	int i;

	(void)state;
	assert_int_equal(pmu_parse_cpu_list("0-3,8,10-11\n", cpus, 16), 7);
	for (i = 0; i < 16; i++)
		assert_int_equal(cpus[i], (i <= 3) || i == 8 || i == 10 || i == 11);

	/* The array is cleared first. */
	assert_int_equal(pmu_parse_cpu_list(" \t5 \n", cpus, 16), 1);
	for (i = 0; i < 16; i++)
		assert_int_equal(cpus[i], i == 5);

	/* Overlaps count once. */
	assert_int_equal(pmu_parse_cpu_list("0-3,2-5,4", cpus, 16), 6);
	assert_int_equal(pmu_parse_cpu_list("0-15", cpus, 16), 16);
	assert_int_equal(pmu_parse_cpu_list("15", cpus, 16), 1);
	assert_true(cpus[15]);
	assert_int_equal(pmu_parse_cpu_list("3-3", cpus, 16), 1);
	/* An empty mask prints as an empty line. */
	assert_int_equal(pmu_parse_cpu_list("\n", cpus, 16), 0);
	for (i = 0; i < 16; i++)
		assert_false(cpus[i]);
}

static void test_cpu_list_garbage(void **state)
{
	static const char *const bad[] = {
		"a",   "0-3,",	",1",	"1,,2",	 "1-",
		"-1",  "3-1",	"0-16", "16",	 "0x3",
		"1 2", "1 - 2", "+1",	"0-3:1", "99999999999999999999999",
	};
	bool cpus[16];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(cpus, 1, sizeof(cpus));
		if (pmu_parse_cpu_list(bad[i], cpus, 16) != -EINVAL)
			fail_msg("cpu list '%s' was accepted", bad[i]);
		/* Nothing half-parsed is left behind. */
		if (memchr(cpus, 1, sizeof(cpus)))
			fail_msg("cpu list '%s' left cpus set", bad[i]);
	}
}

/* Trees made on the fly, for the cases the fixtures do not cover. */
struct tree {
	char root[64];
};

static void put(struct tree *t, const char *rel, const char *text)
{
	char path[PATH_MAX], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	for (p = path + strlen(t->root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("failed to mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	assert_int_equal(fclose(f), 0);
}

static void drop(struct tree *t, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	assert_int_equal(unlink(path), 0);
}

#define CPU "sys/bus/event_source/devices/cpu/"

/* A core PMU with slots and all of L1 and L2, all CPUs 0-3 online. */
static int tree_setup(void **state)
{
	static const char *const td[] = { "0x4",  "0x80", "0x81", "0x82", "0x83",
					  "0x84", "0x85", "0x86", "0x87" };
	struct tree *t = calloc(1, sizeof(*t));
	char rel[128], text[64];
	int i;

	if (!t)
		return -1;
	strcpy(t->root, "/tmp/tdtrace-pmu-XXXXXX");
	if (!mkdtemp(t->root))
		return -1;
	put(t, CPU "type", "4");
	put(t, CPU "format/event", "config:0-7");
	put(t, CPU "format/umask", "config:8-15");
	put(t, CPU "events/cpu-cycles", "event=0x3c");
	for (i = 0; i < TD_NR_ROLES; i++) {
		snprintf(rel, sizeof(rel), CPU "events/%s", pmu_event_names[i]);
		snprintf(text, sizeof(text), "event=0x00,umask=%s", td[i]);
		put(t, rel, text);
	}
	put(t, "sys/devices/system/cpu/online", "0-3");
	*state = t;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	int err = nftw(t->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);

	free(t);
	return err;
}

static void test_tree_full(void **state)
{
	struct pmu_info *info = discover_ok(((struct tree *)*state)->root);

	/* No /proc/cpuinfo: unknown, not an error. */
	assert_int_equal(info->level, 2);
	assert_int_equal(info->nr_cpus, 4);
	assert_string_equal(info->vendor, "");
	assert_string_equal(info->model, "");
	assert_int_equal(info->format.nr, 2);
	free(info);
}

static void test_tree_partial_l2(void **state)
{
	struct tree *t = *state;
	struct pmu_info *info;

	drop(t, CPU "events/topdown-fetch-lat");
	drop(t, CPU "events/topdown-mem-bound");
	info = discover_ok(t->root);
	assert_int_equal(info->level, 1);
	assert_true(info->events[TD_HEAVY_OPS].present);
	assert_false(info->events[TD_MEM_BOUND].present);
	assert_int_equal(info->nr_cpus, 4);
	free(info);
}

static void test_tree_missing_l1(void **state)
{
	struct tree *t = *state;
	struct pmu_info *info;

	drop(t, CPU "events/topdown-be-bound");
	info = discover_ok(t->root);
	assert_int_equal(info->level, 0);
	assert_non_null(strstr(info->why, "topdown-be-bound"));
	assert_non_null(strstr(info->why, "cpu"));
	assert_null(strstr(info->why, "slots"));
	assert_null(strstr(info->why, "retiring"));
	/* Everything else is still reported. */
	assert_int_equal(info->type, 4);
	assert_true(info->events[TD_SLOTS].present);
	assert_int_equal(info->nr_cpus, 4);
	free(info);
}

static void test_tree_no_topdown(void **state)
{
	struct tree *t = *state;
	struct pmu_info *info;
	int i;

	/* A Skylake-like PMU: ordinary events only. */
	for (i = 0; i < TD_NR_ROLES; i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), CPU "events/%s", pmu_event_names[i]);
		drop(t, rel);
	}
	info = discover_ok(t->root);
	assert_int_equal(info->level, 0);
	assert_string_equal(info->name, "cpu");
	assert_non_null(strstr(info->why, "PMU cpu"));
	assert_non_null(strstr(info->why, "Ice Lake"));
	free(info);
}

static void test_tree_bad_event(void **state)
{
	struct tree *t = *state;
	struct pmu_info *info;

	put(t, CPU "events/topdown-retiring", "event=0x00,umask=0x80,frob=1");
	info = discover_ok(t->root);
	assert_int_equal(info->level, 0);
	assert_false(info->events[TD_RETIRING].present);
	assert_non_null(strstr(info->why, "topdown-retiring"));
	assert_non_null(strstr(info->why, "frob"));
	free(info);
}

static void test_tree_no_online(void **state)
{
	struct tree *t = *state;
	struct pmu_info *info;

	drop(t, "sys/devices/system/cpu/online");
	info = discover_ok(t->root);
	assert_int_equal(info->level, 0);
	assert_int_equal(info->nr_cpus, 0);
	assert_non_null(strstr(info->why, "online"));
	free(info);
}

static void test_tree_pmu_cpus(void **state)
{
	struct tree *t = *state;
	struct pmu_info *info;

	/* The PMU covers 2-5, of which 2-3 are online. */
	put(t, CPU "cpus", "2-5");
	info = discover_ok(t->root);
	assert_int_equal(info->level, 2);
	assert_int_equal(info->nr_cpus, 2);
	assert_false(info->cpus[1]);
	assert_true(info->cpus[2]);
	assert_true(info->cpus[3]);
	assert_false(info->cpus[4]);
	free(info);

	/* None of them online. */
	put(t, CPU "cpus", "8-9");
	info = discover_ok(t->root);
	assert_int_equal(info->level, 0);
	assert_int_equal(info->nr_cpus, 0);
	assert_true(info->why[0] != '\0');
	free(info);

	/* Garbage in cpus. */
	put(t, CPU "cpus", "two");
	info = discover_ok(t->root);
	assert_int_equal(info->level, 0);
	assert_non_null(strstr(info->why, "cpus"));
	free(info);
}

static void test_tree_bad_type(void **state)
{
	struct tree *t = *state;
	struct pmu_info *info;

	put(t, CPU "type", "four");
	info = discover_ok(t->root);
	assert_int_equal(info->level, 0);
	assert_non_null(strstr(info->why, "type"));
	free(info);
}

static void test_tree_cpuinfo(void **state)
{
	struct tree *t = *state;
	struct pmu_info *info;

	/* "model" must not be taken for "model name"; blanks are trimmed. */
	put(t, "proc/cpuinfo",
	    "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 143\n"
	    "model name\t:   Some  CPU   \nflags\t\t: fpu\n\n"
	    "processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Other CPU\n");
	info = discover_ok(t->root);
	assert_string_equal(info->vendor, "GenuineIntel");
	assert_string_equal(info->model, "Some  CPU");
	free(info);
}

/* Formatting a cpu set and parsing it back gives the same set. */
static void test_format_cpu_list(void **state)
{
	static const char *const lists[] = { "0", "0-3", "0-3,8", "1,3,5-7,16-23", "7" };
	static bool cpus[64], back[64];
	char buf[128];
	(void)state;

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		int n = pmu_parse_cpu_list(lists[i], cpus, 64);

		assert_int_equal(pmu_format_cpu_list(cpus, 64, buf, sizeof(buf)), n);
		assert_string_equal(buf, lists[i]);
		assert_int_equal(pmu_parse_cpu_list(buf, back, 64), n);
		assert_memory_equal(back, cpus, sizeof(cpus));
	}
	memset(cpus, 0, sizeof(cpus));
	assert_int_equal(pmu_format_cpu_list(cpus, 64, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	/* Too small a buffer is reported, not silently cut. */
	pmu_parse_cpu_list("0,2,4,6,8,10", cpus, 64);
	assert_int_equal(pmu_format_cpu_list(cpus, 64, buf, 5), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_cpu_list),
		cmocka_unit_test(test_event_names),
		cmocka_unit_test(test_icelake),
		cmocka_unit_test(test_sapphirerapids),
		cmocka_unit_test(test_alderlake),
		cmocka_unit_test(test_vm),
		cmocka_unit_test(test_root_trailing_slash),
		cmocka_unit_test(test_missing_root),
		cmocka_unit_test(test_parse_format),
		cmocka_unit_test(test_parse_format_garbage),
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_encode_errors),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_cpu_list_garbage),
		cmocka_unit_test_setup_teardown(test_tree_full, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_partial_l2, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_missing_l1, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_no_topdown, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_bad_event, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_no_online, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_pmu_cpus, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_bad_type, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_cpuinfo, tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
