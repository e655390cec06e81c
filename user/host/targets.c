// SPDX-License-Identifier: GPL-2.0
/* Resolve what to trace: cgroup paths, PIDs, a command to start. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include "cli/options.h"
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include "host/targets.h"
#include "cli/say.h"

static bool under(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	return !strncmp(path, dir, len) && (path[len] == '/' || path[len] == '\0');
}

int target_cgroup(const char *mount, const char *arg, struct cgroup_target *t, char *err,
		  size_t errlen)
{
	char joined[PATH_MAX * 2], real[PATH_MAX];
	const char *path = joined;
	struct statfs sf;
	struct stat st;

	/* /proc/PID/cgroup shows paths relative to the mount, with a leading '/'. */
	if (arg[0] == '/' && under(arg, mount))
		path = arg;
	else
		snprintf(joined, sizeof(joined), "%s/%s", mount, arg + (arg[0] == '/'));

	if (!realpath(path, real)) {
		int e = errno;

		/* An absolute path outside the v2 mount: say where v2 is. */
		if (arg[0] == '/' && !statfs(arg, &sf) && sf.f_type == CGROUP_SUPER_MAGIC)
			snprintf(err, errlen,
				 "cgroup '%s' is in cgroup v1; tdtrace needs cgroup v2 "
				 "(mounted at %s)",
				 options_shown(arg, (size_t)-1), mount);
		else
			snprintf(err, errlen, "cgroup '%s' not found under %s: %s",
				 options_shown(arg, (size_t)-1), mount, strerror(e));
		return -e;
	}
	/* realpath resolved any "..": the result must still be inside the mount. */
	if (!under(real, mount)) {
		snprintf(err, errlen, "cgroup '%s' is outside the cgroup v2 mount %s",
			 options_shown(arg, (size_t)-1), mount);
		return -EINVAL;
	}
	if (stat(real, &st) || !S_ISDIR(st.st_mode) || statfs(real, &sf) ||
	    sf.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(err, errlen, "'%s' is not a cgroup v2 directory",
			 options_shown(arg, (size_t)-1));
		return -ENOTDIR;
	}
	snprintf(t->rel, sizeof(t->rel), "%s", real[strlen(mount)] ? real + strlen(mount) : "/");
	t->id = st.st_ino;
	t->level = 0;
	for (const char *p = t->rel; *p; p++)
		t->level += *p == '/' && p[1];
	return 0;
}

int target_cgroup_later(const char *mount, const char *arg, struct cgroup_target *t, char *err,
			size_t errlen)
{
	const char *rel = arg;
	size_t len;

	if (arg[0] == '/' && under(arg, mount))
		rel = arg + strlen(mount);
	/* Not there to resolve: a plain path only, so that it cannot point outside. */
	if (strstr(rel, "/../") || strstr(rel, "/./") || !strcmp(rel, "..") ||
	    !strncmp(rel, "../", 3) || strstr(rel, "//") ||
	    (strlen(rel) >= 3 && !strcmp(rel + strlen(rel) - 3, "/..")) || !*rel) {
		snprintf(err, errlen,
			 "cgroup '%s' does not exist yet, and --wait-cgroup needs a plain path "
			 "(no '.', '..' or '//') to wait for",
			 options_shown(arg, (size_t)-1));
		return -EINVAL;
	}
	snprintf(t->rel, sizeof(t->rel), "%s%s", rel[0] == '/' ? "" : "/", rel);
	len = strlen(t->rel);
	while (len > 1 && t->rel[len - 1] == '/')
		t->rel[--len] = '\0';
	t->id = 0;
	t->level = 0;
	for (const char *p = t->rel; *p; p++)
		t->level += *p == '/' && p[1];
	return 0;
}

int target_pid(pid_t pid, pid_t *tgid)
{
	char path[64], line[256];
	int ret = -ESRCH;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Tgid: %d", tgid) == 1) {
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

int command_start(char **argv, struct command *c)
{
	int gate[2], exec_pipe[2];
	pid_t pid, parent;

	c->pid = -1;
	c->gate_fd = c->exec_fd = -1;
	if (pipe2(gate, O_CLOEXEC))
		return -errno;
	if (pipe2(exec_pipe, O_CLOEXEC)) {
		int e = errno;

		close(gate[0]);
		close(gate[1]);
		return -e;
	}
	fflush(NULL); /* don't let the child inherit unwritten stdio buffers */
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(gate[0]);
		close(gate[1]);
		close(exec_pipe[0]);
		close(exec_pipe[1]);
		return -e;
	}
	if (pid == 0) {
		sigset_t none;
		char go;
		int e;

		/* Die with tdtrace rather than run untraced after it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		close(gate[1]);
		close(exec_pipe[0]);
		/* One byte once the BPF programs are attached; EOF means give up. */
		if (read(gate[0], &go, 1) != 1)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		/* tdtrace holds its stop signals blocked; COMMAND must not inherit that. */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		prctl(PR_SET_PDEATHSIG, 0);
		execvp(argv[0], argv);
		e = errno;
		if (write(exec_pipe[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(gate[0]);
	close(exec_pipe[1]);
	c->pid = pid;
	c->gate_fd = gate[1];
	c->exec_fd = exec_pipe[0];
	return 0;
}

int command_release(struct command *c)
{
	int child_errno = 0;
	ssize_t n;

	if (write(c->gate_fd, "g", 1) != 1)
		return -errno;
	close(c->gate_fd);
	c->gate_fd = -1;
	/* exec closes the CLOEXEC write end: EOF means the command is running. */
	do
		n = read(c->exec_fd, &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(c->exec_fd);
	c->exec_fd = -1;
	if (n == sizeof(child_errno)) {
		waitpid(c->pid, NULL, 0);
		c->pid = -1;
		return -child_errno;
	}
	return 0;
}

void command_abort(struct command *c)
{
	if (c->gate_fd >= 0)
		close(c->gate_fd);
	if (c->exec_fd >= 0)
		close(c->exec_fd);
	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
	}
	c->pid = -1;
	c->gate_fd = c->exec_fd = -1;
}

void targets_init(struct targets *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < TD_MAX_PIDS; i++)
		t->pidfds[i] = -1;
	t->cmd = (struct command){ .pid = -1, .gate_fd = -1, .exec_fd = -1 };
}

static int resolve_cgroups(const struct options *o, const char *mount, struct targets *t)
{
	char err[PATH_MAX + 256];

	if (o->nr_cgroups && !mount[0]) {
		say(stderr, "-c needs cgroup v2, and none is mounted");
		return -ENOENT;
	}
	t->wait = o->wait_cgroup;
	for (int i = 0; i < o->nr_cgroups; i++) {
		int e = target_cgroup(mount, o->cgroups[i], &t->cgroups[i], err, sizeof(err));

		/* --wait-cgroup: one not there yet is traced once created. */
		if (e == -ENOENT && t->wait)
			e = target_cgroup_later(mount, o->cgroups[i], &t->cgroups[i], err,
						sizeof(err));
		if (e) {
			say(stderr, "%s", err);
			return -ENOENT;
		}
		t->roots[i] = t->cgroups[i].rel;
		if (!t->cgroups[i].id) {
			t->removed[i] = true;
			t->nr_removed++;
			say(stderr, "waiting for cgroup %s to be created",
			    options_shown(t->cgroups[i].rel, (size_t)-1));
		}
	}
	t->nr_cgroups = o->nr_cgroups;
	snprintf(t->mount, sizeof(t->mount), "%s", mount);
	return 0;
}

static int resolve_pids(const struct options *o, struct targets *t)
{
	for (int i = 0; i < o->nr_pids; i++) {
		if (target_pid(o->pids[i], &t->tgids[i])) {
			say(stderr, "no process with PID %d", (int)o->pids[i]);
			return -ESRCH;
		}
		t->pidfds[i] = syscall(SYS_pidfd_open, t->tgids[i], 0);
	}
	t->nr_pids = o->nr_pids;
	return 0;
}

int targets_resolve(const struct options *o, const char *mount, struct targets *t)
{
	int err = resolve_pids(o, t);

	if (!err)
		err = resolve_cgroups(o, mount, t);
	t->filter_pids = o->nr_pids || o->command;
	t->filtered = t->filter_pids || o->nr_cgroups;
	return err;
}

int targets_hold_command(const struct options *o, struct targets *t)
{
	/* Held at a gate until attached: traced from its first instruction. */
	int err = o->command ? command_start(o->command, &t->cmd) : 0;

	if (err)
		say(stderr, "failed to set up targets: %s", strerror(-err));
	return err;
}

int targets_release_command(const struct options *o, struct targets *t)
{
	int err = o->command ? command_release(&t->cmd) : 0;

	if (!err)
		return 0;
	say(stderr, "failed to run '%s': %s", options_shown(o->command[0], (size_t)-1),
	    strerror(-err));
	/* As shells, env, timeout and xargs say it: not found, or found but not runnable. */
	return err == -ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}

bool targets_cgroups_gone(struct targets *t)
{
	for (int i = 0; i < t->nr_cgroups; i++) {
		struct cgroup_target *c = &t->cgroups[i];
		char path[PATH_MAX * 2];
		struct stat st;
		bool there;

		snprintf(path, sizeof(path), "%s%s", t->mount, strcmp(c->rel, "/") ? c->rel : "");
		there = !stat(path, &st) && S_ISDIR(st.st_mode);
		/* v2 ids are never reused: another directory at the path is another cgroup. */
		if (!t->removed[i] && there && st.st_ino == c->id)
			continue;
		if (t->removed[i] && t->wait && there) {
			c->id = st.st_ino;
			t->removed[i] = false;
			t->nr_removed--;
			t->changed = true;
			say(stderr, "cgroup %s was created: traced from now",
			    options_shown(c->rel, (size_t)-1));
			continue;
		}
		if (t->removed[i])
			continue;
		t->removed[i] = true;
		t->nr_removed++;
		if (t->wait) {
			c->id = 0;
			t->changed = true;
		}
		say(stderr, "cgroup %s was removed: %s", options_shown(c->rel, (size_t)-1),
		    t->wait ? "waiting for it to be created again" : "nothing more to trace there");
	}
	return !t->wait && t->nr_cgroups && t->nr_removed == t->nr_cgroups;
}

bool targets_all_exited(const struct targets *t)
{
	for (int i = 0; i < t->nr_pids; i++) {
		struct pollfd p = { .fd = t->pidfds[i], .events = POLLIN };

		if (t->pidfds[i] < 0 || poll(&p, 1, 0) != 1)
			return false;
	}
	return t->nr_pids > 0;
}

void targets_close(struct targets *t)
{
	command_abort(&t->cmd);
	for (int i = 0; i < TD_MAX_PIDS; i++) {
		if (t->pidfds[i] >= 0)
			close(t->pidfds[i]);
		t->pidfds[i] = -1;
	}
}
