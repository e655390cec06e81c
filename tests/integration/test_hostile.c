// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile names: tasks whose comm holds quotes, backslashes, control bytes,
 * escape sequences, invalid UTF-8 or all 15 bytes, in cgroups named with
 * spaces, unicode, quotes, escapes and 255 bytes. tdtrace --software -c
 * traces them, once as a table and once as JSON lines, at the same time.
 * The table must hold nothing but printable ASCII and newlines, every value
 * under its header; every JSON line must parse, and comm and cgroup must
 * come back as the bytes given, invalid UTF-8 as U+FFFD.
 */
#include "itest.h"

#define HELPER_CPU_MS "150" /* each namer's CPU time */
#define START_MS      5000
#define HELPERS_MS    20000
#define STOP_MS	      5000

/* Every expected string: NULL stands for the name itself. */
struct nasty {
	const char *name;  /* bytes given (comm: the kernel keeps the first 15) */
	const char *json;  /* what JSON must decode to */
	const char *table; /* what the table shows */
};

#define FFFD "\xef\xbf\xbd" /* U+FFFD in UTF-8 */

static const struct nasty comms[] = {
	{ "q\"uo'te", NULL, NULL },
	{ "back\\slash\\", NULL, NULL },
	{ "a b  c", NULL, NULL },
	{ "%s%n%x", NULL, NULL },
	{ "tab\tnl\ncr\r", NULL, "tab?nl?cr?" },
	{ "\x1b[31mred\x1b[0m", NULL, "?[31mred?[0m" },
	{ "\x1b]0;title\x07", NULL, "?]0;title?" },
	{ "del\177bel\a", NULL, "del?bel?" },
	{ "bad\xff\xc3utf8", "bad" FFFD FFFD "utf8", "bad??utf8" },
	{ "na\xc3\xafve", NULL, "na??ve" },
	{ "fifteen-bytes15", NULL, NULL },
	{ "sixteen-bytes-16", "sixteen-bytes-1", "sixteen-bytes-1" },
	/* the kernel's cut leaves half of the two-byte e-acute */
	{ "abcdefghijklmn\xc3\xa9", "abcdefghijklmn" FFFD, "abcdefghijklmn?" },
};

#define NR_COMMS (sizeof(comms) / sizeof(comms[0]))

static char long_name[256]; /* NAME_MAX bytes, filled in by the test */

static const struct nasty cgroups[] = {
	{ "with space", NULL, NULL },
	{ "na\xc3\xafve \xe5\xae\xb9\xe5\x99\xa8", NULL, "na??ve ??????" },
	{ "new\nline", NULL, "new?line" }, /* cgroup v2 refuses it: skipped then */
	{ "quo\"te'", NULL, NULL },
	{ "back\\slash", NULL, NULL },
	{ "esc\x1b[2J", NULL, "esc?[2J" },
	{ "tab\there", NULL, "tab?here" },
	{ "bad\xffutf8", "bad" FFFD "utf8", "bad?utf8" },
	{ "%s%n", NULL, NULL },
	{ long_name, NULL, NULL },
};

#define NR_CGROUPS (sizeof(cgroups) / sizeof(cgroups[0]))

static const char *json_of(const struct nasty *n)
{
	return n->json ? n->json : n->name;
}

static const char *table_of(const struct nasty *n)
{
	return n->table ? n->table : n->name;
}

static char parent[PATH_MAX / 2];	   /* the -c cgroup, absolute */
static const char *parent_rel;		   /* the same under the mount, "/tdtrace-hostile-PID" */
static char cg_path[NR_CGROUPS][PATH_MAX]; /* made, absolute; "" if refused */
static struct itest_proc helpers[NR_COMMS], td_table, td_json;
static size_t home[NR_COMMS]; /* the cgroup each namer runs in */

static int setup(void **state)
{
	for (size_t i = 0; i < NR_COMMS; i++)
		itest_proc_init(&helpers[i]);
	itest_proc_init(&td_table);
	itest_proc_init(&td_json);
	return 0;
}

static int teardown(void **state)
{
	for (size_t i = 0; i < NR_COMMS; i++)
		itest_proc_release(&helpers[i]);
	itest_proc_release(&td_table);
	itest_proc_release(&td_json);
	itest_kill_children();
	for (size_t i = 0; i < NR_CGROUPS; i++) {
		if (cg_path[i][0] && itest_cgroup_remove(cg_path[i]))
			print_message("could not remove a cgroup under %s\n", parent);
		cg_path[i][0] = '\0';
	}
	itest_cleanup();
	return 0;
}

/* ------------------------------------------------------------------ JSON */

static json_t *summary_line(json_t *lines, const char *type, const char *key, long long v)
{
	json_t *o;
	size_t i;

	json_array_foreach(lines, i, o)
	{
		if (itest_jis(o, "phase", "summary") && itest_jis(o, "type", type) &&
		    itest_jint(o, key) == v)
			return o;
	}
	return NULL;
}

/* Print the bytes of @s with C escapes, for messages. */
static const char *shown(const char *s)
{
	static char buf[4][1200];
	static int k;
	char *b = buf[k++ % 4];
	size_t n = 0;

	for (; s && *s && n + 5 < sizeof(buf[0]); s++) {
		unsigned char c = *s;

		if (c >= 0x20 && c < 0x7f && c != '\\')
			b[n++] = c;
		else
			n += snprintf(b + n, sizeof(buf[0]) - n, "\\x%02x", c);
	}
	b[n] = '\0';
	return s ? b : "(null)";
}

/* "/tdtrace-hostile-PID/<name>" with the name as @form gives it. */
static void cgroup_rel(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", parent_rel, name);
}

static int check_json(const char *out)
{
	char want[PATH_MAX + 64];
	int bad, failures = 0;
	json_t *lines = itest_parse_jsonl(out, &bad);

	if (bad) {
		print_message("FAIL: JSON line %d does not parse\n", bad);
		failures++;
	}
	for (size_t i = 0; i < NR_COMMS; i++) {
		json_t *o = summary_line(lines, "process", "pid", helpers[i].pid);
		const char *comm = o ? itest_jstr(o, "comm") : NULL;
		const char *path = o ? itest_jstr(o, "cgroup") : NULL;

		cgroup_rel(want, sizeof(want), json_of(&cgroups[home[i]]));
		if (!comm || strcmp(comm, json_of(&comms[i])) || !path || strcmp(path, want)) {
			print_message("FAIL: JSON process %d: comm \"%s\", want \"%s\"; cgroup "
				      "\"%s\", want \"%s\"\n",
				      (int)helpers[i].pid, shown(comm), shown(json_of(&comms[i])),
				      shown(path), shown(want));
			failures++;
		}
	}
	for (size_t i = 0; i < NR_CGROUPS; i++) {
		json_t *o;
		const char *path;

		if (!cg_path[i][0])
			continue;
		o = summary_line(lines, "cgroup", "cgroup_id", (long long)itest_inode(cg_path[i]));
		path = o ? itest_jstr(o, "cgroup") : NULL;
		cgroup_rel(want, sizeof(want), json_of(&cgroups[i]));
		if (!path || strcmp(path, want)) {
			print_message("FAIL: JSON cgroup line: \"%s\", want \"%s\"\n", shown(path),
				      shown(want));
			failures++;
		}
	}
	print_message("JSON: %zu lines, %d failures\n", json_array_size(lines), failures);
	json_decref(lines);
	return failures;
}

/* ----------------------------------------------------------------- table */

/* Only printable ASCII and newlines may reach the terminal. */
static int check_bytes(const char *out)
{
	for (size_t i = 0; out[i]; i++) {
		unsigned char c = out[i];

		if (c != '\n' && (c < 0x20 || c > 0x7e)) {
			print_message("FAIL: byte 0x%02x at offset %zu of the table\n", c, i);
			return 1;
		}
	}
	return 0;
}

/* The column of @word in @head, or -1. */
static int col(const char *head, const char *word)
{
	const char *p = strstr(head, word);

	return p ? (int)(p - head) : -1;
}

/* The line of @text starting at @line, copied to @buf. */
static const char *next_line(const char *text, char *buf, size_t len)
{
	const char *nl = strchr(text, '\n');
	size_t n = nl ? (size_t)(nl - text) : strlen(text);

	if (n >= len)
		n = len - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return nl ? nl + 1 : text + strlen(text);
}

/*
 * A right-aligned number ends at @end (the column after its header's last
 * letter): a digit just before, a space (or the line's end) at it.
 */
static bool number_ends_at(const char *row, int end)
{
	int len = strlen(row);

	return end > 0 && end <= len && row[end - 1] >= '0' && row[end - 1] <= '9' &&
	       (end == len || row[end] == ' ');
}

/* @row shows @text at @at, then only spaces up to @until (-1: the line's end or "  (exited)"). */
static bool text_at(const char *row, int at, const char *text, int until)
{
	int len = strlen(row), n = strlen(text);

	if (at < 0 || at + n > len || memcmp(row + at, text, n))
		return false;
	if (until < 0)
		return row[at + n] == '\0' || !strcmp(row + at + n, "  (exited)");
	for (int i = at + n; i < until; i++)
		if (row[i] != ' ')
			return false;
	return true;
}

static int check_table(const char *out)
{
	static char head[1024], cg_head[1024], row[1024];
	const char *p = strstr(out, "summary of");
	int pid_end, comm, cpu_end, ms_end, sl_end, cg, failures = check_bytes(out);
	bool seen[NR_COMMS] = {}, cg_seen[NR_CGROUPS] = {};

	if (!p)
		fail_msg("no summary in the table:\n%s", out);
	p = next_line(p, row, sizeof(row)); /* the summary's title */
	p = next_line(p, row, sizeof(row)); /* traced ... */
	p = next_line(p, head, sizeof(head));
	pid_end = col(head, "PID") + 3;
	comm = col(head, "COMM");
	cpu_end = col(head, "%CPU") + 4;
	ms_end = col(head, "CPU_MS") + 6;
	sl_end = col(head, "SLICES") + 6;
	cg = col(head, "CGROUP");
	if (pid_end < 3 || comm < 0 || cpu_end < 4 || ms_end < 6 || sl_end < 6 || cg < 0)
		fail_msg("not the task table's header: %s", head);

	/* Task rows up to the cgroup table's header. */
	for (p = next_line(p, row, sizeof(row)); *row && !strstr(row, "SLICES  CGROUP");
	     p = next_line(p, row, sizeof(row))) {
		char want[PATH_MAX + 64];
		int pid = atoi(row), i;

		for (i = 0; i < (int)NR_COMMS && helpers[i].pid != pid; i++)
			;
		if (i == (int)NR_COMMS)
			continue;
		cgroup_rel(want, sizeof(want), table_of(&cgroups[home[i]]));
		seen[i] = true;
		if (!number_ends_at(row, pid_end) ||
		    !text_at(row, comm, table_of(&comms[i]), cpu_end - 6) ||
		    !number_ends_at(row, cpu_end) || !number_ends_at(row, ms_end) ||
		    !number_ends_at(row, sl_end) || !text_at(row, cg, want, -1)) {
			print_message("FAIL: task row not aligned or not as expected (comm \"%s\", "
				      "cgroup \"%s\"):\n%s\n%s\n",
				      table_of(&comms[i]), want, head, row);
			failures++;
		}
	}
	snprintf(cg_head, sizeof(cg_head), "%s", row);
	cpu_end = col(cg_head, "%CPU") + 4;
	ms_end = col(cg_head, "CPU_MS") + 6;
	sl_end = col(cg_head, "SLICES") + 6;
	cg = col(cg_head, "CGROUP");
	for (p = next_line(p, row, sizeof(row)); *row; p = next_line(p, row, sizeof(row))) {
		for (size_t i = 0; i < NR_CGROUPS; i++) {
			char want[PATH_MAX + 64];

			cgroup_rel(want, sizeof(want), table_of(&cgroups[i]));
			if (!cg_path[i][0] || !text_at(row, cg, want, -1))
				continue;
			cg_seen[i] = true;
			if (!number_ends_at(row, cpu_end) || !number_ends_at(row, ms_end) ||
			    !number_ends_at(row, sl_end)) {
				print_message("FAIL: cgroup row not aligned:\n%s\n%s\n", cg_head,
					      row);
				failures++;
			}
		}
	}
	for (size_t i = 0; i < NR_COMMS; i++) {
		if (!seen[i]) {
			print_message("FAIL: no task row for %d \"%s\"\n", (int)helpers[i].pid,
				      table_of(&comms[i]));
			failures++;
		}
	}
	for (size_t i = 0; i < NR_CGROUPS; i++) {
		if (cg_path[i][0] && !cg_seen[i]) {
			print_message("FAIL: no cgroup row showing \"%.80s\" whole\n",
				      table_of(&cgroups[i]));
			failures++;
		}
	}
	print_message("table: %zu bytes, %d failures\n", strlen(out), failures);
	return failures;
}

/* ------------------------------------------------------------------ test */

/* print_message() cuts long messages: one line at a time. */
static void print_lines(const char *text)
{
	static char line[1024];

	while (*text) {
		text = next_line(text, line, sizeof(line));
		print_message("%s\n", line);
	}
}

static void make_cgroups(void)
{
	char mnt[PATH_MAX];
	int made = 0, err;

	memset(long_name, 'L', sizeof(long_name) - 1);
	if (itest_cgroup2_mount(mnt, sizeof(mnt)))
		itest_skip("no cgroup v2 mounted\n");
	err = itest_cgroup_make("tdtrace-hostile", parent, sizeof(parent));
	if (err)
		fail_msg("cannot make a cgroup under %s: %s", mnt, strerror(-err));
	parent_rel = parent + strlen(mnt);
	for (size_t i = 0; i < NR_CGROUPS; i++) {
		if ((size_t)snprintf(cg_path[i], PATH_MAX, "%s/%s", parent, cgroups[i].name) >=
		    PATH_MAX)
			fail_msg("cgroup path too long under %s", parent);
		if (!mkdir(cg_path[i], 0755)) {
			made++;
			continue;
		}
		if (errno != EINVAL)
			fail_msg("mkdir \"%s\": %s", shown(cg_path[i]), strerror(errno));
		print_message("the kernel refuses a cgroup named \"%s\": left out\n",
			      shown(cgroups[i].name));
		cg_path[i][0] = '\0';
	}
	assert_true(made > 0);
}

/* Start each namer, held on its stdin, in cgroup i (skipping refused ones). */
static void start_helpers(void)
{
	const char *namer = itest_helper_path("namer");

	for (size_t i = 0; i < NR_COMMS; i++) {
		char *argv[] = { (char *)namer, (char *)comms[i].name, HELPER_CPU_MS, NULL };
		size_t k = i % NR_CGROUPS;
		int err;

		while (!cg_path[k][0])
			k = (k + 1) % NR_CGROUPS;
		home[i] = k;
		err = itest_spawn(&helpers[i], argv, ITEST_STDIN_PIPE);
		if (err)
			fail_msg("cannot run %s: %s", namer, strerror(-err));
		err = itest_cgroup_move(cg_path[k], helpers[i].pid);
		if (err)
			fail_msg("cannot move %d into \"%s\": %s", (int)helpers[i].pid,
				 shown(cg_path[k]), strerror(-err));
	}
}

static void test_hostile_names(void **state)
{
	const char *table_args[] = { "--software", "-c", parent, "-I", "400", "-n", "100", NULL };
	const char *json_args[] = { "--software", "-c", parent, "-I", "400", "--json", NULL };
	char *table, *json, *err;
	int failures, c1, c2;

	itest_require_root();
	make_cgroups();
	start_helpers();
	if (itest_tdtrace_start(&td_table, 0, START_MS, table_args) ||
	    itest_tdtrace_start(&td_json, 0, START_MS, json_args)) {
		err = itest_stderr(td_table.reaped ? &td_table : &td_json);
		fail_msg("tdtrace did not start counting: %s", err);
	}
	for (size_t i = 0; i < NR_COMMS; i++)
		if (write(helpers[i].in_pipe, "g", 1) != 1)
			fail_msg("cannot start namer %d", (int)helpers[i].pid);
	for (size_t i = 0; i < NR_COMMS; i++) {
		if (itest_wait(&helpers[i], HELPERS_MS) || itest_exit_code(&helpers[i]))
			fail_msg("namer \"%s\" did not run: exit %d", shown(comms[i].name),
				 itest_exit_code(&helpers[i]));
	}
	c1 = itest_signal_and_wait(&td_table, SIGINT, STOP_MS);
	c2 = itest_signal_and_wait(&td_json, SIGINT, STOP_MS);
	if (c1 || c2)
		fail_msg("tdtrace exited %d (table) and %d (JSON), want 0", c1, c2);
	table = itest_stdout(&td_table);
	json = itest_stdout(&td_json);
	if (!table || !json)
		fail_msg("cannot read tdtrace's output");
	print_lines(strstr(table, "summary of") ?: table);
	failures = check_table(table) + check_json(json);
	free(table);
	free(json);
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hostile_names, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
