// SPDX-License-Identifier: GPL-2.0
/* The exporter's HTTP side on libmicrohttpd. See http.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include "cli/listen.h"
#include "exporter/http.h"
#include "model/plan.h"
#include "output/metrics_text.h"

/*
 * Connections. Scrapers are few, but every local client shares 127.0.0.1,
 * so a limit per address or a long wait for idle clients would let any
 * user hold the slots. Instead, when LIVE_LIMIT connections are open, a
 * new one makes the oldest idle one (no request being answered, none
 * waiting in its socket) close: a scraper sends its request at once and
 * is never the oldest idle one, however many idle connections are held.
 * libmicrohttpd's own limit is far above ours, for those closing
 * meanwhile: at that limit it refuses connections before we see them, so
 * clients that reconnect at once must never reach it (EXPORTER_FILES).
 */
#define LIVE_LIMIT	 16
#define CONNECTION_LIMIT EXPORTER_FILES
#define TIMEOUT_S	 10	    /* a client that sends nothing is dropped */
#define MEMORY_LIMIT	 (16 << 10) /* per connection: bounds the request's size */
/*
 * Each query argument costs a record in that memory: past about 250,
 * libmicrohttpd has none left even for its error response and answers
 * nothing. A scraper sends none or a few.
 */
#define MAX_QUERY_ARGS	 64

/* One open connection. Used only on libmicrohttpd's one thread. */
struct peer {
	int fd;		       /* -1: a free slot */
	bool busy;	       /* a request is being answered */
	bool closing;	       /* told to close: no longer counted */
	bool refused;	       /* answered 414, its write side shut: the first to go */
	struct timespec since; /* opened, or its last request answered */
};

struct exporter {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock; /* the bodies: written by the interval loop, read by scrapes */
	char *body[2];	      /* [0]: text 0.0.4, [1]: OpenMetrics */
	size_t len[2];
	struct peer peers[CONNECTION_LIMIT];
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

static struct peer *peer_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

static bool before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Idle: no request being answered, and nothing sent that is still to be read. */
static bool idle(const struct peer *p)
{
	char c;

	return !p->busy && recv(p->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) <= 0;
}

/* libmicrohttpd closes a connection whose socket is shut down, at its next poll. */
static void drop(struct peer *p)
{
	p->closing = true;
	shutdown(p->fd, SHUT_RDWR);
}

/* A connection opened or closed: keep the table, and make room as the top comment says. */
static void notify(void *cls, struct MHD_Connection *conn, void **ctx,
		   enum MHD_ConnectionNotificationCode code)
{
	struct exporter *e = cls;
	const union MHD_ConnectionInfo *ci;
	struct peer *p = NULL, *oldest = NULL, *refused = NULL;
	int live = 0;

	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (*ctx)
			((struct peer *)*ctx)->fd = -1;
		return;
	}
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	for (int i = 0; i < CONNECTION_LIMIT; i++) {
		struct peer *q = &e->peers[i];

		if (q->fd < 0) {
			p = p ? p : q;
			continue;
		}
		if (q->closing)
			continue;
		live++;
		/* Refused, but kept open by a client that trickles bytes: counted, and first out.
		 */
		if (q->refused)
			refused = refused ? refused : q;
		else if (idle(q) && (!oldest || before(&q->since, &oldest->since)))
			oldest = q;
	}
	if (!ci || !p)
		return; /* not ours to count (libmicrohttpd's limit is the table's size) */
	*p = (struct peer){ .fd = ci->connect_fd };
	clock_gettime(CLOCK_MONOTONIC, &p->since);
	*ctx = p;
	/* Who goes: a refused one, else the oldest idle one, else the newcomer. */
	if (live >= LIVE_LIMIT)
		drop(refused ? refused : oldest ? oldest : p);
}

/* A request answered (or failed): its connection is idle from now. */
static void completed(void *cls, struct MHD_Connection *conn, void **req,
		      enum MHD_RequestTerminationCode toe)
{
	struct peer *p = peer_of(conn);

	if (p) {
		p->busy = false;
		clock_gettime(CLOCK_MONOTONIC, &p->since);
	}
}

/*
 * The request line is read: a query of too many arguments is answered 414
 * here, on the socket, as libmicrohttpd could not (see MAX_QUERY_ARGS),
 * and its connection closed. Nothing else is on the socket yet.
 */
static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
	static const char too_long[] = "HTTP/1.1 414 URI Too Long\r\nConnection: close\r\n"
				       "Content-Length: 0\r\n\r\n";
	struct peer *p = peer_of(conn);
	int args = 1;

	for (const char *q = strchr(uri, '?'); q && *q; q++)
		args += *q == '&';
	/* A request from now on: its bytes may all be read, it is no idle client. */
	if (p)
		p->busy = true;
	if (p && args > MAX_QUERY_ARGS) {
		send(p->fd, too_long, sizeof(too_long) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
		/*
		 * Only the write side: a full shutdown could reset the connection
		 * before the client reads the answer. Its slot stays counted, so
		 * that such connections held open cannot fill libmicrohttpd's.
		 */
		p->refused = true;
		shutdown(p->fd, SHUT_WR);
	}
	return NULL;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **req)
{
	struct exporter *e = cls;
	static const char not_found[] = "Not found: try /metrics\n";
	static const char not_allowed[] = "Only GET and HEAD\n";
	struct peer *p = peer_of(conn);
	enum MHD_Result ret;
	int om;

	if (p) /* headers read: a request, no longer an idle client */
		p->busy = true;

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
	for (int i = 0; i < CONNECTION_LIMIT; i++)
		e->peers[i].fd = -1;
	errno = 0;
	e->daemon = MHD_start_daemon(
		flags, (uint16_t)port, NULL, NULL, handle, e, MHD_OPTION_SOCK_ADDR,
		(struct sockaddr *)&ss, MHD_OPTION_CONNECTION_LIMIT, (unsigned int)CONNECTION_LIMIT,
		MHD_OPTION_NOTIFY_CONNECTION, notify, e, MHD_OPTION_NOTIFY_COMPLETED, completed, e,
		MHD_OPTION_URI_LOG_CALLBACK, uri_seen, e, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned int)TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)MEMORY_LIMIT,
		MHD_OPTION_END);
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
