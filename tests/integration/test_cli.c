// SPDX-License-Identifier: GPL-2.0
/*
 * The command line contract of build/tdtrace: --help/--version/--probe, and
 * clean exits (summary printed, BPF objects released) on SIGINT, SIGTERM,
 * SIGPIPE, a closed stdout, SIGKILL and a crash. Bad command lines and
 * environments are in test_badinput.c. The tests that load BPF need root
 * and skip without it.
 */
#include "itest.h"
#include <sys/resource.h>

#define RUN_MS	 5000 /* a tdtrace that should exit on its own */
#define START_MS 5000
#define STOP_MS	 5000
#define GONE_MS	 3000

#define FIXTURES "tests/fixtures/sysfs"

/* The child of the running test: the teardown kills and reaps it. */
static struct itest_proc child;

static int setup(void **state)
{
	itest_proc_init(&child);
	return 0;
}

static int teardown(void **state)
{
	itest_proc_release(&child);
	itest_cleanup();
	return 0;
}

static void require_fixture(const char *dir)
{
	if (access(dir, R_OK))
		fail_msg("%s: %s (run the tests from the repository root)", dir, strerror(errno));
}

/* Run tdtrace to its end; returns its stdout and stderr (caller frees). */
static int run(const char *const args[], int flags, char **out, char **err)
{
	struct itest_proc *p = &child;
	int ret;

	itest_proc_release(p);
	ret = itest_tdtrace_run(p, flags, RUN_MS, args);
	if (ret == -ETIMEDOUT)
		fail_msg("%s %s ... still running after %d ms", itest_tdtrace_path(), args[0],
			 RUN_MS);
	if (ret)
		fail_msg("cannot run %s: %s", itest_tdtrace_path(), strerror(-ret));
	*out = itest_stdout(p);
	*err = itest_stderr(p);
	ret = itest_exit_code(p);
	itest_proc_release(p);
	return ret;
}

/* ------------------------------------------------------------------ 1 */

static void test_help_and_version(void **state)
{
	const char *help[] = { "--help", NULL }, *version[] = { "--version", NULL };
	char *out, *err;

	assert_int_equal(run(help, 0, &out, &err), 0);
	assert_non_null(strstr(out, "Usage:"));
	assert_non_null(strstr(out, "Examples:"));
	assert_string_equal(err, "");
	free(out);
	free(err);

	assert_int_equal(run(version, 0, &out, &err), 0);
	print_message("--version: %s", out);
	assert_non_null(strstr(out, "tdtrace"));
	assert_string_equal(err, "");
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ 2 */

static void test_probe(void **state)
{
	const char *spr[] = { "--probe", "--sysfs-root", FIXTURES "/sapphirerapids", NULL };
	const char *vm[] = { "--probe", "--sysfs-root", FIXTURES "/vm", NULL };
	char *out, *err;

	require_fixture(FIXTURES "/sapphirerapids");
	require_fixture(FIXTURES "/vm");
	assert_int_equal(run(spr, 0, &out, &err), 0);
	print_message("--probe sapphirerapids:\n%s", out);
	assert_non_null(strstr(out, "level 2"));
	free(out);
	free(err);

	assert_int_equal(run(vm, 0, &out, &err), 0);
	print_message("--probe vm:\n%s", out);
	assert_non_null(strstr(out, "no TopDown"));
	assert_null(strstr(out, "level 2"));
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ 3 */

/*
 * Hybrid part (fake Alder Lake sysfs): a model for each core type, P-cores
 * (cpu_core) and E-cores (cpu_atom). Opening either fails on a machine
 * without those PMUs, each said once: exit 1, nothing on stdout.
 */
static void test_hybrid_core_types(void **state)
{
	const char *args[] = { "--sysfs-root", "tests/fixtures/sysfs/alderlake", "-d", "1", NULL };
	char *out, *err;
	int code;

	itest_require_root();
	code = run(args, 0, &out, &err);
	print_message("exit %d: %s", code, err);
	/* Both core types are planned, each with its model; here neither can open. */
	assert_non_null(strstr(err, "leaving out cpu_core"));
	assert_non_null(strstr(err, "leaving out cpu_atom"));
	/* On a real hybrid part it counts (0); on these machines the open fails (1). */
	assert_true(code == 0 || code == 1);
	if (code == 1)
		assert_string_equal(out, "");
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ 4 */

/* Start tdtrace into child; skip if it cannot load BPF here. */
static struct itest_proc *start(const char *const args[], int flags)
{
	struct itest_proc *p = &child;
	int err;

	itest_require_root();
	itest_proc_release(p);
	err = itest_tdtrace_start(p, flags, START_MS, args);
	if (err == -ECHILD) {
		char *e = itest_stderr(p);

		if (itest_exit_code(p) == 1 && e && (strstr(e, "BPF") || strstr(e, "BTF")))
			itest_skip("tdtrace --software cannot load BPF here: %s", e);
		fail_msg("tdtrace exited %d before counting: %s", itest_exit_code(p), e);
	}
	if (err)
		fail_msg("tdtrace did not start counting: %s", strerror(-err));
	return p;
}

/*
 * The multiplexing flag as far as it can be seen here. cpu-clock is a
 * software event: it never shares a PMU, so it is never multiplexed, and
 * with --software the BPF program keeps enabled/running on the system line
 * only. What can be checked honestly: the system line's times are real
 * (running == enabled > 0) and not flagged, and no row is flagged. The
 * flag itself (running < enabled, running == 0) is tested with the
 * documented multiplexing data in tests/unit/test_decode.c and
 * test_output.c; a real concurrent `perf stat --topdown` needs TopDown
 * hardware. Returns how many lines were flagged or inconsistent.
 */
static int bad_multiplex_flags(json_t *lines)
{
	int bad = 0;
	json_t *o;
	size_t i;

	json_array_foreach(lines, i, o)
	{
		long long en = itest_jint(o, "time_enabled_ns"),
			  run = itest_jint(o, "time_running_ns");
		bool system = itest_jis(o, "type", "system");

		if (json_is_true(json_object_get(o, "multiplexed")) ||
		    itest_jnum(o, "scale") != 1 || (system && (en <= 0 || run != en)) ||
		    (!system && (en != 0 || run != 0))) {
			print_message("flagged or inconsistent: %.300s\n", json_dumps(o, 0));
			bad++;
		}
	}
	return bad;
}

static void test_sigterm_json_summary(void **state)
{
	const char *args[] = { "--software", "--json", "-I", "200", NULL };
	struct itest_proc *p = start(args, 0);
	int code, bad, systems = 0, nr_procs = 0;
	json_t *lines, *o;
	char *out, *err;
	size_t i;

	itest_sleep_ms(300);
	code = itest_signal_and_wait(p, SIGTERM, STOP_MS);
	out = itest_stdout(p);
	err = itest_stderr(p);
	lines = itest_parse_jsonl(out, &bad);
	json_array_foreach(lines, i, o)
	{
		if (!itest_jis(o, "phase", "summary"))
			continue;
		systems += itest_jis(o, "type", "system");
		nr_procs += itest_jis(o, "type", "process");
	}
	print_message("SIGTERM: exit %d, %zu JSON lines, summary: %d system, %d process\n", code,
		      json_array_size(lines), systems, nr_procs);
	if (code != 0)
		fail_msg("exit %d after SIGTERM (want 0); stderr: %s", code, err);
	assert_int_equal(bad, 0);
	assert_int_equal(systems, 1);
	assert_true(nr_procs > 0);
	assert_int_equal(bad_multiplex_flags(lines), 0);
	json_decref(lines);
	free(out);
	free(err);
}

/*
 * Stop signals that came blocked from the parent (a service manager, a
 * shell) still stop the run: the sleep lets them in. COMMAND starts with
 * no signal blocked, whatever tdtrace holds.
 */
static void test_inherited_blocked_signals(void **state)
{
	const char *args[] = { "--software", "-I", "200", NULL };
	const char *cmd[] = {
		"--software", "-d", "5", "--", "/bin/sh", "-c", "grep SigBlk /proc/self/status",
		NULL
	};
	struct itest_proc *p;
	sigset_t stops, old;
	char *out, *err;
	int code;

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigprocmask(SIG_BLOCK, &stops, &old);
	p = start(args, 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	itest_sleep_ms(300);
	code = itest_signal_and_wait(p, SIGINT, STOP_MS);
	err = itest_stderr(p);
	print_message("started with SIGINT blocked: exit %d after SIGINT; stderr: %s", code,
		      err ? err : "(none)");
	if (code != 0)
		fail_msg("exit %d after SIGINT, started with it blocked (want 0 within %d ms)",
			 code, STOP_MS);
	free(err);
	itest_proc_release(p);

	sigprocmask(SIG_BLOCK, &stops, &old);
	code = run(cmd, 0, &out, &err);
	sigprocmask(SIG_SETMASK, &old, NULL);
	print_message("COMMAND's mask: %s(exit %d; stderr: %s)", out, code, err);
	assert_int_equal(code, 0);
	assert_non_null(strstr(out, "SigBlk:\t0000000000000000"));
	free(out);
	free(err);
}

/*
 * --self-stats: the summary says what each BPF program that ran cost, and
 * their sum. In every mode: --per-cgroup charges switches without td_switch
 * (td_cgroup_switch and td_idle), and its cost must be counted too.
 */
static void check_self_stats(const char *mode)
{
	const char *args[] = { "--software", "--json", "--self-stats", "-I", "200", mode, NULL };
	char *spin_argv[] = { (char *)itest_helper_path("spin"), "-w", "0.3", NULL };
	struct itest_proc *p = start(args, 0), load;
	char cgroup[PATH_MAX];
	long long runs = -1, ns = -1, all_runs = -1, all_ns = -1, sum_runs = 0, sum_ns = 0;
	long long flush_runs = 0;
	int code, bad;
	json_t *lines, *o, *progs = NULL, *prog;
	const char *name;
	char *out, *err;
	size_t i;

	/*
	 * Switches for certain, even on a machine so busy that no CPU idles: a
	 * spinner in a cgroup of its own shares a CPU with tasks of others.
	 */
	assert_int_equal(itest_cgroup_make("tdtrace-self", cgroup, sizeof(cgroup)), 0);
	assert_int_equal(itest_spawn(&load, spin_argv, ITEST_STDIN_PIPE), 0);
	assert_int_equal(itest_cgroup_move(cgroup, load.pid), 0);
	assert_int_equal(write(load.in_pipe, "g", 1), 1);
	if (itest_wait_nowait(&load, 20000))
		fail_msg("spin did not end");
	itest_proc_release(&load);
	itest_cgroup_remove(cgroup);
	code = itest_signal_and_wait(p, SIGINT, STOP_MS);
	out = itest_stdout(p);
	err = itest_stderr(p);
	lines = itest_parse_jsonl(out, &bad);
	json_array_foreach(lines, i, o)
	{
		if (itest_jis(o, "phase", "summary") && itest_jis(o, "type", "system")) {
			runs = itest_jint(o, "self_switch_runs");
			ns = itest_jint(o, "self_switch_ns");
			all_runs = itest_jint(o, "self_runs");
			all_ns = itest_jint(o, "self_ns");
			progs = json_object_get(o, "self_programs");
		}
		/* Only the summary carries it. */
		if (itest_jis(o, "phase", "interval"))
			assert_null(json_object_get(o, "self_switch_runs"));
	}
	if (code != 0)
		fail_msg("exit %d; stderr: %s", code, err);
	assert_int_equal(bad, 0);
	assert_non_null(progs);
	json_object_foreach(progs, name, prog)
	{
		long long r = itest_jint(prog, "runs"), t = itest_jint(prog, "ns");

		print_message("%s --self-stats: %-16s %6lld runs, %8lld ns\n", mode, name, r, t);
		assert_true(r > 0); /* only programs that ran are listed */
		sum_runs += r;
		sum_ns += t;
		if (!strcmp(name, "td_flush"))
			flush_runs = r;
	}
	print_message("%s --self-stats: on switches %lld runs, %lld ns; all %lld runs, %lld ns\n",
		      mode, runs, ns, all_runs, all_ns);
	assert_true(runs > 0);
	assert_true(ns > 0);
	/* The interval flushes ran, and are counted beside the switch programs. */
	assert_true(flush_runs > 0);
	assert_true(all_runs == sum_runs && all_ns == sum_ns);
	assert_true(all_runs > runs);
	json_decref(lines);
	free(out);
	free(err);
}

static void test_self_stats(void **state)
{
	check_self_stats("--per-thread");
}

static void test_self_stats_per_cgroup(void **state)
{
	check_self_stats("--per-cgroup");
}

/* ------------------------------------------------------------------ 5 */

/* Read from fd until a newline; returns what was read (caller frees), or NULL. */
static char *read_line(int fd, long timeout_ms)
{
	long long end = itest_now_ms() + timeout_ms;
	char *buf = calloc(1, 65536);
	size_t len = 0;

	while (buf && !memchr(buf, '\n', len) && len < 65535) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = end - itest_now_ms();
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			break;
		n = read(fd, buf + len, 65535 - len);
		if (n <= 0)
			break;
		len += n;
	}
	if (buf && !memchr(buf, '\n', len)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void test_reader_goes_away(void **state)
{
	const char *args[] = { "--software", "--json", "-I", "200", NULL };
	struct itest_proc *p = start(args, ITEST_STDOUT_PIPE);
	struct itest_bpf_ids ids;
	char left[1024], *line, *err;
	json_error_t je;
	json_t *first;
	long long t0;
	int code, n;

	assert_int_equal(itest_td_ids_of(p->pid, &ids), 0);
	line = read_line(p->out_pipe, 3000);
	if (!line)
		fail_msg("no line on stdout within 3 s");
	*strchr(line, '\n') = '\0';
	first = json_loads(line, 0, &je);
	print_message("first line: %.100s...\n", line);
	assert_true(json_is_object(first));
	json_decref(first);
	free(line);

	/* The reader goes away, like `tdtrace --json | head -1`. */
	close(p->out_pipe);
	p->out_pipe = -1;
	t0 = itest_now_ms();
	code = itest_wait(p, STOP_MS) ? -1 : itest_exit_code(p);
	err = itest_stderr(p);
	if (!err)
		fail_msg("cannot read tdtrace's stderr");
	print_message("exit %d, %lld ms after the pipe closed; stderr: %s", code,
		      itest_now_ms() - t0, err);
	if (code != 0)
		fail_msg("exit %d after stdout's reader went away (want 0)", code);
	assert_null(strstr(err, "failed"));
	free(err);

	if (!itest_have_bpftool())
		itest_skip("bpftool is not installed: cannot check the BPF objects\n");
	n = itest_wait_td_gone(&ids, GONE_MS, left, sizeof(left));
	print_message("td_ objects left after %d ms: %d %s\n", GONE_MS, n, left);
	assert_int_equal(n, 0);
}

/*
 * -o FIFO: open(2) on a FIFO blocks until a reader comes, and stop signals
 * are held during start-up, so tdtrace used to hang deaf to Ctrl-C. It
 * now says it waits, stops at once on SIGINT (exit 0, nothing attached),
 * and writes to a reader that comes.
 */
static char fifo_dir[64];

static int fifo_start(struct itest_proc *p, const char *fifo, const char *const args[])
{
	char *argv[32];
	long long end = itest_now_ms() + START_MS;

	itest_require_root();
	itest_proc_release(p);
	itest_tdtrace_argv(argv, 32, args);
	if (itest_spawn(p, argv, 0))
		return -1;
	while (itest_now_ms() < end && !itest_poll_exit(p)) {
		char *e = itest_stderr(p);
		bool waiting = e && strstr(e, "waiting for a reader of FIFO") && strstr(e, fifo);

		free(e);
		if (waiting)
			return 0;
		itest_sleep_ms(20);
	}
	return -1;
}

/* A pipe's reader: read(2) to EOF (itest_read_fd's pread cannot seek a FIFO). */
static char *read_to_eof(int fd)
{
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap);
	ssize_t n;

	while (buf && len + 1 < cap && (n = read(fd, buf + len, cap - len - 1)) > 0)
		len += n;
	if (buf)
		buf[len] = '\0';
	return buf;
}

static const char *make_fifo(void)
{
	static char path[96];

	strcpy(fifo_dir, "/tmp/tdtrace-fifo-XXXXXX");
	assert_non_null(mkdtemp(fifo_dir));
	snprintf(path, sizeof(path), "%s/out", fifo_dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	return path;
}

static void remove_fifo(const char *path)
{
	unlink(path);
	rmdir(fifo_dir);
}

static void test_fifo_stop_while_waiting(void **state)
{
	const char *fifo = make_fifo();
	const char *args[] = { "--software", "--json", "-o", fifo, "-d", "5", NULL };
	struct itest_proc *p = &child;
	long long t0;
	char *err;
	int code;

	if (fifo_start(p, fifo, args)) {
		err = itest_stderr(p);
		remove_fifo(fifo);
		fail_msg("no 'waiting for a reader' on stderr within %d ms: %s", START_MS, err);
	}
	t0 = itest_now_ms();
	code = itest_signal_and_wait(p, SIGINT, STOP_MS);
	err = itest_stderr(p);
	print_message("SIGINT while waiting for a reader: exit %d after %lld ms; stderr: %s", code,
		      itest_now_ms() - t0, err);
	remove_fifo(fifo);
	if (code < 0)
		fail_msg("still waiting %d ms after SIGINT", STOP_MS);
	assert_int_equal(code, 0);
	assert_true(itest_now_ms() - t0 < 2000);
	free(err);
}

static void test_fifo_reader_comes(void **state)
{
	const char *fifo = make_fifo();
	const char *args[] = { "--software", "--json", "-o", fifo, "-I", "200", "-d", "1", NULL };
	struct itest_proc *p = &child;
	json_t *lines, *o;
	int fd, code, bad, summaries = 0;
	char *out, *err;
	size_t i;

	if (fifo_start(p, fifo, args)) {
		err = itest_stderr(p);
		remove_fifo(fifo);
		fail_msg("no 'waiting for a reader' on stderr within %d ms: %s", START_MS, err);
	}
	fd = open(fifo, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	out = read_to_eof(fd); /* tdtrace closes it at exit */
	close(fd);
	code = itest_wait(p, STOP_MS) ? -1 : itest_exit_code(p);
	remove_fifo(fifo);
	assert_non_null(out);
	lines = itest_parse_jsonl(out, &bad);
	json_array_foreach(lines, i, o) summaries +=
		itest_jis(o, "phase", "summary") && itest_jis(o, "type", "system");
	print_message("a reader came: %zu lines, %d summary, exit %d\n", json_array_size(lines),
		      summaries, code);
	assert_int_equal(code, 0);
	assert_int_equal(bad, 0);
	assert_int_equal(summaries, 1);
	json_decref(lines);
	free(out);
}

/* ------------------------------------------------------------------ 6 */

/*
 * Nothing left behind, whatever stops tdtrace. SIGINT and SIGTERM stop it
 * cleanly (summary, exit 0). A SIGPIPE sent with kill(1) is ignored:
 * tdtrace ignores SIGPIPE so that a closed stdout shows up as EPIPE (that
 * real case is test_reader_goes_away), so it keeps counting until SIGINT.
 * SIGHUP, SIGKILL, and SIGABRT and SIGSEGV as a crash would raise them,
 * end it outright: the kernel must then release everything with its fds.
 *
 * Counters closed: the perf events are held by tdtrace's own fds, which go
 * with the process (reaped here), and by its td_counters perf event
 * array, checked gone by id with the other maps. The only other holder
 * could be a process that inherited them: the COMMAND row checks that the
 * command, which outlives a killed tdtrace, holds no perf event or BPF fd.
 */
struct stop_case {
	int sig;
	bool ignored; /* still counting STILL_MS after it; then SIGINT stops it */
	bool command; /* trace `sleep 30` as COMMAND */
	int code;     /* tdtrace's exit status */
};

#define STILL_MS 300

static const struct stop_case stop_cases[] = {
	{ SIGINT, .code = 0 },
	{ SIGTERM, .code = 0 },
	{ SIGPIPE, .ignored = true, .code = 0 },
	{ SIGHUP, .code = 0 }, /* the terminal went away: stop with a summary, like SIGTERM */
	{ SIGKILL, .code = 128 + SIGKILL },
	{ SIGABRT, .code = 128 + SIGABRT },
	{ SIGSEGV, .code = 128 + SIGSEGV },
	{ SIGKILL, .command = true, .code = 128 + SIGKILL },
};

/* fds of @pid whose link starts with @prefix ("anon_inode:[perf_event]"); -1 if unreadable. */
static int count_fds(pid_t pid, const char *prefix)
{
	char dir[64], link[PATH_MAX], path[PATH_MAX + 64];
	struct dirent *d;
	int n = 0;
	DIR *fds;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	fds = opendir(dir);
	if (!fds)
		return -1;
	while ((d = readdir(fds))) {
		ssize_t len;

		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		n += !strncmp(link, prefix, strlen(prefix));
	}
	closedir(fds);
	return n;
}

/* The first process whose parent is @ppid, or 0. */
static pid_t child_of(pid_t ppid)
{
	struct dirent *d;
	DIR *proc = opendir("/proc");
	pid_t found = 0;

	while (proc && !found && (d = readdir(proc))) {
		char file[64], *stat, *end;
		int pid = atoi(d->d_name), parent;

		if (pid <= 0)
			continue;
		snprintf(file, sizeof(file), "/proc/%d/stat", pid);
		stat = itest_read_file(file);
		/* comm may hold spaces and ')': the fields resume after the last ')'. */
		end = stat ? strrchr(stat, ')') : NULL;
		if (end && sscanf(end + 1, " %*c %d", &parent) == 1 && parent == ppid)
			found = pid;
		free(stat);
	}
	if (proc)
		closedir(proc);
	return found;
}

static void test_stops_leave_nothing(void **state)
{
	int failures = 0;

	itest_require_root();
	if (!itest_have_bpftool())
		itest_skip("bpftool is not installed: cannot check the BPF objects\n");
	for (size_t k = 0; k < sizeof(stop_cases) / sizeof(stop_cases[0]); k++) {
		const struct stop_case *c = &stop_cases[k];
		const char *plain[] = { "--software", "-I", "200", NULL };
		const char *cmd[] = { "--software", "-I", "200", "--", "sleep", "30", NULL };
		struct itest_proc *p = start(c->command ? cmd : plain, 0);
		int perf = count_fds(p->pid, "anon_inode:[perf_event]");
		int code, left, cmd_perf = 0, cmd_bpf = 0;
		bool still = false, summary;
		struct itest_bpf_ids ids;
		char names[1024] = "";
		pid_t command = 0;
		char *out, *err;

		assert_int_equal(itest_td_ids_of(p->pid, &ids), 0);
		if (c->command) {
			command = child_of(p->pid);
			if (command <= 0)
				fail_msg("no COMMAND process under tdtrace %d", (int)p->pid);
			itest_track(command); /* the teardown kills it if this test fails */
		}
		itest_sleep_ms(200);
		code = itest_signal_and_wait(p, c->sig, c->ignored ? STILL_MS : STOP_MS);
		if (c->ignored) {
			still = code == -1;
			code = itest_signal_and_wait(p, SIGINT, STOP_MS);
		}
		out = itest_stdout(p);
		err = itest_stderr(p);
		summary = out && strstr(out, "summary");
		if (command) {
			cmd_perf = count_fds(command, "anon_inode:[perf_event]");
			cmd_bpf = count_fds(command, "anon_inode:bpf");
			kill(command, SIGKILL);
		}
		left = itest_wait_td_gone(&ids, GONE_MS, names, sizeof(names));
		print_message("%-7s%s -> exit %d%s; held %d perf events, %d programs, %d maps; "
			      "left %d %s%s\n",
			      strsignal(c->sig), c->command ? " (COMMAND)" : "", code,
			      c->ignored ? (still ? ", ignored" : ", NOT ignored") : "", perf,
			      ids.nr_progs, ids.nr_maps, left, names,
			      command ? (cmd_perf > 0 || cmd_bpf > 0 ? "; COMMAND holds fds!"
								     : "; COMMAND holds none")
				      : "");
		if (code != c->code || left || perf <= 0 || (c->ignored && !still) ||
		    (c->code == 0 && !summary) || cmd_perf > 0 || cmd_bpf > 0) {
			print_message("FAIL: want exit %d%s%s, nothing left; stderr: %s", c->code,
				      c->code == 0 ? " with a summary" : "",
				      c->ignored ? ", the signal ignored" : "", err);
			failures++;
		}
		free(out);
		free(err);
		itest_proc_release(p);
	}
	assert_int_equal(failures, 0);
}

int main(void)
{
	/* SIGABRT and SIGSEGV dump no core. */
	setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });

	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_help_and_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigterm_json_summary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hybrid_core_types, setup, teardown),
		cmocka_unit_test_setup_teardown(test_self_stats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_self_stats_per_cgroup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inherited_blocked_signals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reader_goes_away, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_stop_while_waiting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_reader_comes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stops_leave_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
