// SPDX-License-Identifier: GPL-2.0
/* Intervals, stop signals, and the end of COMMAND or of the -p processes. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include "host/ticker.h"
#include "cli/say.h"

static volatile sig_atomic_t exiting, exiting_by_kill, child_exited;

static void on_signal(int sig, siginfo_t *info, void *ucontext)
{
	exiting = sig;
	/* kill(1) and friends (si_code <= 0), not the terminal, which signals COMMAND too. */
	exiting_by_kill = info->si_code <= 0;
}

static void on_sigchld(int sig)
{
	child_exited = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void ticker_hold_signals(struct ticker *tk)
{
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };
	sigset_t blocked;

	/*
	 * Blocked first, from the start: a stop signal during start-up waits
	 * until the first sleep, and the run then ends at once with its
	 * summary, like any stop, rather than killing tdtrace half set up.
	 * Output writes are never cut short by EINTR either.
	 */
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGTERM);
	sigaddset(&blocked, SIGHUP);
	sigaddset(&blocked, SIGCHLD);
	sigprocmask(SIG_BLOCK, &blocked, &tk->unblocked);
	/* The sleep lets them in even if tdtrace was started with them blocked. */
	sigdelset(&tk->unblocked, SIGINT);
	sigdelset(&tk->unblocked, SIGTERM);
	sigdelset(&tk->unblocked, SIGHUP);
	sigdelset(&tk->unblocked, SIGCHLD);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* the terminal went away: stop with a summary */
	signal(SIGPIPE, SIG_IGN);     /* a closed stdout or FIFO shows as EPIPE from fflush */
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP; /* a stopped COMMAND has not exited */
	sigaction(SIGCHLD, &sa, NULL);
}

void ticker_start(struct ticker *tk, unsigned int interval_ms, double duration_s, int hotplug_fd)
{
	tk->hotplug_fd = hotplug_fd;
	tk->hotplug_ready = false;
	tk->interval_s = interval_ms / 1000.0;
	tk->start = tk->last_read = tk->deadline = now();
	tk->end = duration_s > 0 ? tk->start + duration_s : 0;
	tk->command_status = 0;
	tk->forwarded = 0;
}

/*
 * Sleep until @deadline, or until a -p pidfd turns readable (a process
 * exited), or a signal arrives (EINTR): the caller then looks at the
 * flags and the pidfds.
 */
static void sleep_until(struct ticker *tk, double deadline, const struct targets *t)
{
	struct pollfd fds[TD_MAX_PIDS + 1];
	double left = deadline - now();
	struct timespec ts;
	int nfds = 0;

	if (left <= 0)
		return;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - (time_t)left) * 1e9);
	for (int i = 0; i < t->nr_pids; i++)
		if (t->pidfds[i] >= 0)
			fds[nfds++] = (struct pollfd){ .fd = t->pidfds[i], .events = POLLIN };
	if (tk->hotplug_fd >= 0)
		fds[nfds++] = (struct pollfd){ .fd = tk->hotplug_fd, .events = POLLIN };
	/* Signals are delivered only here: none slips in between a flag check and the sleep. */
	if (ppoll(fds, nfds, &ts, &tk->unblocked) > 0 && tk->hotplug_fd >= 0 &&
	    (fds[nfds - 1].revents & POLLIN))
		tk->hotplug_ready = true;
}

/* The shell's convention: the exit code, or 128 + the signal that killed it. */
static int command_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* True if COMMAND has ended (its status is kept). */
static bool command_ended(struct ticker *tk, struct targets *t)
{
	int status;

	if (t->cmd.pid <= 0 || waitpid(t->cmd.pid, &status, WNOHANG) != t->cmd.pid)
		return false;
	t->cmd.pid = -1;
	tk->command_status = command_status(status);
	return true;
}

enum tick ticker_wait(struct ticker *tk, struct targets *t)
{
	for (;;) {
		double wake;

		/* The next boundary; those missed while output was blocked are skipped. */
		tk->deadline += tk->interval_s;
		if (tk->deadline < now())
			tk->deadline +=
				ceil((now() - tk->deadline) / tk->interval_s) * tk->interval_s;
		wake = tk->end && tk->deadline > tk->end ? tk->end : tk->deadline;
		while (now() < wake - 1e-4 && !exiting && !child_exited && !targets_all_exited(t) &&
		       !tk->hotplug_ready)
			sleep_until(tk, wake, t);
		if (t->cmd.pid > 0 && child_exited) {
			child_exited = 0;
			if (command_ended(tk, t))
				return TICK_STOP; /* the command is done: the summary covers the
						     rest */
			tk->deadline -= tk->interval_s;
			continue;
		}
		if (exiting && t->cmd.pid > 0) {
			/* SIGINT/SIGTERM: pass it on (unless the terminal did), stop with COMMAND.
			 */
			if (exiting_by_kill && tk->forwarded != exiting)
				kill(t->cmd.pid, exiting);
			tk->forwarded = exiting;
			exiting = 0;
			tk->deadline -= tk->interval_s;
			continue;
		}
		if (exiting)
			return TICK_STOP; /* interrupted: the summary covers the rest */
		if (targets_all_exited(t)) {
			say(stderr, "every process given with -p has exited");
			return TICK_STOP;
		}
		if (targets_cgroups_gone(t)) {
			say(stderr, "every cgroup given with -c was removed");
			return TICK_STOP;
		}
		if (tk->hotplug_ready) {
			tk->hotplug_ready = false;
			if (now() < wake - 1e-4) {
				tk->deadline -= tk->interval_s; /* the same boundary, next call */
				return TICK_HOTPLUG;
			}
		}
		return TICK_READ;
	}
}

double ticker_read(struct ticker *tk, double *elapsed, bool *done)
{
	/* Durations are measured, not planned: a late read covers more time. */
	double t = now(), covered = t - tk->last_read;

	tk->last_read = t;
	*elapsed = t - tk->start;
	*done = tk->end && t >= tk->end - 1e-4;
	return covered;
}

void ticker_reap(struct ticker *tk, struct targets *t)
{
	/* -d may end just as COMMAND does: take its status rather than kill it. */
	command_ended(tk, t);
}

double ticker_elapsed(const struct ticker *tk)
{
	return now() - tk->start;
}
