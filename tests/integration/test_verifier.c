// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF programs must pass the verifier for the widest plan tdtrace
 * allows (TD_MAX_COUNTERS counters in TD_MAX_GROUPS groups) and for the
 * real rows' widths, in every mode: each mode loads other programs, or
 * the same ones with other knobs. Without a PMU the plan's width comes
 * from --test-members (software events as members). The verifier sees
 * only the plan's counter and group counts, not which slot is where.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "itest.h"
#include "tdtrace.h"

#define RUN_MS	   60000
#define GONE_MS	   3000
#define STOP_MS	   10000 /* as timeout 10 */
/* Room to spare: no program may take more than this of the verifier's 1,000,000. */
#define MOST_INSNS 250000
#define PF	   "page-faults"
#define GROUP4	   PF "," PF "," PF "," PF
#define NEXT4	   "/cpu-clock," PF "," PF "," PF
#define NEXT5	   "/cpu-clock," PF "," PF "," PF "," PF
#define NEXT2	   "/cpu-clock," PF

/*
 * Members after cpu-clock (counter 0, leading group 0). 24 in 5: the
 * limits; 21 in 5: the Haswell/Broadwell rows; 19 in 5: Skylake-class.
 */
static const struct layout {
	const char *name;
	const char *members;
	int counters, groups;
} widest = { "24 in 5", GROUP4 NEXT5 NEXT5 NEXT5 NEXT4, 24, 5 }, rows[] = {
	{ "21 in 5", GROUP4 NEXT4 NEXT4 NEXT4 NEXT4, 21, 5 },
	{ "19 in 5", GROUP4 NEXT4 NEXT4 NEXT4 NEXT2, 19, 5 },
};

/* "@bin": region_work's path; "@pid": this test's pid. */
static const char *const modes[][8] = {
	{ "-d", "1", NULL },
	{ "-d", "1", "-c", "/", NULL },
	{ "-d", "1", "-p", "@pid", NULL },
	{ "-d", "1", "-c", "/", "-p", "@pid", NULL },
	{ "--", "@bin", "calls", "20", "1000", NULL },
	{ "-d", "1", "--per-cgroup", NULL },
	{ "-d", "1", "--per-cgroup", "-c", "/", NULL },
	{ "-d", "1", "--per-thread", NULL },
	{ "-d", "1", "--per-thread", "-c", "/", NULL },
	{ "-d", "1", "-c", "/", "--region=@bin:td_work", NULL },
	{ "--region=@bin:td_work", "--", "@bin", "calls", "20", "1000", NULL },
	{ "--per-cgroup", "--region=@bin:td_work", "--", "@bin", "calls", "20", "1000", NULL },
	{ "--usdt=@bin", "--", "@bin", "usdt", "20", "1000", NULL },
	{ "-d", "1", "-c", "/", "--usdt=@bin", NULL },
};

#define NR_MODES (sizeof(modes) / sizeof(modes[0]))

/* The modes the real rows are run in: those that load the most. */
static const int filtered[] = { 1, 3, 6, 9, 13 };

static char bin_args[8][PATH_MAX + 64];
static char pid_arg[16];

/* The args of @mode after --test-members=@members, "@bin" and "@pid" filled in. */
static void mode_args(const char *args[], const char *members, int mode)
{
	static char opt[1024];
	int n = 0;

	snprintf(opt, sizeof(opt), "--test-members=%s", members);
	args[n++] = opt;
	args[n++] = "-v";
	for (int i = 0; modes[mode][i]; i++) {
		const char *a = modes[mode][i], *at = strstr(a, "@bin");

		if (!strcmp(a, "@pid")) {
			args[n++] = pid_arg;
		} else if (at) {
			snprintf(bin_args[i], sizeof(bin_args[i]), "%.*s%s%s", (int)(at - a), a,
				 itest_helper_path("region_work"), at + 4);
			args[n++] = bin_args[i];
		} else {
			args[n++] = a;
		}
	}
	args[n] = NULL;
}

static void mode_text(char *buf, size_t len, int mode)
{
	size_t off = 0;

	buf[0] = 0;
	for (int i = 0; modes[mode][i] && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", modes[mode][i]);
}

/* Root, BPF and this tdtrace at all: skip if this kernel cannot run it (not a width's fault). */
static void require_tdtrace(void)
{
	const char *args[] = { "--software", "-d", "1", NULL };
	struct itest_proc p;
	char *err;

	itest_require_root();
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)getpid());
	assert_int_equal(itest_tdtrace_run(&p, 0, RUN_MS, args), 0);
	err = itest_stderr(&p);
	if (itest_exit_code(&p) == 1 && err && (strstr(err, "BPF") || strstr(err, "BTF")))
		itest_skip("tdtrace cannot load BPF here: %s", err);
	free(err);
	itest_proc_release(&p);
}

/*
 * The most instructions the verifier processed for one program, from the
 * statistics -v prints for each ("processed N insns"); its name in @prog.
 * -1 if there are none.
 */
static long most_processed(const char *err, char *prog, size_t len)
{
	const char *line = err, *name = NULL;
	long most = -1, n;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (!strncmp(line, "libbpf: prog '", 14))
			name = line + 14;
		else if (sscanf(line, "processed %ld insns", &n) == 1 && n > most) {
			most = n;
			snprintf(prog, len, "%.*s", name ? (int)strcspn(name, "'") : 1,
				 name ? name : "?");
		}
	}
	return most;
}

/*
 * tdtrace -v with @l in @mode, to its end: 0 if it ran and exited 0, no
 * program took more than MOST_INSNS to verify, and it left nothing
 * behind; otherwise 1, said with its first error line.
 */
static int run_one(const struct layout *l, int mode)
{
	long long min_prog = itest_bpf_max_id("prog"), min_map = itest_bpf_max_id("map");
	const char *args[16], *first;
	char text[256], left[1024] = "", prog[64] = "";
	struct itest_proc p;
	int err, code, ret = 0;
	long most;
	char *e;

	mode_args(args, l->members, mode);
	mode_text(text, sizeof(text), mode);
	err = itest_tdtrace_run(&p, 0, RUN_MS, args);
	code = err ? -1 : itest_exit_code(&p);
	e = itest_stderr(&p);
	itest_proc_release(&p);
	if (err || code) {
		first = e ? strstr(e, "tdtrace: ") : NULL;
		print_message("%s, %s: exit %d (%s): %.*s\n", l->name, text, code,
			      err ? strerror(-err) : "ended", first ? (int)strcspn(first, "\n") : 0,
			      first ? first : "");
		free(e);
		return 1;
	}
	most = most_processed(e, prog, sizeof(prog));
	free(e);
	print_message("%s, %s: at most %ld insns processed (%s)\n", l->name, text, most, prog);
	if (most < 0 || most > MOST_INSNS) {
		print_message("%s, %s: want verifier statistics, and at most %d insns\n", l->name,
			      text, MOST_INSNS);
		ret = 1;
	}
	if (min_prog >= 0 && min_map >= 0 &&
	    itest_wait_td_orphans_gone(min_prog, min_map, GONE_MS, left, sizeof(left))) {
		print_message("%s, %s: left behind: %s\n", l->name, text, left);
		ret = 1;
	}
	return ret;
}

static void test_widest_in_every_mode(void **state)
{
	int failed = 0;

	require_tdtrace();
	assert_int_equal(TD_MAX_COUNTERS, widest.counters);
	assert_int_equal(TD_MAX_GROUPS, widest.groups);
	for (size_t m = 0; m < NR_MODES; m++)
		failed += run_one(&widest, m);
	assert_int_equal(failed, 0);
}

static void test_rows_in_filtered_modes(void **state)
{
	int failed = 0;

	require_tdtrace();
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
		for (size_t i = 0; i < sizeof(filtered) / sizeof(filtered[0]); i++)
			failed += run_one(&rows[r], filtered[i]);
	assert_int_equal(failed, 0);
}

/*
 * Stopped (SIGTERM, as timeout(1) sends) while it loads the widest plan
 * with --per-cgroup, tdtrace ends within STOP_MS: exit 0 or 1, and
 * nothing of it left loaded.
 */
static void test_stop_while_loading(void **state)
{
	long long min_prog, min_map;
	char opt[1024], left[1024] = "";
	const char *args[] = { opt, "--per-cgroup", "-d", "1", NULL };
	char *argv[16];
	struct itest_proc p;
	int code;

	require_tdtrace();
	min_prog = itest_bpf_max_id("prog");
	min_map = itest_bpf_max_id("map");
	snprintf(opt, sizeof(opt), "--test-members=%s", widest.members);
	itest_tdtrace_argv(argv, 16, args);
	assert_int_equal(itest_spawn(&p, argv, 0), 0);
	itest_sleep_ms(300); /* in start-up: planning or loading */
	kill(p.pid, SIGTERM);
	code = itest_wait(&p, STOP_MS);
	if (code < 0) {
		kill(p.pid, SIGKILL);
		itest_wait(&p, STOP_MS);
		fail_msg("tdtrace --per-cgroup, widest plan: still running %d ms after SIGTERM",
			 STOP_MS);
	}
	code = itest_exit_code(&p);
	itest_proc_release(&p);
	assert_true(code == 0 || code == 1);
	if (min_prog >= 0 && min_map >= 0) {
		int n = itest_wait_td_orphans_gone(min_prog, min_map, GONE_MS, left, sizeof(left));

		if (n)
			print_message("left behind: %s\n", left);
		assert_int_equal(n, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widest_in_every_mode),
		cmocka_unit_test(test_rows_in_filtered_modes),
		cmocka_unit_test(test_stop_while_loading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
