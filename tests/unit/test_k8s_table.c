// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/model/k8s_table.h: the Kubernetes names by container
 * and pod that rows look up, and how a row's names are shown.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/k8s_table.h"
#include "k8s_names.h"

#define ID_A "9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
#define ID_B "4f7c3e1a9b2d8c6e5a0f1b3d7e9c2a4b6d8f0e1c3a5b7d9f2e4c6a8b0d1f3e5a"
#define UID  "17bc79bd-5b4f-4e22-931a-9862d25aed77"
#define POD_DIR                                                                                    \
	"/kubepods.slice/kubepods-burstable.slice/"                                                \
	"kubepods-burstable-pod17bc79bd_5b4f_4e22_931a_9862d25aed77.slice"

static void test_put_get_replace(void **state)
{
	struct k8s_table t = { 0 };
	struct k8s_meta a = k8s_names("shop", "web-1", "nginx", UID, false);
	struct k8s_meta b = k8s_names("shop", "web-1", "sidecar", UID, false);
	const struct k8s_meta *got;

	(void)state;
	assert_null(k8s_table_get(&t, CONTAINER_CONTAINERD, ID_A));
	assert_int_equal(k8s_table_put(&t, CONTAINER_CONTAINERD, ID_A, &a), 0);
	got = k8s_table_get(&t, CONTAINER_CONTAINERD, ID_A);
	assert_non_null(got);
	assert_memory_equal(got, &a, sizeof(a));
	/* A copy: the caller's struct may change. */
	a.namespace[0] = 'X';
	assert_string_equal(got->namespace, "shop");
	assert_null(k8s_table_get(&t, CONTAINER_CONTAINERD, ID_B));

	/* Put again: replaced, not added. */
	assert_int_equal(k8s_table_put(&t, CONTAINER_CONTAINERD, ID_A, &b), 0);
	assert_int_equal(t.nr, 1);
	assert_string_equal(k8s_table_get(&t, CONTAINER_CONTAINERD, ID_A)->container, "sidecar");
	k8s_table_free(&t);
	assert_int_equal(t.nr, 0);
	assert_null(t.v);
	assert_null(k8s_table_get(&t, CONTAINER_CONTAINERD, ID_A));
}

/* The same id under two kinds is two containers. */
static void test_kinds_apart(void **state)
{
	struct k8s_table t = { 0 };
	struct k8s_meta d = k8s_names("a", "p", "docker-one", "", false);
	struct k8s_meta c = k8s_names("b", "q", "containerd-one", "", false);

	(void)state;
	assert_int_equal(k8s_table_put(&t, CONTAINER_DOCKER, ID_A, &d), 0);
	assert_int_equal(k8s_table_put(&t, CONTAINER_CONTAINERD, ID_A, &c), 0);
	assert_int_equal(t.nr, 2);
	assert_string_equal(k8s_table_get(&t, CONTAINER_DOCKER, ID_A)->container, "docker-one");
	assert_string_equal(k8s_table_get(&t, CONTAINER_CONTAINERD, ID_A)->container,
			    "containerd-one");
	assert_null(k8s_table_get(&t, CONTAINER_CRIO, ID_A));
	assert_null(k8s_table_get(&t, CONTAINER_POD, ID_A));
	k8s_table_free(&t);
}

static unsigned int next(unsigned int *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

/* Many entries put in a random order: each is found, the array is sorted, none twice. */
static void test_many_random(void **state)
{
	enum { N = 600 };
	static const enum container_kind kinds[] = { CONTAINER_DOCKER, CONTAINER_CONTAINERD,
						     CONTAINER_CRIO, CONTAINER_POD };
	struct k8s_table t = { 0 };
	unsigned int order[N], seed = 7;
	char id[72], ns[16];

	(void)state;
	for (unsigned int i = 0; i < N; i++)
		order[i] = i;
	for (unsigned int i = N - 1; i > 0; i--) {
		unsigned int j = next(&seed) % (i + 1), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	for (unsigned int k = 0; k < N; k++) {
		unsigned int i = order[k];
		struct k8s_meta m;

		snprintf(id, sizeof(id), "%064x", i / 4 * 2654435761u);
		snprintf(ns, sizeof(ns), "ns%u", i);
		m = k8s_names(ns, "p", "c", "", false);
		assert_int_equal(k8s_table_put(&t, kinds[i % 4], id, &m), 0);
	}
	assert_int_equal(t.nr, N);
	for (unsigned int i = 0; i < N; i++) {
		const struct k8s_meta *m;

		snprintf(id, sizeof(id), "%064x", i / 4 * 2654435761u);
		snprintf(ns, sizeof(ns), "ns%u", i);
		m = k8s_table_get(&t, kinds[i % 4], id);
		if (!m || strcmp(m->namespace, ns))
			fail_msg("entry %u (%s) not found as put: %s", i, id,
				 m ? m->namespace : "NULL");
	}
	for (size_t i = 1; i < t.nr; i++) {
		const struct k8s_entry *a = &t.v[i - 1], *b = &t.v[i];

		assert_true(a->kind < b->kind || (a->kind == b->kind && strcmp(a->id, b->id) < 0));
	}
	k8s_table_free(&t);
}

/* An id that cannot be one: refused, nothing added. */
static void test_bad_ids(void **state)
{
	struct k8s_table t = { 0 };
	struct k8s_meta m = k8s_names("a", "b", "c", "", false);
	char id[80];

	(void)state;
	assert_int_equal(k8s_table_put(&t, CONTAINER_DOCKER, "", &m), -EINVAL);
	assert_int_equal(k8s_table_put(&t, CONTAINER_DOCKER, NULL, &m), -EINVAL);
	memset(id, 'a', sizeof(id));
	id[sizeof(t.v->id)] = '\0'; /* no room for its NUL */
	assert_int_equal(k8s_table_put(&t, CONTAINER_DOCKER, id, &m), -EINVAL);
	assert_int_equal(t.nr, 0);
	id[sizeof(t.v->id) - 1] = '\0'; /* the longest that fits */
	assert_int_equal(k8s_table_put(&t, CONTAINER_DOCKER, id, &m), 0);
	assert_non_null(k8s_table_get(&t, CONTAINER_DOCKER, id));
	assert_int_equal(t.nr, 1);
	assert_null(k8s_table_get(&t, CONTAINER_DOCKER, ""));
	assert_null(k8s_table_get(&t, CONTAINER_DOCKER, NULL));
	k8s_table_free(&t);
}

/* A table with a container of each runtime's, a pod, and a monitored CRI-O container. */
static void fill(struct k8s_table *t)
{
	static const enum container_kind kinds[] = { CONTAINER_DOCKER, CONTAINER_CONTAINERD,
						     CONTAINER_CRIO, CONTAINER_PODMAN };
	struct k8s_meta m;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		m = k8s_names("shop", "web", container_kind_name(kinds[i]), UID, false);
		assert_int_equal(k8s_table_put(t, kinds[i], ID_A, &m), 0);
	}
	m = k8s_names("shop", "web", "", UID, false);
	assert_int_equal(k8s_table_put(t, CONTAINER_POD, UID, &m), 0);
}

static void test_find_each_kind(void **state)
{
	static const enum container_kind kinds[] = { CONTAINER_DOCKER, CONTAINER_CONTAINERD,
						     CONTAINER_CRIO, CONTAINER_PODMAN };
	struct k8s_table t = { 0 };
	struct container c;

	(void)state;
	fill(&t);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct k8s_meta *m;

		c = (struct container){ .kind = kinds[i], .id = ID_A, .pod_uid = UID };
		m = k8s_table_find(&t, &c);
		assert_non_null(m);
		assert_string_equal(m->container, container_kind_name(kinds[i]));
		c.id[0] = '0'; /* another container of that runtime */
		assert_null(k8s_table_find(&t, &c));
	}
	/* No names for what is no runtime's container, whatever its id. */
	c = (struct container){ .kind = CONTAINER_LXC, .id = ID_A };
	assert_null(k8s_table_find(&t, &c));
	c = (struct container){ .kind = CONTAINER_UNIT, .id = UID };
	assert_null(k8s_table_find(&t, &c));
	c = (struct container){ .kind = CONTAINER_NONE };
	assert_null(k8s_table_find(&t, &c));
	k8s_table_free(&t);
}

/* A pod's own cgroup is found by the UID in its path. */
static void test_find_pod(void **state)
{
	struct k8s_table t = { 0 };
	const struct k8s_meta *m;
	struct container c;

	(void)state;
	fill(&t);
	assert_int_equal(container_parse(POD_DIR, &c), 0);
	assert_int_equal(c.kind, CONTAINER_POD);
	m = k8s_table_find(&t, &c);
	assert_non_null(m);
	assert_string_equal(m->pod, "web");
	assert_string_equal(m->container, "");
	/* By pod_uid, not by id. */
	c = (struct container){ .kind = CONTAINER_POD, .id = "x", .pod_uid = UID };
	assert_non_null(k8s_table_find(&t, &c));
	c = (struct container){ .kind = CONTAINER_POD, .id = UID, .pod_uid = "" };
	assert_null(k8s_table_find(&t, &c));
	k8s_table_free(&t);
}

/* conmon watches a container and is not it: its row is its pod's. */
static void test_find_monitor(void **state)
{
	struct k8s_table t = { 0 };
	const struct k8s_meta *m;
	struct container c;

	(void)state;
	fill(&t);
	assert_int_equal(container_parse(POD_DIR "/crio-conmon-" ID_A ".scope", &c), 0);
	assert_int_equal(c.kind, CONTAINER_CRIO);
	assert_true(c.monitor);
	m = k8s_table_find(&t, &c);
	assert_non_null(m);
	assert_string_equal(m->namespace, "shop");
	assert_string_equal(m->pod, "web");
	assert_string_equal(m->container, "");
	/* The container it watches keeps its own. */
	assert_int_equal(container_parse(POD_DIR "/crio-" ID_A ".scope", &c), 0);
	assert_false(c.monitor);
	assert_string_equal(k8s_table_find(&t, &c)->container, "crio");

	/* podman's conmon, outside any pod: no names, though its container has some. */
	assert_int_equal(container_parse("/machine.slice/libpod-conmon-" ID_A ".scope", &c), 0);
	assert_int_equal(c.kind, CONTAINER_PODMAN);
	assert_true(c.monitor);
	assert_null(k8s_table_find(&t, &c));
	k8s_table_free(&t);
}

static void test_container_name(void **state)
{
	struct k8s_meta m = k8s_names("shop", "web", "pause", UID, true);

	(void)state;
	assert_string_equal(k8s_container_name(&m), "POD");
	m.sandbox = false;
	assert_string_equal(k8s_container_name(&m), "pause");
	m.container[0] = '\0';
	assert_string_equal(k8s_container_name(&m), "");
}

static void test_format_label(void **state)
{
	struct k8s_meta m = k8s_names("shop", "web-7d4b9c8f6-x2x9q", "nginx", UID, false);
	char buf[600];

	(void)state;
	k8s_format_label(&m, buf, sizeof(buf));
	assert_string_equal(buf, "shop/web-7d4b9c8f6-x2x9q/nginx");
	m.sandbox = true;
	k8s_format_label(&m, buf, sizeof(buf));
	assert_string_equal(buf, "shop/web-7d4b9c8f6-x2x9q/POD");
	m = k8s_names("shop", "web-7d4b9c8f6-x2x9q", "", UID, false); /* the pod's own cgroup */
	k8s_format_label(&m, buf, sizeof(buf));
	assert_string_equal(buf, "shop/web-7d4b9c8f6-x2x9q");
	m = k8s_names("shop", "", "", "", false); /* a namespace, rolled up */
	k8s_format_label(&m, buf, sizeof(buf));
	assert_string_equal(buf, "shop");
	/* The longest names fit the label a row has. */
	memset(m.namespace, 'n', sizeof(m.namespace) - 1);
	memset(m.pod, 'p', sizeof(m.pod) - 1);
	memset(m.container, 'c', sizeof(m.container) - 1);
	k8s_format_label(&m, buf, sizeof(buf));
	assert_int_equal(strlen(buf), 63 + 1 + 253 + 1 + 63);
}

/* Too small a buffer: cut, NUL-terminated, nothing written past it. */
static void test_format_label_small(void **state)
{
	struct k8s_meta m = k8s_names("shop", "web-7d4b9c8f6-x2x9q", "nginx", UID, false);
	char buf[16];

	(void)state;
	for (size_t size = 1; size <= 8; size++) {
		memset(buf, '#', sizeof(buf));
		k8s_format_label(&m, buf, size);
		assert_int_equal(strlen(buf), size - 1);
		assert_memory_equal(buf, "shop/web", size - 1);
		for (size_t i = size; i < sizeof(buf); i++)
			assert_int_equal(buf[i], '#');
	}
	memset(buf, '#', sizeof(buf));
	k8s_format_label(&m, buf, 0);
	assert_int_equal(buf[0], '#');
}

/*
 * Cut at a whole character: "ns/" then 2-byte characters (U+00E9), cut at
 * every size; the longest names of all fit in struct container's label.
 */
static void test_format_label_utf8(void **state)
{
	struct k8s_meta m = k8s_names("ns", "\xc3\xa9\xc3\xa9\xc3\xa9", "c", UID, false);
	struct container c;
	char buf[16];

	(void)state;
	for (size_t size = 1; size <= 10; size++) {
		size_t want = size - 1 < 3 ? size - 1 : 3 + (size - 1 - 3) / 2 * 2;

		k8s_format_label(&m, buf, size);
		assert_int_equal(strlen(buf), want);
	}
	memset(&m, 'a', sizeof(m));
	m.namespace[sizeof(m.namespace) - 1] = m.pod[sizeof(m.pod) - 1] = '\0';
	m.container[sizeof(m.container) - 1] = m.pod_uid[0] = '\0';
	m.sandbox = false;
	k8s_format_label(&m, c.label, sizeof(c.label));
	assert_int_equal(strlen(c.label), 63 + 1 + 253 + 1 + 63);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_replace), cmocka_unit_test(test_kinds_apart),
		cmocka_unit_test(test_many_random),	cmocka_unit_test(test_bad_ids),
		cmocka_unit_test(test_find_each_kind),	cmocka_unit_test(test_find_pod),
		cmocka_unit_test(test_find_monitor),	cmocka_unit_test(test_container_name),
		cmocka_unit_test(test_format_label),	cmocka_unit_test(test_format_label_small),
		cmocka_unit_test(test_format_label_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
