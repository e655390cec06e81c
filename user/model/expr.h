/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf's metric expressions (the MetricExpr of pmu-events JSON), compiled
 * once into a small stack program and evaluated per row. So a model's
 * formulas are data: its table holds perf's own text.
 *
 * The language is the part of perf's expr.y that TopDown metrics use:
 * numbers, names, + - * / and unary -, < >, parentheses, max(a, b),
 * min(a, b), d_ratio(a, b) (a / b, or 0 when b is 0), "a if c else b",
 * '|' and '^' (on zero or not, as perf's), strcmp_cpuid_str(ID) (the
 * resolver's "strcmp_cpuid_str(ID)") and #literals such as #SMT_on.
 * Names are written as in perf's JSON:
 * backslash escapes ("topdown\-fe\-bound") and a PMU prefix
 * ("cpu_core@topdown\-fe\-bound@") are accepted and dropped, so a name
 * is looked up as "topdown-fe-bound". a / 0 is NaN, as in perf (which
 * then prints no value). Pure.
 */
#ifndef TD_EXPR_H
#define TD_EXPR_H

#include <stddef.h>

#define EXPR_MAX_OPS  96
#define EXPR_NAME_MAX 96

/* One step of a compiled expression. */
struct expr_op {
	unsigned char code; /* enum in expr.c */
	unsigned short var; /* a variable's index, for a load */
	double num;	    /* a constant */
};

struct expr {
	struct expr_op op[EXPR_MAX_OPS];
	int nr;
};

/*
 * Resolve @name (unescaped, without PMU prefix; "#SMT_on" keeps its '#')
 * to a variable index >= 0 of the caller's, or -1 if unknown.
 */
typedef int (*expr_resolve_fn)(void *ctx, const char *name);

/*
 * Compile @text. Returns 0, or -EINVAL with a one-line reason in @err
 * (naming the position, or the unknown name).
 */
int expr_compile(const char *text, expr_resolve_fn resolve, void *ctx, struct expr *e, char *err,
		 size_t errlen);

/* Evaluate @e with variable i = vars[i]. NaN where perf would give no value. */
double expr_eval(const struct expr *e, const double *vars);

#endif /* TD_EXPR_H */
