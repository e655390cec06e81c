// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for k8s_meta_parse() (user/model/k8s_meta.c), which reads
 * the container runtimes' state files for Kubernetes names. The input is a
 * state file's bytes, read as each of the three formats (containerd's and
 * CRI-O's config.json, docker's config.v2.json), as whoever can write to
 * the runtime's state directory may put anything there. Checks, beyond no
 * crash or leak:
 * - the result is one of the parser's four, and only K8S_OK has names:
 *   otherwise the struct is all zero;
 * - K8S_OK has a namespace and a pod name; a sandbox has no container name;
 * - every string is NUL-terminated inside its array, valid UTF-8, and free
 *   of control characters (C0, DEL, C1), and so is the reason given;
 * - parsing is a function of the bytes: the same input gives the same
 *   result a second time, with or without a reason buffer.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>
#include "model/k8s_meta.h"

/* NUL inside @size, then valid UTF-8 with no control character. */
static void assert_clean(const char *s, size_t size)
{
	const unsigned char *p = (const unsigned char *)s;

	assert(memchr(s, '\0', size));
	while (*p) {
		int more = *p < 0x80 ? 0 : *p >= 0xf0 ? 3 : *p >= 0xe0 ? 2 : *p >= 0xc0 ? 1 : -1;

		assert(more >= 0);
		assert(*p >= 0x20 && *p != 0x7f);
		assert(!(p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0));
		p++;
		while (more--) {
			assert((*p & 0xc0) == 0x80);
			p++;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct k8s_meta zero;
	const char *buf = (const char *)data;
	int f;

	for (f = K8S_FORMAT_CONTAINERD; f <= K8S_FORMAT_DOCKER; f++) {
		struct k8s_meta m, again;
		char why[160];
		enum k8s_result r = k8s_meta_parse(f, buf, size, &m, why, sizeof(why));

		assert(r == K8S_OK || r == K8S_NOT_KUBERNETES || r == K8S_BAD_JSON ||
		       r == K8S_BAD_SHAPE);
		assert_clean(why, sizeof(why));
		assert((r == K8S_BAD_JSON || r == K8S_BAD_SHAPE) == (why[0] != '\0'));
		if (r != K8S_OK) {
			assert(!memcmp(&m, &zero, sizeof(m)));
		} else {
			assert_clean(m.namespace, sizeof(m.namespace));
			assert_clean(m.pod, sizeof(m.pod));
			assert_clean(m.container, sizeof(m.container));
			assert_clean(m.pod_uid, sizeof(m.pod_uid));
			assert(m.namespace[0] && m.pod[0]);
			assert(!m.sandbox || !m.container[0]);
		}
		assert(k8s_meta_parse(f, buf, size, &again, NULL, 0) == r);
		assert(!memcmp(&m, &again, sizeof(m)));
	}
	return 0;
}
