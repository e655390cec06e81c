// SPDX-License-Identifier: GPL-2.0
/*
 * synth_exposition ROOT SECONDS [TDTRACE-OPTIONS...]
 *
 * Prints the /metrics text that tdtrace --listen would serve after SECONDS
 * of a made-up run on the machine described by the fake system root ROOT
 * (tests/fixtures/sysfs/icelake, say): hardware TopDown counts, which this
 * project's build machines (VMs without a PMU) cannot give. Everything
 * after the counts is tdtrace's own code, as in a real run: options_parse,
 * pmu_discover_all and plan_models pick the model's counter set,
 * renderer_init and render_metrics decode the entries with the model's
 * formulas and write the exposition (user/output/prometheus.c).
 *
 * The counts are SYNTHETIC: a few Kubernetes containers (namespaces shop
 * and kube-system), a systemd unit, the root cgroup and the idle tasks,
 * each charged a fixed rate of every event of the model per second, so
 * that counters grow linearly with SECONDS and each cgroup has its own
 * TopDown profile. The Kubernetes names are put in the names table as the
 * collect stage would after reading the runtime's state. Level-2 groups
 * are counted half the time (multiplexed), as the kernel might.
 *
 * Used by tests/tools/test_dashboard.py, which serves this text to a real
 * Prometheus. Exit 0, or 1 with a one-line reason on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/options.h"
#include "host/pmu.h"
#include "host/targets.h"
#include "model/cgroup_names.h"
#include "model/container.h"
#include "model/entries.h"
#include "model/k8s_table.h"
#include "model/plan.h"
#include "output/file.h"
#include "output/render.h"

/* One cgroup of the made-up machine, and the one process charged to it. */
struct synth_cgroup {
	const char *path;
	const char *namespace, *pod, *container, *pod_uid; /* NULL: not Kubernetes */
	bool sandbox;
	const char *comm;
	double slots;	   /* slots per second */
	double r, b, f, k; /* level 1: retiring, bad speculation, frontend, backend */
	double mem;	   /* memory stalls, relative to a typical workload */
};

#define UID_WEB "7c2d1a4e-5b3f-4e8a-9d61-2f0b8c4a7e13"
#define UID_DB	"0e9b6f12-8a4d-4c3e-b7f5-61d2a9c0e384"
#define UID_DNS "c41f7a09-2e6b-4d8c-a3f1-95b7e0d2c6a8"
#define POD_WEB "/kubepods/burstable/pod" UID_WEB
#define POD_DB	"/kubepods/besteffort/pod" UID_DB
#define POD_DNS "/kubepods/pod" UID_DNS

static const struct synth_cgroup cgroups[] = {
	{ "/", NULL, NULL, NULL, NULL, false, "kworker/0:1", 2e8, .30, .10, .30, .30, 1 },
	{ "/system.slice/containerd.service", NULL, NULL, NULL, NULL, false, "containerd", 5e8, .30,
	  .10, .30, .30, 1 },
	{ POD_WEB "/1f3e5a7c9b0d2f4e6a8c0b1d3f5e7a9c1b3d5f7e9a0c2e4f6a8b0d1c3e5f7a9b", "shop",
	  "web-5d8c7b9f4-x2kqp", "", UID_WEB, true, "pause", 1e6, .20, .05, .50, .25, 1 },
	{ POD_WEB "/2a4c6e8f0b1d3f5a7c9e0b2d4f6a8c1e3b5d7f9a0c2e4b6d8f1a3c5e7b9d0f2a", "shop",
	  "web-5d8c7b9f4-x2kqp", "nginx", UID_WEB, false, "nginx", 6e9, .25, .10, .40, .25, 1 },
	{ POD_WEB "/3b5d7f9a1c2e4f6b8d0a3c5e7f9b1d2a4c6e8f0b3d5a7c9e1f2b4d6a8c0e3f5b", "shop",
	  "web-5d8c7b9f4-x2kqp", "envoy", UID_WEB, false, "envoy", 2e9, .30, .08, .32, .30, 1 },
	{ POD_DB "/4c6e8a0b2d4f6a8c1e3b5d7f9a2c4e6b8d0f1a3c5e7b9d2f4a6c8e0b1d3f5a7c", "shop",
	  "db-0", "postgres", UID_DB, false, "postgres", 8e9, .20, .05, .15, .60, 1.4 },
	{ POD_DNS "/5d7f9b1c3e5a7c9e2b4d6f8a0c3e5b7d9f1a2c4e6b8d0f3a5c7e9b1d2f4a6c8e",
	  "kube-system", "coredns-6f6b679f8f-q7zlm", "coredns", UID_DNS, false, "coredns", 1e9, .45,
	  .10, .25, .20, 0.5 },
};

#define NR_CGROUPS (sizeof(cgroups) / sizeof(cgroups[0]))
#define IDLE_SLOTS 5e8

/*
 * Every event of the Ice Lake rows, per 1000 slots of a typical workload;
 * the four level-1 events come from each cgroup's own fractions instead.
 * @scale: which of a cgroup's traits the event follows.
 */
enum follows { NONE, L1_R, L1_B, L1_F, L1_K, MEM };

static const struct {
	const char *name;
	double per_1000;
	enum follows scale;
} events[] = {
	{ "INT_MISC.UOP_DROPPING", 20, L1_F },
	{ "INT_MISC.CLEARS_COUNT", 10, L1_B },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 30, L1_F },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", 30, NONE },
	{ "MACHINE_CLEARS.COUNT", 10, NONE },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 200, MEM },
	{ "EXE_ACTIVITY.BOUND_ON_STORES", 40, MEM },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", 300, NONE },
	{ "EXE_ACTIVITY.1_PORTS_UTIL", 100, NONE },
	{ "EXE_ACTIVITY.2_PORTS_UTIL", 80, NONE },
	{ "UOPS_RETIRED.SLOTS", 400, L1_R },
	{ "UOPS_ISSUED.ANY", 500, NONE },
	{ "IDQ.MS_UOPS", 50, NONE },
	{ "UOPS_DECODED.DEC0", 60, NONE },
	{ "UOPS_DECODED.DEC0,cmask=1", 20, NONE },
	{ "IDQ.MITE_UOPS", 200, NONE },
};

/* Per second: one count of counter @i of @cs for @g, slots @slots (the idle tasks: g NULL). */
static int rate_of(const struct counter_set *cs, int i, const struct synth_cgroup *g, double slots,
		   double *out)
{
	static const struct synth_cgroup typical = {
		.r = .30, .b = .10, .f = .25, .k = .35, .mem = 1
	};
	const char *name = cs->name[i];

	if (!g)
		g = &typical;
	if (!strcmp(name, "slots"))
		*out = slots;
	else if (!strcmp(name, "topdown-retiring"))
		*out = g->r * slots;
	else if (!strcmp(name, "topdown-bad-spec"))
		*out = g->b * slots;
	else if (!strcmp(name, "topdown-fe-bound"))
		*out = g->f * slots;
	else if (!strcmp(name, "topdown-be-bound"))
		*out = g->k * slots;
	else {
		size_t e;

		for (e = 0; e < sizeof(events) / sizeof(events[0]); e++)
			if (!strcmp(events[e].name, name))
				break;
		if (e == sizeof(events) / sizeof(events[0])) {
			fprintf(stderr,
				"synth_exposition: the model counts %s, which this test "
				"has no synthetic rate for; add one\n",
				name);
			return -EINVAL;
		}
		*out = events[e].per_1000 * slots / 1000;
		switch (events[e].scale) {
		case L1_R:
			*out *= g->r / typical.r;
			break;
		case L1_B:
			*out *= g->b / typical.b;
			break;
		case L1_F:
			*out *= g->f / typical.f;
			break;
		case L1_K:
			*out *= g->k / typical.k;
			break;
		case MEM:
			*out *= g->mem;
			break;
		case NONE:
			break;
		}
	}
	return 0;
}

/* The counts of @g (NULL: the idle tasks) after @t seconds, counted with @cs. */
static int counts_of(const struct counter_set *cs, const struct synth_cgroup *g, double t,
		     struct td_counts *c)
{
	double slots = g ? g->slots : IDLE_SLOTS;
	/* The CPU time a workload of that many slots takes: 4 slots a cycle at 3 GHz. */
	double ns = slots / 12e9 * 1e9 * t;

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < cs->nr; i++) {
		double v;

		if (rate_of(cs, i, g, slots, &v))
			return -EINVAL;
		/* The groups after the first are multiplexed: counted half the time. */
		c->count[i] = (__u64)(v * t * (cs->group[i] ? 0.5 : 1));
	}
	for (int k = 0; k < cs->nr_groups; k++) {
		c->enabled_ns[k] = (__u64)ns;
		c->running_ns[k] = (__u64)(k ? ns / 2 : ns);
	}
	c->slices = (__u64)(t * 100) + 1;
	return 0;
}

/* @path (and its id) into the names, and its Kubernetes names if @g has them. */
static int name_cgroup(struct cgroup_names *n, __u64 id, const struct synth_cgroup *g)
{
	struct cgroup_name *v = realloc(n->v, (n->nr + 1) * sizeof(*v));
	struct k8s_meta m = { 0 };
	struct container c;
	int err;

	if (!v)
		return -ENOMEM;
	n->v = v;
	n->v[n->nr].id = id;
	n->v[n->nr].path = strdup(g->path);
	if (!n->v[n->nr].path)
		return -ENOMEM;
	n->nr++;
	if (!g->namespace)
		return 0;
	snprintf(m.namespace, sizeof(m.namespace), "%s", g->namespace);
	snprintf(m.pod, sizeof(m.pod), "%s", g->pod);
	snprintf(m.pod_uid, sizeof(m.pod_uid), "%s", g->pod_uid);
	m.sandbox = g->sandbox;
	if (container_parse(g->path, &c) || !c.id[0])
		return -EINVAL;
	/* The pod's own names, then its container's. */
	err = k8s_table_put(&n->k8s, CONTAINER_POD, g->pod_uid, &m);
	snprintf(m.container, sizeof(m.container), "%s", g->container);
	return err ? err : k8s_table_put(&n->k8s, c.kind, c.id, &m);
}

static int publish(void *ctx, const char *text004, size_t len004, const char *openmetrics,
		   size_t len_om)
{
	(void)ctx;
	(void)openmetrics;
	(void)len_om;
	return fwrite(text004, 1, len004, stdout) == len004 ? 0 : -EIO;
}

/* Everything is freed by exit: this program runs once per scrape. */
int main(int argc, char **argv)
{
	static struct cpu_pmus cpu;
	static struct plan plan;
	static struct renderer rd;
	static bool online[PMU_MAX_CPUS];
	static char *targv[64] = { "tdtrace" };
	struct output_file out = { .f = stdout };
	struct entry_set set = { 0 };
	struct tally tl = { 0 };
	struct cgroup_names names;
	struct options o;
	struct targets t;
	struct report rep;
	double seconds;
	char *end;

	if (argc < 3 || argc - 2 > 63) {
		fprintf(stderr, "usage: synth_exposition ROOT SECONDS [TDTRACE-OPTIONS...]\n");
		return 1;
	}
	seconds = strtod(argv[2], &end);
	if (*end || !(seconds >= 0)) {
		fprintf(stderr, "synth_exposition: SECONDS must be a number >= 0, not %s\n",
			argv[2]);
		return 1;
	}
	for (int i = 3; i < argc; i++)
		targv[i - 2] = argv[i];
	if (options_parse(argc - 2, targv, &o, stderr, stderr) != OPTIONS_RUN)
		return 1;
	if (pmu_discover_all(argv[1], &cpu) || !cpu.nr_pmus) {
		fprintf(stderr, "synth_exposition: no core PMU under %s\n", argv[1]);
		return 1;
	}
	for (int k = 0; k < cpu.nr_pmus; k++)
		for (int i = 0; i < PMU_MAX_CPUS; i++)
			online[i] |= cpu.pmu[k].cpus[i];
	if (plan_models(&o, &cpu, online, &plan, stderr))
		return 1;
	if (plan.nr_pmus != 1 || plan.pmus[0].counters.software) {
		fprintf(stderr, "synth_exposition: %s is not one core PMU with a TopDown model\n",
			argv[1]);
		return 1;
	}
	targets_init(&t);
	if (cgroup_names_init(&names, "/sys/fs/cgroup") || entries_reserve(&set, NR_CGROUPS + 1))
		return 1;
	/* Ids in path order (ids are inode numbers: any order will do, sorted by id). */
	for (size_t i = 0; i < NR_CGROUPS; i++) {
		struct entry *e = &set.v[set.nr++];

		if (name_cgroup(&names, 100 + i, &cgroups[i])) {
			fprintf(stderr, "synth_exposition: failed to name %s\n", cgroups[i].path);
			return 1;
		}
		memset(e, 0, sizeof(*e));
		e->key = (struct td_key){ .id = 1000 + i, .start_ns = 1000, .cgroup_id = 100 + i };
		e->tgid = e->key.id;
		memcpy(e->comm, cgroups[i].comm, strnlen(cgroups[i].comm, TD_COMM_LEN));
		if (counts_of(&plan.pmus[0].counters, &cgroups[i], seconds, &e->c))
			return 1;
		td_counts_add(&set.totals.all, &e->c, set.width);
	}
	memset(&set.v[set.nr], 0, sizeof(set.v[0]));
	set.v[set.nr].key = (struct td_key){ .cgroup_id = TD_IDLE_CGROUP_ID };
	memcpy(set.v[set.nr].comm, "swapper/0", sizeof("swapper/0"));
	if (counts_of(&plan.pmus[0].counters, NULL, seconds, &set.v[set.nr].c))
		return 1;
	td_counts_add(&set.totals.all, &set.v[set.nr].c, set.width);
	set.nr++;
	set.pmu_totals[0] = set.totals;
	entries_sort(&set);
	if (renderer_init(&rd, &o, &plan, &t, &out, &names,
			  (struct metrics_sink){ .publish = publish, .ctx = &out }))
		return 1;
	rep = (struct report){ .interval = 1,
			       .elapsed_s = seconds,
			       .duration_s = seconds,
			       .nr_cpus = plan.pmus[0].nr_cpus };
	/* The run so far, and its sums by cgroup, as the main loop keeps them. */
	tl.total = set;
	if (entries_by_cgroup(&set, &tl.cgroups))
		return 1;
	return render_metrics(&rd, &rep, &tl) ? 1 : 0;
}
