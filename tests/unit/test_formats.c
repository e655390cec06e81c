// SPDX-License-Identifier: GPL-2.0
/*
 * perf's and toplev's formats (user/output/perf_format.c, toplev_csv.c)
 * for a TopDown report made here with the testlake row: slots 5000,
 * retiring 2000, bad spec 500, fe 1000, be 1500 (40/10/20/30 %), heavy
 * 800, mispredict 300, fetch lat 600, mem 900 (L2 16/6/12/18 %), so every
 * expected value is that arithmetic. The machine line and a cgroup /a.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/perf_format.h"
#include "output/toplev_csv.h"
#include "testlake.h"

/* gcc 12 takes open_memstream's buffer, returned here, for a dangling local. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

static struct counter_set cs;
static struct td_decoding dec;
static struct report_config cfg;
static struct td_cpu_totals totals;
static struct row cg;
static struct report r;

static void build(void)
{
	static const __u64 v[] = { 5000, 2000, 500, 1000, 1500, 800, 300, 600, 900 };
	char err[128];

	assert_int_equal(testlake_counters(2, &cs), 0);
	assert_int_equal(td_decoding_init(&dec, &cs, false, err, sizeof(err)), 0);
	cfg = (struct report_config){ .counters = &cs, .decoding = &dec };
	memset(&totals, 0, sizeof(totals));
	memcpy(totals.all.count, v, sizeof(v));
	totals.all.enabled_ns[0] = totals.all.running_ns[0] = 1000;
	r = (struct report){ .cfg = &cfg, .totals = &totals, .elapsed_s = 2.0, .duration_s = 1.0 };
	td_decode(&dec, &totals.all, &r.system);
	cg = (struct row){ .c = &totals.all, .cgroup = "/a", .cgroup_id = 9, .m = r.system };
	r.cgroups = &cg;
	r.nr_cgroups = 1;
}

static char *made(int which)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	build();
	if (which == 0)
		output_perf_json(f, &r);
	else if (which == 1)
		output_perf_csv(f, &r, ",");
	else
		output_toplev_csv(f, &r, true);
	fclose(f);
	return buf;
}

static void test_perf_json(void **state)
{
	char *s = made(0);

	(void)state;
	/* A counter line per event, scaled counts as strings, perf's key order. */
	assert_non_null(strstr(s,
			       "{\"interval\" : 2.000000000, \"counter-value\" : \"5000.000000\", "
			       "\"unit\" : \"\", \"event\" : \"slots\", \"event-runtime\" : 1000, "
			       "\"pcnt-running\" : 100.00}\n"));
	/* Metrics as perf prints them: the value in percent, "%  name". */
	assert_non_null(strstr(s, "{\"interval\" : 2.000000000, \"metric-value\" : 40.000000, "
				  "\"metric-unit\" : \"%  tma_retiring\"}\n"));
	assert_non_null(strstr(s, "\"metric-value\" : 18.000000, \"metric-unit\" : \"%  "
				  "tma_memory_bound\"}\n"));
	/* A cgroup row: perf -G's place for the cgroup, after the event. */
	assert_non_null(strstr(s, "\"event\" : \"topdown-retiring\", \"cgroup\" : \"/a\", "));
	assert_non_null(strstr(s, "{\"interval\" : 2.000000000, \"cgroup\" : \"/a\", "
				  "\"metric-value\" : 20.000000, \"metric-unit\" : \"%  "
				  "tma_frontend_bound\"}\n"));
	free(s);
}

static void test_perf_csv(void **state)
{
	char *s = made(1);

	(void)state;
	assert_non_null(strstr(s, "     2.000000000,5000.00,,slots,1000,100.00,,\n"));
	/* Extra metrics: the earlier fields empty. */
	assert_non_null(strstr(s, "     2.000000000,,,,,,40.000,%  tma_retiring\n"));
	/* The cgroup column after the event. */
	assert_non_null(strstr(s, "     2.000000000,2000.00,,topdown-retiring,/a,1000,100.00,,\n"));
	assert_non_null(strstr(s, "     2.000000000,,,,,,,12.000,%  tma_fetch_latency\n"));
	free(s);
}

static void test_toplev_csv(void **state)
{
	char *s = made(2);

	(void)state;
	{
		static const char header[] = "Timestamp,CPUs,Area,Value,Unit,Description,Sample,"
					     "Stddev,Multiplex,Bottleneck,Idle\n";

		assert_int_equal(strncmp(s, header, strlen(header)), 0);
	}
	assert_non_null(strstr(s, "2.000000000,S0,Frontend_Bound,20.00,% Slots,,,,100.0,,\n"));
	assert_non_null(strstr(s, "2.000000000,S0,Retiring,40.00,% Slots,,,,100.0,,\n"));
	assert_non_null(
		strstr(s, "2.000000000,S0,Backend_Bound.Memory_Bound,18.00,% Slots,,,,100.0,,\n"));
	assert_non_null(
		strstr(s, "2.000000000,S0,Retiring.Light_Operations,24.00,% Slots,,,,100.0,,\n"));
	/* No node testlake lacks (SMT contention is AMD's). */
	assert_null(strstr(s, "SMT_Contention"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_json),
		cmocka_unit_test(test_perf_csv),
		cmocka_unit_test(test_toplev_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
