// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for tdtrace report (user/replay/replay.c): recorded
 * JSON lines, as a user hands them over, decoded again. The input is
 * written to a memfd and read back by name through /proc/self/fd/N, the
 * same getline path as a real file. Checks, beyond no crash:
 * - the exit code is 0 or 1, and 1 exactly when a line was refused;
 * - with --json, every line that is not blank either comes back as one
 *   JSON object or is refused by one error line naming file:line, in
 *   order: out lines + error lines = input lines;
 * - what --json gave back, decoded again, comes back the same;
 * - the table and --format=toplev-csv read the same lines (no crash).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <jansson.h>
#include "replay/replay.h"

static int fd = -1;
static char file[32];

/* "tdtrace report ARGS file" on @data; its stdout and stderr (caller frees). */
static int run(const char *mode, const void *data, size_t size, char **out, char **err)
{
	char *argv[] = { "report", (char *)mode, file, NULL };
	size_t out_len, err_len;
	FILE *o, *e;
	int ret;

	assert(!ftruncate(fd, 0));
	assert(pwrite(fd, data, size, 0) == (ssize_t)size);
	o = open_memstream(out, &out_len);
	e = open_memstream(err, &err_len);
	assert(o && e);
	ret = replay_main(mode ? 3 : 2, mode ? argv : (char *[]){ "report", file, NULL }, o, e);
	fclose(o);
	fclose(e);
	assert(ret == 0 || ret == 1);
	return ret;
}

/* Lines of @data that are not blank (only spaces, tabs, CRs), as getline splits them. */
static long input_lines(const uint8_t *data, size_t size)
{
	long n = 0;

	for (size_t i = 0; i < size;) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t end = nl ? (size_t)(nl - data) : size;
		bool blank = true;

		for (size_t j = i; j < end; j++)
			if (!strchr(" \t\r", data[j]) || !data[j])
				blank = false;
		n += !blank;
		i = end + 1;
	}
	return n;
}

/* Error lines, each "tdtrace report: FILE:N: ..." with N rising. */
static long error_lines(const char *err)
{
	size_t prefix = strlen("tdtrace report: ") + strlen(file) + 1;
	long n = 0, last = 0;

	for (const char *p = err; *p; n++) {
		const char *nl = strchr(p, '\n');
		long line;

		assert(nl);
		assert(!strncmp(p, "tdtrace report: ", 16) &&
		       !strncmp(p + 16, file, strlen(file)) && p[prefix - 1] == ':');
		line = strtol(p + prefix, NULL, 10);
		assert(line > last);
		last = line;
		p = nl + 1;
	}
	return n;
}

/* Lines of @out, each a JSON object. */
static long json_lines(const char *out)
{
	long n = 0;

	for (const char *p = out; *p; n++) {
		const char *nl = strchr(p, '\n');
		json_t *o;

		assert(nl);
		o = json_loadb(p, nl - p, 0, NULL);
		assert(json_is_object(o));
		json_decref(o);
		p = nl + 1;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out, *err, *again, *err2;
	long refused;
	int ret;

	if (size > 65536)
		return -1;
	if (fd < 0) {
		fd = memfd_create("report", MFD_CLOEXEC);
		assert(fd >= 0);
		snprintf(file, sizeof(file), "/proc/self/fd/%d", fd);
	}

	ret = run("--json", data, size, &out, &err);
	refused = error_lines(err);
	assert((ret == 1) == (refused > 0));
	assert(json_lines(out) + refused == input_lines(data, size));

	/* Decoded again, the same lines. */
	assert(run("--json", out, strlen(out), &again, &err2) == 0);
	assert(!strcmp(out, again) && !*err2);
	free(again);
	free(err2);
	free(out);
	free(err);

	ret = run(NULL, data, size, &out, &err);
	assert((ret == 1) == (error_lines(err) > 0));
	free(out);
	free(err);
	run("--format=toplev-csv", data, size, &out, &err);
	free(out);
	free(err);
	return 0;
}
