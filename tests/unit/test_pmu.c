// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs parsers of user/model/pmu_desc.c: format/ fields, events/
 * strings, cpu lists. Discovery itself is in test_pmu_discover.c.
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
#include "model/pmu_desc.h"

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
		cmocka_unit_test(test_parse_format),
		cmocka_unit_test(test_parse_format_garbage),
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_encode_errors),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_cpu_list_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
