/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every fault test asserts once its fault has been dealt: nothing
 * lost (each JSON line whole, each system line "conserved": true), and
 * nothing left attached once tdtrace has exited (none of the BPF programs,
 * maps or links it held while counting). The exit code is each test's own.
 *
 * Included by tests/faults/test_*.c after nothing else: it brings itest.h.
 * The definitions are in faults.c, linked into every fault test.
 */
#ifndef TDTRACE_FAULTS_H
#define TDTRACE_FAULTS_H

#include "itest.h"

#define FAULT_START_MS 5000 /* to "counting" on stderr; a loaded machine is slow */
#define FAULT_GONE_MS  3000 /* the kernel frees BPF objects asynchronously */

/* How many BPF links (`bpftool link show`) point at one of @ids' programs; -1 on error. */
int fault_links_to(const struct itest_bpf_ids *ids, char *names, size_t len);

/*
 * Start tdtrace with @args and wait until it counts, then note the BPF
 * programs and maps it holds. Skips (with the reason printed) without
 * root, without bpftool to look at BPF objects with, or when this kernel
 * cannot load tdtrace's programs; any other early exit fails.
 */
void fault_start(struct itest_proc *td, int flags, const char *const args[],
		 struct itest_bpf_ids *ids);

/*
 * After tdtrace has exited: no link to its programs and none of its td_
 * programs or maps is left, within FAULT_GONE_MS. Only the ids it held
 * count, so another tdtrace running meanwhile does not fail the test.
 */
void fault_assert_detached(const struct itest_bpf_ids *ids);

/*
 * Parse @text as JSON lines: each line must be one whole JSON object and
 * the text must end with a newline; each system line must say
 * "conserved": true. Returns the lines (json_decref them).
 */
json_t *fault_lines(const char *text);

/* The first line of @type and @phase (and @pid unless it is 0), or NULL. */
json_t *fault_find(const json_t *lines, const char *type, const char *phase, pid_t pid);

/* How many system lines of phase "interval" there are. */
int fault_nr_intervals(const json_t *lines);

/*
 * The whole-run CPU time tdtrace gave process @pid (its summary line's
 * cpu_ns) against the kernel's (@want_ns from /proc/PID/schedstat): within
 * 2%, after at least a second of it.
 */
void fault_assert_cpu_near(const json_t *lines, pid_t pid, uint64_t want_ns, uint64_t steal_ns);

#endif /* TDTRACE_FAULTS_H */
