// SPDX-License-Identifier: GPL-2.0
/*
 * Least privilege: once attached, a running tdtrace keeps CAP_BPF and
 * CAP_PERFMON and nothing else, and cannot gain more (no_new_privs); a
 * COMMAND still runs with the privileges tdtrace was started with. Needs
 * root and BPF; skips without.
 */
#include "itest.h"

#define START_MS 5000
#define STOP_MS	 5000

static struct itest_proc td;

static int setup(void **state)
{
	itest_proc_init(&td);
	return 0;
}

static int teardown(void **state)
{
	itest_proc_release(&td);
	itest_cleanup();
	return 0;
}

/* The hex mask after @key ("CapEff:") in /proc/PID/status. */
static unsigned long long status_mask(pid_t pid, const char *key)
{
	char path[64], *text, *p;
	unsigned long long v = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	text = itest_read_file(path);
	assert_non_null(text);
	p = strstr(text, key);
	assert_non_null(p);
	v = strtoull(p + strlen(key), NULL, 16);
	free(text);
	return v;
}

#define BIT(cap) (1ULL << (cap))

static void test_running_tdtrace_keeps_bpf_and_perfmon_only(void **state)
{
	static const char *const args[] = { "--software", "-I", "200", NULL };
	static const struct {
		int cap;
		const char *name;
	} gone[] = {
		{ 21, "CAP_SYS_ADMIN" }, { 1, "CAP_DAC_OVERRIDE" }, { 19, "CAP_SYS_PTRACE" },
		{ 7, "CAP_SETUID" },	 { 16, "CAP_SYS_MODULE" },  { 2, "CAP_DAC_READ_SEARCH" },
	};
	unsigned long long eff, prm;
	char skip[512], error[512];
	int err;

	itest_require_root();
	err = itest_tdtrace_start(&td, 0, START_MS, args);
	if (err == -ECHILD) {
		if (itest_early_exit(&td, skip, sizeof(skip), error, sizeof(error)))
			itest_skip("%s", skip);
		fail_msg("%s", error);
	}
	assert_int_equal(err, 0);
	eff = status_mask(td.pid, "CapEff:");
	prm = status_mask(td.pid, "CapPrm:");
	print_message("running tdtrace: CapEff %llx CapPrm %llx\n", eff, prm);
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		if ((eff | prm) & BIT(gone[i].cap))
			fail_msg("a running tdtrace still holds %s", gone[i].name);
	/* What it still uses: reading maps, td_flush, counters on a CPU that comes online. */
	assert_true(eff & BIT(39)); /* CAP_BPF */
	assert_true(eff & BIT(38)); /* CAP_PERFMON */
	assert_int_equal(status_mask(td.pid, "NoNewPrivs:"), 1);
	/* And it still works without them: intervals keep coming, then a clean stop. */
	itest_sleep_ms(600);
	assert_int_equal(itest_signal_and_wait(&td, SIGINT, STOP_MS), 0);
}

/* COMMAND is forked before the drop: it keeps the caller's capabilities. */
static void test_command_keeps_callers_privileges(void **state)
{
	static const char *const args[] = {
		"--software",	     "--", "/bin/grep", "-E", "^(CapEff|NoNewPrivs)",
		"/proc/self/status", NULL
	};
	unsigned long long mine = status_mask(getpid(), "CapEff:");
	char *out, *p;
	int err;

	itest_require_root();
	err = itest_tdtrace_run(&td, 0, START_MS, args);
	assert_int_equal(err, 0);
	out = itest_stdout(&td);
	p = strstr(out, "CapEff:");
	if (!p) {
		char *e = itest_stderr(&td);

		if (itest_exit_code(&td) == 1 && strstr(e, "BPF"))
			itest_skip("tdtrace cannot load its BPF programs here: %s", e);
		fail_msg("COMMAND printed no CapEff: %s / %s", out, e);
	}
	assert_int_equal(strtoull(p + 7, NULL, 16), mine);
	p = strstr(out, "NoNewPrivs:");
	assert_non_null(p);
	assert_int_equal(strtoull(p + 11, NULL, 10), 0);
	assert_int_equal(itest_exit_code(&td), 0);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_running_tdtrace_keeps_bpf_and_perfmon_only,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_command_keeps_callers_privileges, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
