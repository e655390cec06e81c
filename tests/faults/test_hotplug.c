// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug during a run (issue 13). A process pinned to CPU 1 spins
 * while CPU 1 goes offline (the kernel moves it to CPU 0) and comes back
 * (it is pinned there again): tdtrace says both, counts CPU 1 again from
 * the moment it returns, its "cpus" per interval drops to 1 and comes back
 * to 2, every interval is conserved, every CPU is back in one epoch, and
 * the spinner's CPU time matches
 * /proc/PID/schedstat within 2% over the whole run. A second run starts
 * with CPU 1 offline and brings it online: counted from then on. CPU 1 is
 * always put back online, whatever happens. Needs root, BPF and a CPU 1
 * that can be taken offline; skips with the reason otherwise.
 */
#include "faults.h"
#include <sched.h>

#define CPU1_ONLINE  "/sys/devices/system/cpu/cpu1/online"
#define SPIN_S	     "2.0"
#define SPIN_WAIT_MS 20000
#define END_MS	     10000

static struct itest_proc td, load;

static int set_cpu1(int on)
{
	FILE *f = fopen(CPU1_ONLINE, "w");
	int ok;

	if (!f)
		return -errno;
	ok = fprintf(f, "%d\n", on) > 0;
	return fclose(f) == 0 && ok ? 0 : -EIO;
}

static int setup(void **state)
{
	itest_proc_init(&td);
	itest_proc_init(&load);
	return 0;
}

static int teardown(void **state)
{
	set_cpu1(1); /* always back, even after a failure */
	itest_proc_release(&td);
	itest_proc_release(&load);
	itest_cleanup();
	return 0;
}

static void require_hotplug(void)
{
	itest_require_root();
	if (access(CPU1_ONLINE, W_OK))
		itest_skip("CPU 1 cannot be taken offline here (%s: %s)", CPU1_ONLINE,
			   strerror(errno));
}

static void pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	assert_int_equal(sched_setaffinity(pid, sizeof(set), &set), 0);
}

/* What the run said: stderr's hotplug lines, the intervals' cpus, the spinner's time. */
static void check_run(const char *err, const char *out, uint64_t want_ns, uint64_t steal_ns,
		      bool went_offline)
{
	bool saw_one = false, saw_two_after = false;
	json_t *lines, *o;
	size_t i;

	if (went_offline &&
	    !strstr(err, "tdtrace: CPU 1 went offline: not counted until it returns"))
		fail_msg("CPU 1 going offline was not said; stderr: %s", err);
	if (!strstr(err, "tdtrace: CPU 1 came online: counted from now"))
		fail_msg("CPU 1 coming online was not said; stderr: %s", err);
	lines = fault_lines(out); /* whole lines, every interval conserved */
	json_array_foreach(lines, i, o)
	{
		if (!itest_jis(o, "type", "system") || !itest_jis(o, "phase", "interval"))
			continue;
		if (itest_jint(o, "cpus") == 1)
			saw_one = true;
		else if (itest_jint(o, "cpus") == 2 && saw_one)
			saw_two_after = true;
	}
	if (!saw_one || !saw_two_after)
		fail_msg("\"cpus\" did not go to 1 and back to 2 (%s, %s)",
			 saw_one ? "1 seen" : "no 1", saw_two_after ? "2 after" : "no 2 after");
	fault_assert_cpu_near(lines, load.pid, want_ns, steal_ns);
	json_decref(lines);
}

/* The id of the td_cpu_state map among @ids (this tdtrace's), or 0. */
static unsigned int cpu_state_map(const struct itest_bpf_ids *ids)
{
	char cmd[96];
	json_error_t e;
	unsigned int id = 0;

	for (int i = 0; i < ids->nr_maps && !id; i++) {
		FILE *f;
		json_t *m;

		snprintf(cmd, sizeof(cmd), "bpftool -j map show id %u 2>/dev/null", ids->map[i]);
		f = popen(cmd, "r");
		if (!f)
			continue;
		m = json_loadf(f, JSON_DISABLE_EOF_CHECK, &e);
		pclose(f);
		if (itest_jis(m, "name", "td_cpu_state"))
			id = ids->map[i];
		json_decref(m);
	}
	return id;
}

/*
 * Every CPU's epoch in this tdtrace's td_cpu_state (bpftool; by id, since
 * other tdtrace instances may run): a CPU back from offline must be in
 * the others' epoch, or it charges the half the loader reads. Skips the
 * check (says so) without bpftool.
 */
static void assert_one_epoch(const struct itest_bpf_ids *ids)
{
	json_error_t e;
	json_t *all, *vals, *v;
	long long first = -1;
	unsigned int id;
	char cmd[96];
	size_t i;
	FILE *f;

	if (!itest_have_bpftool()) {
		print_message("bpftool is not installed: the CPUs' epochs are not compared\n");
		return;
	}
	id = cpu_state_map(ids);
	if (!id)
		fail_msg("tdtrace holds no map named td_cpu_state");
	snprintf(cmd, sizeof(cmd), "bpftool -j map dump id %u 2>/dev/null", id);
	f = popen(cmd, "r");
	assert_non_null(f);
	all = json_loadf(f, JSON_DISABLE_EOF_CHECK, &e);
	pclose(f);
	if (!json_is_array(all) || json_array_size(all) != 1)
		fail_msg("bpftool map dump id %u: not one entry", id);
	vals = json_object_get(json_object_get(json_array_get(all, 0), "formatted"), "values");
	if (!json_is_array(vals) || json_array_size(vals) < 2)
		fail_msg("td_cpu_state: no per-CPU values in bpftool's dump");
	json_array_foreach(vals, i, v)
	{
		json_t *layout = json_object_get(json_object_get(v, "value"), "layout");
		long long epoch = itest_jint(layout, "epoch");

		print_message("CPU %zu: epoch %lld\n", i, epoch);
		if (first < 0)
			first = epoch;
		else if (epoch != first)
			fail_msg("CPU %zu is in epoch %lld, CPU 0 in %lld", i, epoch, first);
	}
	json_decref(all);
}

/* Run @spin on CPU 1 across the hotplug that @offline_first and the test do. */
static void run(bool offline_first)
{
	static const char *const args[] = { "--software", "--json", "-I", "250", NULL };
	char *spin_argv[] = { (char *)itest_helper_path("spin"), "-w", SPIN_S, NULL };
	uint64_t base_ns = 0, end_ns = 0, steal_ns;
	struct itest_bpf_ids ids;
	char *out, *err;
	int code;

	require_hotplug();
	if (offline_first)
		assert_int_equal(set_cpu1(0), 0);
	assert_int_equal(itest_spawn(&load, spin_argv, ITEST_STDIN_PIPE), 0);
	fault_start(&td, 0, args, &ids);
	assert_int_equal(itest_schedstat_ns(load.pid, &base_ns), 0);
	steal_ns = itest_steal_ns();
	if (!offline_first)
		pin(load.pid, 1);
	assert_int_equal(write(load.in_pipe, "g", 1), 1);
	itest_sleep_ms(600);
	if (!offline_first) {
		assert_int_equal(set_cpu1(0), 0); /* the spinner moves to CPU 0 */
		itest_sleep_ms(600);
	}
	assert_int_equal(set_cpu1(1), 0);
	pin(load.pid, 1);
	if (itest_wait_nowait(&load, SPIN_WAIT_MS))
		fail_msg("spin %s did not end within %d ms", SPIN_S, SPIN_WAIT_MS);
	assert_int_equal(itest_schedstat_ns(load.pid, &end_ns), 0);
	steal_ns = itest_steal_ns() - steal_ns;
	itest_sleep_ms(300);
	assert_one_epoch(&ids);
	code = itest_signal_and_wait(&td, SIGTERM, END_MS);
	out = itest_stdout(&td);
	err = itest_stderr(&td);
	if (code != 0)
		fail_msg("exit %d after SIGTERM (want 0); stderr: %s", code, err);
	check_run(err, out, end_ns - base_ns, steal_ns, !offline_first);
	free(out);
	free(err);
	fault_assert_detached(&ids);
}

static void test_offline_and_back(void **state)
{
	(void)state;
	run(false);
}

static void test_started_offline(void **state)
{
	(void)state;
	run(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_offline_and_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_started_offline, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
