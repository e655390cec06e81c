// SPDX-License-Identifier: GPL-2.0
/* The exporter's HTTP side on libmicrohttpd. See http.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <microhttpd.h>
#include "cli/listen.h"
#include "exporter/http.h"
#include "output/metrics_text.h"

#define CONNECTION_LIMIT 16 /* scrapers are few; a flood is refused, not queued */
#define PER_IP_LIMIT	 8
#define TIMEOUT_S	 10	    /* a client that sends nothing is dropped */
#define MEMORY_LIMIT	 (16 << 10) /* per connection: bounds the request's size */

struct exporter {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock; /* the bodies: written by the interval loop, read by scrapes */
	char *body[2];	      /* [0]: text 0.0.4, [1]: OpenMetrics */
	size_t len[2];
};

static const char landing[] =
	"<!DOCTYPE html>\n<html><head><title>tdtrace</title></head><body>\n"
	"<h1>tdtrace</h1>\n<p>TopDown per cgroup, from the CPU's counters read at every "
	"context switch.</p>\n<p><a href=\"/metrics\">Metrics</a></p>\n</body></html>\n";

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status, const char *type,
			     const char *body, size_t len, const char *allow)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", type);
	if (allow)
		MHD_add_response_header(r, "Allow", allow);
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* Does the scraper ask for OpenMetrics (Prometheus does when it can)? */
static int wants_openmetrics(struct MHD_Connection *conn)
{
	const char *accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Accept");

	return accept && strstr(accept, "application/openmetrics-text");
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **req)
{
	struct exporter *e = cls;
	static const char not_found[] = "Not found: try /metrics\n";
	static const char not_allowed[] = "Only GET and HEAD\n";
	enum MHD_Result ret;
	int om;

	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
			     not_allowed, sizeof(not_allowed) - 1, "GET, HEAD");
	if (!strcmp(url, "/"))
		return reply(conn, MHD_HTTP_OK, "text/html; charset=utf-8", landing,
			     sizeof(landing) - 1, NULL);
	if (strcmp(url, "/metrics"))
		return reply(conn, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8", not_found,
			     sizeof(not_found) - 1, NULL);
	om = wants_openmetrics(conn);
	pthread_mutex_lock(&e->lock);
	ret = reply(conn, MHD_HTTP_OK, om ? METRICS_OPENMETRICS : METRICS_TEXT_004,
		    e->body[om] ? e->body[om] : "", e->len[om], NULL);
	pthread_mutex_unlock(&e->lock);
	return ret;
}

int exporter_start(const char *addr_port, struct exporter **out, char *err, size_t errlen)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD, port; /* errors: ours, one line */
	struct exporter *e;
	char host[64];

	*out = NULL;
	if (listen_parse(addr_port, host, sizeof(host), &port)) {
		snprintf(err, errlen, "invalid address '%s' for --listen: expected [ADDR:]PORT",
			 addr_port);
		return -EINVAL;
	}
	if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons(port);
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		flags |= MHD_USE_IPv6;
	} else {
		snprintf(err, errlen, "invalid address '%s' for --listen: ADDR must be numeric",
			 host);
		return -EINVAL;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	pthread_mutex_init(&e->lock, NULL);
	errno = 0;
	e->daemon = MHD_start_daemon(
		flags, (uint16_t)port, NULL, NULL, handle, e, MHD_OPTION_SOCK_ADDR,
		(struct sockaddr *)&ss, MHD_OPTION_CONNECTION_LIMIT, (unsigned int)CONNECTION_LIMIT,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)PER_IP_LIMIT,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)TIMEOUT_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)MEMORY_LIMIT, MHD_OPTION_END);
	if (!e->daemon) {
		int saved = errno ? errno : EADDRINUSE;

		snprintf(err, errlen, "failed to listen on %s%s%s:%u: %s",
			 ss.ss_family == AF_INET6 ? "[" : "", host,
			 ss.ss_family == AF_INET6 ? "]" : "", port, strerror(saved));
		pthread_mutex_destroy(&e->lock);
		free(e);
		return -saved;
	}
	*out = e;
	return 0;
}

int exporter_publish(void *ctx, const char *text004, size_t len004, const char *openmetrics,
		     size_t len_om)
{
	struct exporter *e = ctx;
	char *a = malloc(len004 + 1), *b = malloc(len_om + 1);

	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	memcpy(a, text004, len004);
	memcpy(b, openmetrics, len_om);
	pthread_mutex_lock(&e->lock);
	free(e->body[0]);
	free(e->body[1]);
	e->body[0] = a;
	e->body[1] = b;
	e->len[0] = len004;
	e->len[1] = len_om;
	pthread_mutex_unlock(&e->lock);
	return 0;
}

void exporter_stop(struct exporter *e)
{
	if (!e)
		return;
	MHD_stop_daemon(e->daemon);
	free(e->body[0]);
	free(e->body[1]);
	pthread_mutex_destroy(&e->lock);
	free(e);
}
