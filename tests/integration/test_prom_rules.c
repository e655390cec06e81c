// SPDX-License-Identifier: GPL-2.0
/*
 * The recording rules shipped for the exporter (prometheus/tdtrace.rules.yml)
 * load (promtool check rules) and compute what tests/prometheus/rules_test.yml
 * expects from series of the exporter's metrics (promtool test rules).
 * Skips with a reason when promtool (Debian: prometheus) is missing.
 */
#include "itest.h"

static int sh(const char *cmd)
{
	int status = system(cmd);

	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_rules(void **state)
{
	(void)state;
	if (sh("command -v promtool >/dev/null")) {
		print_message("SKIP: promtool is not installed (Debian package prometheus; make "
			      "deps installs it)\n");
		skip();
	}
	assert_int_equal(sh("promtool check rules prometheus/tdtrace.rules.yml"), 0);
	assert_int_equal(sh("cd tests/prometheus && promtool test rules rules_test.yml"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
