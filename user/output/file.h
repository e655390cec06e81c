/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -o FILE: where tables or JSON lines go. Opened before anything is
 * attached, so a bad path fails early; an existing file is truncated only
 * at the first write, and a file tdtrace created is removed again if the
 * run fails before writing anything.
 */
#ifndef TD_OUTPUT_FILE_H
#define TD_OUTPUT_FILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct output_file {
	FILE *f;	  /* stdout without -o */
	const char *path; /* NULL: stdout */
	bool created;	  /* this run created the file */
	bool truncated;	  /* emptied for this run's output */
	bool written;	  /* written to successfully at least once */
	off_t whole;	  /* -o: where the last whole report ends */
};

/*
 * Open @path (NULL: stdout) for writing. 0, or -errno said on stderr; @o->f
 * is NULL then. A FIFO without a reader is waited for, saying so:
 * -EINTR if a stop signal came first.
 */
int output_file_open(struct output_file *o, const char *path);

/* Before each write: empties an existing file the first time. 0 or -errno. */
int output_file_begin(struct output_file *o);

/*
 * After each write: flush; 0 once the data is out, else -errno, and an -o
 * file is cut back to its last whole report (a full disk leaves whole
 * lines, never half of one).
 */
int output_file_end(struct output_file *o);

/* Close; @failed and nothing written: remove a file this run created. */
void output_file_close(struct output_file *o, bool failed);

#endif /* TD_OUTPUT_FILE_H */
