/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A report of cgroups of two Kubernetes pods (a container, its pod's
 * sandbox and the pod's own cgroup; another pod's container) beside a
 * systemd unit and the idle tasks, with the names the collect stage would
 * have found, for the output tests (test_json, test_metrics_text). Include
 * after cmocka.h.
 */
#ifndef K8S_REPORT_H
#define K8S_REPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/report.h"
#include "k8s_names.h"
#include "testlake.h"

#define KR_UID1	  "17bc79bd-5b4f-4e22-931a-9862d25aed77"
#define KR_UID2	  "65504ace-7401-4b33-966b-46aae9870724"
#define KR_POD(s) "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" s ".slice"
#define KR_P1	  KR_POD("17bc79bd_5b4f_4e22_931a_9862d25aed77")
#define KR_P2	  KR_POD("65504ace_7401_4b33_966b_46aae9870724")
#define KR_CA	  "aa1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
#define KR_CS	  "bb7c3e1a9b2d8c6e5a0f1b3d7e9c2a4b6d8f0e1c3a5b7d9f2e4c6a8b0d1f3e5a"
#define KR_CC	  "cc99358fe6afe0fc2fc24eb0016801c3abffdc1535994e08d748918bfc4533ed"
#define KR_SSHD	  "/system.slice/sshd.service"

/* Cgroup ids: the unit, pod web's own, nginx, web's sandbox, and pod @pod2's container. */
enum { KR_ID_SSHD = 33, KR_ID_WEB = 50, KR_ID_NGINX = 51, KR_ID_SANDBOX = 53, KR_ID_APP = 61 };

struct k8s_report {
	struct counter_set cs;
	struct td_decoding decoding;
	struct snapshot s;
	struct cgroup_names names;
	struct cgroup_rows_opts opts;
	struct report_config cfg;
	struct report r;
};

static inline void kr_name(struct cgroup_names *n, __u64 id, const char *path)
{
	n->v[n->nr].id = id;
	n->v[n->nr].path = strdup(path);
	assert_non_null(n->v[n->nr++].path);
}

static inline void kr_put(struct cgroup_names *n, enum container_kind kind, const char *id,
			  const char *ns, const char *pod, const char *ctr, const char *uid,
			  bool sandbox)
{
	struct k8s_meta m = k8s_names(ns, pod, ctr, uid, sandbox);

	assert_int_equal(k8s_table_put(&n->k8s, kind, id, &m), 0);
}

/*
 * Build @k's report: TopDown level 2 (testlake) or --software, with
 * --containers or not, rolled up by @by; the second pod is named @pod2
 * in namespace @ns2 (any bytes: the outputs must cope).
 */
static inline void kr_build(struct k8s_report *k, bool software, bool containers,
			    enum cgroup_group by, const char *ns2, const char *pod2)
{
	static const __u64 ids[] = { TD_IDLE_CGROUP_ID, KR_ID_SSHD,    KR_ID_WEB,
				     KR_ID_NGINX,	KR_ID_SANDBOX, KR_ID_APP };
	const __u64 nr = sizeof(ids) / sizeof(ids[0]);

	memset(k, 0, sizeof(*k));
	if (software)
		counters_software(&k->cs);
	else
		assert_int_equal(testlake_counters(2, &k->cs), 0);
	assert_int_equal(td_decoding_init(&k->decoding, &k->cs, false, NULL, 0), 0);

	assert_int_equal(cgroup_names_init(&k->names, NULL), 0);
	k->names.v = calloc(8, sizeof(*k->names.v));
	assert_non_null(k->names.v);
	k->names.cap = 8;
	kr_name(&k->names, KR_ID_SSHD, KR_SSHD);
	kr_name(&k->names, KR_ID_WEB, KR_P1);
	kr_name(&k->names, KR_ID_NGINX, KR_P1 "/cri-containerd-" KR_CA ".scope");
	kr_name(&k->names, KR_ID_SANDBOX, KR_P1 "/cri-containerd-" KR_CS ".scope");
	kr_name(&k->names, KR_ID_APP, KR_P2 "/cri-containerd-" KR_CC ".scope");
	kr_put(&k->names, CONTAINER_CONTAINERD, KR_CA, "shop", "web", "nginx", KR_UID1, false);
	kr_put(&k->names, CONTAINER_CONTAINERD, KR_CS, "shop", "web", "", KR_UID1, true);
	kr_put(&k->names, CONTAINER_POD, KR_UID1, "shop", "web", "", KR_UID1, false);
	kr_put(&k->names, CONTAINER_CONTAINERD, KR_CC, ns2, pod2, "app", KR_UID2, false);
	kr_put(&k->names, CONTAINER_POD, KR_UID2, ns2, pod2, "", KR_UID2, false);

	/* Each cgroup i: L1 40/10/20/30 % of (i + 1) * 1000 slots, or that many µs. */
	assert_int_equal(snapshot_reserve(&k->s, 0, nr), 0);
	for (__u64 i = 0; i < nr; i++) {
		struct cgroup_sample *c = &k->s.cgroups[k->s.nr_cgroups++];
		static const __u64 pct[] = { 100, 40, 10, 20, 30, 16, 6, 12, 18 };

		memset(c, 0, sizeof(*c));
		c->id = ids[i];
		for (int e = 0; e < (software ? 1 : 9); e++)
			c->c.count[e] = (i + 1) * 10 * pct[e] * (software ? 1000 : 1);
		c->c.enabled_ns[0] = c->c.running_ns[0] = 1000000;
		c->c.slices = 10 + i;
		td_counts_add(&k->s.totals.all, &c->c, k->s.width);
	}

	k->opts =
		(struct cgroup_rows_opts){ .depth = -1, .containers = containers, .group_by = by };
	k->cfg = (struct report_config){ .counters = &k->cs,
					 .decoding = &k->decoding,
					 .per_cgroup = true,
					 .cgroup_opts = &k->opts };
	k->r = (struct report){ .cfg = &k->cfg, .nr_cpus = 2, .duration_s = 1, .interval = 1 };
	assert_int_equal(report_build(&k->r, &k->s, &k->names), 0);
}

static inline void kr_free(struct k8s_report *k)
{
	report_free(&k->r);
	snapshot_free(&k->s);
	cgroup_names_free(&k->names);
}

#endif /* K8S_REPORT_H */
