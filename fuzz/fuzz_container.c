// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for container_parse() (user/model/container.c), which names
 * the cgroup rows of --containers. The input, cut at its first NUL, is a
 * cgroup path as the kernel reports it (any bytes: cgroup names are chosen
 * by whoever can mkdir in the tree). Checks, beyond no crash:
 * - -EINVAL exactly for an empty path or one not starting with '/', and
 *   then the result is zeroed;
 * - every string in the result is NUL-terminated inside its array, and the
 *   kind has a name;
 * - the row's cgroup, path[0..prefix_len), ends at a component boundary,
 *   and parsing it alone gives the same row (it is its own container);
 * - without a container the label is the path (cut to fit);
 * - a label or id made from valid UTF-8 is valid UTF-8 (cuts fall between
 *   characters); unit names with \xHH escapes may decode to any byte, so
 *   paths with a backslash are left out of this one.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "model/container.h"

#define MAX_INPUT 4096

#define NUL_INSIDE(a) (memchr((a), '\0', sizeof(a)) != NULL)

/* Lead bytes followed by the right number of continuation bytes. */
static int utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int more = *p < 0x80 ? 0 : *p >= 0xf0 ? 3 : *p >= 0xe0 ? 2 : *p >= 0xc0 ? 1 : -1;

		if (more < 0)
			return 0;
		p++;
		while (more--) {
			if ((*p & 0xc0) != 0x80)
				return 0;
			p++;
		}
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[MAX_INPUT + 1], prefix[MAX_INPUT + 1];
	static const struct container zero;
	struct container c, again;
	size_t len;
	int ret;

	if (size > MAX_INPUT)
		return -1;
	memcpy(path, data, size);
	path[size] = '\0';
	len = strlen(path);

	ret = container_parse(path, &c);
	if (path[0] != '/') {
		assert(ret == -EINVAL && !memcmp(&c, &zero, sizeof(c)));
		return 0;
	}
	assert(ret == 0);
	assert(NUL_INSIDE(c.id) && NUL_INSIDE(c.pod_uid) && NUL_INSIDE(c.qos) &&
	       NUL_INSIDE(c.label));
	assert(strcmp(container_kind_name(c.kind), "unknown"));
	assert(c.prefix_len > 0 && c.prefix_len <= len);
	assert(path[c.prefix_len] == '\0' || path[c.prefix_len] == '/');

	if (c.kind == CONTAINER_NONE) {
		assert(c.prefix_len == len);
		assert(!strncmp(c.label, path, strlen(c.label)));
	}
	if (!strchr(path, '\\') && utf8_ok(path))
		assert(utf8_ok(c.label) && utf8_ok(c.id));

	memcpy(prefix, path, c.prefix_len);
	prefix[c.prefix_len] = '\0';
	assert(container_parse(prefix, &again) == 0);
	assert(again.kind == c.kind && again.prefix_len == c.prefix_len);
	assert(!strcmp(again.id, c.id) && !strcmp(again.label, c.label));
	assert(!strcmp(again.pod_uid, c.pod_uid) && !strcmp(again.qos, c.qos));
	return 0;
}
