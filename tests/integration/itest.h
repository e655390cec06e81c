/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers for the integration tests: they drive build/tdtrace as a
 * child process and check what it prints against the kernel's own
 * accounting (/proc/PID/schedstat, a cgroup's cpu.stat).
 *
 * Every child started here is tracked; itest_cleanup() kills and reaps the
 * ones still there and removes the cgroups made here, so a failed assertion
 * leaves nothing behind once the cmocka teardown has run.
 *
 * Paths: tdtrace from $TDTRACE (default "build/tdtrace", relative to the
 * repository root the runner starts from); helpers such as spin from the
 * directory of the running test binary (build/tests/).
 *
 * Declarations only: the definitions are in itest.c, compiled once and
 * linked into every test (see the Makefile); a new helper goes there, with
 * its prototype and comment here.
 */
#ifndef TDTRACE_ITEST_H
#define TDTRACE_ITEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "host/cgroupfs.h"
#include <jansson.h>

#define ITEST_MAX_CHILDREN 32
#define ITEST_MAX_CGROUPS  8
#define ITEST_MAX_IDS	   64

/* ---------------------------------------------------------------- time */

long long itest_now_ms(void);

void itest_sleep_ms(long ms);

/* ---------------------------------------------------------- privileges */

bool itest_is_root(void);

/* Print why a test is skipped, then skip it (cmocka's skip() longjmps). */
#define itest_skip(...)                                                                            \
	do {                                                                                       \
		print_message("[ SKIP     ] " __VA_ARGS__);                                        \
		skip();                                                                            \
	} while (0)

#define itest_require_root()                                                                       \
	do {                                                                                       \
		if (!itest_is_root())                                                              \
			itest_skip("needs root (loads BPF programs or drops privileges); "         \
				   "run the tests with sudo\n");                                   \
	} while (0)

/* --------------------------------------------------------------- paths */

const char *itest_tdtrace_path(void);

/*
 * A helper program next to the running test binary, e.g. build/tests/spin.
 * Each name gets its own path, kept for the life of the process, so that
 * several taken together (one argv, one printf) stay distinct; @name
 * itself if the binary's directory cannot be found.
 */
const char *itest_helper_path(const char *name);

/* ---------------------------------------------------------------- files */

/* The whole of a file from offset 0 (pread: the offset may be shared). */
char *itest_read_fd(int fd);

char *itest_read_file(const char *path);

/* An unlinked temporary file, open read-write, close-on-exec. */
int itest_tmpfile(void);

int itest_count_lines(const char *s);

/* ------------------------------------------------------------- children */

void itest_track(pid_t pid);

void itest_untrack(pid_t pid);

struct itest_proc {
	pid_t pid;
	int out_fd;   /* stdout: temp file (read with itest_read_fd), or -1 */
	int out_pipe; /* stdout: read end of a pipe, or -1 */
	int err_fd;   /* stderr: temp file */
	int in_pipe;  /* stdin: write end of a pipe, or -1 (stdin is /dev/null) */
	bool reaped;
	int status; /* wait status, once reaped */
};

enum {
	ITEST_STDOUT_PIPE = 1 << 0, /* stdout to a pipe instead of a temp file */
	ITEST_STDIN_PIPE = 1 << 1,  /* stdin from a pipe the test writes to */
	ITEST_DROP_ROOT = 1 << 2,   /* run as nobody (65534), no groups */
};

void itest_proc_init(struct itest_proc *p);

/* In the child, between fork and exec: only async-signal-safe calls. */
void itest_child_exec(char *const argv[], int flags, pid_t parent, int in, int out, int err);

/* Start argv[0] (a path) with stdout/stderr captured. Returns 0 or -errno. */
int itest_spawn(struct itest_proc *p, char *const argv[], int flags);

/* Reap the child if it has exited. Returns true once reaped. */
bool itest_poll_exit(struct itest_proc *p);

/* Wait up to timeout_ms for the child to exit. Returns 0, or -ETIMEDOUT. */
int itest_wait(struct itest_proc *p, long timeout_ms);

/*
 * Wait up to timeout_ms for the child to exit, but leave it a zombie
 * (WNOWAIT) so that /proc/PID still describes it. Returns 0 or -ETIMEDOUT.
 */
int itest_wait_nowait(struct itest_proc *p, long timeout_ms);

/* Exit code if it exited normally, 128 + signal if killed, -1 if not reaped. */
int itest_exit_code(const struct itest_proc *p);

/* Kill (if still there) and reap the child, and close its descriptors. */
void itest_proc_release(struct itest_proc *p);

char *itest_stdout(const struct itest_proc *p);

char *itest_stderr(const struct itest_proc *p);

/*
 * tdtrace exited before counting (itest_tdtrace_start gave -ECHILD). Exit
 * 1 naming BPF or BTF means this kernel cannot run it at all: a reason to
 * skip goes to @skip and true is returned. Anything else is a failure,
 * told in @error. Releases @td either way.
 */
bool itest_early_exit(struct itest_proc *td, char *skip, size_t skip_len, char *error,
		      size_t error_len);

/*
 * Run a command to the end with a timeout (then SIGKILL). Fills p (caller
 * releases it). Returns 0, -ETIMEDOUT or -errno.
 */
int itest_run(struct itest_proc *p, char *const argv[], int flags, long timeout_ms);

/* ------------------------------------------------------------- tdtrace */

/* argv for tdtrace: its path, then args (NULL-terminated, without argv[0]). */
void itest_tdtrace_argv(char *argv[], int max, const char *const args[]);

/* Run tdtrace to the end (SIGKILL after timeout_ms). Returns as itest_run. */
int itest_tdtrace_run(struct itest_proc *p, int flags, long timeout_ms, const char *const args[]);

/* Exactly one line, ending in a newline, starting with "tdtrace: ". */
bool itest_one_error_line(const char *s);

/*
 * Start tdtrace with the given arguments (NULL-terminated, without argv[0])
 * and wait until its stderr shows "counting" (attached) or it exits.
 * Returns 0 once counting, -ECHILD if it exited first (p->status is set),
 * -ETIMEDOUT, or -errno.
 */
int itest_tdtrace_start(struct itest_proc *p, int flags, long timeout_ms, const char *const args[]);

/* Send sig and wait for the exit. Returns the exit code, or -1 on timeout. */
int itest_signal_and_wait(struct itest_proc *p, int sig, long timeout_ms);

/* -------------------------------------------------------------- cgroups */

/* The cgroup2 mount point, found by tdtrace's own user/host/cgroupfs.c (unit-tested there). */
int itest_cgroup2_mount(char *path, size_t len);

/* Make <cgroup2 mount>/<name>-<pid> into path. Returns 0 or -errno. */
int itest_cgroup_make(const char *name, char *path, size_t len);

/* rmdir, retrying while the last task in it is still being released. */
int itest_cgroup_remove(const char *path);

int itest_cgroup_move(const char *path, pid_t pid);

/* A cgroup's id as the BPF helper reports it: on v2, its inode number. */
uint64_t itest_inode(const char *path);

/* usage_usec from a cgroup's cpu.stat. Returns 0 or -errno. */
int itest_cgroup_usage_usec(const char *path, uint64_t *usec);

/* First field of /proc/PID/schedstat: ns the task has spent on a CPU. */
int itest_schedstat_ns(pid_t pid, uint64_t *ns);

/*
 * Time the hypervisor took from this guest's CPUs so far, all CPUs summed
 * (/proc/stat's steal column, in ns): 0 on bare metal. With
 * PARAVIRT_TIME_ACCOUNTING the kernel leaves it out of schedstat and
 * cpu.stat, while cpu-clock (--software) runs on through it; a comparison
 * of the two may differ by up to the steal of its window.
 */
uint64_t itest_steal_ns(void);

/*
 * The tolerance, in percent of @want_ns, for a --software comparison with
 * the kernel's accounting: @pct, plus the steal seen in its window.
 */
double itest_tolerance_pct(double pct, double want_ns, uint64_t steal_ns);

/* Kill and reap every child still tracked; leave the cgroups alone. */
void itest_kill_children(void);

/* Kill and reap every child still tracked, and remove our cgroups. */
void itest_cleanup(void);

/* ---------------------------------------------------------------- JSON */

/*
 * Parse JSON lines into an array of objects. Returns the array; *bad is the
 * 1-based number of the first line that is not a JSON object, or 0.
 */
json_t *itest_parse_jsonl(const char *text, int *bad);

const char *itest_jstr(const json_t *o, const char *key);

/* An integer field, or -1 if missing or not an integer. */
long long itest_jint(const json_t *o, const char *key);

/* A number field (integer or real), or NAN. */
double itest_jnum(const json_t *o, const char *key);

/* counts-like object member, e.g. counts["cpu-clock"]; -1 if missing. */
long long itest_jcount(const json_t *o, const char *obj, const char *key);

bool itest_jis(const json_t *o, const char *key, const char *value);

/* ----------------------------------------------------------- BPF objects */

/* BPF program and map ids a process holds, from /proc/PID/fdinfo. */
struct itest_bpf_ids {
	int nr_progs, nr_maps;
	unsigned int prog[ITEST_MAX_IDS];
	unsigned int map[ITEST_MAX_IDS];
};

void itest_add_id(unsigned int *ids, int *nr, unsigned int id);

/* Links show their program as prog_id, so attached programs are found too. */
int itest_bpf_ids_of(pid_t pid, struct itest_bpf_ids *ids);

bool itest_id_in(const unsigned int *ids, int nr, unsigned int id);

/* `bpftool -j KIND show` (KIND "prog" or "map") as a JSON array, or NULL. */
json_t *itest_bpftool_show(const char *kind);

/*
 * Count the loaded programs ("prog") or maps ("map") whose name starts with
 * "td_", per `bpftool -j KIND show`. With only != NULL, count only those
 * whose id is in only[0..nr). Names of what was counted go to names.
 * Returns the count, or -1 if bpftool could not be run or parsed.
 */
int itest_td_objects(const char *kind, const unsigned int *only, int nr, char *names, size_t len);

/*
 * Poll `bpftool prog show` and `bpftool map show` up to timeout_ms until no
 * td_ program or map remains; the kernel frees them asynchronously after
 * the last reference goes. With ids, only those objects count, so that a
 * tdtrace run by someone else at the same time does not fail the test.
 * Returns how many remain (0 = all gone), or -1 if bpftool failed;
 * what remains is named in left.
 */
int itest_wait_td_gone(const struct itest_bpf_ids *ids, long timeout_ms, char *left, size_t len);

/*
 * The td_ programs and maps tdtrace (pid) holds while it runs, by id.
 * Returns 0 if it holds at least one td_ program and one td_ map.
 */
int itest_td_ids_of(pid_t pid, struct itest_bpf_ids *ids);

bool itest_have_bpftool(void);

/* ------------------------------------------------- added for test_targets */

/* mkdir an absolute cgroup path (not tracked: the caller removes it). */
int itest_cgroup_mkdir(const char *path);

/*
 * Sum of the first schedstat field over every thread still in
 * /proc/PID/task: the CPU time of a live process whose threads are all
 * still there. Returns 0 or -errno; *nr_threads (may be NULL) how many.
 */
int itest_schedstat_process_ns(pid_t pid, uint64_t *ns, int *nr_threads);

/* The highest id of any loaded BPF program ("prog") or map ("map"); -1 if unknown. */
long long itest_bpf_max_id(const char *kind);

/* Does any live process hold an fd of (or a link to) this program or map id? */
bool itest_bpf_id_held(bool map, unsigned int id);

/*
 * td_ programs and maps with an id above min_prog / min_map (taken before a
 * tdtrace run that has exited since) that no live process holds: what that
 * run left behind. Polls up to timeout_ms, as the kernel frees them
 * asynchronously. Returns how many remain (0 = none), or -1 if bpftool
 * failed; their names go to left.
 */
int itest_wait_td_orphans_gone(long long min_prog, long long min_map, long timeout_ms, char *left,
			       size_t len);

/* ------------------------------------------------------------- network */

/* A loopback port free now (the kernel's choice for port 0); fails the test if none. */
int itest_free_port(void);

#endif /* TDTRACE_ITEST_H */
