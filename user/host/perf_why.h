/* SPDX-License-Identifier: GPL-2.0 */
/* What the kernel means by a perf_event_open() error, in words for a message. */
#ifndef TD_PERF_WHY_H
#define TD_PERF_WHY_H

/*
 * Why perf_event_open() of one of tdtrace's counters failed with @err (an
 * errno, positive), as the reason part of a one-line message: the cause
 * where the kernel's errno has a known one here, else strerror(@err).
 */
const char *perf_open_why(int err);

#endif /* TD_PERF_WHY_H */
