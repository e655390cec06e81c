// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/model/k8s_meta.h: Kubernetes names from the bytes of
 * a runtime state file. Real-shaped files are in tests/fixtures/k8s (run
 * from the repository root); hostile ones are written here.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/k8s_meta.h"
#include "k8s_fixtures.h"

static const struct k8s_meta zero;

static enum k8s_result parse_fixture(enum k8s_format format, const char *name, struct k8s_meta *m)
{
	char why[200];
	size_t len;
	char *buf = fixture_load(name, &len);
	enum k8s_result r = k8s_meta_parse(format, buf, len, m, why, sizeof(why));

	/* A well-formed file leaves no reason. */
	assert_string_equal(why, "");
	free(buf);
	return r;
}

static enum k8s_result parse_text(enum k8s_format format, const char *text, struct k8s_meta *m,
				  char *why, size_t why_len)
{
	return k8s_meta_parse(format, text, strlen(text), m, why, why_len);
}

/* No byte below 0x20, no DEL, no C1 as UTF-8 (0xc2 0x80-0x9f), NUL inside the array. */
static void assert_clean(const char *s, size_t size)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, len;

	assert_non_null(memchr(s, '\0', size));
	len = strlen(s);
	for (i = 0; i < len; i++) {
		assert_true(p[i] >= 0x20 && p[i] != 0x7f);
		if (p[i] == 0xc2)
			assert_true(p[i + 1] >= 0xa0);
	}
}

#define assert_meta_clean(m)                                                                       \
	do {                                                                                       \
		assert_clean((m)->namespace, sizeof((m)->namespace));                              \
		assert_clean((m)->pod, sizeof((m)->pod));                                          \
		assert_clean((m)->container, sizeof((m)->container));                              \
		assert_clean((m)->pod_uid, sizeof((m)->pod_uid));                                  \
	} while (0)

static void test_containerd(void **state)
{
	struct k8s_meta m;

	(void)state;
	assert_int_equal(parse_fixture(K8S_FORMAT_CONTAINERD, "containerd-container.json", &m),
			 K8S_OK);
	assert_string_equal(m.namespace, "shop");
	assert_string_equal(m.pod, "web-7d4b9c8f6-x2x9q");
	assert_string_equal(m.container, "nginx");
	assert_string_equal(m.pod_uid, UID);
	assert_false(m.sandbox);

	assert_int_equal(parse_fixture(K8S_FORMAT_CONTAINERD, "containerd-sandbox.json", &m),
			 K8S_OK);
	assert_string_equal(m.namespace, "shop");
	assert_string_equal(m.pod, "web-7d4b9c8f6-x2x9q");
	assert_string_equal(m.container, "");
	assert_string_equal(m.pod_uid, UID);
	assert_true(m.sandbox);

	/* Before containerd 1.6.11 there is no sandbox-uid: the names still count. */
	assert_int_equal(parse_fixture(K8S_FORMAT_CONTAINERD, "containerd-old.json", &m), K8S_OK);
	assert_string_equal(m.namespace, "kube-system");
	assert_string_equal(m.pod, "coredns-5d78c9869d-4xk2p");
	assert_string_equal(m.container, "coredns");
	assert_string_equal(m.pod_uid, "");
}

static void test_crio(void **state)
{
	struct k8s_meta m;

	(void)state;
	assert_int_equal(parse_fixture(K8S_FORMAT_CRIO, "crio-container.json", &m), K8S_OK);
	assert_string_equal(m.namespace, "data");
	assert_string_equal(m.pod, "cache-0");
	assert_string_equal(m.container, "redis");
	assert_string_equal(m.pod_uid, UID);
	assert_false(m.sandbox);

	/* CRI-O names its pause container "POD": the sandbox's name is "" for every runtime. */
	assert_int_equal(parse_fixture(K8S_FORMAT_CRIO, "crio-sandbox.json", &m), K8S_OK);
	assert_string_equal(m.pod, "cache-0");
	assert_string_equal(m.container, "");
	assert_true(m.sandbox);

	/* podman's own container: no pod owns it. */
	m.sandbox = true;
	assert_int_equal(parse_fixture(K8S_FORMAT_CRIO, "podman-plain.json", &m),
			 K8S_NOT_KUBERNETES);
	assert_memory_equal(&m, &zero, sizeof(m));
}

static void test_docker(void **state)
{
	struct k8s_meta m;

	(void)state;
	assert_int_equal(parse_fixture(K8S_FORMAT_DOCKER, "docker-container.json", &m), K8S_OK);
	assert_string_equal(m.namespace, "billing");
	assert_string_equal(m.pod, "api-5f6d8b7c9-q8w7e");
	assert_string_equal(m.container, "api");
	assert_string_equal(m.pod_uid, UID);
	assert_false(m.sandbox);

	assert_int_equal(parse_fixture(K8S_FORMAT_DOCKER, "docker-sandbox.json", &m), K8S_OK);
	assert_string_equal(m.namespace, "billing");
	assert_string_equal(m.container, "");
	assert_true(m.sandbox);

	/* docker run, "Labels": null. */
	assert_int_equal(parse_fixture(K8S_FORMAT_DOCKER, "docker-plain.json", &m),
			 K8S_NOT_KUBERNETES);
	assert_memory_equal(&m, &zero, sizeof(m));
}

/*
 * Either OCI annotation set names an OCI file (podman started with the CRI
 * plugin's annotations, say), the format's own first; a file with both
 * takes the format's own; config.v2.json and an OCI spec do not mix.
 */
static void test_other_runtime_keys(void **state)
{
	struct k8s_meta m;

	(void)state;
	assert_int_equal(parse_fixture(K8S_FORMAT_CRIO, "containerd-container.json", &m), K8S_OK);
	assert_string_equal(m.namespace, "shop");
	assert_string_equal(m.container, "nginx");
	assert_string_equal(m.pod_uid, UID);
	assert_int_equal(parse_fixture(K8S_FORMAT_CRIO, "containerd-sandbox.json", &m), K8S_OK);
	assert_true(m.sandbox);
	assert_string_equal(m.container, "");
	assert_int_equal(parse_fixture(K8S_FORMAT_CONTAINERD, "crio-container.json", &m), K8S_OK);
	assert_string_equal(m.namespace, "data");
	assert_string_equal(m.container, "redis");
	assert_false(m.sandbox);

	const char *both = "{\"annotations\": {"
			   "\"io.kubernetes.cri.sandbox-namespace\": \"cri-ns\","
			   "\"io.kubernetes.cri.sandbox-name\": \"cri-pod\","
			   "\"io.kubernetes.pod.namespace\": \"crio-ns\","
			   "\"io.kubernetes.pod.name\": \"crio-pod\"}}";
	assert_int_equal(parse_text(K8S_FORMAT_CONTAINERD, both, &m, NULL, 0), K8S_OK);
	assert_string_equal(m.namespace, "cri-ns");
	assert_int_equal(parse_text(K8S_FORMAT_CRIO, both, &m, NULL, 0), K8S_OK);
	assert_string_equal(m.namespace, "crio-ns");
	/* One set half there is not completed from the other. */
	assert_int_equal(parse_text(K8S_FORMAT_CONTAINERD,
				    "{\"annotations\": {\"io.kubernetes.cri.sandbox-namespace\": "
				    "\"a\", \"io.kubernetes.pod.name\": \"b\"}}",
				    &m, NULL, 0),
			 K8S_NOT_KUBERNETES);
	assert_memory_equal(&m, &zero, sizeof(m));

	/* An OCI spec has no "Config"; config.v2.json no "annotations". */
	assert_int_equal(parse_fixture(K8S_FORMAT_DOCKER, "crio-container.json", &m),
			 K8S_NOT_KUBERNETES);
	assert_int_equal(parse_fixture(K8S_FORMAT_CRIO, "docker-container.json", &m),
			 K8S_NOT_KUBERNETES);
}

/* Every fixture cut short anywhere is malformed, with a reason and no names. */
static void test_truncated(void **state)
{
	static const char *const files[] = { "containerd-container.json", "crio-sandbox.json",
					     "docker-container.json" };
	static const enum k8s_format formats[] = { K8S_FORMAT_CONTAINERD, K8S_FORMAT_CRIO,
						   K8S_FORMAT_DOCKER };
	size_t f, cut, len;

	(void)state;
	for (f = 0; f < 3; f++) {
		char *buf = fixture_load(files[f], &len);

		/* The last byte is a newline after the closing brace: stop before that brace. */
		for (cut = 0; cut + 2 < len; cut += 7) {
			struct k8s_meta m;
			char why[200];

			m.sandbox = true;
			assert_int_equal(k8s_meta_parse(formats[f], buf, cut, &m, why, sizeof(why)),
					 K8S_BAD_JSON);
			assert_memory_equal(&m, &zero, sizeof(m));
			assert_true(strlen(why) > 0);
		}
		free(buf);
	}
}

static void test_wrong_types(void **state)
{
	static const struct {
		enum k8s_format format;
		const char *text;
	} cases[] = {
		{ K8S_FORMAT_CONTAINERD, "[]" },
		{ K8S_FORMAT_CONTAINERD,
		  "{\"annotations\": [\"io.kubernetes.cri.sandbox-name\"]}" },
		{ K8S_FORMAT_CRIO, "{\"annotations\": \"io.kubernetes.pod.name=web\"}" },
		{ K8S_FORMAT_CRIO, "{\"annotations\": {\"io.kubernetes.pod.namespace\": \"a\", "
				   "\"io.kubernetes.pod.name\": 7}}" },
		{ K8S_FORMAT_CRIO, "{\"annotations\": {\"io.kubernetes.pod.namespace\": \"a\", "
				   "\"io.kubernetes.pod.name\": \"b\", "
				   "\"io.kubernetes.cri-o.ContainerType\": true}}" },
		{ K8S_FORMAT_CONTAINERD, "{\"annotations\": {\"io.kubernetes.cri.sandbox-uid\": "
					 "{\"a\": 1}}}" },
		{ K8S_FORMAT_DOCKER, "{\"Config\": []}" },
		{ K8S_FORMAT_DOCKER, "{\"Config\": {\"Labels\": 1}}" },
		{ K8S_FORMAT_DOCKER, "{\"Config\": {\"Labels\": {\"io.kubernetes.pod.namespace\": "
				     "[\"x\"]}}}" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct k8s_meta m;
		char why[200];

		m.sandbox = true;
		assert_int_equal(parse_text(cases[i].format, cases[i].text, &m, why, sizeof(why)),
				 K8S_BAD_SHAPE);
		assert_memory_equal(&m, &zero, sizeof(m));
		assert_true(strlen(why) > 0);
	}
}

static void test_absent_and_null(void **state)
{
	struct k8s_meta m;
	char why[200];

	(void)state;
	/* Null is absent, as Go writes a nil map. */
	assert_int_equal(
		parse_text(K8S_FORMAT_CRIO, "{\"annotations\": null}", &m, why, sizeof(why)),
		K8S_NOT_KUBERNETES);
	assert_string_equal(why, "");
	assert_int_equal(parse_text(K8S_FORMAT_DOCKER, "{\"Config\": null}", &m, why, sizeof(why)),
			 K8S_NOT_KUBERNETES);
	assert_int_equal(parse_text(K8S_FORMAT_DOCKER, "{}", &m, why, sizeof(why)),
			 K8S_NOT_KUBERNETES);
	/* A namespace without a pod name, or an empty one, names nothing. */
	assert_int_equal(parse_text(K8S_FORMAT_CRIO,
				    "{\"annotations\": {\"io.kubernetes.pod.namespace\": \"a\"}}",
				    &m, why, sizeof(why)),
			 K8S_NOT_KUBERNETES);
	assert_int_equal(parse_text(K8S_FORMAT_CRIO,
				    "{\"annotations\": {\"io.kubernetes.pod.namespace\": \"a\", "
				    "\"io.kubernetes.pod.name\": \"\"}}",
				    &m, why, sizeof(why)),
			 K8S_NOT_KUBERNETES);
	assert_int_equal(parse_text(K8S_FORMAT_CRIO,
				    "{\"annotations\": {\"io.kubernetes.pod.namespace\": \"a\", "
				    "\"io.kubernetes.pod.name\": \"b\", "
				    "\"io.kubernetes.container.name\": null}}",
				    &m, why, sizeof(why)),
			 K8S_OK);
	assert_string_equal(m.pod, "b");
	assert_string_equal(m.container, "");
}

/* Two values for one key: neither is trusted. */
static void test_duplicate_keys(void **state)
{
	struct k8s_meta m;
	char why[200];

	(void)state;
	assert_int_equal(parse_text(K8S_FORMAT_CRIO,
				    "{\"annotations\": {\"io.kubernetes.pod.namespace\": \"a\", "
				    "\"io.kubernetes.pod.name\": \"b\", "
				    "\"io.kubernetes.pod.name\": \"kube-apiserver\"}}",
				    &m, why, sizeof(why)),
			 K8S_BAD_JSON);
	assert_memory_equal(&m, &zero, sizeof(m));
	assert_non_null(strstr(why, "duplicate"));
	assert_int_equal(parse_text(K8S_FORMAT_DOCKER,
				    "{\"Config\": {}, \"Config\": {\"Labels\": {}}}", &m, why,
				    sizeof(why)),
			 K8S_BAD_JSON);
}

/* Escaped NUL and control characters become '?'; the rest of the string stays. */
static void test_control_characters(void **state)
{
	struct k8s_meta m;
	char why[200];

	(void)state;
	assert_int_equal(
		parse_text(K8S_FORMAT_CONTAINERD,
			   "{\"annotations\": {"
			   "\"io.kubernetes.cri.sandbox-namespace\": \"ns\\u0000evil\", "
			   "\"io.kubernetes.cri.sandbox-name\": \"\\u001b[31mred\\r\\n\", "
			   "\"io.kubernetes.cri.container-name\": \"a\\u007fb\\u009bc\\t\", "
			   "\"io.kubernetes.cri.sandbox-uid\": \"\\u0085\\u00a0\"}}",
			   &m, why, sizeof(why)),
		K8S_OK);
	assert_meta_clean(&m);
	assert_string_equal(m.namespace, "ns?evil");
	assert_string_equal(m.pod, "?[31mred??");
	assert_string_equal(m.container, "a?b?c?");
	/* U+0085 (C1) goes, U+00A0 (no-break space) is printable and stays. */
	assert_string_equal(m.pod_uid, "?\xc2\xa0");

	/* A raw control byte is not JSON; the reason quoting it is cleaned too. */
	assert_int_equal(
		parse_text(K8S_FORMAT_CRIO,
			   "{\"annotations\": {\"io.kubernetes.pod.name\": \"a\x1b]0;x\x07\"}}", &m,
			   why, sizeof(why)),
		K8S_BAD_JSON);
	assert_clean(why, sizeof(why));
	assert_true(strlen(why) > 0);

	/* A raw NUL inside the length, and bytes that are not UTF-8. */
	assert_int_equal(k8s_meta_parse(K8S_FORMAT_CRIO, "{\"a\0\": 1}", 9, &m, why, sizeof(why)),
			 K8S_BAD_JSON);
	assert_int_equal(parse_text(K8S_FORMAT_CRIO,
				    "{\"annotations\": {\"io.kubernetes.pod.namespace\": \"\xff\", "
				    "\"io.kubernetes.pod.name\": \"\xc3\"}}",
				    &m, why, sizeof(why)),
			 K8S_BAD_JSON);
	assert_clean(why, sizeof(why));
}

/* A value over Kubernetes' limit is cut to fit, between characters. */
static void test_long_names(void **state)
{
	const size_t n = 10000;
	char *text = malloc(5 * n + 512), *p;
	struct k8s_meta m;
	size_t i;

	(void)state;
	assert_non_null(text);
	p = text + sprintf(text, "{\"annotations\": {\"io.kubernetes.pod.namespace\": \"");
	for (i = 0; i < n; i++)
		*p++ = 'n';
	p += sprintf(p, "\", \"io.kubernetes.pod.name\": \"");
	/* Three-byte characters: 253 is not a multiple of 3. */
	for (i = 0; i < n; i++)
		p += sprintf(p, "\xe2\x82\xac");
	p += sprintf(p, "\", \"io.kubernetes.container.name\": \"x\\u0001");
	for (i = 0; i < n; i++)
		*p++ = 'c';
	sprintf(p, "\"}}");

	assert_int_equal(parse_text(K8S_FORMAT_CRIO, text, &m, NULL, 0), K8S_OK);
	assert_meta_clean(&m);
	assert_int_equal(strlen(m.namespace), sizeof(m.namespace) - 1);
	assert_int_equal(strlen(m.pod), 252); /* 84 euro signs of 3 bytes */
	for (i = 0; i < 252; i += 3)
		assert_memory_equal(m.pod + i, "\xe2\x82\xac", 3);
	assert_int_equal(strlen(m.container), sizeof(m.container) - 1);
	assert_memory_equal(m.container, "x?cc", 4);
	free(text);
}

/* A reason longer than its buffer is cut, terminated, and clean. */
static void test_short_why(void **state)
{
	struct k8s_meta m;
	char why[8];

	(void)state;
	memset(why, 'X', sizeof(why));
	assert_int_equal(parse_text(K8S_FORMAT_CRIO, "{\"annotations\": [", &m, why, sizeof(why)),
			 K8S_BAD_JSON);
	assert_int_equal(strlen(why), sizeof(why) - 1);
	assert_int_equal(parse_text(K8S_FORMAT_CRIO, "", &m, NULL, 0), K8S_BAD_JSON);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(k8s_format_name(K8S_FORMAT_CONTAINERD), "containerd");
	assert_string_equal(k8s_format_name(K8S_FORMAT_CRIO), "crio");
	assert_string_equal(k8s_format_name(K8S_FORMAT_DOCKER), "docker");
	assert_string_equal(k8s_result_name(K8S_BAD_JSON), "malformed JSON");
	assert_string_equal(k8s_result_name(K8S_TOO_BIG), "too big");
	assert_string_equal(k8s_result_name((enum k8s_result)99), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_containerd),
		cmocka_unit_test(test_crio),
		cmocka_unit_test(test_docker),
		cmocka_unit_test(test_other_runtime_keys),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_absent_and_null),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_control_characters),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_short_why),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
