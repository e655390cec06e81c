/* SPDX-License-Identifier: GPL-2.0 */
/* --listen's value: "[ADDR:]PORT", "[::1]:PORT". Pure. */
#ifndef TD_LISTEN_H
#define TD_LISTEN_H

#include <stddef.h>

/*
 * Parse @addr_port into @host (brackets removed; "127.0.0.1" when no ADDR
 * is given or it is "localhost") and @port (1-65535). 0, or -EINVAL, also
 * for an ADDR that is not a numeric IPv4 or IPv6 address.
 */
int listen_parse(const char *addr_port, char *host, size_t size, unsigned int *port);

#endif /* TD_LISTEN_H */
