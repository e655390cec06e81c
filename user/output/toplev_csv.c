// SPDX-License-Identifier: GPL-2.0
/* toplev's CSV. See toplev_csv.h. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "output/toplev_csv.h"

/* toplev's names for the common nodes, in enum td_l1 / td_l2 order. */
static const char *const l1_areas[TD_NR_L1] = {
	"Retiring",	 "Bad_Speculation", "Frontend_Bound",
	"Backend_Bound", "SMT_Contention", /* AMD only; toplev has no such node */
};

static const char *const l2_areas[TD_NR_L2] = {
	"Retiring.Heavy_Operations",	      "Retiring.Light_Operations",
	"Bad_Speculation.Branch_Mispredicts", "Bad_Speculation.Machine_Clears",
	"Frontend_Bound.Fetch_Latency",	      "Frontend_Bound.Fetch_Bandwidth",
	"Backend_Bound.Memory_Bound",	      "Backend_Bound.Core_Bound",
};

static const char header[] =
	"Timestamp,CPUs,Area,Value,Unit,Description,Sample,Stddev,Multiplex,Bottleneck,Idle\n";

static void area(FILE *f, double ts, const char *name, double value, double multiplex)
{
	if (isnan(value))
		return;
	fprintf(f, "%.9f,S0,%s,%.2f,%% Slots,,,,%.1f,,\n", ts, name, 100 * value, multiplex);
}

void toplev_header(FILE *f)
{
	fputs(header, f);
}

void toplev_nodes(FILE *f, double ts, const struct td_counts *c, const struct td_metrics *m)
{
	double multiplex = c->enabled_ns[0] ? 100.0 * c->running_ns[0] / c->enabled_ns[0] : 100.0;

	if (!m->valid)
		return;
	for (int i = 0; i < TD_NR_L1; i++)
		area(f, ts, l1_areas[i], m->l1[i], multiplex);
	for (int i = 0; m->level >= 2 && i < TD_NR_L2; i++)
		area(f, ts, l2_areas[i], m->l2[i], multiplex);
}

void output_toplev_csv(FILE *f, const struct report *r, bool with_header)
{
	if (with_header)
		fputs(header, f);
	toplev_nodes(f, r->elapsed_s, &r->totals->all, &r->system);
}

/* Append one entity's nodes to @dir/@name.csv, the header first if it is new. */
static int append(const char *dir, const char *name, double ts, const struct td_counts *c,
		  const struct td_metrics *m)
{
	char path[4096];
	struct stat st;
	FILE *f;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s.csv", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "a");
	if (!f) {
		close(fd);
		return -errno;
	}
	if (!fstat(fd, &st) && st.st_size == 0)
		fputs(header, f);
	toplev_nodes(f, ts, c, m);
	if (fclose(f))
		err = -errno;
	return err;
}

/* @s as a file name part: '/' and anything odd become '_'. */
static void file_part(char *dst, size_t size, const char *s)
{
	size_t n = 0;

	for (; *s && n + 1 < size; s++)
		dst[n++] = (*s == '/' || *s <= ' ' || *s == 0x7f || *s == '.') ? '_' : *s;
	dst[n] = '\0';
}

int output_toplev_dir(const char *dir, const struct report *r, unsigned int top)
{
	char name[512], part[400], comm[TD_COMM_LEN + 1];
	int err = append(dir, "system", r->elapsed_s, &r->totals->all, &r->system);

	for (size_t i = 0, n = 0; !err && i < r->nr_cgroups && n < top; i++) {
		const struct row *row = &r->cgroups[i];

		if (row->idle || !row->cgroup)
			continue;
		file_part(part, sizeof(part), row->cgroup);
		snprintf(name, sizeof(name), "cgroup%s", part);
		err = append(dir, name, r->elapsed_s, row->c, &row->m);
		n++;
	}
	for (size_t i = 0, n = 0; !err && i < r->nr_tasks && n < top; i++) {
		const struct row *row = &r->tasks[i];

		if (row->idle)
			continue;
		memset(comm, 0, sizeof(comm));
		memcpy(comm, row->task->val.comm, TD_COMM_LEN);
		file_part(part, sizeof(part), comm);
		snprintf(name, sizeof(name), "process-%s-%u", part, row->task->key.id);
		err = append(dir, name, r->elapsed_s, row->c, &row->m);
		n++;
	}
	return err;
}
