// SPDX-License-Identifier: GPL-2.0
/*
 * tdtrace(8) and the bash completion (user/cli/man.c) hold every
 * documented option of the table and none of the hidden ones; the page
 * passes mandoc -Tlint and the script bash -n, where those are installed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/man.h"
#include "cli/option_table.h"

static char *made(bool man, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	if (man)
		man_write(f, "2026-01-01");
	else
		completion_write(f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Run @cmd on @text written to a temporary file; its exit status, or -1 if @tool is missing. */
static int run_on(const char *tool, const char *cmd, const char *text, size_t len)
{
	char path[] = "/tmp/tdtrace-test-man-XXXXXX", line[512];
	int fd, status;

	snprintf(line, sizeof(line), "command -v %s >/dev/null", tool);
	if (system(line)) {
		print_message("SKIP check: %s is not installed (make deps installs it)\n", tool);
		return -1;
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	snprintf(line, sizeof(line), "%s %s", cmd, path);
	status = system(line);
	unlink(path);
	return status;
}

static void test_man_page(void **state)
{
	size_t len;
	char *page = made(true, &len);
	char want[96];

	(void)state;
	assert_non_null(strstr(page, ".TH TDTRACE 8 \"2026-01-01\""));
	for (const char *s = ".SH NAME\0.SH SYNOPSIS\0.SH OPTIONS\0.SH EXIT STATUS\0.SH FILES\0"
			     ".SH EXAMPLES\0";
	     *s; s += strlen(s) + 1)
		if (!strstr(page, s))
			fail_msg("no %s in the man page", s);
	for (int i = 0; i < nr_option_rows; i++) {
		const struct option_row *r = &option_rows[i];

		if (!r->name)
			continue;
		snprintf(want, sizeof(want), "\\fB\\-\\-%s\\fR", r->name);
		/* roff spells '-' inside the name as \- too. */
		for (char *p = strchr(want + 8, '-'); p; p = strchr(p + 2, '-')) {
			memmove(p + 1, p, strlen(p) + 1);
			*p = '\\';
		}
		if (r->hidden && strstr(page, want))
			fail_msg("hidden option --%s is in the man page", r->name);
		if (!r->hidden && !strstr(page, want))
			fail_msg("--%s is not in the man page (looked for %s)", r->name, want);
	}
	assert_non_null(strstr(page, ".B 127"));
	if (run_on("mandoc", "mandoc -Tlint -W style", page, len) > 0)
		fail_msg("mandoc -Tlint finds fault with the man page");
	free(page);
}

static void test_completion(void **state)
{
	size_t len;
	char *script = made(false, &len);
	char want[64];

	(void)state;
	for (int i = 0; i < nr_option_rows; i++) {
		const struct option_row *r = &option_rows[i];

		if (!r->name)
			continue;
		/* An optional value (--usdt[=BINARY]) is completed without its '='. */
		snprintf(want, sizeof(want), "--%s%s", r->name, r->arg && !r->optional ? "=" : "");
		if (!r->hidden && !strstr(script, want))
			fail_msg("%s is not completed", want);
		if (r->hidden && strstr(script, want))
			fail_msg("hidden %s is completed", want);
	}
	assert_non_null(strstr(script, "complete -F _tdtrace tdtrace"));
	if (run_on("bash", "bash -n", script, len) > 0)
		fail_msg("bash -n finds a syntax error in the completion script");
	free(script);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_man_page),
		cmocka_unit_test(test_completion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
