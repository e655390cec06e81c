// SPDX-License-Identifier: GPL-2.0
/* The fault tests' common checks, declared (and described) in faults.h. */
#include "faults.h"

int fault_links_to(const struct itest_bpf_ids *ids, char *names, size_t len)
{
	json_t *all = itest_bpftool_show("link"), *o;
	size_t i;
	int n = 0;

	names[0] = '\0';
	if (!all)
		return -1;
	json_array_foreach(all, i, o)
	{
		long long prog = itest_jint(o, "prog_id");

		if (prog < 0 || !itest_id_in(ids->prog, ids->nr_progs, (unsigned int)prog))
			continue;
		n++;
		if (strlen(names) + 48 < len)
			sprintf(names + strlen(names), "%slink %lld (prog %lld)", n > 1 ? " " : "",
				itest_jint(o, "id"), prog);
	}
	json_decref(all);
	return n;
}

void fault_start(struct itest_proc *td, int flags, const char *const args[],
		 struct itest_bpf_ids *ids)
{
	char skip[512], error[512], links[1024];
	int err;

	itest_require_root();
	if (!itest_have_bpftool())
		itest_skip("bpftool is not installed: cannot tell whether tdtrace leaves BPF "
			   "programs attached\n");
	err = itest_tdtrace_start(td, flags, FAULT_START_MS, args);
	if (err == -ECHILD) {
		if (itest_early_exit(td, skip, sizeof(skip), error, sizeof(error)))
			itest_skip("%s", skip);
		fail_msg("%s", error);
	}
	if (err)
		fail_msg("tdtrace did not say it was counting within %d ms: %s", FAULT_START_MS,
			 strerror(-err));
	if (itest_td_ids_of(td->pid, ids))
		fail_msg("tdtrace (pid %d) holds no td_ program and map while counting",
			 (int)td->pid);
	/* The check after exit looks for links: they must be seen while it runs. */
	if (fault_links_to(ids, links, sizeof(links)) <= 0)
		fail_msg("bpftool shows no link to tdtrace's programs while it counts");
}

void fault_assert_detached(const struct itest_bpf_ids *ids)
{
	long long end = itest_now_ms() + FAULT_GONE_MS;
	char links[1024], left[1024];
	int n;

	while ((n = fault_links_to(ids, links, sizeof(links))) > 0 && itest_now_ms() < end)
		itest_sleep_ms(50);
	if (n < 0)
		fail_msg("bpftool link show failed");
	if (n > 0)
		fail_msg("left attached after tdtrace exited: %s", links);
	n = itest_wait_td_gone(ids, FAULT_GONE_MS, left, sizeof(left));
	if (n < 0)
		fail_msg("bpftool prog/map show failed");
	if (n > 0)
		fail_msg("left loaded after tdtrace exited: %s", left);
}

json_t *fault_lines(const char *text)
{
	json_t *lines, *o;
	int bad = 0;
	size_t i;

	lines = itest_parse_jsonl(text, &bad);
	if (bad)
		fail_msg("JSON line %d is not a whole JSON object", bad);
	if (*text && text[strlen(text) - 1] != '\n')
		fail_msg("the output ends in the middle of a line: ...%s",
			 text + (strlen(text) > 80 ? strlen(text) - 80 : 0));
	json_array_foreach(lines, i, o)
	{
		if (itest_jis(o, "type", "system") &&
		    !json_is_true(json_object_get(o, "conserved")))
			fail_msg("system line of %s %lld is not conserved: %s", itest_jstr(o, "phase"),
				 itest_jint(o, "interval"), json_dumps(o, JSON_COMPACT));
	}
	return lines;
}

json_t *fault_find(const json_t *lines, const char *type, const char *phase, pid_t pid)
{
	size_t i;
	json_t *o;

	json_array_foreach(lines, i, o)
	{
		if (itest_jis(o, "type", type) && itest_jis(o, "phase", phase) &&
		    (!pid || itest_jint(o, "pid") == pid))
			return o;
	}
	return NULL;
}

int fault_nr_intervals(const json_t *lines)
{
	size_t i;
	json_t *o;
	int n = 0;

	json_array_foreach(lines, i, o) n +=
		itest_jis(o, "type", "system") && itest_jis(o, "phase", "interval");
	return n;
}

void fault_assert_cpu_near(const json_t *lines, pid_t pid, uint64_t want_ns, uint64_t steal_ns)
{
	double tol = itest_tolerance_pct(2.0, (double)want_ns, steal_ns) / 100.0;
	const json_t *o = fault_find(lines, "process", "summary", pid);
	long long got_ns;

	if (!o)
		fail_msg("no summary line for pid %d", (int)pid);
	got_ns = itest_jint(o, "cpu_ns");
	print_message("pid %d: tdtrace %lld ns, schedstat %llu ns (%+.2f%%; tolerance %.2f%% with "
		      "the hypervisor's steal)\n",
		      (int)pid, got_ns, (unsigned long long)want_ns,
		      100.0 * ((double)got_ns - want_ns) / want_ns, 100.0 * tol);
	assert_true(want_ns > 1000000000ULL);
	if (got_ns < want_ns * (1 - tol) || got_ns > want_ns * (1 + tol))
		fail_msg("pid %d's CPU time is off by more than %.2f%%: %lld ns against %llu ns",
			 (int)pid, 100.0 * tol, got_ns, (unsigned long long)want_ns);
}
