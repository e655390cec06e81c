// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for options_parse() (user/cli/options.c). The input is a
 * command line after "tdtrace": its words separated by NUL bytes, so
 * "-c\0/x\0--\0sh" is `tdtrace -c /x -- sh`. Help and errors go to memory
 * streams. Checks, beyond no crash:
 * - a second parse of the same argv gives the same result and the same
 *   struct (getopt's state is reset: optind = 0), and argv is not permuted;
 * - OPTIONS_RUN prints nothing, and its values are in their documented
 *   ranges: a COMMAND only after "--", no --per-thread with --per-cgroup;
 * - OPTIONS_DONE (--help, --version) prints to out only;
 * - OPTIONS_BAD prints to err only, one message starting "tdtrace: " and
 *   ending in a newline (the README's one-line error contract); a word it
 *   calls an unknown option, or one given a value it does not take, is one.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/options.h"

#define MAX_INPUT 4096
#define MAX_ARGS  64

struct run {
	enum options_result res;
	struct options o;
	char *out, *err;
	size_t out_len, err_len;
};

static void parse(int argc, char **argv, struct run *r)
{
	FILE *out = open_memstream(&r->out, &r->out_len);
	FILE *err = open_memstream(&r->err, &r->err_len);

	assert(out && err);
	r->res = options_parse(argc, argv, &r->o, out, err);
	fclose(out);
	fclose(err);
}

static void check_run(int argc, char **argv, const struct run *r)
{
	const struct options *o = &r->o;

	assert(!r->out_len && !r->err_len);
	assert(o->interval_ms >= 1 && o->interval_ms <= 3600000);
	assert(o->top >= 1 && o->top <= 100000);
	assert(o->duration_s >= 0 && o->duration_s <= 366.0 * 86400);
	assert(o->max_tasks >= 16 && o->max_cgroups >= 16);
	assert(o->depth >= -1 && o->depth <= 64);
	assert(o->nr_cgroups >= 0 && o->nr_cgroups <= TD_MAX_CGROUP_FILTERS);
	assert(o->nr_pids >= 0 && o->nr_pids <= TD_MAX_PIDS);
	for (int i = 0; i < o->nr_cgroups; i++)
		assert(o->cgroups[i] && o->cgroups[i][0]);
	for (int i = 0; i < o->nr_pids; i++)
		assert(o->pids[i] > 0);
	assert(!(o->per_thread && o->per_cgroup));
	assert(!(o->command && o->nr_pids));
	if (o->command) {
		assert(o->command > argv + 1 && o->command < argv + argc);
		assert(!strcmp(o->command[-1], "--"));
	}
}

/*
 * A word named as "unknown option, or one that takes no value" must be one
 * of the two: if it parses on its own, some word gave it a value ("--json=1").
 */
static void check_bad(int argc, char **argv, const struct run *r)
{
	static const char head[] = "tdtrace: unknown option, or one that takes no value: '";
	static const char tail[] = "' (see tdtrace --help)\n";
	char *alone[3] = { "tdtrace", NULL, NULL };
	struct run one = { 0 };
	size_t len;

	if (strncmp(r->err, head, strlen(head)) || r->err_len < strlen(head) + strlen(tail) ||
	    strcmp(r->err + r->err_len - strlen(tail), tail))
		return;
	len = r->err_len - strlen(head) - strlen(tail);
	alone[1] = strndup(r->err + strlen(head), len);
	assert(alone[1]);
	parse(2, alone, &one);
	if (one.res != OPTIONS_BAD) {
		int i;

		for (i = 1; i < argc; i++)
			if (!strncmp(argv[i], alone[1], len) && argv[i][len] == '=')
				break;
		assert(i < argc);
	}
	free(alone[1]);
	free(one.out);
	free(one.err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[MAX_INPUT + 1];
	char *argv[MAX_ARGS + 2], *copy[MAX_ARGS + 2];
	struct run a = { 0 }, b = { 0 };
	int argc = 0;

	if (size > MAX_INPUT)
		return -1;
	memcpy(buf, data, size);
	buf[size] = '\0';

	argv[argc++] = "tdtrace";
	for (size_t i = 0; i < size && argc <= MAX_ARGS; i += strlen(buf + i) + 1)
		argv[argc++] = buf + i;
	argv[argc] = NULL;
	memcpy(copy, argv, sizeof(argv));

	parse(argc, argv, &a);
	assert(!memcmp(argv, copy, (argc + 1) * sizeof(*argv)));
	parse(argc, argv, &b);
	assert(a.res == b.res && !memcmp(&a.o, &b.o, sizeof(a.o)));
	assert(a.out_len == b.out_len && !memcmp(a.out, b.out, a.out_len));
	assert(a.err_len == b.err_len && !memcmp(a.err, b.err, a.err_len));

	switch (a.res) {
	case OPTIONS_RUN:
		check_run(argc, argv, &a);
		break;
	case OPTIONS_DONE:
		assert(a.out_len && !a.err_len);
		break;
	case OPTIONS_BAD:
		assert(!a.out_len && a.err_len > 9);
		assert(!strncmp(a.err, "tdtrace: ", 9) && a.err[a.err_len - 1] == '\n');
		check_bad(argc, argv, &a);
		break;
	default:
		assert(!"options_parse returned no options_result");
	}
	free(a.out);
	free(a.err);
	free(b.out);
	free(b.err);
	return 0;
}
