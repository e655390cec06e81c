// SPDX-License-Identifier: GPL-2.0
/* -o FILE: open early, truncate late, leave nothing half-made behind. */
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "cli/options.h"
#include "output/file.h"

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
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		o->created = true;
	else if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
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

	if (err)
		fprintf(stderr, "tdtrace: failed to open output file %s: %s\n",
			options_shown(path, (size_t)-1), strerror(-err));
	return err;
}

int output_file_begin(struct output_file *o)
{
	if (o->truncated || !o->path)
		return 0;
	/* A FIFO, a terminal or /dev/null cannot be truncated, and need not be. */
	if (ftruncate(fileno(o->f), 0) && errno != EINVAL)
		return -errno;
	o->truncated = true;
	return 0;
}

int output_file_end(struct output_file *o)
{
	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		return errno ? -errno : -EIO;
	o->written = true;
	return 0;
}

void output_file_close(struct output_file *o, bool failed)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->path && o->created && failed && !o->written)
		unlink(o->path);
	o->f = NULL;
}
