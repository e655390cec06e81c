// SPDX-License-Identifier: GPL-2.0
/*
 * user/host/perf_why.c: the reason a counter's perf_event_open() failed,
 * as the messages say it ("CPU 0: failed to open TOPDOWN.SLOTS: <why>").
 * On a KVM host with a mediated vPMU (Linux 7.0 on), the kernel refuses
 * an event that counts guests with EOPNOTSUPP while such a VM runs
 * (kernel/events/core.c: mediated_pmu_account_event()): the message must
 * name that conflict, not only "Operation not supported".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <stdio.h>
#include "host/perf_why.h"
#include "model/models.h"
#include "tracer/perf_open.h" /* struct cpu_groups: its first_failure buffer */

static void test_eopnotsupp_names_kvm(void **state)
{
	const char *why = perf_open_why(EOPNOTSUPP);

	(void)state;
	assert_non_null(strstr(why, "EOPNOTSUPP"));
	assert_non_null(strstr(why, "KVM host"));
	assert_non_null(strstr(why, "mediated vPMU"));
	assert_non_null(strstr(why, "counts guests"));
	/* What tdtrace does about it: it opens host-only events (exclude_guest). */
	assert_non_null(strstr(why, "tdtrace counts the host only"));
	assert_string_not_equal(why, strerror(EOPNOTSUPP));
	/* ENOTSUP is the same number on Linux: the same reason. */
	assert_string_equal(perf_open_why(ENOTSUP), why);
}

/* Each errno the kernel gives here has its cause; anything else is strerror's text. */
static void test_known_and_unknown(void **state)
{
	static const int known[] = { ENOENT, ENODEV, EBUSY, EACCES, EPERM, EINVAL, EOPNOTSUPP };

	(void)state;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const char *why = perf_open_why(known[i]);

		assert_string_not_equal(why, strerror(known[i]));
		/* A reason inside a one-line message: no line break, no trailing period. */
		assert_null(strchr(why, '\n'));
		assert_int_not_equal(why[strlen(why) - 1], '.');
	}
	assert_non_null(strstr(perf_open_why(EACCES), "CAP_PERFMON"));
	assert_string_equal(perf_open_why(EMFILE), strerror(EMFILE));
	assert_string_equal(perf_open_why(E2BIG), strerror(E2BIG));
}

/*
 * The whole reason reaches the user: "CPU n: failed to open EVENT: why"
 * (cpu_groups' first_failure, said as "failed to open counters on any
 * CPU: ...") fits its buffer for every event of every model row, the
 * longest reason (EOPNOTSUPP's) and a four-digit CPU.
 */
static void test_message_fits(void **state)
{
	size_t room = sizeof(((struct cpu_groups *)0)->first_failure), longest = 0;
	const struct pmu_model *m;
	char line[1024];
	int len = 0;

	(void)state;
	for (int i = 0; (m = model_at(i)); i++)
		for (int e = 0; e < m->nr_events; e++) {
			len = snprintf(line, sizeof(line), "CPU 4095: failed to open %s: %s",
				       m->events[e].name, perf_open_why(EOPNOTSUPP));
			if ((size_t)len > longest)
				longest = len;
		}
	print_message("longest: %zu characters, room for %zu\n", longest, room - 1);
	assert_true(longest > 0);
	assert_true(longest < room);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eopnotsupp_names_kvm),
		cmocka_unit_test(test_known_and_unknown),
		cmocka_unit_test(test_message_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
