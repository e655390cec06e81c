/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tdtrace --listen: /metrics over HTTP, on libmicrohttpd (Debian's
 * libmicrohttpd12) rather than a server of our own: it handles the
 * protocol, slow and hostile clients, and runs on its own thread, so a
 * scrape never holds up the BPF collection. The caller publishes bodies
 * at each interval; a scrape serves the latest ones.
 */
#ifndef TD_HTTP_H
#define TD_HTTP_H

#include <stddef.h>

struct exporter;

/*
 * Listen on @addr_port ("[ADDR:]PORT", "[::1]:PORT"; ADDR defaults to
 * 127.0.0.1: another must be asked for). 0, or -errno with one line in
 * @err ("failed to listen on 127.0.0.1:9466: Address already in use").
 */
int exporter_start(const char *addr_port, struct exporter **out, char *err, size_t errlen);

/*
 * The bodies served from now on: the same metrics as text 0.0.4 and as
 * OpenMetrics 1.0 (a scraper asking for it in Accept gets that), for
 * exporter @e (void: it is render.c's metrics_sink). Copied. 0 or -ENOMEM.
 */
int exporter_publish(void *e, const char *text004, size_t len004, const char *openmetrics,
		     size_t len_om);

/* Stop serving and free everything. NULL is fine. */
void exporter_stop(struct exporter *e);

#endif /* TD_HTTP_H */
