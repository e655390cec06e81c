// SPDX-License-Identifier: GPL-2.0
/* toplev's CSV. See toplev_csv.h. */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "output/toplev_csv.h"

/*
 * toplev's name of each common node, in enum td_l1 / td_l2 order (the
 * nodes of td_l1_nodes / td_l2_nodes): a level-2 node under its parent.
 */
static const char *const l1_areas[TD_NR_L1] = {
	[TD_L1_RETIRING] = "Retiring",
	[TD_L1_BAD_SPEC] = "Bad_Speculation",
	[TD_L1_FE_BOUND] = "Frontend_Bound",
	[TD_L1_BE_BOUND] = "Backend_Bound",
	/* AMD's; toplev (Intel only) has no such node, the name follows its style */
	[TD_L1_SMT_CONTENTION] = "SMT_Contention",
};

static const char *const l2_areas[TD_NR_L2] = {
	[TD_L2_HEAVY_OPS] = "Retiring.Heavy_Operations",
	[TD_L2_LIGHT_OPS] = "Retiring.Light_Operations",
	[TD_L2_BR_MISPREDICT] = "Bad_Speculation.Branch_Mispredicts",
	[TD_L2_MACHINE_CLEARS] = "Bad_Speculation.Machine_Clears",
	[TD_L2_FETCH_LAT] = "Frontend_Bound.Fetch_Latency",
	[TD_L2_FETCH_BW] = "Frontend_Bound.Fetch_Bandwidth",
	[TD_L2_MEM_BOUND] = "Backend_Bound.Memory_Bound",
	[TD_L2_CORE_BOUND] = "Backend_Bound.Core_Bound",
};

static void area(FILE *f, double ts, const char *name, double value, double multiplex)
{
	if (isnan(value))
		return;
	fprintf(f, "%.9f,C0,%s,%.2f,%% Slots,,,,%.1f,,\n", ts, name, 100 * value, multiplex);
}

void toplev_header(FILE *f)
{
	fputs("Timestamp,CPUs,Area,Value,Unit,Description,Sample,Stddev,Multiplex,Bottleneck,"
	      "Idle\n",
	      f);
}

void toplev_nodes(FILE *f, double ts, const struct td_counts *c, const struct td_metrics *m)
{
	/* toplev's Multiplex: the percent of the time the counters ran. */
	double multiplex = c->enabled_ns[0] ? 100.0 * c->running_ns[0] / c->enabled_ns[0] : 100.0;

	if (!m->valid)
		return;
	for (int i = 0; i < TD_NR_L1; i++)
		area(f, ts, l1_areas[i], m->l1[i], multiplex);
	for (int i = 0; m->level >= 2 && i < TD_NR_L2; i++)
		area(f, ts, l2_areas[i], m->l2[i], multiplex);
}

void output_toplev_csv(FILE *f, const struct report *r)
{
	if (!r->summary)
		toplev_nodes(f, r->elapsed_s, &r->totals->all, &r->system);
}

int toplev_split_init(struct toplev_split *s, const char *target, char *err, size_t errlen)
{
	size_t len = strlen(target);
	bool dir = len && target[len - 1] == '/';
	struct stat st;
	char *parent, *slash;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	if (!stat(target, &st) && S_ISDIR(st.st_mode))
		dir = true;
	else if (dir && mkdir(target, 0755) && errno != EEXIST)
		ret = -errno;
	if (ret) {
		snprintf(err, errlen, "failed to make directory %s: %s", target, strerror(-ret));
		return ret;
	}
	if (!dir) {
		/* A prefix: its directory must be there, so that a typo fails now, not later. */
		parent = strdup(target);
		if (!parent)
			return -ENOMEM;
		slash = strrchr(parent, '/');
		if (slash)
			slash[1] = '\0';
		if (stat(slash ? parent : ".", &st))
			ret = -errno;
		else if (!S_ISDIR(st.st_mode))
			ret = -ENOTDIR;
		if (ret)
			snprintf(err, errlen, "failed to use %s as a file prefix: %s: %s", target,
				 slash ? parent : ".", strerror(-ret));
		free(parent);
		if (ret)
			return ret;
	}
	if (asprintf(&s->base, "%s%s", target, dir ? (target[len - 1] == '/' ? "" : "/") : "-") <
	    0) {
		s->base = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Has this run begun @path? If not, note that it has now. 1, 0, or -ENOMEM. */
static int begun(struct toplev_split *s, const char *path)
{
	char **more;

	for (size_t i = 0; i < s->nr_written; i++)
		if (!strcmp(s->written[i], path))
			return 1;
	more = realloc(s->written, (s->nr_written + 1) * sizeof(*more));
	if (!more)
		return -ENOMEM;
	s->written = more;
	s->written[s->nr_written] = strdup(path);
	if (!s->written[s->nr_written])
		return -ENOMEM;
	s->nr_written++;
	return 0;
}

/* Add one entity's nodes to base + @name (+ "-pmu" on hybrid parts) + ".csv". */
static int add(struct toplev_split *s, const struct report *r, const char *name,
	       const struct td_counts *c, const struct td_metrics *m, char *err, size_t errlen)
{
	char path[4096];
	FILE *f;
	int old, ret = 0;

	snprintf(path, sizeof(path), "%s%s%s%s.csv", s->base, name, r->cfg->pmu ? "-" : "",
		 r->cfg->pmu ? r->cfg->pmu : "");
	old = begun(s, path);
	if (old < 0)
		return old;
	/* A file of an earlier run is emptied: one run per file, as -o FILE does. */
	f = fopen(path, old ? "ae" : "we");
	if (!f) {
		ret = -errno;
	} else {
		if (!old)
			toplev_header(f);
		toplev_nodes(f, r->elapsed_s, c, m);
		if (fclose(f))
			ret = -errno;
	}
	if (ret)
		snprintf(err, errlen, "failed to write %s: %s", path, strerror(-ret));
	return ret;
}

/* @s as one file name part: '/' and anything unprintable become '_'. */
static void file_part(char *dst, size_t size, const char *s)
{
	size_t n = 0;

	for (; *s && n + 1 < size; s++)
		dst[n++] = (*s == '/' || (unsigned char)*s <= ' ' || *s == 0x7f) ? '_' : *s;
	dst[n] = '\0';
}

int toplev_split_write(struct toplev_split *s, const struct report *r, unsigned int top, char *err,
		       size_t errlen)
{
	char name[512], part[400], comm[TD_COMM_LEN + 1];
	int ret;

	if (r->summary)
		return 0;
	ret = add(s, r, "system", &r->totals->all, &r->system, err, errlen);
	for (size_t i = 0, n = 0; !ret && i < r->nr_cgroups && n < top; i++) {
		const struct row *row = &r->cgroups[i];

		if (row->idle)
			continue;
		if (row->cgroup) {
			file_part(part, sizeof(part), row->cgroup); /* "/a/b": "_a_b" */
			snprintf(name, sizeof(name), "cgroup%s", part);
		} else {
			snprintf(name, sizeof(name), "cgroup-id%llu",
				 (unsigned long long)row->cgroup_id);
		}
		ret = add(s, r, name, row->c, &row->m, err, errlen);
		n++;
	}
	for (size_t i = 0, n = 0; !ret && i < r->nr_tasks && n < top; i++) {
		const struct row *row = &r->tasks[i];

		if (row->idle)
			continue;
		memset(comm, 0, sizeof(comm));
		memcpy(comm, row->task->val.comm, TD_COMM_LEN);
		file_part(part, sizeof(part), comm);
		snprintf(name, sizeof(name), "%s-%s-%u", r->cfg->per_thread ? "thread" : "process",
			 part, row->task->key.id);
		ret = add(s, r, name, row->c, &row->m, err, errlen);
		n++;
	}
	return ret;
}

void toplev_split_free(struct toplev_split *s)
{
	for (size_t i = 0; i < s->nr_written; i++)
		free(s->written[i]);
	free(s->written);
	free(s->base);
	memset(s, 0, sizeof(*s));
}
