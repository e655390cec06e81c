// SPDX-License-Identifier: GPL-2.0
/*
 * user/model/expr.c: perf's metric expression language, compiled and
 * evaluated. Each expected value is worked out in the comment beside it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/expr.h"

/* Variables of the tests: their names, and their values. */
static const char *const names[] = {
	"topdown-fe-bound",
	"topdown-bad-spec",
	"topdown-retiring",
	"topdown-be-bound",
	"INT_MISC.UOP_DROPPING",
	"tma_info_thread_slots",
	"#SMT_on",
	"zero",
	"INT_MISC.RECOVERY_CYCLES,cmask=1,edge", /* as written "cpu@...@" */
	"strcmp_cpuid_str(0x410fd493)",		 /* 1: the CPU is N2 r0p3 or later */
	"strcmp_cpuid_str(0x410fd490)",		 /* 1: the CPU is an N2 */
	"#slots",
};
static const double vals[] = { 20, 10, 50, 20, 4, 200, 1, 0, 7, 1, 1, 5 };

static int resolve(void *ctx, const char *name)
{
	(void)ctx;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

static double eval(const char *text)
{
	struct expr e;
	char err[256];

	if (expr_compile(text, resolve, NULL, &e, err, sizeof(err)))
		fail_msg("%s", err);
	return expr_eval(&e, vals);
}

static void assert_value(const char *text, double want)
{
	double got = eval(text);

	if (fabs(got - want) > 1e-12)
		fail_msg("%s = %.15g, expected %.15g", text, got, want);
}

static void test_arithmetic(void **state)
{
	(void)state;
	assert_value("1 + 2 * 3", 7);
	assert_value("(1 + 2) * 3", 9);
	assert_value("10 - 4 - 3", 3); /* left to right */
	assert_value("12 / 3 / 2", 2); /* left to right */
	assert_value("-2 * -3", 6);
	assert_value("2 - -3", 5);
	assert_value("1e3 + .5", 1000.5);
	assert_value("3 < 4", 1);
	assert_value("3 > 4", 0);
}

static void test_functions(void **state)
{
	(void)state;
	assert_value("max(1 - 3, 0)", 0);
	assert_value("max(0, 2)", 2);
	assert_value("min(5, 2 + 1)", 3);
	assert_value("d_ratio(3, 0)", 0); /* perf's divide that gives 0 */
	assert_value("d_ratio(3, 4)", 0.75);
	assert_true(isnan(eval("3 / zero"))); /* a plain divide by 0: no value */
}

static void test_if_else(void **state)
{
	(void)state;
	assert_value("2 if #SMT_on else 3", 2);
	assert_value("2 if zero else 3", 3);
	/* Loosest of all: the condition and branches are whole sums. */
	assert_value("1 + 1 if 1 < 2 else 5 + 5", 2);
	assert_value("1 if zero else 2 if zero else 3", 3);
}

/* perf's spelling of names: escapes and a PMU prefix. */
static void test_names(void **state)
{
	(void)state;
	/* Group B frontend bound: F/T - D/S = 20/100 - 4/200 = 0.18. */
	assert_value("topdown\\-fe\\-bound / (topdown\\-fe\\-bound + topdown\\-bad\\-spec + "
		     "topdown\\-retiring + topdown\\-be\\-bound) - INT_MISC.UOP_DROPPING / "
		     "tma_info_thread_slots",
		     0.18);
	assert_value("cpu_core@topdown\\-retiring@ / 100", 0.5);
	assert_value("cpu@INT_MISC.RECOVERY_CYCLES\\,cmask\\=1\\,edge@ * 2", 14);
}

static void expect_error(const char *text, const char *says)
{
	struct expr e;
	char err[256];

	assert_int_equal(expr_compile(text, resolve, NULL, &e, err, sizeof(err)), -EINVAL);
	if (!strstr(err, says))
		fail_msg("\"%s\": error \"%s\" does not say \"%s\"", text, err, says);
}

/*
 * perf's '|' and '^' (expr.y): on zero or not, '^' binding tighter than
 * '|', both looser than '<' and '>'; strcmp_cpuid_str(ID) is the
 * resolver's variable "strcmp_cpuid_str(ID)".
 */
static void test_or_xor_cpuid(void **state)
{
	(void)state;
	assert_value("zero | zero", 0);
	assert_value("zero | 3", 1);
	assert_value("2 | 3", 1);
	assert_value("2 ^ 3", 0);	       /* both not zero */
	assert_value("zero ^ 0.5", 1);	       /* one not zero */
	assert_value("1 | 1 ^ 1", 1);	       /* 1 | (1 ^ 1) = 1 | 0; (1 | 1) ^ 1 would be 0 */
	assert_value("zero ^ 1 | zero", 1);    /* (0 ^ 1) | 0 */
	assert_value("1 < 2 | zero", 1);       /* (1 < 2) | 0 */
	assert_value("2 ^ 2 < 1", 1);	       /* 2 ^ (2 < 1) = 2 ^ 0 */
	/* N2's test: r0p3 or later, or not an N2 at all: here an N2 at r0p3 or later */
	assert_value("strcmp_cpuid_str(0x410fd493) | strcmp_cpuid_str(0x410fd490) ^ 1", 1);
	assert_value("(7) if (strcmp_cpuid_str(0x410fd493) | strcmp_cpuid_str(0x410fd490) ^ 1) "
		     "else (7 - 1)",
		     7);
	assert_value("100 * (20 / (#slots * 4))", 100); /* #slots is 5 */
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("1 +", "unexpected end");
	expect_error("(1 + 2", "expected ')'");
	expect_error("no_such_event / 2", "unknown name 'no_such_event'");
	expect_error("max(1)", "expected ','");
	expect_error("1 2", "unexpected text");
	expect_error("2 if 1", "expected 'else'");
	expect_error("$", "unexpected character");
}

static void test_too_long(void **state)
{
	char text[4 * EXPR_MAX_OPS + 8] = "1";

	(void)state;
	for (int i = 0; i < EXPR_MAX_OPS; i++)
		strcat(text, "+1");
	expect_error(text, "too long");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic), cmocka_unit_test(test_functions),
		cmocka_unit_test(test_if_else),	   cmocka_unit_test(test_names),
		cmocka_unit_test(test_errors),	   cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_or_xor_cpuid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
