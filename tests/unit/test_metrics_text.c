// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's pure parts: metric families in text 0.0.4 and OpenMetrics
 * 1.0 (exact lines), escaping, numbers that read back exactly; --listen's
 * [ADDR:]PORT; the exposition's grace period for quiet cgroups, and its
 * Kubernetes labels.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "cli/listen.h"
#include "model/counters.h"
#include "output/metrics_text.h"
#include "output/prometheus.h"
#include "k8s_report.h"

/* gcc 12 takes open_memstream's buffer, returned here, for a dangling local. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

static char *written(bool om, void (*fill)(struct metrics_text *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct metrics_text m;

	assert_non_null(f);
	metrics_begin(&m, f, om);
	fill(&m);
	metrics_end(&m);
	fclose(f);
	return buf;
}

static void families(struct metrics_text *m)
{
	metrics_family(m, "td_cpu_seconds", METRIC_COUNTER, "CPU time\nof \\ a cgroup", "seconds");
	metrics_sample(m, (const char *const[]){ "cgroup", "/a\"b\\c\nd", NULL }, 1.5);
	metrics_sample(m, NULL, 123456789012.0);
	metrics_family(m, "td_up", METRIC_GAUGE, "up", NULL);
	metrics_sample(m, NULL, NAN);
	metrics_family(m, "td_cgroup", METRIC_INFO, "what", NULL);
	metrics_sample(m, (const char *const[]){ "kind", "docker", "id", "ab", NULL }, 42);
}

static void test_text004(void **state)
{
	char *s = written(false, families);

	(void)state;
	assert_string_equal(s, "# HELP td_cpu_seconds_total CPU time\\nof \\\\ a cgroup\n"
			       "# TYPE td_cpu_seconds_total counter\n"
			       "td_cpu_seconds_total{cgroup=\"/a\\\"b\\\\c\\nd\"} 1.5\n"
			       "td_cpu_seconds_total 123456789012\n"
			       "# HELP td_up up\n"
			       "# TYPE td_up gauge\n"
			       "td_up NaN\n"
			       "# HELP td_cgroup_info what\n"
			       "# TYPE td_cgroup_info gauge\n"
			       "td_cgroup_info{kind=\"docker\",id=\"ab\"} 1\n");
	free(s);
}

static void test_openmetrics(void **state)
{
	char *s = written(true, families);

	(void)state;
	assert_string_equal(s, "# TYPE td_cpu_seconds counter\n"
			       "# UNIT td_cpu_seconds seconds\n"
			       "# HELP td_cpu_seconds CPU time\\nof \\\\ a cgroup\n"
			       "td_cpu_seconds_total{cgroup=\"/a\\\"b\\\\c\\nd\"} 1.5\n"
			       "td_cpu_seconds_total 123456789012\n"
			       "# TYPE td_up gauge\n"
			       "# HELP td_up up\n"
			       "td_up NaN\n"
			       "# TYPE td_cgroup info\n"
			       "# HELP td_cgroup what\n"
			       "td_cgroup_info{kind=\"docker\",id=\"ab\"} 1\n"
			       "# EOF\n");
	free(s);
}

/* Names from the system are any bytes; the scrape must stay UTF-8. */
static void odd_names(struct metrics_text *m)
{
	metrics_family(m, "x", METRIC_GAUGE, "x", NULL);
	metrics_sample(m, (const char *const[]){ "cgroup", "/tt-\xff", NULL }, 1);
	/* A cut sequence, an overlong '/', a surrogate, then valid é and € */
	metrics_sample(m,
		       (const char *const[]){
			       "comm", "a\xe2\x82\xc0\xaf\xed\xa0\x80\xc3\xa9\xe2\x82\xac", NULL },
		       2);
	metrics_sample(m, (const char *const[]){ "comm", "\"\\\n\xff", NULL }, 3);
}

static void test_label_utf8(void **state)
{
	for (int om = 0; om < 2; om++) {
		char *s = written(om, odd_names);

		assert_non_null(strstr(s, "x{cgroup=\"/tt-\xef\xbf\xbd\"} 1\n"));
		assert_non_null(strstr(
			s, "x{comm=\"a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			   "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9\xe2\x82\xac\"} 2\n"));
		assert_non_null(strstr(s, "x{comm=\"\\\"\\\\\\n\xef\xbf\xbd\"} 3\n"));
		free(s);
	}
}

/* 0.1 + 0.2 needs 17 digits to read back; 0.5 needs one. */
static void one_number(struct metrics_text *m)
{
	metrics_family(m, "x", METRIC_GAUGE, "x", NULL);
	metrics_sample(m, NULL, 0.1 + 0.2);
	metrics_sample(m, NULL, 0.5);
	metrics_sample(m, NULL, -INFINITY);
}

static void test_numbers(void **state)
{
	char *s = written(false, one_number);

	(void)state;
	assert_non_null(strstr(s, "x 0.30000000000000004\nx 0.5\nx -Inf\n"));
	assert_true(strtod(strstr(s, "x 0.3") + 2, NULL) == 0.1 + 0.2);
	free(s);
	assert_true(metrics_valid_name("tdtrace_slots:rate1m", false));
	assert_false(metrics_valid_name("tdtrace_slots:rate1m", true));
	assert_false(metrics_valid_name("1abc", false));
	assert_false(metrics_valid_name("a-b", false));
}

static void test_listen(void **state)
{
	char host[64];
	unsigned int port;

	(void)state;
	assert_int_equal(listen_parse("9466", host, sizeof(host), &port), 0);
	assert_string_equal(host, "127.0.0.1");
	assert_int_equal(port, 9466);
	assert_int_equal(listen_parse("0.0.0.0:80", host, sizeof(host), &port), 0);
	assert_string_equal(host, "0.0.0.0");
	assert_int_equal(port, 80);
	assert_int_equal(listen_parse("[::1]:9466", host, sizeof(host), &port), 0);
	assert_string_equal(host, "::1");
	assert_int_equal(listen_parse(":9466", host, sizeof(host), &port), 0);
	assert_string_equal(host, "127.0.0.1");
	assert_int_equal(listen_parse("localhost:9466", host, sizeof(host), &port), 0);
	assert_string_equal(host, "127.0.0.1");
	/* Host names are not case-sensitive. */
	assert_int_equal(listen_parse("LocalHost:9466", host, sizeof(host), &port), 0);
	assert_string_equal(host, "127.0.0.1");
	for (const char *bad = "0\0"
			       "65536\0"
			       "x\0"
			       "::1:80\0"
			       "[::1]80\0"
			       "1.2.3.4:\0"
			       "1.2.3.4:-1\0"
			       "foo:80\0"
			       "localhost.example:80\0"
			       "\0";
	     *bad || bad[1]; bad += strlen(bad) + 1)
		if (!listen_parse(bad, host, sizeof(host), &port))
			fail_msg("'%s' accepted", bad);
}

/* A cgroup whose slices stop moving leaves after the grace period, and comes back if they move. */
static void test_grace(void **state)
{
	struct counter_set cs;
	struct report_config cfg = { .counters = &cs };
	struct td_counts c = { .slices = 5 };
	struct row row = { .c = &c, .cgroup = "/gone", .cgroup_id = 7, .m = { .slots = 2e9 } };
	struct td_cpu_totals totals = { 0 };
	struct report r = { .cfg = &cfg, .cgroups = &row, .nr_cgroups = 1, .totals = &totals };
	const struct report *reports[] = { &r };
	struct exposition x;
	char *buf = NULL;
	size_t len;
	FILE *f;

	(void)state;
	counters_software(&cs);
	exposition_init(&x, 60, 0, false);
	assert_int_equal(exposition_update(&x, reports, 1, 100), 0);
	assert_int_equal(exposition_update(&x, reports, 1, 150), 0); /* quiet 50 s: kept */
	f = open_memstream(&buf, &len);
	exposition_write(&x, f, false, reports, 1, 150);
	fclose(f);
	assert_non_null(strstr(buf,
			       "tdtrace_cpu_seconds_total{cgroup=\"/gone\",namespace=\"\",pod=\"\","
			       "container=\"\"} 2\n"));
	free(buf);
	assert_int_equal(exposition_update(&x, reports, 1, 161), 0); /* quiet 61 s: gone */
	f = open_memstream(&buf, &len);
	exposition_write(&x, f, false, reports, 1, 161);
	fclose(f);
	assert_null(strstr(buf, "cgroup=\"/gone\""));
	free(buf);
	c.slices = 6; /* it moved: back */
	assert_int_equal(exposition_update(&x, reports, 1, 170), 0);
	f = open_memstream(&buf, &len);
	exposition_write(&x, f, false, reports, 1, 170);
	fclose(f);
	assert_non_null(strstr(buf, "cgroup=\"/gone\""));
	free(buf);
	exposition_free(&x);
}

/* The exposition (text 0.0.4) of @k's report, as a scrape at 100 s would get it. */
static char *exposed(struct k8s_report *k)
{
	const struct report *reports[] = { &k->r };
	struct exposition x;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	exposition_init(&x, 300, 0, false);
	assert_int_equal(exposition_update(&x, reports, 1, 100), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	exposition_write(&x, f, false, reports, 1, 100);
	assert_int_equal(fclose(f), 0);
	exposition_free(&x);
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void assert_has(const char *s, const char *line)
{
	if (!strstr(s, line))
		fail_msg("no line %s in:\n%s", line, s);
}

#define NGINX	KR_P1 "/cri-containerd-" KR_CA ".scope"
#define SANDBOX KR_P1 "/cri-containerd-" KR_CS ".scope"

/* Every per-cgroup series, and tdtrace_cgroup_info, carries namespace, pod and container. */
static void test_k8s_labels(void **state)
{
	struct k8s_report k;
	char *s;

	(void)state;
	for (int containers = 0; containers < 2; containers++) {
		kr_build(&k, false, containers, GROUP_CONTAINER, "shop", "api");
		s = exposed(&k);
		/* cgroup index 3 of 6: 4000 slots, L1 40/10/20/30 %, L2 16/6/12/18 % */
		assert_has(s, "tdtrace_slots_total{cgroup=\"" NGINX
			      "\",namespace=\"shop\",pod=\"web\","
			      "container=\"nginx\"} 4000\n");
		assert_has(s,
			   "tdtrace_topdown_slots_total{cgroup=\"" NGINX "\",namespace=\"shop\","
			   "pod=\"web\",container=\"nginx\",level=\"1\",node=\"retiring\"} 1600\n");
		assert_int_equal(count(s, "tdtrace_topdown_slots_total{cgroup=\"" NGINX
					  "\",namespace=\"shop\",pod=\"web\",container=\"nginx\","
					  "level=\""),
				 4 + 8);
		assert_has(s, "tdtrace_slots_total{cgroup=\"" SANDBOX "\",namespace=\"shop\","
			      "pod=\"web\",container=\"POD\"} 5000\n");
		/* The pod's own cgroup: its own slots, or its subtree's in the tree. */
		assert_has(s, containers ? "tdtrace_slots_total{cgroup=\"" KR_P1
					   "\",namespace=\"shop\","
					   "pod=\"web\",container=\"\"} 3000\n"
					 : "tdtrace_slots_total{cgroup=\"" KR_P1
					   "\",namespace=\"shop\","
					   "pod=\"web\",container=\"\"} 12000\n");
		assert_has(s, "tdtrace_slots_total{cgroup=\"" KR_SSHD "\",namespace=\"\",pod=\"\","
			      "container=\"\"} 2000\n");
		assert_has(s, "tdtrace_topdown_slots_total{cgroup=\"" KR_SSHD "\",namespace=\"\","
			      "pod=\"\",container=\"\",level=\"2\",node=\"");
		assert_has(s, "tdtrace_cgroup_info{cgroup=\"" NGINX
			      "\",namespace=\"shop\",pod=\"web\","
			      "container=\"nginx\",kind=\"containerd\",id=\"" KR_CA
			      "\",pod_uid=\"" KR_UID1 "\",name=\"shop/web/nginx\"} 1\n");
		assert_has(s, "tdtrace_cgroup_info{cgroup=\"" SANDBOX "\",namespace=\"shop\","
			      "pod=\"web\",container=\"POD\",kind=\"containerd\",id=\"" KR_CS
			      "\",pod_uid=\"" KR_UID1 "\",name=\"shop/web/POD\"} 1\n");
		assert_has(s, "tdtrace_cgroup_info{cgroup=\"" KR_P1
			      "\",namespace=\"shop\",pod=\"web\","
			      "container=\"\",kind=\"pod\",id=\"" KR_UID1 "\",pod_uid=\"" KR_UID1
			      "\",name=\"shop/web\"} 1\n");
		assert_has(s, "tdtrace_cgroup_info{cgroup=\"" KR_SSHD "\",namespace=\"\",pod=\"\","
			      "container=\"\",kind=\"unit\",id=\"sshd.service\",pod_uid=\"\","
			      "name=\"unit:sshd.service\"} 1\n");
		if (!containers) /* an ancestor, in the tree */
			assert_has(s,
				   "tdtrace_slots_total{cgroup=\"/kubepods.slice\",namespace=\"\","
				   "pod=\"\",container=\"\"} 18000\n");
		free(s);
		kr_free(&k);
	}

	kr_build(&k, true, true, GROUP_CONTAINER, "shop", "api");
	s = exposed(&k);
	assert_has(s,
		   "tdtrace_cpu_seconds_total{cgroup=\"" NGINX "\",namespace=\"shop\",pod=\"web\","
		   "container=\"nginx\"} 0.004\n");
	assert_has(s, "tdtrace_cpu_seconds_total{cgroup=\"" KR_SSHD "\",namespace=\"\",pod=\"\","
		      "container=\"\"} 0.002\n");
	free(s);
	kr_free(&k);
}

/* --group-by: a rolled-up row is cgroup="", with its pod's or namespace's labels. */
static void test_k8s_rolled_up(void **state)
{
	struct k8s_report k;
	char *s;

	(void)state;
	kr_build(&k, false, true, GROUP_POD, "shop", "api");
	s = exposed(&k);
	assert_has(s,
		   "tdtrace_slots_total{cgroup=\"\",namespace=\"shop\",pod=\"web\",container=\"\"} "
		   "12000\n");
	assert_has(s,
		   "tdtrace_slots_total{cgroup=\"\",namespace=\"shop\",pod=\"api\",container=\"\"} "
		   "6000\n");
	assert_has(s, "tdtrace_topdown_slots_total{cgroup=\"\",namespace=\"shop\",pod=\"web\","
		      "container=\"\",level=\"1\",node=\"retiring\"} 4800\n");
	assert_has(s,
		   "tdtrace_cgroup_info{cgroup=\"\",namespace=\"shop\",pod=\"web\",container=\"\","
		   "kind=\"pod\",id=\"" KR_UID1 "\",pod_uid=\"" KR_UID1
		   "\",name=\"shop/web\"} 1\n");
	assert_has(s, "tdtrace_slots_total{cgroup=\"" KR_SSHD "\",namespace=\"\",pod=\"\","
		      "container=\"\"} 2000\n");
	assert_null(strstr(s, "cgroup=\"" NGINX "\""));
	assert_null(strstr(s, "[id "));
	free(s);
	kr_free(&k);

	kr_build(&k, true, true, GROUP_NAMESPACE, "shop", "api");
	s = exposed(&k);
	assert_has(s, "tdtrace_cpu_seconds_total{cgroup=\"\",namespace=\"shop\",pod=\"\","
		      "container=\"\"} 0.018\n");
	assert_has(s, "tdtrace_cgroup_info{cgroup=\"\",namespace=\"shop\",pod=\"\",container=\"\","
		      "kind=\"none\",id=\"\",pod_uid=\"\",name=\"shop\"} 1\n");
	free(s);
	kr_free(&k);
}

/* promtool's lint of @text: NULL if clean or promtool is missing (said once), else its words. */
static char *promtool(const char *text)
{
	static bool said;
	char path[] = "/tmp/tdtrace-metrics-XXXXXX", cmd[128], *out = NULL;
	size_t len = 0;
	FILE *f, *p;
	int fd, st;

	if (system("command -v promtool >/dev/null 2>&1")) {
		if (!said)
			print_message("promtool part skipped: promtool is not installed "
				      "(Debian: prometheus)\n");
		said = true;
		return NULL;
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	f = open_memstream(&out, &len);
	for (int c; (c = fgetc(p)) != EOF;)
		fputc(c, f);
	fclose(f);
	st = pclose(p);
	unlink(path);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* Names are any bytes: quotes, backslash, newline, invalid UTF-8 come out escaped. */
static void test_k8s_hostile_names(void **state)
{
	static const char pod[] = "we\"b\\x\ny\xff", ns[] = "n\"s\\";
	static const char pod_out[] = "we\\\"b\\\\x\\ny\xef\xbf\xbd", ns_out[] = "n\\\"s\\\\";
	char want[512], *s, *lint;

	(void)state;
	for (int by = GROUP_CONTAINER; by <= GROUP_NAMESPACE; by++) {
		struct k8s_report k;

		kr_build(&k, false, true, by, ns, pod);
		s = exposed(&k);
		if (by == GROUP_CONTAINER) {
			snprintf(want, sizeof(want),
				 "tdtrace_slots_total{cgroup=\"%s\",namespace=\"%s\",pod=\"%s\","
				 "container=\"app\"} 6000\n",
				 KR_P2 "/cri-containerd-" KR_CC ".scope", ns_out, pod_out);
			assert_has(s, want);
			snprintf(want, sizeof(want), "name=\"%s/%s/app\"} 1\n", ns_out, pod_out);
			assert_has(s, want);
		}
		if (by == GROUP_POD) {
			snprintf(want, sizeof(want),
				 "tdtrace_slots_total{cgroup=\"\",namespace=\"%s\",pod=\"%s\","
				 "container=\"\"} 6000\n",
				 ns_out, pod_out);
			assert_has(s, want);
		}
		/* Every line is a comment or a sample of ours: no raw newline got through. */
		for (const char *line = s; *line; line = strchr(line, '\n') + 1)
			assert_true(line[0] == '#' || !strncmp(line, "tdtrace_", 8));
		lint = promtool(s);
		if (lint)
			fail_msg("promtool check metrics (group-by %d): %s\n%s", by, lint, s);
		free(s);
		kr_free(&k);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text004),
		cmocka_unit_test(test_openmetrics),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_label_utf8),
		cmocka_unit_test(test_listen),
		cmocka_unit_test(test_grace),
		cmocka_unit_test(test_k8s_labels),
		cmocka_unit_test(test_k8s_rolled_up),
		cmocka_unit_test(test_k8s_hostile_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
