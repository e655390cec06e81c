/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's clock: sleep to the next interval boundary, woken early by a
 * stop signal, COMMAND's exit or the exit of every -p process.
 */
#ifndef TD_TICKER_H
#define TD_TICKER_H

#include <signal.h>
#include <stdbool.h>
#include "host/targets.h"

struct ticker {
	double interval_s;
	double start, end;  /* CLOCK_MONOTONIC; end 0: no -d */
	double deadline;    /* the boundary being waited for */
	double last_read;   /* when the last interval was read */
	sigset_t unblocked; /* the mask ppoll sleeps with: stop signals come in there */
	int command_status; /* COMMAND's status once it ended, as a shell gives it */
	int forwarded;	    /* the stop signal last passed on to COMMAND */
	int hotplug_fd;	    /* CPU hotplug uevents (host/hotplug.h), or -1 */
	bool hotplug_ready; /* the sleep was cut short by one */
};

/* What woke ticker_wait. */
enum tick {
	TICK_STOP,    /* stop: a signal, COMMAND ended, every target gone */
	TICK_READ,    /* an interval boundary: read it */
	TICK_HOTPLUG, /* a CPU went online or offline: look, then wait on */
};

/*
 * First thing in main once the tracer is chosen: handle SIGINT, SIGTERM,
 * SIGHUP (stop with a summary) and SIGCHLD (COMMAND ended), ignore
 * SIGPIPE, and hold them blocked except while sleeping, even if they came
 * blocked from the parent. A stop during start-up takes effect at the
 * first sleep.
 */
void ticker_hold_signals(struct ticker *tk);

/*
 * Start the clock: intervals of @interval_ms, for @duration_s (0: until
 * stopped), woken early by @hotplug_fd (-1: none).
 */
void ticker_start(struct ticker *tk, unsigned int interval_ms, double duration_s, int hotplug_fd);

/*
 * Sleep until the next boundary: TICK_READ. TICK_STOP: a signal, COMMAND
 * ended, every -p process exited; the summary covers the rest. SIGINT and
 * SIGTERM sent to tdtrace are passed on to a running COMMAND, and tdtrace
 * then waits for it to end. TICK_HOTPLUG: a uevent on tk->hotplug_fd came
 * first; the next call waits for the same boundary.
 */
enum tick ticker_wait(struct ticker *tk, struct targets *t);

/* After an interval was read: seconds it covered; *done once -d is reached. */
double ticker_read(struct ticker *tk, double *elapsed, bool *done);

/* Once stopped: a COMMAND that ended just now still gives its status. */
void ticker_reap(struct ticker *tk, struct targets *t);

/* Seconds since the clock started. */
double ticker_elapsed(const struct ticker *tk);

#endif /* TD_TICKER_H */
