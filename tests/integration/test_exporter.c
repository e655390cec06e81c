// SPDX-License-Identifier: GPL-2.0
/*
 * tdtrace --listen, for real, on loopback: build/tdtrace --software serves
 * /metrics; curl asks it as a scraper would (text 0.0.4, OpenMetrics when
 * Accept says so, HEAD, a POST refused with 405 and Allow, 404 elsewhere,
 * a client that connects and says nothing does not hold up another);
 * promtool check metrics accepts the body; a spinner's exported CPU time
 * matches /proc/PID/schedstat; and a real Prometheus server, started here
 * on 127.0.0.1 with its own config and data directory, scrapes it until
 * its query API returns the series, also for a cgroup and a process whose
 * names are not UTF-8. 40 idle connections do not keep scrapes out; a
 * query of 600 arguments gets 414 at once. --listen localhost:PORT
 * serves, another name is a usage error; a port in use is refused with
 * one line and exit 1. Needs root and BPF; each tool missing skips its
 * part with the reason. Everything is bounded in time and stopped at the
 * end.
 */
#include "itest.h"
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define START_MS 5000
#define END_MS	 5000
#define PROM_MS	 40000 /* Prometheus starts, scrapes every second, answers */

static struct itest_proc td, load, prom, named;
static char tmpdir[] = "/tmp/tdtrace-prom-XXXXXX";

static int setup(void **state)
{
	itest_proc_init(&td);
	itest_proc_init(&load);
	itest_proc_init(&prom);
	itest_proc_init(&named);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	itest_proc_release(&prom);
	itest_proc_release(&td);
	itest_proc_release(&load);
	itest_proc_release(&named);
	if (strcmp(tmpdir + strlen(tmpdir) - 6, "XXXXXX")) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			print_message("could not remove %s\n", tmpdir);
	}
	itest_cleanup();
	return 0;
}

/* tdtrace started with @args and counting, or the test skipped with the reason it cannot run. */
static void start(const char *const args[])
{
	char skip[512], error[512];
	int code = itest_tdtrace_start(&td, 0, START_MS, args);

	if (code == -ECHILD) {
		if (itest_early_exit(&td, skip, sizeof(skip), error, sizeof(error)))
			itest_skip("%s", skip);
		fail_msg("%s", error);
	}
	assert_int_equal(code, 0);
}

/* Run a shell command; its stdout (caller frees) and exit status. */
static char *sh(const char *cmd, int *status)
{
	char *out = NULL;
	size_t len = 0;
	FILE *p = popen(cmd, "r"), *m = open_memstream(&out, &len);
	int c;

	assert_non_null(p);
	assert_non_null(m);
	while ((c = fgetc(p)) != EOF)
		fputc(c, m);
	*status = pclose(p);
	fclose(m);
	return out;
}

static bool have(const char *tool)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null", tool);
	return !system(cmd);
}

/* The value of the first sample of @series in @body, or NAN. */
static double sample(const char *body, const char *series)
{
	const char *p = strstr(body, series);

	return p ? strtod(p + strlen(series), NULL) : NAN;
}

/* promtool's lint accepts what @url/metrics serves (skipped without promtool). */
static void promtool_check(const char *url)
{
	char cmd[256], *body;
	int status;

	if (!have("promtool")) {
		print_message(
			"SKIP promtool part: promtool is not installed (Debian: prometheus)\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "curl -s -m 5 %s/metrics | promtool check metrics", url);
	body = sh(cmd, &status);
	if (status)
		fail_msg("promtool check metrics: %s", body);
	free(body);
}

static void test_scrapes(void **state)
{
	char *spin_argv[] = { (char *)itest_helper_path("spin"), "-w", "1.0", NULL };
	char listen[32], url[96], cmd[512], series[128];
	const char *args[] = { "--software", "--listen", listen, "--listen-processes",
			       "5",	     "-I",	 "200",	 NULL };
	uint64_t spun_ns = 0, base_ns = 0;
	char *body, *out, *err;
	int status, port = itest_free_port(), code, idle;
	double got;

	itest_require_root();
	if (!have("curl"))
		itest_skip("curl is not installed (Debian: curl)");
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	assert_int_equal(itest_spawn(&load, spin_argv, ITEST_STDIN_PIPE), 0);
	start(args);
	assert_int_equal(itest_schedstat_ns(load.pid, &base_ns), 0);
	assert_int_equal(write(load.in_pipe, "g", 1), 1);
	if (itest_wait_nowait(&load, 20000))
		fail_msg("spin did not end");
	assert_int_equal(itest_schedstat_ns(load.pid, &spun_ns), 0);
	itest_sleep_ms(600); /* a few intervals: the metrics hold all of it */

	/* Text 0.0.4 by default, with its Content-Type. */
	snprintf(cmd, sizeof(cmd), "curl -s -m 5 -D - %s/metrics", url);
	body = sh(cmd, &status);
	assert_int_equal(status, 0);
	assert_non_null(strstr(body, "HTTP/1.1 200"));
	assert_non_null(strstr(body, "Content-Type: text/plain; version=0.0.4; charset=utf-8"));
	assert_non_null(strstr(body, "# TYPE tdtrace_cpu_seconds_total counter"));
	assert_null(strstr(body, "# EOF"));
	snprintf(series, sizeof(series), "tdtrace_process_cpu_seconds_total{pid=\"%d\",",
		 (int)load.pid);
	got = sample(strstr(body, series) ? strstr(body, series) : "", "} ");
	if (isnan(got))
		fail_msg("no %s... in /metrics:\n%s", series, body);
	print_message("spin: exported %.6f s, schedstat %.6f s\n", got, (spun_ns - base_ns) / 1e9);
	if (fabs(got - (spun_ns - base_ns) / 1e9) > 0.02 * (spun_ns - base_ns) / 1e9)
		fail_msg("the spinner's exported CPU time is off by more than 2%%");
	free(body);

	/* OpenMetrics when asked, ending in # EOF. */
	snprintf(cmd, sizeof(cmd),
		 "curl -s -m 5 -D - -H 'Accept: application/openmetrics-text; version=1.0.0' "
		 "%s/metrics",
		 url);
	body = sh(cmd, &status);
	assert_non_null(strstr(
		body, "Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8"));
	assert_non_null(strstr(body, "# TYPE tdtrace_cpu_seconds counter"));
	assert_non_null(strstr(body, "# UNIT tdtrace_cpu_seconds seconds"));
	assert_non_null(strstr(body, "\n# EOF\n"));
	free(body);

	/* HEAD, a method refused, a path not there, the landing page. */
	snprintf(cmd, sizeof(cmd), "curl -s -m 5 -I %s/metrics", url);
	body = sh(cmd, &status);
	assert_non_null(strstr(body, "HTTP/1.1 200"));
	free(body);
	snprintf(cmd, sizeof(cmd), "curl -s -m 5 -D - -o /dev/null -X POST %s/metrics", url);
	body = sh(cmd, &status);
	assert_non_null(strstr(body, "HTTP/1.1 405"));
	assert_non_null(strstr(body, "Allow: GET, HEAD"));
	free(body);
	snprintf(cmd, sizeof(cmd), "curl -s -m 5 -o /dev/null -w '%%{http_code}' %s/nope", url);
	body = sh(cmd, &status);
	assert_string_equal(body, "404");
	free(body);
	snprintf(cmd, sizeof(cmd), "curl -s -m 5 %s/", url);
	body = sh(cmd, &status);
	assert_non_null(strstr(body, "href=\"/metrics\""));
	free(body);

	/* A client that connects and says nothing does not hold up a scrape. */
	{
		struct sockaddr_in a = { .sin_family = AF_INET,
					 .sin_port = htons(port),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };

		idle = socket(AF_INET, SOCK_STREAM, 0);
		assert_int_equal(connect(idle, (struct sockaddr *)&a, sizeof(a)), 0);
		snprintf(cmd, sizeof(cmd),
			 "curl -s -m 3 -o /dev/null -w '%%{http_code}' %s/metrics", url);
		body = sh(cmd, &status);
		assert_string_equal(body, "200");
		free(body);
		close(idle);
	}

	promtool_check(url);

	code = itest_signal_and_wait(&td, SIGTERM, END_MS);
	out = itest_stdout(&td);
	err = itest_stderr(&td);
	if (code != 0)
		fail_msg("exit %d after SIGTERM; stderr: %s", code, err);
	/* --listen alone prints nothing on stdout. */
	assert_string_equal(out, "");
	free(out);
	free(err);
}

/* Ask Prometheus at @prom_addr for @query; the first sample's value, or NAN. */
static double prom_query(const char *prom_addr, const char *query)
{
	char cmd[1024], *body, *v;
	double value = NAN;
	int status;

	snprintf(cmd, sizeof(cmd), "curl -s -m 2 -G 'http://%s/api/v1/query' --data-urlencode '%s'",
		 prom_addr, query);
	body = sh(cmd, &status);
	v = strstr(body, "\"value\":[");
	if (v && (v = strchr(v, ',')) && v[1] == '"')
		value = strtod(v + 2, NULL);
	free(body);
	return value;
}

/* Wait until Prometheus at @prom_addr has a sample for @query, or fail. */
static double prom_wait(const char *prom_addr, const char *query)
{
	long long end = itest_now_ms() + PROM_MS;
	double got;

	while (isnan(got = prom_query(prom_addr, query)))
		if (itest_now_ms() > end)
			fail_msg("Prometheus has no %s after %d ms", query + 6, PROM_MS);
		else
			itest_sleep_ms(500);
	return got;
}

/*
 * A real Prometheus scrapes it every second; a busy loop runs 2 s of CPU
 * in a cgroup of its own; then the series Prometheus holds for that cgroup
 * agrees with the cgroup's cpu.stat within 2%. The cgroup's name is not
 * UTF-8 and a process is named with '"', '\\', a newline and a stray
 * byte: their series are there under U+FFFD, the target stays up, and
 * promtool passes the scrape.
 */
static void test_prometheus_scrapes(void **state)
{
	char listen[32], cfg[256], prom_addr[32], cg[PATH_MAX], query[PATH_MAX + 64], url[64];
	const char *args[] = { "--software", "--listen", listen, "--listen-processes",
			       "50",	     "-I",	 "100",	 NULL };
	char *prom_argv[8], flag_cfg[300], flag_data[300], flag_web[64];
	char *spin_argv[] = { NULL, "-w", "2.0", NULL };
	char namer[PATH_MAX + 64], *namer_argv[] = { namer, "a\"b\\c\nd\xff", "60000", NULL };
	int port = itest_free_port(), prom_port = itest_free_port(), code;
	uint64_t usage0 = 0, usage1 = 0;
	char rel[PATH_MAX];
	double got = NAN;
	long long end;
	FILE *f;

	itest_require_root();
	/* Its path is in a static buffer, as spin's is: copied before spin's is made. */
	snprintf(namer, sizeof(namer), "%s", itest_helper_path("namer"));
	spin_argv[0] = (char *)itest_helper_path("spin");
	if (access("/usr/bin/prometheus", X_OK) || !have("curl"))
		itest_skip("prometheus or curl is not installed (Debian: prometheus, curl)");
	if (itest_cgroup_make("tdtrace-prom-\xff", cg, sizeof(cg)))
		itest_skip("no cgroup v2 to make a test cgroup in");
	/*
	 * Its path as exported has U+FFFD for the stray byte, which PromQL's
	 * lexer refuses in a string: a regex's '.' stands for it.
	 */
	snprintf(rel, sizeof(rel), "/tdtrace-prom-.%s", strrchr(cg, '-'));
	assert_non_null(mkdtemp(tmpdir));
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	snprintf(cfg, sizeof(cfg), "%s/prometheus.yml", tmpdir);
	f = fopen(cfg, "w");
	assert_non_null(f);
	fprintf(f,
		"global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
		"scrape_configs:\n  - job_name: tdtrace\n    static_configs:\n"
		"      - targets: ['127.0.0.1:%d']\n",
		port);
	fclose(f);
	/*
	 * The oddly named process runs (outside the cgroup) until the end;
	 * started first, so that tdtrace sees it by its name, not as "namer".
	 */
	assert_int_equal(itest_spawn(&named, namer_argv, ITEST_STDIN_PIPE), 0);
	start(args);
	snprintf(flag_cfg, sizeof(flag_cfg), "--config.file=%s", cfg);
	snprintf(flag_data, sizeof(flag_data), "--storage.tsdb.path=%s/data", tmpdir);
	snprintf(prom_addr, sizeof(prom_addr), "127.0.0.1:%d", prom_port);
	snprintf(flag_web, sizeof(flag_web), "--web.listen-address=%s", prom_addr);
	prom_argv[0] = "/usr/bin/prometheus";
	prom_argv[1] = flag_cfg;
	prom_argv[2] = flag_data;
	prom_argv[3] = flag_web;
	prom_argv[4] = NULL;
	assert_int_equal(itest_spawn(&prom, prom_argv, 0), 0);
	assert_int_equal(write(named.in_pipe, "g", 1), 1);

	/* The busy loop, in its cgroup, from a known cpu.stat. */
	assert_int_equal(itest_spawn(&load, spin_argv, ITEST_STDIN_PIPE), 0);
	assert_int_equal(itest_cgroup_move(cg, load.pid), 0);
	assert_int_equal(itest_cgroup_usage_usec(cg, &usage0), 0);
	assert_int_equal(write(load.in_pipe, "g", 1), 1);
	if (itest_wait_nowait(&load, 20000))
		fail_msg("spin did not end");
	assert_int_equal(itest_cgroup_usage_usec(cg, &usage1), 0);
	snprintf(query, sizeof(query), "query=tdtrace_cpu_seconds_total{cgroup=~\"%s\"}", rel);
	/* Flat from now: wait until Prometheus's latest sample holds all of it. */
	end = itest_now_ms() + PROM_MS;
	for (;;) {
		got = prom_query(prom_addr, query);
		if (!isnan(got) &&
		    fabs(got - (usage1 - usage0) / 1e6) <= 0.02 * (usage1 - usage0) / 1e6)
			break;
		if (itest_now_ms() > end)
			fail_msg("Prometheus has %s = %.6f s; the cgroup's cpu.stat says %.6f s "
				 "(not within 2%% after %d ms)",
				 query + 6, got, (usage1 - usage0) / 1e6, PROM_MS);
		itest_sleep_ms(500);
	}
	print_message("Prometheus: %s %.6f s, cpu.stat %.6f s (%+.2f%%)\n", rel, got,
		      (usage1 - usage0) / 1e6,
		      100 * (got - (usage1 - usage0) / 1e6) / ((usage1 - usage0) / 1e6));

	/* The process's series, its comm as a regex ('.': the backslash, U+FFFD). */
	snprintf(query, sizeof(query),
		 "query=tdtrace_process_cpu_seconds_total{pid=\"%d\",comm=~\"a\\\"b.c\\nd.\"}",
		 (int)named.pid);
	got = prom_wait(prom_addr, query);
	print_message("Prometheus: the namer's CPU time %.3f s\n", got);
	assert_true(prom_wait(prom_addr, "query=up{job=\"tdtrace\"}") == 1);
	snprintf(url, sizeof(url), "http://%s", listen);
	promtool_check(url);
	code = itest_signal_and_wait(&td, SIGTERM, END_MS);
	assert_int_equal(code, 0);
	assert_int_equal(itest_cgroup_remove(cg), 0);
}

/* Bytes to 127.0.0.1:@port, then what comes back within @wait_ms ("" if nothing). */
static char *raw_request(int port, const char *bytes, size_t len, int wait_ms)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { .tv_sec = wait_ms / 1000, .tv_usec = wait_ms % 1000 * 1000 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	char *reply = calloc(1, 4096);
	ssize_t n, got = 0;

	assert_non_null(reply);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (len)
		n = send(fd, bytes, len, MSG_NOSIGNAL);
	while ((n = recv(fd, reply + got, 4095 - got, 0)) > 0)
		got += n;
	close(fd);
	return reply;
}

/*
 * Hostile clients: garbage, a request far over the size bound, and one
 * that never finishes its request. Each gets an error or is dropped, and
 * collection goes on meanwhile (intervals keep coming on stdout).
 */
static void test_hostile_clients(void **state)
{
	char listen[32], *big, *reply, *out;
	const char *args[] = { "--software", "--json", "--listen", listen, "-I", "100", NULL };
	int port = itest_free_port(), code, before, after;
	size_t n = 64 << 10;

	itest_require_root();
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	start(args);
	out = itest_stdout(&td);
	before = itest_count_lines(out);
	free(out);

	reply = raw_request(port, "GARBAGE\r\n\r\n", 11, 3000);
	print_message("garbage: '%.40s'\n", reply);
	/* An error status, or the connection closed: never served. */
	assert_true(!*reply || strstr(reply, "HTTP/1.1 400"));
	free(reply);

	big = malloc(n + 64);
	assert_non_null(big);
	memcpy(big, "GET /metrics HTTP/1.1\r\nX-Big: ", 31);
	memset(big + 31, 'a', n);
	memcpy(big + 31 + n, "\r\n\r\n", 4);
	reply = raw_request(port, big, n + 35, 3000);
	print_message("oversize: %.40s\n", reply);
	assert_true(!*reply || strstr(reply, "HTTP/1.1 431") || strstr(reply, "HTTP/1.1 413") ||
		    strstr(reply, "HTTP/1.1 400"));
	assert_null(strstr(reply, "HTTP/1.1 200"));
	free(reply);
	free(big);

	/* A query of 600 arguments: 414 at once, not silence for the server's timeout. */
	{
		char uri[1024] = "GET /metrics?";
		long long t0 = itest_now_ms();

		memset(uri + strlen(uri), '&', 600);
		strcat(uri, " HTTP/1.1\r\nHost: x\r\n\r\n");
		reply = raw_request(port, uri, strlen(uri), 3000);
		print_message("600 arguments: '%.30s' after %lld ms\n", reply, itest_now_ms() - t0);
		assert_non_null(strstr(reply, "HTTP/1.1 414"));
		assert_true(itest_now_ms() - t0 < 2000);
		free(reply);
	}

	/* Half a request, then nothing: dropped after the server's timeout (10 s), not served. */
	reply = raw_request(port, "GET /metrics HTTP/1.1\r\nHost:", 29, 12000);
	assert_null(strstr(reply, "HTTP/1.1 200"));
	free(reply);

	out = itest_stdout(&td);
	after = itest_count_lines(out);
	free(out);
	print_message("JSON lines before the hostile clients %d, after %d\n", before, after);
	if (after <= before + 20)
		fail_msg("collection stalled while the hostile clients were served");
	code = itest_signal_and_wait(&td, SIGTERM, END_MS);
	assert_int_equal(code, 0);
}

/* A socket to 127.0.0.1:@port, connecting (non-blocking), or -1. */
static int open_to(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) && errno != EINPROGRESS) {
		close(fd);
		fd = -1;
	}
	return fd;
}

#define IDLE_CONNS  40
#define MAX_CONNS   80 /* above libmicrohttpd's limit of 64 */
#define SCRAPES	    10
#define SCRAPE_MS   3000
#define MAX_REOPENS 200000 /* bounds the reconnecting, whatever the server does */

struct idlers {
	int fd[MAX_CONNS];
	int n; /* connections held */
	int port, reopened;
	/*
	 * Refused clients: each connection sends @hello once it is open (a
	 * request line the server refuses), then a byte every 500 ms, which
	 * keeps a connection from timing out. NULL: idle clients send nothing.
	 */
	const char *hello;
	bool said[MAX_CONNS];
	bool eof[MAX_CONNS]; /* the server shut its side: held on all the same */
	long long trickled;
};

/*
 * Keep every idle connection open for @ms: one the server closed is
 * opened again at once. With @scraper >= 0, stop early when it has sent
 * something back: true then.
 */
static bool hold_idle(struct idlers *h, int ms, int scraper)
{
	long long end = itest_now_ms() + ms;
	struct pollfd pfd[MAX_CONNS + 1];
	char buf[256];

	while (itest_now_ms() < end) {
		bool trickle = h->hello && itest_now_ms() - h->trickled >= 500;

		for (int i = 0; i < h->n; i++) {
			if (h->fd[i] < 0 && h->reopened < MAX_REOPENS) {
				h->fd[i] = open_to(h->port);
				h->said[i] = h->eof[i] = false;
				h->reopened++;
			}
			/* Closed for good (reset, or both sides shut): open another. */
			if (trickle && h->said[i] && h->fd[i] >= 0 &&
			    send(h->fd[i], "a", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 &&
			    errno != EAGAIN) {
				close(h->fd[i]);
				h->fd[i] = -1;
			}
			pfd[i] = (struct pollfd){ .fd = h->fd[i],
						  .events =
							  (h->eof[i] ? 0 : POLLIN) |
							  (h->hello && !h->said[i] ? POLLOUT : 0) };
		}
		if (trickle)
			h->trickled = itest_now_ms();
		pfd[h->n] = (struct pollfd){ .fd = scraper, .events = POLLIN };
		if (poll(pfd, h->n + 1, 50) <= 0)
			continue;
		if (scraper >= 0 && pfd[h->n].revents)
			return true;
		for (int i = 0; i < h->n; i++) {
			if ((pfd[i].revents & POLLOUT) && !h->said[i])
				h->said[i] = send(h->fd[i], h->hello, strlen(h->hello),
						  MSG_NOSIGNAL | MSG_DONTWAIT) > 0;
			if (!(pfd[i].revents & ~POLLOUT) ||
			    recv(h->fd[i], buf, sizeof(buf), MSG_DONTWAIT) > 0)
				continue;
			/* A refused client ignores the server's end of file, as an attacker would.
			 */
			if (h->hello && !(pfd[i].revents & (POLLERR | POLLHUP))) {
				h->eof[i] = true;
				continue;
			}
			close(h->fd[i]); /* closed by the server (or refused) */
			h->fd[i] = -1;
		}
	}
	return false;
}

/*
 * @conns connections from 127.0.0.1, opened again as soon as the server drops
 * one, that send nothing (@hello NULL) or a request the server refuses
 * and then a byte now and then: a scrape from 127.0.0.1 still gets its
 * 200 (9 of 10 within 3 s each).
 */
static void flood(const char *hello, int conns)
{
	static const char get[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
				  "Connection: close\r\n\r\n";
	char listen[32], reply[64];
	const char *args[] = { "--software", "--listen", listen, "-I", "200", NULL };
	struct idlers h = { .port = itest_free_port(), .hello = hello, .n = conns };
	int served = 0, code;

	itest_require_root();
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", h.port);
	start(args);
	for (int i = 0; i < h.n; i++)
		h.fd[i] = -1;
	hold_idle(&h, 1000, -1);
	for (int n = 0; n < SCRAPES; n++) {
		long long t0 = itest_now_ms();
		int fd = open_to(h.port);
		struct pollfd out = { .fd = fd, .events = POLLOUT };
		ssize_t got = 0;

		assert_true(fd >= 0);
		if (poll(&out, 1, SCRAPE_MS) == 1 &&
		    send(fd, get, sizeof(get) - 1, MSG_NOSIGNAL) > 0 &&
		    hold_idle(&h, SCRAPE_MS - (int)(itest_now_ms() - t0), fd))
			got = recv(fd, reply, sizeof(reply) - 1, MSG_DONTWAIT);
		reply[got > 0 ? got : 0] = '\0';
		if (got >= 12 && !memcmp(reply, "HTTP/1.1 200", 12))
			served++;
		else
			print_message("scrape %d: '%.12s' (%zd: %s) after %lld ms\n", n, reply, got,
				      got < 0 ? strerror(errno) : "-", itest_now_ms() - t0);
		close(fd);
		hold_idle(&h, 100, -1);
	}
	for (int i = 0; i < h.n; i++)
		if (h.fd[i] >= 0)
			close(h.fd[i]);
	print_message("%d of %d scrapes served among %d %s connections (%d opened)\n", served,
		      SCRAPES, h.n, hello ? "refused" : "idle", h.reopened);
	if (served < SCRAPES - 1)
		fail_msg("only %d of %d scrapes served", served, SCRAPES);
	code = itest_signal_and_wait(&td, SIGTERM, END_MS);
	assert_int_equal(code, 0);
}

static void test_idle_flood(void **state)
{
	flood(NULL, IDLE_CONNS);
}

/*
 * Requests of too many query arguments are answered 414 and half shut;
 * 70 clients keep theirs open with a byte every 500 ms: more than
 * libmicrohttpd's 64 slots, which they must not fill.
 */
static void test_refused_flood(void **state)
{
	static char hello[512];
	size_t n = snprintf(hello, sizeof(hello), "GET /metrics?");

	for (int i = 0; i < 70 && n + 3 < sizeof(hello); i++)
		n += snprintf(hello + n, sizeof(hello) - n, "a&");
	snprintf(hello + n, sizeof(hello) - n, " HTTP/1.1\r\nX-Slow: ");
	flood(hello, 70);
}

/*
 * --listen localhost:PORT serves on 127.0.0.1; another name is a usage
 * error (exit 2, one line), as a bad port is, before anything is counted.
 */
static void test_listen_names(void **state)
{
	char listen[48], cmd[128], *body, *err;
	const char *args[] = { "--software", "--listen", listen, "-I", "200", NULL };
	int port = itest_free_port(), status;

	itest_require_root();
	if (!have("curl"))
		itest_skip("curl is not installed (Debian: curl)");
	snprintf(listen, sizeof(listen), "localhost:%d", port);
	start(args);
	snprintf(cmd, sizeof(cmd),
		 "curl -s -m 5 -o /dev/null -w '%%{http_code}' http://127.0.0.1:%d/metrics", port);
	body = sh(cmd, &status);
	assert_string_equal(body, "200");
	free(body);
	assert_int_equal(itest_signal_and_wait(&td, SIGTERM, END_MS), 0);
	itest_proc_release(&td);

	snprintf(listen, sizeof(listen), "no-such-host.invalid:%d", port);
	assert_int_equal(itest_tdtrace_run(&td, 0, END_MS, args), 0);
	err = itest_stderr(&td);
	if (itest_exit_code(&td) != 2 || !strstr(err, "no-such-host.invalid") ||
	    !itest_one_error_line(err))
		fail_msg("exit %d, stderr '%s' (want 2 and one line naming the address)",
			 itest_exit_code(&td), err);
	free(err);
}

/* A port in use: one line, exit 1, before anything is counted. */
static void test_port_in_use(void **state)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char addr[32], want[96];
	const char *args[] = { "--software", "--listen", addr, NULL };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), code;
	char *out, *err;

	itest_require_root();
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, 1), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	snprintf(addr, sizeof(addr), "%d", ntohs(a.sin_port));
	code = itest_tdtrace_run(&td, 0, END_MS, args);
	assert_int_equal(code, 0);
	out = itest_stdout(&td);
	err = itest_stderr(&td);
	snprintf(want, sizeof(want),
		 "tdtrace: failed to listen on 127.0.0.1:%d: ", ntohs(a.sin_port));
	if (itest_exit_code(&td) != 1 || !strstr(err, want) || !itest_one_error_line(err))
		fail_msg("exit %d, stderr '%s' (want 1 and '%s...')", itest_exit_code(&td), err,
			 want);
	assert_null(strstr(err, "counting"));
	free(out);
	free(err);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_scrapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prometheus_scrapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_clients, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_flood, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_flood, setup, teardown),
		cmocka_unit_test_setup_teardown(test_listen_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_port_in_use, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
