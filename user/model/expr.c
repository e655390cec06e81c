// SPDX-License-Identifier: GPL-2.0
/* perf metric expressions: a recursive-descent compiler to a stack program. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/expr.h"

enum {
	OP_NUM, /* push num */
	OP_VAR, /* push vars[var] */
	OP_ADD, /* the binary ones pop b, then a, and push a op b */
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_LT,
	OP_GT,
	OP_MAX,
	OP_MIN,
	OP_DRATIO,
	OP_NEG,	   /* pops one */
	OP_SELECT, /* pops else, cond, then: pushes cond ? then : else */
	OP_OR,	   /* perf's '|': 1 if either is not zero (NaN is not zero), else 0 */
	OP_XOR,	   /* perf's '^': 1 if exactly one is not zero, else 0 */
};

/* Operands each op pops: the stack depth a program needs is checked at compile time. */
static const int pops[] = {
	[OP_NUM] = 0,	 [OP_VAR] = 0, [OP_ADD] = 2,	[OP_SUB] = 2, [OP_MUL] = 2,
	[OP_DIV] = 2,	 [OP_LT] = 2,  [OP_GT] = 2,	[OP_MAX] = 2, [OP_MIN] = 2,
	[OP_DRATIO] = 2, [OP_NEG] = 1, [OP_SELECT] = 3, [OP_OR] = 2,  [OP_XOR] = 2,
};

#define STACK_MAX 32

struct parser {
	const char *text, *p;
	struct expr *e;
	expr_resolve_fn resolve;
	void *ctx;
	int depth, max_depth;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct parser *ps, const char *what)
{
	if (ps->failed)
		return;
	ps->failed = true;
	snprintf(ps->err, ps->errlen, "%s at offset %d of \"%s\"", what, (int)(ps->p - ps->text),
		 ps->text);
}

static void emit(struct parser *ps, unsigned char code, unsigned short var, double num)
{
	if (ps->failed)
		return;
	if (ps->e->nr == EXPR_MAX_OPS) {
		fail(ps, "expression too long");
		return;
	}
	ps->e->op[ps->e->nr++] = (struct expr_op){ .code = code, .var = var, .num = num };
	ps->depth += 1 - pops[code];
	if (ps->depth > ps->max_depth)
		ps->max_depth = ps->depth;
}

static void skip_space(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

/* perf's name characters; anything after a backslash is part of the name too. */
static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' || c == '@' ||
	       c == '#' || c == '\\';
}

/* Read a name, unescaped, with a "pmu@name@" prefix dropped. Empty if none here. */
static void read_name(struct parser *ps, char *out, size_t size)
{
	size_t n = 0;
	char *at;

	while (*ps->p && name_char(*ps->p)) {
		char c = *ps->p++;

		if (c == '\\' && *ps->p)
			c = *ps->p++;
		if (n + 1 < size)
			out[n++] = c;
	}
	out[n] = '\0';
	at = strchr(out, '@');
	if (at && n > 0 && out[n - 1] == '@' && at != out + n - 1) {
		out[n - 1] = '\0';
		memmove(out, at + 1, strlen(at + 1) + 1);
	}
}

static bool accept(struct parser *ps, const char *tok)
{
	size_t len = strlen(tok);

	skip_space(ps);
	if (strncmp(ps->p, tok, len))
		return false;
	/* A keyword must not run on into a name ("iffy"). */
	if (isalpha((unsigned char)tok[0]) && name_char(ps->p[len]))
		return false;
	ps->p += len;
	return true;
}

static void expect(struct parser *ps, const char *tok)
{
	if (!accept(ps, tok)) {
		char what[32];

		snprintf(what, sizeof(what), "expected '%s'", tok);
		fail(ps, what);
	}
}

static void parse_expr(struct parser *ps);

/* max(a, b), min(a, b), d_ratio(a, b) */
static bool parse_call(struct parser *ps)
{
	static const struct {
		const char *name;
		unsigned char code;
	} calls[] = { { "max", OP_MAX }, { "min", OP_MIN }, { "d_ratio", OP_DRATIO } };

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		const char *save = ps->p;

		if (!accept(ps, calls[i].name))
			continue;
		if (!accept(ps, "(")) {
			ps->p = save; /* a name that starts like a call */
			return false;
		}
		parse_expr(ps);
		expect(ps, ",");
		parse_expr(ps);
		expect(ps, ")");
		emit(ps, calls[i].code, 0, 0);
		return true;
	}
	return false;
}

/*
 * strcmp_cpuid_str(ID): a variable the resolver names "strcmp_cpuid_str(ID)",
 * 1 where the CPU is ID's part at ID's revision or later, as perf's (the
 * caller knows the CPU; arm64's tools/perf/arch/arm64/util/header.c).
 */
static bool parse_cpuid_call(struct parser *ps)
{
	static const char call[] = "strcmp_cpuid_str";
	char id[EXPR_NAME_MAX], name[EXPR_NAME_MAX + sizeof(call) + 2];
	const char *save = ps->p;
	int var;

	if (!accept(ps, call))
		return false;
	if (!accept(ps, "(")) {
		ps->p = save;
		return false;
	}
	skip_space(ps);
	read_name(ps, id, sizeof(id));
	if (!id[0]) {
		fail(ps, "expected a cpuid");
		return true;
	}
	expect(ps, ")");
	if (ps->failed)
		return true;
	snprintf(name, sizeof(name), "%s(%s)", call, id);
	var = ps->resolve(ps->ctx, name);
	if (var < 0) {
		ps->failed = true;
		snprintf(ps->err, ps->errlen, "unknown name '%s' in \"%s\"", name, ps->text);
		return true;
	}
	emit(ps, OP_VAR, (unsigned short)var, 0);
	return true;
}

static void parse_primary(struct parser *ps)
{
	char name[EXPR_NAME_MAX];
	char *end;
	double v;
	int var;

	skip_space(ps);
	if (accept(ps, "(")) {
		parse_expr(ps);
		expect(ps, ")");
		return;
	}
	if (isdigit((unsigned char)*ps->p) || (*ps->p == '.' && isdigit((unsigned char)ps->p[1]))) {
		v = strtod(ps->p, &end);
		ps->p = end;
		emit(ps, OP_NUM, 0, v);
		return;
	}
	if (parse_call(ps) || parse_cpuid_call(ps))
		return;
	read_name(ps, name, sizeof(name));
	if (!name[0]) {
		fail(ps, *ps->p ? "unexpected character" : "unexpected end");
		return;
	}
	var = ps->resolve(ps->ctx, name);
	if (var < 0) {
		if (!ps->failed) {
			ps->failed = true;
			snprintf(ps->err, ps->errlen, "unknown name '%s' in \"%s\"", name,
				 ps->text);
		}
		return;
	}
	emit(ps, OP_VAR, (unsigned short)var, 0);
}

static void parse_unary(struct parser *ps)
{
	if (accept(ps, "-")) {
		parse_unary(ps);
		emit(ps, OP_NEG, 0, 0);
		return;
	}
	parse_primary(ps);
}

static void parse_mul(struct parser *ps)
{
	parse_unary(ps);
	while (!ps->failed) {
		if (accept(ps, "*"))
			parse_unary(ps), emit(ps, OP_MUL, 0, 0);
		else if (accept(ps, "/"))
			parse_unary(ps), emit(ps, OP_DIV, 0, 0);
		else
			return;
	}
}

static void parse_add(struct parser *ps)
{
	parse_mul(ps);
	while (!ps->failed) {
		if (accept(ps, "+"))
			parse_mul(ps), emit(ps, OP_ADD, 0, 0);
		else if (accept(ps, "-"))
			parse_mul(ps), emit(ps, OP_SUB, 0, 0);
		else
			return;
	}
}

static void parse_cmp(struct parser *ps)
{
	parse_add(ps);
	while (!ps->failed) {
		if (accept(ps, "<"))
			parse_add(ps), emit(ps, OP_LT, 0, 0);
		else if (accept(ps, ">"))
			parse_add(ps), emit(ps, OP_GT, 0, 0);
		else
			return;
	}
}

/* perf's precedence, loosest first: '|', '^', then '<' '>' (expr.y). */
static void parse_xor(struct parser *ps)
{
	parse_cmp(ps);
	while (!ps->failed && accept(ps, "^"))
		parse_cmp(ps), emit(ps, OP_XOR, 0, 0);
}

static void parse_or(struct parser *ps)
{
	parse_xor(ps);
	while (!ps->failed && accept(ps, "|"))
		parse_xor(ps), emit(ps, OP_OR, 0, 0);
}

/* "a if c else b" binds loosest, as in perf; the else branch may chain. */
static void parse_expr(struct parser *ps)
{
	parse_or(ps);
	if (!ps->failed && accept(ps, "if")) {
		parse_or(ps);
		expect(ps, "else");
		parse_expr(ps);
		emit(ps, OP_SELECT, 0, 0);
	}
}

int expr_compile(const char *text, expr_resolve_fn resolve, void *ctx, struct expr *e, char *err,
		 size_t errlen)
{
	struct parser ps = { .text = text,
			     .p = text,
			     .e = e,
			     .resolve = resolve,
			     .ctx = ctx,
			     .err = err,
			     .errlen = errlen };

	e->nr = 0;
	if (errlen)
		err[0] = '\0';
	parse_expr(&ps);
	skip_space(&ps);
	if (!ps.failed && *ps.p)
		fail(&ps, "unexpected text");
	if (!ps.failed && ps.max_depth > STACK_MAX)
		fail(&ps, "expression nested too deeply");
	return ps.failed ? -EINVAL : 0;
}

double expr_eval(const struct expr *e, const double *vars)
{
	double st[STACK_MAX];
	int sp = 0;

	for (int i = 0; i < e->nr; i++) {
		const struct expr_op *op = &e->op[i];
		double a, b;

		switch (op->code) {
		case OP_NUM:
			st[sp++] = op->num;
			continue;
		case OP_VAR:
			st[sp++] = vars[op->var];
			continue;
		case OP_NEG:
			st[sp - 1] = -st[sp - 1];
			continue;
		case OP_SELECT: /* then cond else */
			sp -= 2;
			st[sp - 1] = st[sp] != 0 ? st[sp - 1] : st[sp + 1];
			continue;
		}
		b = st[--sp];
		a = st[sp - 1];
		switch (op->code) {
		case OP_ADD:
			a += b;
			break;
		case OP_SUB:
			a -= b;
			break;
		case OP_MUL:
			a *= b;
			break;
		case OP_DIV:
			a = b == 0 ? NAN : a / b;
			break;
		case OP_LT:
			a = a < b;
			break;
		case OP_GT:
			a = a > b;
			break;
		case OP_MAX:
			a = a > b ? a : b;
			break;
		case OP_MIN:
			a = a < b ? a : b;
			break;
		case OP_DRATIO:
			a = b == 0 ? 0 : a / b;
			break;
		case OP_OR:
			a = a != 0 || b != 0;
			break;
		case OP_XOR:
			a = (a != 0) != (b != 0);
			break;
		}
		st[sp - 1] = a;
	}
	return sp == 1 ? st[0] : NAN;
}
