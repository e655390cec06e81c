// SPDX-License-Identifier: GPL-2.0
/* -o FILE: open early, truncate late, leave nothing half-made behind. */
#include <stdio.h>
#include <stdio_ext.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include "cli/options.h"
#include "output/file.h"
#include "cli/say.h"

/* Is a stop signal (held until the first sleep, see ticker_hold_signals) waiting? */
static bool stop_pending(void)
{
	sigset_t pending;

	if (sigpending(&pending))
		return false;
	return sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1 ||
	       sigismember(&pending, SIGHUP) == 1;
}

/*
 * Open @path for writing without blocking: O_NONBLOCK is what keeps a FIFO
 * with no reader from blocking open(2), deaf to Ctrl-C since stop signals
 * are held. While it has none, say so once and retry every 100 ms until a
 * reader comes (as `cat > FIFO` waits) or a stop signal arrives (-EINTR).
 * Writes then block as usual.
 */
static int open_nonblock(const char *path, int flags, mode_t mode)
{
	const struct timespec tick = { .tv_nsec = 100 * 1000 * 1000 };
	bool said = false;
	int fd;

	while ((fd = open(path, flags | O_NONBLOCK, mode)) < 0 && errno == ENXIO) {
		if (!said)
			say(stderr, "waiting for a reader of FIFO %s (Ctrl-C to stop)",
			    options_shown(path, (size_t)-1));
		said = true;
		if (stop_pending())
			return -EINTR;
		nanosleep(&tick, NULL);
	}
	if (fd < 0)
		return -errno;
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static int open_path(struct output_file *o, const char *path)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path) {
		o->f = stdout;
		return 0;
	}
	o->path = path;
	/* Close-on-exec: a COMMAND must not inherit it. Not O_TRUNC: see output_file_begin. */
	fd = open_nonblock(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		o->created = true;
	else if (fd == -EEXIST)
		fd = open_nonblock(path, O_WRONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return fd;
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int err = -errno;

		close(fd);
		output_file_close(o, true);
		return err;
	}
	return 0;
}

int output_file_open(struct output_file *o, const char *path)
{
	int err = open_path(o, path);

	if (err == -EINTR)
		say(stderr, "stopped while waiting for a reader of FIFO %s",
		    options_shown(path, (size_t)-1));
	else if (err)
		say(stderr, "failed to open output file %s: %s", options_shown(path, (size_t)-1),
		    strerror(-err));
	return err;
}

int output_file_begin(struct output_file *o)
{
	/* A write that fails while the report is written leaves its errno for output_file_end. */
	errno = 0;
	if (o->truncated || !o->path)
		return 0;
	/* A FIFO, a terminal or /dev/null cannot be truncated, and need not be. */
	if (ftruncate(fileno(o->f), 0) && errno != EINVAL)
		return -errno;
	o->truncated = true;
	return 0;
}

/*
 * Drop what stdio still holds and cut the file back to its last whole
 * report: stdio writes in blocks, so a write that fails midway (ENOSPC,
 * EFBIG, EDQUOT) leaves part of a line on disk. A FIFO or a terminal
 * cannot be cut, and needs no cutting: nothing reads a torn file later.
 */
static void cut_back(struct output_file *o)
{
	__fpurge(o->f);
	if (o->path && ftruncate(fileno(o->f), o->whole) && errno != EINVAL)
		say(stderr, "failed to cut %s back to whole lines: %s",
		    options_shown(o->path, (size_t)-1), strerror(errno));
}

int output_file_end(struct output_file *o)
{
	int failed = errno, err;
	off_t end;

	/*
	 * The report's writers may have failed already, leaving stdio's buffer
	 * empty (EPIPE from `tdtrace --json | head`): their errno then says why.
	 */
	errno = 0;
	if (fflush(o->f) || ferror(o->f)) {
		err = errno ? -errno : failed ? -failed : -EIO;
		cut_back(o);
		return err;
	}
	o->written = true;
	end = o->path ? lseek(fileno(o->f), 0, SEEK_CUR) : -1;
	if (end >= 0)
		o->whole = end;
	return 0;
}

void output_file_close(struct output_file *o, bool failed)
{
	if (o->f && o->f != stdout && failed && o->written)
		cut_back(o);
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->path && o->created && failed && !o->written)
		unlink(o->path);
	o->f = NULL;
}
