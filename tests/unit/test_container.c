// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/model/container.h: every case of tests/fixtures/cgroup_paths.txt
 * (run from the repository root), then errors, truncation of long names
 * (run under valgrind or -fsanitize=address,undefined to see overflows), and
 * invariants over generated paths.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/container.h"

#define FIXTURE "tests/fixtures/cgroup_paths.txt"

/* A container with bytes after it, to see writes past its end. */
struct guarded {
	struct container c;
	unsigned char guard[64];
};

static void guard_init(struct guarded *g)
{
	memset(g, 0xa5, sizeof(*g));
}

static void assert_guard(const struct guarded *g)
{
	for (size_t i = 0; i < sizeof(g->guard); i++)
		assert_int_equal(g->guard[i], 0xa5);
}

/* Each char array ends within its size: nothing ran on into the next field. */
static void assert_terminated(const struct container *c)
{
	assert_non_null(memchr(c->id, '\0', sizeof(c->id)));
	assert_non_null(memchr(c->pod_uid, '\0', sizeof(c->pod_uid)));
	assert_non_null(memchr(c->qos, '\0', sizeof(c->qos)));
	assert_non_null(memchr(c->label, '\0', sizeof(c->label)));
}

static int is_hex64(const char *s)
{
	if (strlen(s) != 64)
		return 0;
	for (; *s; s++) {
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	}
	return 1;
}

/* One is a prefix of the other: equal up to where a cut shortened either. */
static int agree(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return !memcmp(a, b, la < lb ? la : lb);
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/*
 * The fields the fixture does not list must agree with the label: pod UID and
 * QoS for Kubernetes rows, the id for the rest. Returns a reason or NULL.
 */
static const char *check_fields(const struct container *c)
{
	char want[256];

	if (!strncmp(c->label, "k8s:", 4)) {
		snprintf(want, sizeof(want), "k8s:%s/pod%s", c->qos, c->pod_uid);
		if (strncmp(c->label, want, strlen(want)) || !c->qos[0] || !c->pod_uid[0])
			return "pod_uid/qos do not match the label";
		if (strchr(c->pod_uid, '_'))
			return "pod_uid has underscores";
	} else if (c->pod_uid[0] || c->qos[0]) {
		return "pod_uid/qos set outside Kubernetes";
	}

	switch (c->kind) {
	case CONTAINER_DOCKER:
	case CONTAINER_CONTAINERD:
	case CONTAINER_CRIO:
	case CONTAINER_PODMAN:
		if (!is_hex64(c->id))
			return "id is not 64 hex";
		snprintf(want, sizeof(want), ":%.12s", c->id);
		if (!ends_with(c->label, want))
			return "label does not end with the id's first 12";
		break;
	case CONTAINER_LXC:
		snprintf(want, sizeof(want), ":%s", c->id);
		if (!c->id[0])
			return "no LXC name";
		/* Long names are cut in both, differently: compare only whole ones. */
		if (strlen(c->label) < sizeof(c->label) - 1 && strlen(c->id) < sizeof(c->id) - 4 &&
		    !ends_with(c->label, want))
			return "LXC name not in the label";
		break;
	case CONTAINER_POD:
		if (strcmp(c->id, c->pod_uid))
			return "pod id is not its UID";
		break;
	case CONTAINER_USER:
		snprintf(want, sizeof(want), "user:%s", c->id);
		if (strcmp(c->label, want))
			return "user label is not user:<id>";
		break;
	case CONTAINER_UNIT:
		if (strncmp(c->label, "unit:", 5) || !c->id[0] || !agree(c->label + 5, c->id))
			return "unit label is not unit:<id>";
		break;
	case CONTAINER_NONE:
		if (c->id[0])
			return "id set for a plain path";
		break;
	}
	return NULL;
}

static void test_fixture(void **state)
{
	char line[2048];
	int lineno = 0, cases = 0, bad = 0;
	FILE *f;

	(void)state;
	f = fopen(FIXTURE, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *path, *label, *prefix, *kind, *nl, *save = NULL;
		struct guarded g;
		const char *why = NULL;
		int rc;

		lineno++;
		nl = strchr(line, '\n');
		assert_non_null(nl); /* a line longer than the buffer */
		*nl = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		path = strtok_r(line, "\t", &save);
		label = strtok_r(NULL, "\t", &save);
		prefix = strtok_r(NULL, "\t", &save);
		kind = strtok_r(NULL, "\t", &save);
		if (!path || !label || !prefix || !kind || strtok_r(NULL, "\t", &save)) {
			print_error("%s:%d: not 4 tab-separated fields\n", FIXTURE, lineno);
			bad++;
			continue;
		}
		cases++;

		guard_init(&g);
		rc = container_parse(path, &g.c);
		assert_guard(&g);
		assert_terminated(&g.c);
		if (rc)
			why = "did not return 0";
		else if (strcmp(g.c.label, label))
			why = "label";
		else if (g.c.prefix_len != strlen(prefix) || strncmp(path, prefix, strlen(prefix)))
			why = "prefix";
		else if (strcmp(container_kind_name(g.c.kind), kind))
			why = "kind";
		else
			why = check_fields(&g.c);
		if (why) {
			print_error("%s:%d: %s: %s\n  got  label \"%s\" prefix \"%.*s\" kind %s id "
				    "\"%s\"\n"
				    "  want label \"%s\" prefix \"%s\" kind %s\n",
				    FIXTURE, lineno, path, why, g.c.label,
				    (int)(g.c.prefix_len <= strlen(path) ? g.c.prefix_len : 0),
				    path, container_kind_name(g.c.kind), g.c.id, label, prefix,
				    kind);
			bad++;
		}
	}
	fclose(f);
	assert_int_equal(bad, 0);
	/* A truncated or missing fixture must not pass quietly. */
	assert_true(cases >= 100);
}

static void test_errors(void **state)
{
	static const char *const bad[] = { "", "system.slice/sshd.service", " /init.scope",
					   "docker/abc", "." };
	struct container c;

	(void)state;
	memset(&c, 0x5a, sizeof(c));
	assert_int_equal(container_parse(NULL, &c), -EINVAL);
	/* A failed parse leaves nothing that looks like a result. */
	assert_int_equal(c.kind, CONTAINER_NONE);
	assert_int_equal(c.prefix_len, 0);
	assert_string_equal(c.label, "");
	assert_string_equal(c.id, "");

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&c, 0x5a, sizeof(c));
		assert_int_equal(container_parse(bad[i], &c), -EINVAL);
		assert_string_equal(c.label, "");
	}
	assert_int_equal(container_parse("/init.scope", NULL), -EINVAL);
	assert_int_equal(container_parse("/", &c), 0);
	assert_string_equal(c.label, "/");
	assert_int_equal(c.prefix_len, 1);
	assert_int_equal(c.kind, CONTAINER_NONE);
}

static void test_kind_names(void **state)
{
	static const struct {
		enum container_kind kind;
		const char *name;
	} want[] = {
		{ CONTAINER_NONE, "none" },
		{ CONTAINER_DOCKER, "docker" },
		{ CONTAINER_CONTAINERD, "containerd" },
		{ CONTAINER_CRIO, "crio" },
		{ CONTAINER_PODMAN, "podman" },
		{ CONTAINER_LXC, "lxc" },
		{ CONTAINER_POD, "pod" },
		{ CONTAINER_USER, "user" },
		{ CONTAINER_UNIT, "unit" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(container_kind_name(want[i].kind), want[i].name);
	assert_string_equal(container_kind_name((enum container_kind)99), "unknown");
	assert_string_equal(container_kind_name((enum container_kind) - 1), "unknown");
}

/* Fields of a Kubernetes container, the full id, and the UID turned back to dashes. */
static void test_k8s_fields(void **state)
{
	const char *id = "ec99358fe6afe0fc2fc24eb0016801c3abffdc1535994e08d748918bfc4533ed";
	char path[512];
	struct container c;

	(void)state;
	snprintf(path, sizeof(path),
		 "/kubepods.slice/kubepods-burstable.slice/"
		 "kubepods-burstable-pod17bc79bd_5b4f_4e22_931a_9862d25aed77.slice/"
		 "cri-containerd-%s.scope/sub",
		 id);
	assert_int_equal(container_parse(path, &c), 0);
	assert_int_equal(c.kind, CONTAINER_CONTAINERD);
	assert_string_equal(c.id, id);
	assert_string_equal(c.pod_uid, "17bc79bd-5b4f-4e22-931a-9862d25aed77");
	assert_string_equal(c.qos, "burstable");
	assert_string_equal(
		c.label,
		"k8s:burstable/pod17bc79bd-5b4f-4e22-931a-9862d25aed77/containerd:ec99358fe6af");
	assert_int_equal(c.prefix_len, strlen(path) - strlen("/sub"));

	/* The same struct reused for a plain unit: nothing of the pod is left. */
	assert_int_equal(container_parse("/init.scope", &c), 0);
	assert_int_equal(c.kind, CONTAINER_UNIT);
	assert_string_equal(c.pod_uid, "");
	assert_string_equal(c.qos, "");
	assert_string_equal(c.id, "init.scope");
}

/* Escapes are decoded within one component only, and broken ones are kept. */
static void test_unit_escapes(void **state)
{
	struct container c;

	(void)state;
	assert_int_equal(container_parse("/system.slice/ab\\x2.service", &c), 0);
	assert_string_equal(c.label, "unit:ab\\x2.service");
	assert_int_equal(container_parse("/system.slice/a\\x5cb.service", &c), 0);
	assert_string_equal(c.label, "unit:a\\b.service");
	assert_string_equal(c.id, "a\\b.service");
	assert_int_equal(container_parse("/system.slice/\\x2d.mount", &c), 0);
	assert_string_equal(c.id, "-.mount");
	assert_int_equal(container_parse("/system.slice/.service", &c), 0);
	assert_int_equal(c.kind, CONTAINER_NONE);
}

/*
 * Without a container: a pod, then the first user slice, then the first unit,
 * wherever each sits in the path (synthetic paths, to pin the order down).
 */
static void test_ranking(void **state)
{
	const char *pod = "/user.slice/user-1000.slice/user@1000.service/kubepods.slice/"
			  "kubepods-pod65504ace_7401_4b33_966b_46aae9870724.slice";
	struct container c;

	(void)state;
	assert_int_equal(container_parse(pod, &c), 0);
	assert_int_equal(c.kind, CONTAINER_POD);
	assert_string_equal(c.label, "k8s:guaranteed/pod65504ace-7401-4b33-966b-46aae9870724");
	assert_string_equal(c.id, "65504ace-7401-4b33-966b-46aae9870724");

	assert_int_equal(container_parse("/system.slice/a.service/user-7.slice/b.service", &c), 0);
	assert_string_equal(c.label, "user:7");
	assert_int_equal(c.prefix_len, strlen("/system.slice/a.service/user-7.slice"));

	assert_int_equal(container_parse("/x.slice/a.scope/b.service", &c), 0);
	assert_string_equal(c.label, "unit:a.scope");
	assert_int_equal(c.prefix_len, strlen("/x.slice/a.scope"));
}

static void test_long_unit_name(void **state)
{
	char path[1024];
	struct guarded g;
	size_t n;

	(void)state;
	n = (size_t)snprintf(path, sizeof(path), "/system.slice/");
	memset(path + n, 'u', 600);
	strcpy(path + n + 600, ".service");

	guard_init(&g);
	assert_int_equal(container_parse(path, &g.c), 0);
	assert_guard(&g);
	assert_terminated(&g.c);
	assert_int_equal(g.c.kind, CONTAINER_UNIT);
	assert_int_equal(g.c.prefix_len, strlen(path));
	assert_int_equal(strlen(g.c.id), sizeof(g.c.id) - 1);
	assert_int_equal(strlen(g.c.label), sizeof(g.c.label) - 1);
	assert_memory_equal(g.c.label, "unit:uuu", 8);
	assert_string_equal(g.c.pod_uid, "");
	assert_string_equal(g.c.qos, "");
}

static void test_long_lxc_name(void **state)
{
	char path[600];
	struct guarded g;

	(void)state;
	strcpy(path, "/lxc.payload.");
	memset(path + strlen(path), 'n', 400);
	path[13 + 400] = '\0';
	strcat(path, "/system.slice/sshd.service");

	guard_init(&g);
	assert_int_equal(container_parse(path, &g.c), 0);
	assert_guard(&g);
	assert_terminated(&g.c);
	assert_int_equal(g.c.kind, CONTAINER_LXC);
	assert_int_equal(g.c.prefix_len, 13 + 400);
	assert_int_equal(strlen(g.c.id), sizeof(g.c.id) - 1);
	assert_int_equal(strlen(g.c.label), sizeof(g.c.label) - 1);
	assert_memory_equal(g.c.label, "lxc:nnn", 7);
}

static void test_long_plain_path(void **state)
{
	static char path[8192];
	struct guarded g;

	(void)state;
	for (size_t i = 0; i < sizeof(path) - 1; i++)
		path[i] = i % 9 ? 'p' : '/';
	guard_init(&g);
	assert_int_equal(container_parse(path, &g.c), 0);
	assert_guard(&g);
	assert_terminated(&g.c);
	assert_int_equal(g.c.kind, CONTAINER_NONE);
	assert_int_equal(g.c.prefix_len, sizeof(path) - 1);
	assert_int_equal(strlen(g.c.label), sizeof(g.c.label) - 1);
	assert_memory_equal(g.c.label, path, sizeof(g.c.label) - 1);
}

/* A cut never leaves half a UTF-8 character at the end, for 2-, 3- and 4-byte ones. */
static void test_truncate_utf8(void **state)
{
	char path[4096];
	struct container c;

	(void)state;
	assert_int_equal(sizeof(c.label), 384); /* the sums below are for it */
	/* "unit:a" + 188 "é" = 382 bytes; one more would need 384. */
	strcpy(path, "/system.slice/a");
	for (int i = 0; i < 200; i++)
		strcat(path, "\xc3\xa9");
	strcat(path, ".service");
	assert_int_equal(container_parse(path, &c), 0);
	assert_int_equal(strlen(c.label), 382);
	assert_memory_equal(c.label + 380, "\xc3\xa9", 2);
	/* id: "a" + 35 "é" = 71 bytes fits exactly. */
	assert_int_equal(strlen(c.id), 71);

	/* "ab" + 34 "é" = 70 bytes in id[72]: the 35th does not fit. */
	strcpy(path, "/system.slice/ab");
	for (int i = 0; i < 100; i++)
		strcat(path, "\xc3\xa9");
	strcat(path, ".service");
	assert_int_equal(container_parse(path, &c), 0);
	assert_int_equal(strlen(c.id), 70);
	assert_memory_equal(c.id + 68, "\xc3\xa9", 2);

	/* Escaped bytes count once decoded: "unit:ab" + 188 decoded "é" = 383. */
	strcpy(path, "/system.slice/ab");
	for (int i = 0; i < 200; i++)
		strcat(path, "\\xc3\\xa9");
	strcat(path, ".service");
	assert_int_equal(container_parse(path, &c), 0);
	assert_int_equal(strlen(c.label), 383);
	assert_memory_equal(c.label + 381, "\xc3\xa9", 2);

	/* "/" + 127 three-byte characters = 382; a 128th needs 386. */
	strcpy(path, "/");
	for (int i = 0; i < 140; i++)
		strcat(path, "\xe6\x97\xa5");
	assert_int_equal(container_parse(path, &c), 0);
	assert_int_equal(strlen(c.label), 382);
	assert_memory_equal(c.label + 379, "\xe6\x97\xa5", 3);

	/* "/" + 95 four-byte characters = 381; a 96th needs 385. */
	strcpy(path, "/");
	for (int i = 0; i < 100; i++)
		strcat(path, "\xf0\x9f\x98\x80");
	assert_int_equal(container_parse(path, &c), 0);
	assert_int_equal(strlen(c.label), 381);
	assert_memory_equal(c.label + 377, "\xf0\x9f\x98\x80", 4);
}

/* Deterministic, so a failure can be reproduced. */
static unsigned int next_rand(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Paths glued from real components, odd ones and long ones: invariants hold for all. */
static void test_generated_paths(void **state)
{
	static const char *const parts[] = {
		"system.slice",
		"docker",
		"kubepods",
		"burstable",
		"besteffort",
		"kubepods.slice",
		"kubepods-burstable.slice",
		"kubepods-burstable-pod17bc79bd_5b4f_4e22_931a_9862d25aed77.slice",
		"pod17bc79bd-5b4f-4e22-931a-9862d25aed77",
		"kubepods-pod17bc79bd_5b4f_4e22_931a_9862d25aed77.slice",
		"ec99358fe6afe0fc2fc24eb0016801c3abffdc1535994e08d748918bfc4533ed",
		"docker-ec99358fe6afe0fc2fc24eb0016801c3abffdc1535994e08d748918bfc4533ed.scope",
		"crio-conmon-ec99358fe6afe0fc2fc24eb0016801c3abffdc1535994e08d748918bfc4533ed",
		"libpod-ec99358fe6afe0fc2fc24eb0016801c3abffdc1535994e08d748918bfc4533ed.scope",
		"lxc",
		"lxc.payload.",
		"lxc.monitor.x",
		"user-1000.slice",
		"user-.slice",
		"sshd.service",
		".scope",
		"a\\x",
		"b\\x2",
		"\\xc3\\xa9\\xe6.swap",
		"\xf0\x9f\x98",
		"-pod.slice",
		"kubepods-pod.slice",
		"x-kubepods-burstable-pod.slice",
		"",
	};
	static char path[4096];
	unsigned int seed = 12345;
	struct guarded g;

	(void)state;
	for (int iter = 0; iter < 20000; iter++) {
		size_t len = 0;
		int n = (int)(next_rand(&seed) % 8);

		path[len++] = '/';
		for (int i = 0; i < n; i++) {
			const char *p =
				parts[next_rand(&seed) % (sizeof(parts) / sizeof(parts[0]))];
			size_t pl = strlen(p);

			/* Now and then a very long component. */
			if (next_rand(&seed) % 16 == 0) {
				size_t rep = 100 + next_rand(&seed) % 300;

				memset(path + len, 'z', rep);
				len += rep;
			}
			memcpy(path + len, p, pl);
			len += pl;
			if (i + 1 < n || next_rand(&seed) % 4 == 0)
				path[len++] = '/';
		}
		path[len] = '\0';

		guard_init(&g);
		assert_int_equal(container_parse(path, &g.c), 0);
		assert_guard(&g);
		assert_terminated(&g.c);
		assert_true(g.c.kind <= CONTAINER_UNIT);
		assert_true(g.c.prefix_len >= 1 && g.c.prefix_len <= len);
		/* The row ends at a component, never inside one. */
		assert_true(g.c.kind == CONTAINER_NONE || path[g.c.prefix_len] == '/' ||
			    path[g.c.prefix_len] == '\0');
		assert_true(g.c.label[0] != '\0');
		assert_null(check_fields(&g.c));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_kind_names),	cmocka_unit_test(test_k8s_fields),
		cmocka_unit_test(test_unit_escapes),	cmocka_unit_test(test_ranking),
		cmocka_unit_test(test_long_unit_name),	cmocka_unit_test(test_long_lxc_name),
		cmocka_unit_test(test_long_plain_path), cmocka_unit_test(test_truncate_utf8),
		cmocka_unit_test(test_generated_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
