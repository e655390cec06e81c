// SPDX-License-Identifier: GPL-2.0
/* hotplug_parse: which uevents name a CPU going online or offline, and which CPU. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "host/hotplug.h"

/* A uevent as the kernel sends it: header, NUL, KEY=VALUE pairs. */
static int parse(const char *header)
{
	char msg[256];
	int len = snprintf(msg, sizeof(msg), "%s", header) + 1;

	len += snprintf(msg + len, sizeof(msg) - len, "ACTION=x") + 1;
	return hotplug_parse(msg, len);
}

static void test_cpu_events(void **state)
{
	(void)state;
	assert_int_equal(parse("online@/devices/system/cpu/cpu1"), 1);
	assert_int_equal(parse("offline@/devices/system/cpu/cpu17"), 17);
	assert_int_equal(parse("online@/devices/system/cpu/cpu0"), 0);
}

/* What is not a CPU going online or offline (seen here: cpuid's add/remove). */
static void test_others(void **state)
{
	(void)state;
	assert_int_equal(parse("add@/devices/virtual/cpuid/cpu1"), -1);
	assert_int_equal(parse("remove@/devices/virtual/cpuid/cpu1"), -1);
	assert_int_equal(parse("online@/devices/system/memory/memory7"), -1);
	assert_int_equal(parse("change@/devices/system/cpu/cpu1"), -1);
	assert_int_equal(parse("online@/devices/system/cpu/cpufreq"), -1);
	assert_int_equal(parse("online@/devices/system/cpu/cpu1x"), -1);
	assert_int_equal(parse("online@/devices/system/cpu/cpu"), -1);
	assert_int_equal(hotplug_parse("online@/devices/system/cpu/cpu1", 5), -1); /* no NUL */
	assert_int_equal(hotplug_parse("", 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_events),
		cmocka_unit_test(test_others),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
