// SPDX-License-Identifier: GPL-2.0
/* --listen's value. See listen.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli/listen.h"

static bool is_address(const char *host)
{
	struct in6_addr a;

	return inet_pton(AF_INET, host, &a) == 1 || inet_pton(AF_INET6, host, &a) == 1;
}

int listen_parse(const char *addr_port, char *host, size_t size, unsigned int *port)
{
	const char *colon, *p = addr_port;
	unsigned long v;
	char *end;
	size_t hl;

	if (!*p)
		return -EINVAL;
	if (*p == '[') { /* [IPv6]:PORT */
		const char *close = strchr(p, ']');

		if (!close || close[1] != ':')
			return -EINVAL;
		hl = close - p - 1;
		colon = close + 1;
		p++;
	} else {
		colon = strrchr(p, ':');
		hl = colon ? (size_t)(colon - p) : 0;
		if (colon && memchr(p, ':', hl))
			return -EINVAL; /* an IPv6 address needs brackets */
	}
	if (hl >= size)
		return -EINVAL;
	if (colon && hl) {
		memcpy(host, p, hl);
		host[hl] = '\0';
	} else {
		snprintf(host, size, "127.0.0.1");
	}
	/* The one name taken: no resolver, no choice between two addresses. */
	if (!strcasecmp(host, "localhost"))
		snprintf(host, size, "127.0.0.1");
	if (!is_address(host))
		return -EINVAL;
	p = colon ? colon + 1 : addr_port;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (errno || *end || v == 0 || v > 65535)
		return -EINVAL;
	*port = v;
	return 0;
}
