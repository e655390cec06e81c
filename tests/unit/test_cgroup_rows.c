// SPDX-License-Identifier: GPL-2.0
/* cgroup rows: subtree sums, self partition, --depth, -c roots, --containers, --group-by. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "model/cgroup_rows.h"
#include "model/counts.h" /* TD_SLOTS */
#include "k8s_names.h"

/* A names table by hand (sorted by id), so no file system is involved. */
static struct cgroup_name name_table[] = {
	{ 1, "/" },
	{ 10, "/a" },
	{ 11, "/a/a1" },
	{ 12, "/a/a1/deep" },
	{ 20, "/b" },
	{ 30, "/system.slice" },
	{ 31, "/system.slice/"
	      "docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope" },
	{ 32, "/system.slice/"
	      "docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope/"
	      "init.scope" },
	{ 33, "/system.slice/sshd.service" },
};

static struct cgroup_names names = {
	.v = name_table,
	.nr = sizeof(name_table) / sizeof(name_table[0]),
};

static struct cgroup_sample sample(__u64 id, __u64 ns)
{
	struct cgroup_sample s = { .id = id };

	s.c.count[TD_SLOTS] = ns;
	s.c.slices = 1;
	return s;
}

static const struct cgroup_row *find(const struct cgroup_row *rows, size_t nr, const char *path)
{
	for (size_t i = 0; i < nr; i++)
		if (rows[i].path && !strcmp(rows[i].path, path))
			return &rows[i];
	return NULL;
}

static __u64 sum_self(const struct cgroup_row *rows, size_t nr)
{
	__u64 total = 0;

	for (size_t i = 0; i < nr; i++)
		total += rows[i].self.count[TD_SLOTS];
	return total;
}

/* Charges: / 5, /a 10, /a/a1 100, /a/a1/deep 7, /b 50, idle 1000, removed id 99 3. */
static struct cgroup_sample tree[7];
static const __u64 tree_total = 5 + 10 + 100 + 7 + 50 + 1000 + 3;

static int setup_tree(void **state)
{
	tree[0] = sample(TD_IDLE_CGROUP_ID, 1000);
	tree[1] = sample(1, 5);
	tree[2] = sample(10, 10);
	tree[3] = sample(11, 100);
	tree[4] = sample(12, 7);
	tree[5] = sample(20, 50);
	tree[6] = sample(99, 3);
	return 0;
}

static void test_subtree_sums(void **state)
{
	struct cgroup_rows_opts o = { .depth = -1 };
	struct cgroup_row *rows;
	size_t nr;

	assert_int_equal(cgroup_rows_build(tree, 7, &names, &o, &rows, &nr), 0);
	assert_int_equal(find(rows, nr, "/")->sum.count[TD_SLOTS], 5 + 10 + 100 + 7 + 50);
	assert_int_equal(find(rows, nr, "/")->self.count[TD_SLOTS], 5);
	assert_int_equal(find(rows, nr, "/a")->sum.count[TD_SLOTS], 117);
	assert_int_equal(find(rows, nr, "/a")->self.count[TD_SLOTS], 10);
	assert_int_equal(find(rows, nr, "/a/a1")->sum.count[TD_SLOTS], 107);
	assert_int_equal(find(rows, nr, "/a/a1/deep")->sum.count[TD_SLOTS], 7);
	assert_int_equal(find(rows, nr, "/b")->sum.count[TD_SLOTS], 50);
	assert_int_equal(find(rows, nr, "/a")->id, 10);
	assert_int_equal(find(rows, nr, "/a")->depth, 1);
	assert_int_equal(find(rows, nr, "/a/a1/deep")->depth, 3);
	/* slices add up like counts: /a holds the slices of 3 charged cgroups */
	assert_int_equal(find(rows, nr, "/a")->sum.slices, 3);
	/* the idle row and the removed cgroup stand alone, unnamed */
	int idle = 0, unknown = 0;
	for (size_t i = 0; i < nr; i++) {
		idle += rows[i].idle;
		unknown += !rows[i].path && !rows[i].idle && rows[i].id == 99;
	}
	assert_int_equal(idle, 1);
	assert_int_equal(unknown, 1);
	/* nothing lost, nothing twice: the self counts partition the total */
	assert_int_equal(sum_self(rows, nr), tree_total);
	cgroup_rows_free(rows, nr);
}

/* An ancestor never charged itself still gets its id from the names. */
static void test_ancestor_id(void **state)
{
	struct cgroup_sample only = sample(11, 40);
	struct cgroup_rows_opts o = { .depth = -1 };
	struct cgroup_row *rows;
	size_t nr;

	assert_int_equal(cgroup_rows_build(&only, 1, &names, &o, &rows, &nr), 0);
	assert_int_equal(nr, 3); /* /, /a, /a/a1 */
	assert_int_equal(find(rows, nr, "/a")->id, 10);
	assert_int_equal(find(rows, nr, "/")->id, 1);
	assert_int_equal(find(rows, nr, "/a")->self.count[TD_SLOTS], 0);
	assert_int_equal(find(rows, nr, "/a")->sum.count[TD_SLOTS], 40);
	cgroup_rows_free(rows, nr);
}

static void test_depth(void **state)
{
	struct cgroup_rows_opts o = { .depth = 1 };
	struct cgroup_row *rows;
	size_t nr;

	assert_int_equal(cgroup_rows_build(tree, 7, &names, &o, &rows, &nr), 0);
	assert_null(find(rows, nr, "/a/a1"));
	assert_null(find(rows, nr, "/a/a1/deep"));
	/* /a/a1 and /a/a1/deep roll up into /a, as its own */
	assert_int_equal(find(rows, nr, "/a")->self.count[TD_SLOTS], 117);
	assert_int_equal(find(rows, nr, "/a")->sum.count[TD_SLOTS], 117);
	for (size_t i = 0; i < nr; i++)
		assert_true(!rows[i].path || rows[i].depth <= 1);
	assert_int_equal(sum_self(rows, nr), tree_total);
	cgroup_rows_free(rows, nr);

	o.depth = 0;
	assert_int_equal(cgroup_rows_build(tree, 7, &names, &o, &rows, &nr), 0);
	assert_int_equal(find(rows, nr, "/")->self.count[TD_SLOTS], 172);
	assert_null(find(rows, nr, "/a"));
	cgroup_rows_free(rows, nr);
}

static void test_roots(void **state)
{
	const char *roots[] = { "/a/a1" };
	struct cgroup_rows_opts o = { .depth = -1, .roots = roots, .nr_roots = 1 };
	struct cgroup_row *rows;
	size_t nr;

	assert_int_equal(cgroup_rows_build(tree, 7, &names, &o, &rows, &nr), 0);
	assert_non_null(find(rows, nr, "/a/a1"));
	assert_non_null(find(rows, nr, "/a/a1/deep"));
	/* above the root nothing is summed: "/" and /a keep only their own charges... */
	assert_int_equal(find(rows, nr, "/")->sum.count[TD_SLOTS], 5);
	assert_int_equal(find(rows, nr, "/a")->sum.count[TD_SLOTS], 10);
	/* ...and charges outside the root keep their own row, so nothing goes missing */
	assert_int_equal(find(rows, nr, "/b")->sum.count[TD_SLOTS], 50);
	assert_int_equal(find(rows, nr, "/a/a1")->sum.count[TD_SLOTS], 107);
	assert_int_equal(sum_self(rows, nr), tree_total);
	cgroup_rows_free(rows, nr);
}

static void test_containers(void **state)
{
	struct cgroup_sample v[] = { sample(1, 3), sample(31, 100), sample(32, 20), sample(33, 5) };
	struct cgroup_rows_opts o = { .depth = -1, .containers = true };
	const struct cgroup_row *docker = NULL;
	struct cgroup_row *rows;
	size_t nr;

	assert_int_equal(cgroup_rows_build(v, 4, &names, &o, &rows, &nr), 0);
	assert_int_equal(nr, 3); /* the container (with its init.scope), sshd, and / */
	for (size_t i = 0; i < nr; i++)
		if (rows[i].label.kind == CONTAINER_DOCKER)
			docker = &rows[i];
	assert_non_null(docker);
	assert_string_equal(docker->label.label, "docker:0123456789ab");
	assert_int_equal(docker->sum.count[TD_SLOTS], 120);
	assert_int_equal(docker->self.count[TD_SLOTS], 120);
	assert_int_equal(docker->id, 31);
	assert_int_equal(find(rows, nr, "/system.slice/sshd.service")->label.kind, CONTAINER_UNIT);
	/* a partition: no subtree sums, the selfs still add up */
	assert_null(find(rows, nr, "/system.slice"));
	assert_int_equal(sum_self(rows, nr), 128);
	cgroup_rows_free(rows, nr);
}

/* Kubernetes: three pods in two namespaces, and one whose names are not known. */
#define UID1	   "17bc79bd-5b4f-4e22-931a-9862d25aed77"
#define UID2	   "65504ace-7401-4b33-966b-46aae9870724"
#define UID3	   "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9"
#define POD(s)	   "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" s ".slice"
#define P1	   POD("17bc79bd_5b4f_4e22_931a_9862d25aed77")
#define P2	   POD("65504ace_7401_4b33_966b_46aae9870724")
#define P3	   POD("0b1c2d3e_4f50_4617_8293_a4b5c6d7e8f9")
#define P4	   POD("11111111_2222_4333_8444_555555555555")
#define CTR(p, id) p "/cri-containerd-" id ".scope"
#define CA	   "aa1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
#define CS	   "bb7c3e1a9b2d8c6e5a0f1b3d7e9c2a4b6d8f0e1c3a5b7d9f2e4c6a8b0d1f3e5a"
#define CC	   "cc99358fe6afe0fc2fc24eb0016801c3abffdc1535994e08d748918bfc4533ed"
#define CD	   "dd99358fe6afe0fc2fc24eb0016801c3abffdc1535994e08d748918bfc4533ed"
#define CE	   "ee99358fe6afe0fc2fc24eb0016801c3abffdc1535994e08d748918bfc4533ed"

static struct cgroup_name kube_table[] = {
	{ 1, "/" },
	{ 33, "/system.slice/sshd.service" },
	{ 40, "/kubepods.slice" },
	{ 50, P1 },
	{ 51, CTR(P1, CA) },
	{ 52, CTR(P1, CA) "/nested.scope" },
	{ 53, CTR(P1, CS) },
	{ 60, P2 },
	{ 61, CTR(P2, CC) },
	{ 71, CTR(P3, CD) },
	{ 81, CTR(P4, CE) },
};

static struct cgroup_names kube = {
	.v = kube_table,
	.nr = sizeof(kube_table) / sizeof(kube_table[0]),
};

static void put(enum container_kind kind, const char *id, const char *ns, const char *pod,
		const char *ctr, const char *uid, bool sandbox)
{
	struct k8s_meta m = k8s_names(ns, pod, ctr, uid, sandbox);

	assert_int_equal(k8s_table_put(&kube.k8s, kind, id, &m), 0);
}

/* What the collect stage would have found for them (host/k8s_state.c). */
static int setup_kube(void **state)
{
	put(CONTAINER_CONTAINERD, CA, "shop", "web", "nginx", UID1, false);
	put(CONTAINER_CONTAINERD, CS, "shop", "web", "", UID1, true);
	put(CONTAINER_POD, UID1, "shop", "web", "", UID1, false);
	put(CONTAINER_CONTAINERD, CC, "shop", "api", "app", UID2, false);
	put(CONTAINER_POD, UID2, "shop", "api", "", UID2, false);
	put(CONTAINER_CONTAINERD, CD, "kube-system", "coredns", "coredns", UID3, false);
	put(CONTAINER_POD, UID3, "kube-system", "coredns", "", UID3, false);
	return 0;
}

static int teardown_kube(void **state)
{
	k8s_table_free(&kube.k8s);
	return 0;
}

/* Charges: idle 1000, sshd 5, pod web's own 7, nginx 100 (+20 nested), its sandbox 3, ... */
static struct cgroup_sample kube_samples[] = {
	{ .id = TD_IDLE_CGROUP_ID },
	{ .id = 33 },
	{ .id = 50 },
	{ .id = 51 },
	{ .id = 52 },
	{ .id = 53 },
	{ .id = 60 },
	{ .id = 61 },
	{ .id = 71 },
	{ .id = 81 },
	{ .id = 99 },
};
static const __u64 kube_ns[] = { 1000, 5, 7, 100, 20, 3, 11, 200, 50, 30, 9 };
#define NR_KUBE (sizeof(kube_samples) / sizeof(kube_samples[0]))

static void build_kube(const struct cgroup_rows_opts *o, struct cgroup_row **rows, size_t *nr)
{
	for (size_t i = 0; i < NR_KUBE; i++)
		kube_samples[i] = sample(kube_samples[i].id, kube_ns[i]);
	assert_int_equal(cgroup_rows_build(kube_samples, NR_KUBE, &kube, o, rows, nr), 0);
}

static __u64 kube_total(void)
{
	__u64 t = 0;

	for (size_t i = 0; i < NR_KUBE; i++)
		t += kube_ns[i];
	return t;
}

/* Without --containers: every cgroup in a container or pod has its names, the rest none. */
static void test_k8s_tree(void **state)
{
	struct cgroup_rows_opts o = { .depth = -1 };
	const struct cgroup_row *r;
	struct cgroup_row *rows;
	size_t nr;

	build_kube(&o, &rows, &nr);
	r = find(rows, nr, CTR(P1, CA));
	assert_non_null(r->k8s);
	assert_string_equal(r->k8s->namespace, "shop");
	assert_string_equal(r->k8s->pod, "web");
	assert_string_equal(r->k8s->container, "nginx");
	assert_int_equal(r->sum.count[TD_SLOTS], 120);
	assert_string_equal(r->label.label, ""); /* no label without --containers */
	/* A cgroup nested in the container is the container's. */
	r = find(rows, nr, CTR(P1, CA) "/nested.scope");
	assert_non_null(r->k8s);
	assert_string_equal(r->k8s->container, "nginx");
	r = find(rows, nr, CTR(P1, CS));
	assert_non_null(r->k8s);
	assert_true(r->k8s->sandbox);
	/* The pod's own cgroup: its pod's names, no container's. */
	r = find(rows, nr, P1);
	assert_non_null(r->k8s);
	assert_string_equal(r->k8s->pod, "web");
	assert_string_equal(r->k8s->container, "");
	assert_string_equal(r->k8s->pod_uid, UID1);
	assert_string_equal(find(rows, nr, P2)->k8s->pod, "api");
	/* Not Kubernetes, or no names known. */
	assert_null(find(rows, nr, "/")->k8s);
	assert_null(find(rows, nr, "/kubepods.slice")->k8s);
	assert_null(find(rows, nr, "/kubepods.slice/kubepods-burstable.slice")->k8s);
	assert_null(find(rows, nr, "/system.slice/sshd.service")->k8s);
	assert_null(find(rows, nr, CTR(P4, CE))->k8s);
	assert_null(find(rows, nr, P4)->k8s);
	for (size_t i = 0; i < nr; i++)
		if (!rows[i].path)
			assert_null(rows[i].k8s);
	assert_int_equal(sum_self(rows, nr), kube_total());
	cgroup_rows_free(rows, nr);
}

/* --containers: a Kubernetes row's label is namespace/pod/container. */
static void test_k8s_containers(void **state)
{
	struct cgroup_rows_opts o = { .depth = -1, .containers = true };
	const struct cgroup_row *r;
	struct cgroup_row *rows;
	size_t nr;

	build_kube(&o, &rows, &nr);
	r = find(rows, nr, CTR(P1, CA));
	assert_string_equal(r->label.label, "shop/web/nginx");
	assert_int_equal(r->label.kind, CONTAINER_CONTAINERD);
	assert_string_equal(r->label.id, CA);
	assert_int_equal(r->sum.count[TD_SLOTS], 120);
	assert_int_equal(r->self.count[TD_SLOTS], 120);
	assert_null(find(rows, nr, CTR(P1, CA) "/nested.scope")); /* in its container's row */
	assert_string_equal(find(rows, nr, CTR(P1, CS))->label.label, "shop/web/POD");
	assert_string_equal(find(rows, nr, P1)->label.label, "shop/web");
	assert_string_equal(find(rows, nr, CTR(P2, CC))->label.label, "shop/api/app");
	assert_string_equal(find(rows, nr, CTR(P3, CD))->label.label,
			    "kube-system/coredns/coredns");
	/* Not Kubernetes, or no names known: labelled as before. */
	r = find(rows, nr, CTR(P4, CE));
	assert_null(r->k8s);
	assert_string_equal(r->label.label,
			    "k8s:burstable/pod11111111-2222-4333-8444-555555555555/containerd:"
			    "ee99358fe6af");
	r = find(rows, nr, "/system.slice/sshd.service");
	assert_null(r->k8s);
	assert_string_equal(r->label.label, "unit:sshd.service");
	assert_int_equal(sum_self(rows, nr), kube_total());
	cgroup_rows_free(rows, nr);
}

/* The rolled-up row of @ns (and @pod, NULL: a namespace's), or NULL. */
static const struct cgroup_row *group_row(const struct cgroup_row *rows, size_t nr, const char *ns,
					  const char *pod)
{
	const struct cgroup_row *found = NULL;

	for (size_t i = 0; i < nr; i++) {
		const struct k8s_meta *k = rows[i].k8s;

		if (rows[i].path || !k || strcmp(k->namespace, ns) ||
		    strcmp(k->pod, pod ? pod : ""))
			continue;
		assert_null(found); /* one row per group */
		found = &rows[i];
	}
	return found;
}

/* A group's row holds what its members' rows held, with --containers. */
static void assert_group_sums(const struct cgroup_row *g, const struct cgroup_row *members,
			      size_t nr, const char *ns, const char *pod)
{
	struct td_counts sum = { 0 }, self = { 0 };
	int n = 0;

	for (size_t i = 0; i < nr; i++) {
		const struct k8s_meta *k = members[i].k8s;

		if (!k || strcmp(k->namespace, ns) || (pod && strcmp(k->pod, pod)))
			continue;
		td_counts_add(&sum, &members[i].sum, TD_WIDTH_WHOLE);
		td_counts_add(&self, &members[i].self, TD_WIDTH_WHOLE);
		n++;
	}
	assert_true(n > 0);
	assert_non_null(g);
	assert_memory_equal(&g->sum, &sum, sizeof(sum));
	assert_memory_equal(&g->self, &self, sizeof(self));
}

/* Rows without names come through a roll-up as they were. */
static void assert_others_untouched(const struct cgroup_row *rows, size_t nr,
				    const struct cgroup_row *before, size_t nr_before)
{
	size_t others = 0;

	for (size_t i = 0; i < nr_before; i++) {
		const struct cgroup_row *b = &before[i], *r = NULL;

		if (b->k8s)
			continue;
		for (size_t j = 0; j < nr; j++)
			if (rows[j].id == b->id && rows[j].idle == b->idle &&
			    (b->path ? rows[j].path && !strcmp(rows[j].path, b->path)
				     : !rows[j].path))
				r = &rows[j];
		assert_non_null(r);
		assert_null(r->k8s);
		assert_null(r->group);
		assert_memory_equal(&r->sum, &b->sum, sizeof(b->sum));
		assert_memory_equal(&r->self, &b->self, sizeof(b->self));
		assert_memory_equal(&r->label, &b->label, sizeof(b->label));
		assert_int_equal(r->depth, b->depth);
		others++;
	}
	/* the idle row (still one), id 99 unnamed, sshd, the container without names */
	assert_int_equal(others, 4);
	for (size_t j = 0; j < nr; j++)
		others -= rows[j].idle;
	assert_int_equal(others, 3);
}

static void test_k8s_group_pod(void **state)
{
	struct cgroup_rows_opts o = { .depth = -1, .containers = true };
	const struct cgroup_row *web, *api, *dns;
	struct cgroup_row *rows, *before;
	size_t nr, nr_before;

	build_kube(&o, &before, &nr_before);
	o.group_by = GROUP_POD;
	build_kube(&o, &rows, &nr);
	assert_int_equal(nr, 4 + 3);
	web = group_row(rows, nr, "shop", "web");
	api = group_row(rows, nr, "shop", "api");
	dns = group_row(rows, nr, "kube-system", "coredns");
	assert_group_sums(web, before, nr_before, "shop", "web");
	assert_group_sums(api, before, nr_before, "shop", "api");
	assert_group_sums(dns, before, nr_before, "kube-system", "coredns");
	assert_int_equal(web->sum.count[TD_SLOTS], 7 + 100 + 20 + 3);
	assert_others_untouched(rows, nr, before, nr_before);
	assert_int_equal(sum_self(rows, nr), kube_total());

	/* The rolled-up row: no path, the pod's label, an id no cgroup has. */
	assert_null(web->path);
	assert_int_equal(web->depth, 0);
	assert_false(web->idle);
	assert_true(web->id & K8S_GROUP_ID_BIT);
	assert_true(api->id & K8S_GROUP_ID_BIT);
	/* A signed 64-bit integer still: JSON readers take no more. */
	assert_true(web->id <= INT64_MAX && api->id <= INT64_MAX && dns->id <= INT64_MAX);
	assert_true(web->id != api->id && web->id != dns->id && api->id != dns->id);
	assert_int_equal(web->label.kind, CONTAINER_POD);
	assert_string_equal(web->label.label, "shop/web");
	assert_string_equal(web->label.pod_uid, UID1);
	assert_ptr_equal(web->k8s, web->group);
	assert_string_equal(web->k8s->container, "");
	assert_false(web->k8s->sandbox);
	assert_string_equal(web->k8s->pod_uid, UID1);
	assert_string_equal(dns->label.label, "kube-system/coredns");
	cgroup_rows_free(before, nr_before);

	/* Another build, other charges, in another order of rows: the same ids. */
	{
		struct cgroup_sample v[] = { sample(53, 1), sample(61, 2), sample(71, 3) };
		const struct cgroup_row *w2, *a2, *d2;
		struct cgroup_row *again;
		size_t nr_again;

		assert_int_equal(cgroup_rows_build(v, 3, &kube, &o, &again, &nr_again), 0);
		assert_int_equal(nr_again, 3);
		w2 = group_row(again, nr_again, "shop", "web");
		a2 = group_row(again, nr_again, "shop", "api");
		d2 = group_row(again, nr_again, "kube-system", "coredns");
		assert_non_null(w2);
		assert_int_equal(w2->id, web->id);
		assert_int_equal(a2->id, api->id);
		assert_int_equal(d2->id, dns->id);
		assert_int_equal(w2->sum.count[TD_SLOTS], 1);
		cgroup_rows_free(again, nr_again);
	}
	cgroup_rows_free(rows, nr);
}

static void test_k8s_group_namespace(void **state)
{
	struct cgroup_rows_opts o = { .depth = -1, .containers = true };
	const struct cgroup_row *shop, *sys;
	struct cgroup_row *rows, *before, *pods;
	size_t nr, nr_before, nr_pods;

	build_kube(&o, &before, &nr_before);
	o.group_by = GROUP_POD;
	build_kube(&o, &pods, &nr_pods);
	o.group_by = GROUP_NAMESPACE;
	build_kube(&o, &rows, &nr);
	assert_int_equal(nr, 4 + 2);
	shop = group_row(rows, nr, "shop", NULL);
	sys = group_row(rows, nr, "kube-system", NULL);
	assert_group_sums(shop, before, nr_before, "shop", NULL);
	assert_group_sums(sys, before, nr_before, "kube-system", NULL);
	assert_int_equal(shop->sum.count[TD_SLOTS], 7 + 100 + 20 + 3 + 11 + 200);
	assert_others_untouched(rows, nr, before, nr_before);
	assert_int_equal(sum_self(rows, nr), kube_total());

	assert_null(shop->path);
	assert_true(shop->id & K8S_GROUP_ID_BIT);
	assert_true(shop->id != sys->id);
	/* Not the id of the namespace's only pod rolled up by pod. */
	assert_true(sys->id != group_row(pods, nr_pods, "kube-system", "coredns")->id);
	assert_int_equal(shop->label.kind, CONTAINER_NONE);
	assert_string_equal(shop->label.label, "shop");
	assert_string_equal(shop->label.pod_uid, "");
	assert_string_equal(shop->k8s->pod, "");
	assert_string_equal(shop->k8s->pod_uid, "");
	assert_string_equal(shop->k8s->container, "");
	cgroup_rows_free(pods, nr_pods);
	cgroup_rows_free(before, nr_before);
	cgroup_rows_free(rows, nr);
}

/*
 * containerd before 1.6.11 does not write the pod's UID: a pod rolled up
 * from such containers still has the UID their cgroups' paths give.
 */
static void test_k8s_group_pod_uid(void **state)
{
	struct cgroup_rows_opts o = { .depth = -1, .containers = true, .group_by = GROUP_POD };
	struct cgroup_sample v[] = { sample(71, 50) };
	const struct cgroup_row *dns;
	struct cgroup_row *rows;
	size_t nr;

	put(CONTAINER_CONTAINERD, CD, "kube-system", "coredns", "coredns", "", false);
	assert_int_equal(cgroup_rows_build(v, 1, &kube, &o, &rows, &nr), 0);
	assert_int_equal(nr, 1);
	dns = group_row(rows, nr, "kube-system", "coredns");
	assert_non_null(dns);
	assert_string_equal(dns->label.label, "kube-system/coredns");
	assert_string_equal(dns->label.pod_uid, UID3);
	assert_string_equal(dns->label.id, UID3);
	assert_string_equal(dns->k8s->pod_uid, UID3);
	cgroup_rows_free(rows, nr);
}

static void test_empty(void **state)
{
	struct cgroup_rows_opts o = { .depth = -1 };
	struct cgroup_row *rows;
	size_t nr = 1;

	assert_int_equal(cgroup_rows_build(NULL, 0, &names, &o, &rows, &nr), 0);
	assert_int_equal(nr, 0);
	cgroup_rows_free(rows, nr);
}

static void test_path_depth(void **state)
{
	assert_int_equal(cgroup_path_depth("/"), 0);
	assert_int_equal(cgroup_path_depth("/a"), 1);
	assert_int_equal(cgroup_path_depth("/a/b"), 2);
	assert_int_equal(cgroup_path_depth("/a/b/"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_subtree_sums, setup_tree),
		cmocka_unit_test(test_ancestor_id),
		cmocka_unit_test_setup(test_depth, setup_tree),
		cmocka_unit_test_setup(test_roots, setup_tree),
		cmocka_unit_test(test_containers),
		cmocka_unit_test_setup_teardown(test_k8s_tree, setup_kube, teardown_kube),
		cmocka_unit_test_setup_teardown(test_k8s_containers, setup_kube, teardown_kube),
		cmocka_unit_test_setup_teardown(test_k8s_group_pod, setup_kube, teardown_kube),
		cmocka_unit_test_setup_teardown(test_k8s_group_namespace, setup_kube,
						teardown_kube),
		cmocka_unit_test_setup_teardown(test_k8s_group_pod_uid, setup_kube, teardown_kube),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_path_depth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
