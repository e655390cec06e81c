/* SPDX-License-Identifier: GPL-2.0 */
/* Targets: resolve -c paths and -p PIDs, and start a COMMAND held at a gate. */
#ifndef TD_TARGETS_H
#define TD_TARGETS_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

struct cgroup_target {
	char rel[PATH_MAX]; /* path under the cgroup2 mount, "/" for the root */
	__u64 id;	    /* the directory's inode: the cgroup v2 id */
	int level;	    /* 0 for the root, 1 for /a, 2 for /a/b */
};

/*
 * Resolve @arg: an absolute path under @mount, or a path relative to
 * @mount (with or without a leading '/', as /proc/PID/cgroup shows it).
 * On error returns -errno and writes a one-line reason to @err.
 */
int target_cgroup(const char *mount, const char *arg, struct cgroup_target *t, char *err,
		  size_t errlen);

/* The tgid of @pid (a thread id names its process). -ESRCH if there is none. */
int target_pid(pid_t pid, pid_t *tgid);

/*
 * COMMAND: fork a child that waits at a gate, so that it can be traced from
 * its first instruction. command_release() lets it exec; an exec failure
 * comes back as -errno.
 */
struct command {
	pid_t pid;
	int gate_fd; /* write end: closing it releases the child */
	int exec_fd; /* read end: EOF = exec succeeded, else the child's errno */
};

int command_start(char **argv, struct command *c);
int command_release(struct command *c);

/* Kill (SIGKILL) and reap a child that never ran, or still runs at an error exit. */
void command_abort(struct command *c);

#endif /* TD_TARGETS_H */
