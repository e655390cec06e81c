// SPDX-License-Identifier: GPL-2.0
/*
 * The NMI watchdog turned on during a run (issue 23 part 5): tdtrace plans
 * again and switches every CPU to the new counters mid-run. This machine
 * has no PMU, so software members stand in for a model's groups
 * (--test-members at start, --test-replan once the watchdog is on: tests
 * only), and the watchdog is a fake /proc/sys/kernel/nmi_watchdog under
 * --sysfs-root (the rest of that root leads to the real /sys and /proc).
 * The decision itself, on the real rows, is test_plan's; here the
 * switch runs for real: tdtrace says it once, the intervals after count
 * the new members and no longer the dropped ones, no read fails, every
 * line is conserved, each kept member's whole-run count covers its
 * intervals' (its counts so far carried into its new column), and nothing
 * stays attached. Needs root, BPF and bpftool; skips with the reason
 * otherwise.
 */
#include "faults.h"
#include <sys/stat.h>

#define INTERVAL "500"
#define RUN_S	 "4"
#define FLIP_MS	 1700
#define END_MS	 20000

static struct itest_proc td;
static char root[64];

/* The fake root (setup): its links, its one file, its folders. */
static void remove_root(void)
{
	static const char *const made[] = { "proc/sys/kernel/nmi_watchdog",
					    "proc/sys/kernel/pid_max",
					    "proc/sys/kernel",
					    "proc/sys",
					    "proc/cpuinfo",
					    "proc/meminfo",
					    "proc/loadavg",
					    "proc",
					    "sys" };
	char path[160];

	for (size_t i = 0; root[0] && i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, made[i]);
		if (unlink(path))
			rmdir(path);
	}
	if (root[0])
		rmdir(root);
	root[0] = 0;
}

static void set_watchdog(int on)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/sys/kernel/nmi_watchdog", root);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fprintf(f, "%d\n", on) > 0);
	assert_int_equal(fclose(f), 0);
}

/*
 * Each test's own fake root, whose sys and proc files are the machine's
 * but for nmi_watchdog (0); gone again after the test, whatever happened.
 */
static int setup(void **state)
{
	static const char *const links[] = { "proc/cpuinfo", "proc/meminfo", "proc/loadavg",
					     "proc/sys/kernel/pid_max" };
	char path[160], to[160];

	itest_proc_init(&td);
	snprintf(root, sizeof(root), "/tmp/tdtrace-replan.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/sys", root);
	assert_int_equal(symlink("/sys", path), 0);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel", root);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); *p++ = '/') {
		*p = 0;
		assert_int_equal(mkdir(path, 0755), 0);
	}
	assert_int_equal(mkdir(path, 0755), 0);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, links[i]);
		snprintf(to, sizeof(to), "/%s", links[i]);
		assert_int_equal(symlink(to, path), 0);
	}
	set_watchdog(0);
	return 0;
}

static int teardown(void **state)
{
	itest_proc_release(&td);
	itest_cleanup();
	remove_root();
	return 0;
}

/* counts[@name] of system line @o, -1 without it. */
static long long count_of(const json_t *o, const char *name)
{
	return itest_jcount(o, "counts", name);
}

/* Knob @name of the .rodata map @map (bpftool's dump, formatted by BTF), -1 if none. */
static long long knob_in(json_int_t map, const char *name)
{
	json_t *dump, *knobs, *kv;
	long long v = -1;
	char cmd[96];
	size_t i;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "bpftool -j map dump id %lld 2>/dev/null", (long long)map);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	dump = json_loadf(f, 0, NULL);
	pclose(f);
	knobs = json_object_get(
		json_object_get(json_object_get(json_array_get(dump, 0), "formatted"), "value"),
		".rodata");
	json_array_foreach(knobs, i, kv) if (json_object_get(kv, name)) v =
		json_integer_value(json_object_get(kv, name));
	json_decref(dump);
	return v;
}

/* Knob @name of the BPF program the run whose objects are @ids loaded, -1 if not found. */
static long long knob_of(const struct itest_bpf_ids *ids, const char *name)
{
	json_t *progs = itest_bpftool_show("prog"), *maps = itest_bpftool_show("map"), *p, *m, *id;
	long long v = -1;
	size_t i, j, k;

	json_array_foreach(progs, i, p)
	{
		if (v >= 0 || !itest_id_in(ids->prog, ids->nr_progs,
					   json_integer_value(json_object_get(p, "id"))))
			continue;
		json_array_foreach(json_object_get(p, "map_ids"), j, id) json_array_foreach(
			maps, k, m) if (json_integer_value(json_object_get(m, "id")) ==
						json_integer_value(id) &&
					itest_jis(m, "name", "tdtrace.rodata")) v =
			knob_in(json_integer_value(id), name);
	}
	json_decref(progs);
	json_decref(maps);
	return v;
}

/*
 * Run with @members, turn the watchdog on, and check the switch to
 * @replan: @kept are counted throughout (cpu-clock first), @dropped
 * before the switch only; with none dropped, the switch says so. The BPF
 * program keeps times for @groups groups from the start: the switch's.
 */
static void run_switch(const char *members, const char *replan, const char *const *kept,
		       const char *dropped, int groups)
{
	char m[128], r[128];
	const char *const args[] = { "--sysfs-root", root,     m,    r,	    "--json",
				     "-I",	     INTERVAL, "-d", RUN_S, NULL };
	struct itest_bpf_ids ids;
	bool before = false, after = false;
	long long sum[8] = { 0 };
	json_t *lines, *o, *summary = NULL;
	const char *said;
	char *err, *out;
	size_t i;

	snprintf(m, sizeof(m), "--test-members=%s", members);
	snprintf(r, sizeof(r), "--test-replan=%s", replan);
	fault_start(&td, 0, args, &ids);
	assert_int_equal(knob_of(&ids, "nr_groups"), groups);
	itest_sleep_ms(FLIP_MS);
	set_watchdog(1);
	assert_int_equal(itest_wait(&td, END_MS), 0);
	err = itest_stderr(&td);
	out = itest_stdout(&td);
	assert_int_equal(itest_exit_code(&td), 0);
	said = strstr(err, "tdtrace: the NMI watchdog was turned on during the run: counting "
			   "software: level 0 in ");
	if (!said || strstr(said + strlen("tdtrace: the NMI"), "NMI watchdog was turned"))
		fail_msg("the switch was not said once; stderr: %s", err);
	if (!dropped && !strstr(said, "; every event is still counted, regrouped\n"))
		fail_msg("a switch that drops nothing said otherwise: %s", said);

	lines = fault_lines(out); /* whole lines, every one conserved */
	json_array_foreach(lines, i, o)
	{
		if (!itest_jis(o, "type", "system"))
			continue;
		if (itest_jint(o, "read_errors") != 0)
			fail_msg("read errors after the switch: %s", json_dumps(o, JSON_COMPACT));
		if (itest_jis(o, "phase", "summary")) {
			summary = o;
			continue;
		}
		/* Before the switch the dropped member is counted; after, never again. */
		if (!dropped) {
			before = after = true;
		} else if (count_of(o, dropped) >= 0) {
			if (after)
				fail_msg("%s counted again after the switch", dropped);
			before = true;
		} else {
			after = true;
		}
		for (int k = 0; kept[k]; k++) {
			long long c = count_of(o, kept[k]);

			if (c < 0)
				fail_msg("interval without %s: %s", kept[k],
					 json_dumps(o, JSON_COMPACT));
			sum[k] += c;
		}
	}
	if (!before || !after)
		fail_msg("no interval %s the switch", before ? "after" : "before");
	assert_non_null(summary);
	assert_true(!dropped || count_of(summary, dropped) < 0);
	/*
	 * The whole run holds every interval of a kept member, and the last
	 * read's few more (after the last interval, until the programs stop).
	 */
	for (int k = 0; kept[k]; k++) {
		long long whole = count_of(summary, kept[k]);

		print_message("%s: intervals %lld, whole run %lld\n", kept[k], sum[k], whole);
		if (whole < sum[k] || whole > sum[k] + sum[k] / 10 + 1000)
			fail_msg("%s: the whole run counted %lld, its intervals %lld", kept[k],
				 whole, sum[k]);
	}
	json_decref(lines);
	free(out);
	free(err);
	fault_assert_detached(&ids);
}

/*
 * As on Haswell and Broadwell, whose level 2 regrouped is not exact (the
 * level-1 fall-back): a member of group 0 moves into a group of its own,
 * the last group is dropped; each kept member stays in its column.
 */
static void test_switch_in_place(void **state)
{
	static const char *const kept[] = { "cpu-clock", "context-switches", "page-faults",
					    "cpu-migrations", NULL };

	run_switch("context-switches,page-faults/cpu-migrations/emulation-faults",
		   "context-switches/page-faults/cpu-migrations", kept, "emulation-faults", 3);
}

/*
 * As a row whose group 0 loses a counter to the watchdog, with no spare
 * counter in a later group: the last member of group 0 moves into a group
 * after the others, one more than the run started with, and nothing is
 * dropped. The run keeps times for it only because it was widened for
 * that switch at start (replan_widen); each member stays in its column.
 */
static void test_switch_more_groups(void **state)
{
	static const char *const kept[] = { "cpu-clock", "context-switches", "page-faults",
					    "cpu-migrations", NULL };

	run_switch("context-switches,page-faults/cpu-migrations",
		   "context-switches/cpu-migrations/page-faults", kept, NULL, 3);
}

/*
 * As on AMD: a member from the middle is dropped, the columns after it
 * move down one, and the run's counts with them.
 */
static void test_switch_moving_columns(void **state)
{
	static const char *const kept[] = { "cpu-clock", "page-faults", "cpu-migrations", NULL };

	run_switch("context-switches,page-faults/cpu-migrations,emulation-faults",
		   "page-faults/cpu-migrations", kept, "context-switches", 2);
}

/*
 * The last member is dropped, one that counts at almost every switch: the
 * column it leaves is past the new layout's counters. A CPU's reads there
 * must be zero from the switch on, or every charge after it adds the
 * dropped member's last difference to the entry and the interval is not
 * conserved.
 */
static void test_switch_drops_last_column(void **state)
{
	static const char *const kept[] = { "cpu-clock", "page-faults", "cpu-migrations", NULL };

	run_switch("page-faults/cpu-migrations,context-switches", "page-faults/cpu-migrations",
		   kept, "context-switches", 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_switch_in_place, setup, teardown),
		cmocka_unit_test_setup_teardown(test_switch_more_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_switch_moving_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_switch_drops_last_column, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
