// SPDX-License-Identifier: GPL-2.0
/*
 * The bad-input matrix of build/tdtrace, one table: each row is a command
 * line, an optional fault set up around it, the exit code the README
 * documents and a piece of the error line. Every row must also give exactly
 * one stderr line starting "tdtrace: ", nothing on stdout, and leave no td_
 * BPF program or map behind. Adding a case is adding a row.
 *
 * Bad targets (-c PATH / -p PID that do not exist, a cgroup v1 path, a
 * COMMAND that cannot run) are in test_targets.c's bad_targets table.
 */
#include "itest.h" /* first: it defines _GNU_SOURCE */
#include <sched.h>
#include <sys/mount.h>

#define ROW_MS	10000 /* a row that has not exited by then fails */
#define GONE_MS 3000

/* What is done around the run: how tdtrace is started. */
enum setup {
	PLAIN,	/* as the test runs (root for the runtime rows) */
	NOBODY, /* uid/gid 65534, no groups: not root and no capabilities */
	/*
	 * uid 0 with an empty capability bounding set (setpriv): root by uid,
	 * as in a container that drops every capability. The kernel then
	 * refuses perf_event_open system-wide.
	 */
	NO_CAPS,
	/*
	 * uid 0 with CAP_PERFMON only: the counters open, then the kernel
	 * refuses bpf() when the program and its maps are loaded. This stands
	 * for a kernel that refuses the program.
	 */
	PERFMON_ONLY,
};

enum {
	AFTER_START = 1 << 0, /* fails at the first write, after the "counting" notice */
	KEEP = 1 << 1,	      /* @keep held data before: the failed run must not touch it */
	GONE = 1 << 2,	      /* @new (or @full) did not exist: the failed run must not leave it */
};

/*
 * Placeholders, as whole arguments:
 *   @dir      a fresh directory of this test
 *   @new      a file in it that does not exist before the run
 *   @keep     a file in it holding "keep\n" before the run
 *   @missing  a path under a directory that does not exist
 *   @fifo     a FIFO that nothing opens
 *   @full     a file to be created on a filesystem with no space left
 *   @nopmu    a fake sysfs root whose core PMU has a type number that no PMU
 *             has here: the PMU tdtrace found is gone when it opens it
 */
struct bad_input {
	const char *args[20];
	enum setup setup;
	int code;	  /* exit status */
	const char *says; /* the error line must hold this */
	const char *also; /* and this, if set */
	unsigned int flags;
	/*
	 * A known gap in the contract, in code outside these tests' reach:
	 * the row then checks only that stderr holds @says somewhere, and
	 * prints what the gap is.
	 */
	const char *known;
};

#define BIG "18446744073709551616" /* 2^64 */

/* Bad values that every numeric option refuses; @good is a valid value. */
/* clang-format off */
#define BAD_NUMBERS(opt, name, good)					\
	{ { opt, "" }, .code = 2, .says = name },			\
	{ { opt, "-1" }, .code = 2, .says = name },			\
	{ { opt, "many" }, .code = 2, .says = name },			\
	{ { opt, good "x" }, .code = 2, .says = name },			\
	{ { opt, " " good }, .code = 2, .says = name },			\
	{ { opt, "0x" good }, .code = 2, .says = name },		\
	{ { opt, BIG }, .code = 2, .says = name }

/* An option that takes one value, given twice. */
#define TWICE(opt, name, good)							\
	{ { opt, good, opt, good }, .code = 2, .says = name " given twice" }
/* clang-format on */

static const struct bad_input rows[] = {
	/* the command line: exit 2 before anything is opened */
	BAD_NUMBERS("-I", "--interval", "16"),
	TWICE("-I", "--interval", "16"),
	BAD_NUMBERS("--duration", "--duration", "16"),
	TWICE("-d", "--duration", "16"),
	BAD_NUMBERS("-n", "--top", "16"),
	TWICE("--top", "--top", "16"),
	BAD_NUMBERS("--depth", "--depth", "16"),
	TWICE("--depth", "--depth", "16"),
	BAD_NUMBERS("--max-tasks", "--max-tasks", "16"),
	TWICE("--max-tasks", "--max-tasks", "16"),
	BAD_NUMBERS("--max-cgroups", "--max-cgroups", "16"),
	TWICE("--max-cgroups", "--max-cgroups", "16"),
	BAD_NUMBERS("-p", "--pid", "16"), /* -p accumulates: no TWICE */
	{ { "-I", "0" }, .code = 2, .says = "--interval" },
	{ { "-I", "3600001" }, .code = 2, .says = "--interval" },
	{ { "-I" }, .code = 2, .says = "-I" },
	{ { "--interval" }, .code = 2, .says = "--interval" },
	{ { "-d", "0" }, .code = 2, .says = "--duration" },
	{ { "-d", "1e400" }, .code = 2, .says = "--duration" },
	{ { "-d", "inf" }, .code = 2, .says = "--duration" },
	{ { "-n", "0" }, .code = 2, .says = "--top" },
	{ { "--depth", "65" }, .code = 2, .says = "--depth" },
	{ { "--max-tasks", "0" }, .code = 2, .says = "--max-tasks" },
	{ { "--max-tasks", "15" }, .code = 2, .says = "--max-tasks" },
	{ { "--max-cgroups", "0" }, .code = 2, .says = "--max-cgroups" },
	{ { "-p", "0" }, .code = 2, .says = "--pid" },
	{ { "-p", "2147483648" }, .code = 2, .says = "--pid" },
	{ { "-p", "1,,2" }, .code = 2, .says = "--pid" },
	{ { "-c", "" }, .code = 2, .says = "--cgroup" },
	{ { "-c", "a", "-c", "b", "-c", "c", "-c", "d", "-c", "e", "-c", "f", "-c", "g", "-c", "h",
	    "-c", "i" },
	  .code = 2,
	  .says = "at most 8" },
	{ { "-o", "" }, .code = 2, .says = "--output" },
	{ { "-o", "a", "-o", "b" }, .code = 2, .says = "--output given twice" },
	{ { "--btf", "" }, .code = 2, .says = "--btf" },
	{ { "--btf", "a", "--btf=b" }, .code = 2, .says = "--btf given twice" },
	{ { "--bogus" }, .code = 2, .says = "--bogus" },
	{ { "-y" }, .code = 2, .says = "-y" },
	{ { "--json=1" }, .code = 2, .says = "--json" },
	{ { "--software", "extra" }, .code = 2, .says = "extra" },
	{ { "-t", "--per-cgroup" }, .code = 2, .says = "--per-cgroup" },
	{ { "--containers", "--depth", "1" }, .code = 2, .says = "--containers" },
	{ { "--no-children" }, .code = 2, .says = "--no-children" },
	{ { "-p", "1", "--", "true" }, .code = 2, .says = "COMMAND" },
	{ { "--software", "--" }, .code = 2, .says = "COMMAND" },
	{ { "--test-members", "bogus" }, .code = 2, .says = "--test-members" },
	/* what an error quotes can hold control bytes and escape sequences */
	{ { "-I", "1\n2" }, .code = 2, .says = "'1\\x0a2'" },
	{ { "--software", "\x1b[2J" }, .code = 2, .says = "'\\x1b[2J'" },
	{ { "--bo\rgus" }, .code = 2, .says = "'--bo\\x0dgus'" },
	{ { "--software", "-c", "/no\nsuch", "-d", "1" }, .code = 1, .says = "'/no\\x0asuch'" },
	{ { "--software", "-o", "/nonexistent/\x1b[2J", "-d", "1" },
	  .code = 1,
	  .says = "/nonexistent/\\x1b[2J" },
	{ { "--software", "--", "/no\ncmd" }, .code = 127, .says = "'/no\\x0acmd'" },
	/* no TopDown PMU (a VM's sysfs) and no --software */
	{ { "--sysfs-root", "tests/fixtures/sysfs/vm", "-d", "1" },
	  .code = 2,
	  .says = "AMD EPYC",
	  .also = "--software" },

	/* privileges */
	{ { "--software", "-d", "1" }, .setup = NOBODY, .code = 1, .says = "needs root" },
	{ { "--software", "-o", "@new", "-d", "1" },
	  .setup = NOBODY,
	  .code = 1,
	  .says = "needs root",
	  .flags = GONE },
	/* root without its capabilities (a container): told before the kernel refuses bpf() */
	{ { "--software", "-d", "1" }, .setup = NO_CAPS, .code = 1, .says = "CAP_BPF" },
	{ { "--software", "-o", "@new", "-d", "1" },
	  .setup = PERFMON_ONLY,
	  .code = 1,
	  .says = "CAP_BPF and CAP_PERFMON",
	  .flags = GONE },
	{ { "--software", "-o", "@keep", "-d", "1" },
	  .setup = PERFMON_ONLY,
	  .code = 1,
	  .says = "CAP_BPF",
	  .flags = KEEP },

	/*
	 * BTF. (build/tdtrace.bpf.o as --btf is no fault: its BTF holds the
	 * types of vmlinux/kernel_types.h, so CO-RE resolves against it.)
	 */
	{ { "--software", "--btf", "/nonexistent/vmlinux", "-d", "1" },
	  .code = 1,
	  .says = "no kernel BTF at /nonexistent/vmlinux" },
	{ { "--software", "--btf", "/dev/null", "-d", "1" },
	  .code = 1,
	  .says = "/dev/null: not a regular file" },
	/* a FIFO: open(2) would wait for a writer, deaf to Ctrl-C */
	{ { "--software", "--btf", "@fifo", "-d", "1" }, .code = 1, .says = "not a regular file" },
	{ { "--software", "--btf", "/etc/passwd", "-d", "1" },
	  .code = 1,
	  .says = "--btf /etc/passwd: BPF object format invalid" },

	/* the PMU: sysfs describes one the kernel does not have */
	{ { "--sysfs-root", "@nopmu", "-d", "1" },
	  .code = 1,
	  .says = "failed to open counters on any CPU: CPU 0: failed to open slots" },
	{ { "--software", "--sysfs-root", "/nonexistent", "-d", "1" },
	  .code = 1,
	  .says = "/nonexistent" },

	/* -o: each failure before the first write leaves an existing file alone */
	{ { "--software", "-o", "@missing", "-d", "1" }, .code = 1, .says = "no-such-dir/out" },
	{ { "--software", "-o", "@dir", "-d", "1" }, .code = 1, .says = "Is a directory" },
	{ { "--software", "-o", "/sys/kernel/btf/vmlinux", "-d", "1" },
	  .code = 1,
	  .says = "Permission denied" },
	{ { "--software", "-o", "@keep", "--btf", "/nonexistent", "-d", "1" },
	  .code = 1,
	  .says = "BTF",
	  .flags = KEEP },
	{ { "--software", "-o", "@new", "--btf", "/nonexistent", "-d", "1" },
	  .code = 1,
	  .says = "BTF",
	  .flags = GONE },
	{ { "--software", "-o", "@keep", "-p", "2147483647", "-d", "1" },
	  .code = 1,
	  .says = "2147483647",
	  .flags = KEEP },
	{ { "--software", "-o", "/proc/version", "-I", "100", "-d", "1" },
	  .code = 1,
	  .says = "failed to write output: Input/output error",
	  .flags = AFTER_START },
	{ { "--software", "-o", "/dev/full", "-I", "100", "-d", "1" },
	  .code = 1,
	  .says = "No space left on device",
	  .flags = AFTER_START },
	{ { "--software", "-o", "@full", "-I", "100", "-d", "1" },
	  .code = 1,
	  .says = "No space left on device",
	  .flags = AFTER_START | GONE },
};

static char dir[PATH_MAX], new_path[PATH_MAX + 16], keep_path[PATH_MAX + 16];
static char fifo_path[PATH_MAX + 32];
static char missing_path[PATH_MAX + 32], full_mnt[PATH_MAX + 16], full_path[PATH_MAX + 32];
static char nopmu[PATH_MAX + 16];
static bool have_full; /* @full could be set up */

/* The child of the running row: the teardown kills and reaps it. */
static struct itest_proc child;

static int setup(void **state)
{
	itest_proc_init(&child);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 32];

	itest_proc_release(&child);
	itest_cleanup();
	if (dir[0]) {
		if (have_full)
			umount2(full_mnt, MNT_DETACH);
		have_full = false;
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			print_message("could not remove %s\n", dir);
		dir[0] = '\0';
	}
	return 0;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		err = -EIO;
	if (fclose(f))
		err = -errno;
	return err;
}

/*
 * @nopmu: Ice Lake's fake sysfs, but with this machine's online CPUs and a
 * core PMU type (2^30) that no PMU has, so perf_event_open finds nothing.
 */
static int make_nopmu(void)
{
	char cmd[2 * PATH_MAX], file[PATH_MAX + 64], *online;
	int err;

	snprintf(nopmu, sizeof(nopmu), "%s/nopmu", dir);
	snprintf(cmd, sizeof(cmd), "cp -a tests/fixtures/sysfs/icelake '%s'", nopmu);
	if (system(cmd))
		return -ENOENT;
	snprintf(file, sizeof(file), "%s/sys/devices/cpu/type", nopmu);
	err = write_file(file, "1073741824\n");
	online = itest_read_file("/sys/devices/system/cpu/online");
	if (!online)
		return -errno;
	snprintf(file, sizeof(file), "%s/sys/devices/system/cpu/online", nopmu);
	if (!err)
		err = write_file(file, online);
	free(online);
	return err;
}

/*
 * @full: a file to create on a full tmpfs, mounted in a mount namespace of
 * this test alone, so that nobody else sees it and it goes with the test.
 */
static int make_full(void)
{
	char fill[PATH_MAX + 32];
	static char block[4096];
	int fd;

	snprintf(full_mnt, sizeof(full_mnt), "%s/full", dir);
	snprintf(full_path, sizeof(full_path), "%s/out", full_mnt);
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	if (mkdir(full_mnt, 0755) || mount("tdtrace-full", full_mnt, "tmpfs", 0, "size=64k"))
		return -errno;
	snprintf(fill, sizeof(fill), "%s/fill", full_mnt);
	fd = open(fill, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (write(fd, block, sizeof(block)) > 0)
		;
	close(fd);
	return 0;
}

static const char *expand(const char *arg)
{
	if (!strcmp(arg, "@dir"))
		return dir;
	if (!strcmp(arg, "@new"))
		return new_path;
	if (!strcmp(arg, "@keep"))
		return keep_path;
	if (!strcmp(arg, "@missing"))
		return missing_path;
	if (!strcmp(arg, "@fifo"))
		return fifo_path;
	if (!strcmp(arg, "@full"))
		return full_path;
	if (!strcmp(arg, "@nopmu"))
		return nopmu;
	return arg;
}

static bool uses(const struct bad_input *r, const char *placeholder)
{
	for (int a = 0; r->args[a]; a++)
		if (!strcmp(r->args[a], placeholder))
			return true;
	return false;
}

static const char *find_setpriv(void)
{
	static const char *const paths[] = { "/usr/bin/setpriv", "/bin/setpriv" };

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!access(paths[i], X_OK))
			return paths[i];
	return NULL;
}

/* Append @s to @buf, all but printable ASCII (and @newlines) as C escapes, for the log. */
static void append_escaped(char *buf, size_t len, const char *s, bool newlines)
{
	size_t n = strlen(buf);

	for (; *s && n + 5 < len; s++) {
		unsigned char c = *s;

		if ((c >= 0x20 && c < 0x7f) || (newlines && c == '\n'))
			buf[n++] = c;
		else
			n += snprintf(buf + n, len - n, "\\x%02x", c);
	}
	buf[n] = '\0';
}

/* Every line starts "tdtrace: " and the last one holds @says. */
static bool last_line_says(const char *err, const char *says)
{
	const char *line = err, *last = NULL;

	if (!*err || err[strlen(err) - 1] != '\n')
		return false;
	for (; *line; line = strchr(line, '\n') + 1) {
		if (strncmp(line, "tdtrace: ", 9))
			return false;
		last = line;
	}
	return last && strstr(last, says);
}

/* Why row @r failed, into @why; empty if it did not. */
static void judge(const struct bad_input *r, int code, const char *out, const char *err, int left,
		  const char *left_names, char *why, size_t len)
{
	char *keep;

	why[0] = '\0';
#define WHY(...) snprintf(why + strlen(why), len - strlen(why), __VA_ARGS__)
	if (code != r->code)
		WHY(" exit %d, want %d;", code, r->code);
	if (*out)
		WHY(" %zu bytes on stdout;", strlen(out));
	if (r->known) {
		if (!strstr(err, r->says))
			WHY(" stderr must name '%s';", r->says);
	} else if (r->flags & AFTER_START) {
		if (!last_line_says(err, r->says))
			WHY(" stderr's lines must all start 'tdtrace: ', the last naming '%s';",
			    r->says);
	} else if (!itest_one_error_line(err) || !strstr(err, r->says)) {
		WHY(" stderr must be one 'tdtrace: ' line naming '%s';", r->says);
	}
	for (const unsigned char *c = (const unsigned char *)err; !r->known && *c; c++) {
		if ((*c < 0x20 && *c != '\n') || *c == 0x7f) {
			WHY(" control byte 0x%02x on stderr;", *c);
			break;
		}
	}
	if (r->also && !strstr(err, r->also))
		WHY(" stderr must also name '%s';", r->also);
	if (r->flags & KEEP) {
		keep = itest_read_file(keep_path);
		if (!keep || strcmp(keep, "keep\n"))
			WHY(" %s was changed: '%s';", keep_path, keep ? keep : "(gone)");
		free(keep);
	}
	if ((r->flags & GONE) && !access(new_path, F_OK))
		WHY(" %s was left behind;", new_path);
	if ((r->flags & GONE) && full_path[0] && !access(full_path, F_OK))
		WHY(" %s was left behind;", full_path);
	if (left)
		WHY(" td_ BPF objects left: %s;", left_names);
#undef WHY
}

static void test_bad_inputs(void **state)
{
	size_t nr = sizeof(rows) / sizeof(rows[0]);
	bool root = itest_is_root(), bpftool = root && itest_have_bpftool();
	const char *setpriv = find_setpriv();
	int failures = 0, skipped = 0, known = 0;
	char tmpl[] = "/tmp/tdtrace-badinput-XXXXXX";
	int err;

	if (access("tests/fixtures/sysfs/vm", R_OK))
		fail_msg("tests/fixtures/sysfs: %s (run the tests from the repository root)",
			 strerror(errno));
	if (!mkdtemp(tmpl))
		fail_msg("mkdtemp: %s", strerror(errno));
	snprintf(dir, sizeof(dir), "%s", tmpl);
	snprintf(new_path, sizeof(new_path), "%s/new.out", dir);
	snprintf(keep_path, sizeof(keep_path), "%s/keep.out", dir);
	snprintf(missing_path, sizeof(missing_path), "%s/no-such-dir/out", dir);
	snprintf(fifo_path, sizeof(fifo_path), "%s/fifo", dir);
	if (mkfifo(fifo_path, 0600))
		fail_msg("cannot make a FIFO %s: %s", fifo_path, strerror(errno));
	err = make_nopmu();
	if (err)
		fail_msg("cannot make a fake sysfs in %s: %s", dir, strerror(-err));
	if (root) {
		err = make_full();
		have_full = !err;
		if (err)
			print_message("no full filesystem for @full: %s\n", strerror(-err));
	}
	if (!root)
		print_message("not root: only the command-line rows (exit 2) run\n");
	else if (!bpftool)
		print_message("bpftool is not installed: BPF leftovers not checked\n");
	if (!setpriv)
		print_message("setpriv (util-linux) is not installed: capability rows skipped\n");

	for (size_t i = 0; i < nr; i++) {
		const struct bad_input *r = &rows[i];
		char *argv[32], shown[512] = "", why[8192], left[1024] = "", errs_shown[2048];
		long long min_prog = -1, min_map = -1;
		int n = 0, code, nleft = 0;
		char *out, *errs;

		for (int a = 0; r->args[a]; a++) {
			strcat(shown, " '");
			append_escaped(shown, sizeof(shown) - 2, r->args[a], false);
			strcat(shown, "'");
		}
		if ((r->code != 2 || r->setup) && !root) {
			skipped++;
			continue;
		}
		if ((r->setup == NO_CAPS || r->setup == PERFMON_ONLY) && !setpriv) {
			print_message("skip tdtrace%s: no setpriv\n", shown);
			skipped++;
			continue;
		}
		if (uses(r, "@full") && !have_full) {
			print_message("skip tdtrace%s: no full filesystem\n", shown);
			skipped++;
			continue;
		}
		unlink(new_path);
		if (write_file(keep_path, "keep\n"))
			fail_msg("cannot write %s: %s", keep_path, strerror(errno));

		if (r->setup == NO_CAPS || r->setup == PERFMON_ONLY) {
			argv[n++] = (char *)setpriv;
			argv[n++] = r->setup == NO_CAPS ? "--bounding-set=-all"
							: "--bounding-set=-all,+perfmon";
			argv[n++] = "--inh-caps=-all";
			argv[n++] = "--";
		}
		argv[n++] = (char *)itest_tdtrace_path();
		for (int a = 0; r->args[a]; a++)
			argv[n++] = (char *)expand(r->args[a]);
		argv[n] = NULL;

		if (bpftool) {
			min_prog = itest_bpf_max_id("prog");
			min_map = itest_bpf_max_id("map");
		}
		itest_proc_release(&child);
		err = itest_run(&child, argv, r->setup == NOBODY ? ITEST_DROP_ROOT : 0, ROW_MS);
		if (err && err != -ETIMEDOUT)
			fail_msg("cannot run %s: %s", argv[0], strerror(-err));
		code = err ? -1 : itest_exit_code(&child);
		out = itest_stdout(&child);
		errs = itest_stderr(&child);
		if (!out || !errs)
			fail_msg("cannot read tdtrace's output");
		errs_shown[0] = '\0';
		append_escaped(errs_shown, sizeof(errs_shown), errs, true);
		if (min_prog >= 0 && min_map >= 0)
			nleft = itest_wait_td_orphans_gone(min_prog, min_map, GONE_MS, left,
							   sizeof(left));
		if (nleft < 0)
			fail_msg("bpftool failed");

		judge(r, code, out, errs, nleft, left, why, sizeof(why));
		if (why[0]) {
			print_message("FAIL tdtrace%s:%s stderr: %s\n", shown, why, errs_shown);
			failures++;
		} else if (r->known) {
			print_message("KNOWN tdtrace%s -> %d (%s): %s", shown, code, r->known,
				      errs_shown);
			known++;
		} else {
			print_message("ok   tdtrace%s -> %d: %s", shown, code, errs_shown);
		}
		free(out);
		free(errs);
	}
	print_message("%zu rows: %d failed, %d skipped, %d with a known gap\n", nr, failures,
		      skipped, known);
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_inputs, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
