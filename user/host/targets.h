/* SPDX-License-Identifier: GPL-2.0 */
/* Targets: resolve -c paths and -p PIDs, and start a COMMAND held at a gate. */
#ifndef TD_TARGETS_H
#define TD_TARGETS_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include <stdbool.h>
#include <linux/types.h>
#include "tdtrace.h"
#include "cli/options.h"

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

/*
 * --wait-cgroup: @arg does not exist yet. Its path under @mount (plain:
 * no '.', '..' or '//'), its level, and id 0 until it is created.
 */
int target_cgroup_later(const char *mount, const char *arg, struct cgroup_target *t, char *err,
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

struct options;

/* What -c, -p and COMMAND resolved to: the run's targets. */
struct targets {
	struct cgroup_target cgroups[TD_MAX_CGROUP_FILTERS]; /* -c */
	const char *roots[TD_MAX_CGROUP_FILTERS];	     /* their paths, for cgroup rows */
	bool removed[TD_MAX_CGROUP_FILTERS]; /* gone while tdtrace ran (or, waiting, not yet there) */
	int nr_cgroups, nr_removed;
	bool wait;    /* --wait-cgroup: a -c path is traced whenever a cgroup is there */
	bool changed; /* with wait: an id changed since the tracer last took them */
	char mount[PATH_MAX]; /* the cgroup v2 mount the paths are under */
	pid_t tgids[TD_MAX_PIDS]; /* -p, each a process (a thread id names its process) */
	int pidfds[TD_MAX_PIDS];  /* readable once that very process exits, PID reuse or not */
	int nr_pids;
	struct command cmd; /* COMMAND, held at its gate until released */
	bool filtered;	    /* anything but the whole machine is traced */
	bool filter_pids;   /* -p or COMMAND: by process */
};

/* Call before anything else on @t, so that targets_close() is always safe. */
void targets_init(struct targets *t);

/*
 * Resolve -c (under @mount, "" if there is no cgroup v2) and -p: each
 * must exist now. Prints a one-line error; returns 0 or -errno.
 */
int targets_resolve(const struct options *o, const char *mount, struct targets *t);

/* COMMAND, if any: started and held at its gate. Prints a one-line error; 0 or -errno. */
int targets_hold_command(const struct options *o, struct targets *t);

/*
 * Let COMMAND exec. If it cannot, prints a one-line error and returns the
 * exit status a shell gives: EXIT_NOT_FOUND (127) or EXIT_CANNOT_RUN (126).
 */
int targets_release_command(const struct options *o, struct targets *t);

/*
 * Look for -c cgroups removed since the last call (said once each on
 * stderr). True once every -c cgroup is gone (false without -c). With
 * --wait-cgroup never true: a removed one gets id 0, one created at its
 * path its new id, each said once, and t->changed tells the caller.
 */
bool targets_cgroups_gone(struct targets *t);

/* True once every -p process has exited (false without -p). */
bool targets_all_exited(const struct targets *t);

/* Close the pidfds; kill a COMMAND that is still held or running. */
void targets_close(struct targets *t);

#endif /* TD_TARGETS_H */
