// SPDX-License-Identifier: GPL-2.0
/*
 * Discover the core PMU from sysfs: its perf type, its format/ fields and the
 * TopDown events it publishes, encoded into perf_event_attr config words.
 * Everything is read relative to a root directory so tests can use fake trees.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "host/pmu.h"

#define DEVICES_DIR  "sys/bus/event_source/devices"
#define ONLINE_FILE  "sys/devices/system/cpu/online"
#define CPUINFO_FILE "proc/cpuinfo"

/* Enough for any format/, events/ or type file. */
#define SMALL_FILE   512
/* A cpu list of PMU_MAX_CPUS CPUs written one by one ("0,2,4,...") fits. */
#define CPULIST_FILE (PMU_MAX_CPUS * 6)

static int read_text_at(int dirfd, const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd, err = 0;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (len == size - 1) {
			err = -EFBIG;
			break;
		}
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return err ? err : (int)len;
}

/*
 * Parse all of [s, end) as one unsigned number: decimal, or hex with 0x if
 * @hex. No sign, no blanks (strtoull alone would take both).
 */
static void show_path(char *buf, size_t size, const char *root, const char *rel)
{
	size_t len = strlen(root);

	while (len && root[len - 1] == '/')
		len--;
	snprintf(buf, size, "%.*s/%s", (int)len, root, rel);
}

static int read_format_dir(int pmufd, struct pmu_format *format)
{
	char buf[SMALL_FILE];
	struct dirent *de;
	DIR *dir;
	int fd;

	fd = openat(pmufd, "format", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(dir)) && format->nr < PMU_MAX_FORMAT) {
		struct pmu_format_field *f = &format->field[format->nr];

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(f->name))
			continue;
		if (read_text_at(fd, de->d_name, buf, sizeof(buf)) < 0)
			continue;
		/* A field we cannot parse (say config3) only hurts events that use it. */
		if (pmu_parse_format(buf, f))
			continue;
		strcpy(f->name, de->d_name);
		format->nr++;
	}
	closedir(dir);
	return 0;
}

/*
 * Read and encode the nine TopDown events. On an encoding error keep the
 * first reason in @bad (the event then counts as missing).
 */
static void read_events(int pmufd, struct pmu_info *info, char *bad, size_t badlen)
{
	char buf[SMALL_FILE], path[64], err[128];
	int i;

	for (i = 0; i < TD_NR_ROLES; i++) {
		struct pmu_event *ev = &info->events[i];

		snprintf(path, sizeof(path), "events/%s", pmu_event_names[i]);
		if (read_text_at(pmufd, path, buf, sizeof(buf)) < 0)
			continue;
		if (pmu_encode_event(buf, &info->format, ev, err, sizeof(err)) && !bad[0])
			snprintf(bad, badlen, "events/%s: %s", pmu_event_names[i], err);
	}
}

/* Level from the events present; on level 0 say what is missing in info->why. */
static int topdown_level(struct pmu_info *info, const char *bad)
{
	char missing[128] = "";
	size_t len = 0;
	int i, nr_l1 = 0;

	for (i = TD_RETIRING; i <= TD_BE_BOUND; i++)
		nr_l1 += info->events[i].present;
	if (!info->events[TD_SLOTS].present && !nr_l1) {
		snprintf(info->why, sizeof(info->why),
			 "PMU %s has no slots/topdown-* events: "
			 "TopDown metrics need Intel Ice Lake or later",
			 info->name);
		return 0;
	}
	if (info->events[TD_SLOTS].present && nr_l1 == 4) {
		for (i = TD_HEAVY_OPS; i <= TD_MEM_BOUND; i++) {
			if (!info->events[i].present)
				return 1;
		}
		return 2;
	}
	for (i = TD_SLOTS; i <= TD_BE_BOUND; i++) {
		if (info->events[i].present || len >= sizeof(missing))
			continue;
		len += snprintf(missing + len, sizeof(missing) - len, "%s%s", len ? ", " : "",
				pmu_event_names[i]);
	}
	if (bad[0])
		snprintf(info->why, sizeof(info->why), "PMU %s: %s", info->name, bad);
	else
		snprintf(info->why, sizeof(info->why), "PMU %s lacks TopDown events: %s",
			 info->name, missing);
	return 0;
}

/* CPUs that are online and, if the PMU says which it covers, covered by it. */
static int read_cpus(int rootfd, int pmufd, struct pmu_info *info, const char *root)
{
	char *buf, path[160];
	bool *mine = NULL;
	int n, i, err = 0;

	buf = malloc(CPULIST_FILE);
	mine = calloc(PMU_MAX_CPUS, sizeof(*mine));
	if (!buf || !mine) {
		snprintf(info->why, sizeof(info->why), "failed to allocate a cpu list");
		err = -ENOMEM;
		goto cleanup;
	}
	n = read_text_at(rootfd, ONLINE_FILE, buf, CPULIST_FILE);
	if (n >= 0)
		n = pmu_parse_cpu_list(buf, info->cpus, PMU_MAX_CPUS);
	if (n < 0) {
		show_path(path, sizeof(path), root, ONLINE_FILE);
		snprintf(info->why, sizeof(info->why), "failed to read online CPUs from %s: %s",
			 path, strerror(-n));
		err = n;
		goto cleanup;
	}

	n = read_text_at(pmufd, "cpus", buf, CPULIST_FILE);
	if (n == -ENOENT)
		goto count; /* not hybrid: the PMU covers every CPU */
	if (n >= 0)
		n = pmu_parse_cpu_list(buf, mine, PMU_MAX_CPUS);
	if (n < 0) {
		snprintf(info->why, sizeof(info->why), "failed to read %s/cpus: %s", info->name,
			 strerror(-n));
		err = n;
		goto cleanup;
	}
	for (i = 0; i < PMU_MAX_CPUS; i++)
		info->cpus[i] = info->cpus[i] && mine[i];
count:
	info->nr_cpus = 0;
	for (i = 0; i < PMU_MAX_CPUS; i++)
		info->nr_cpus += info->cpus[i];
	if (!info->nr_cpus) {
		snprintf(info->why, sizeof(info->why), "no online CPU is covered by PMU %s",
			 info->name);
		err = -ENODEV;
	}
cleanup:
	if (err) {
		memset(info->cpus, 0, sizeof(info->cpus));
		info->nr_cpus = 0;
	}
	free(mine);
	free(buf);
	return err;
}

static void read_cpuinfo(int rootfd, struct pmu_info *info)
{
	bool have_vendor = false, have_model = false;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int fd;

	fd = openat(rootfd, CPUINFO_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return;
	}
	/* The first processor block has both; a big machine has hundreds more. */
	while ((!have_vendor || !have_model) && getline(&line, &cap, f) > 0) {
		if (!have_vendor)
			have_vendor = pmu_cpuinfo_value(line, "vendor_id", info->vendor,
							sizeof(info->vendor));
		if (!have_model)
			have_model = pmu_cpuinfo_value(line, "model name", info->model,
						       sizeof(info->model));
	}
	free(line);
	fclose(f);
}

int pmu_discover(const char *root, struct pmu_info *info)
{
	char buf[SMALL_FILE], bad[192] = "", path[160];
	int rootfd, devfd = -1, pmufd = -1, err = 0, level = 0;
	__u32 type;

	memset(info, 0, sizeof(*info));
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	devfd = openat(rootfd, DEVICES_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (devfd < 0) {
		err = -errno;
		goto cleanup;
	}
	read_cpuinfo(rootfd, info);

	/* On hybrid parts only cpu_core has slots and the metric events. */
	pmufd = openat(devfd, "cpu_core", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pmufd >= 0) {
		strcpy(info->name, "cpu_core");
		info->hybrid = true;
	} else {
		pmufd = openat(devfd, "cpu", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pmufd >= 0)
			strcpy(info->name, "cpu");
	}
	if (pmufd < 0) {
		show_path(path, sizeof(path), root, DEVICES_DIR);
		snprintf(info->why, sizeof(info->why),
			 "no core PMU in %s (a VM without a virtual PMU?)", path);
		goto cleanup;
	}

	if (read_text_at(pmufd, "type", buf, sizeof(buf)) < 0 || pmu_parse_type(buf, &type)) {
		snprintf(info->why, sizeof(info->why), "failed to read the type of PMU %s",
			 info->name);
		goto cleanup;
	}
	info->type = type;

	if (read_format_dir(pmufd, &info->format)) {
		snprintf(info->why, sizeof(info->why), "failed to read %s/format/", info->name);
		goto cleanup;
	}
	read_events(pmufd, info, bad, sizeof(bad));
	level = topdown_level(info, bad);

	/* Keep the first reason: a PMU without TopDown matters more than CPUs. */
	if (level) {
		if (read_cpus(rootfd, pmufd, info, root))
			level = 0;
	} else {
		char why[sizeof(info->why)];

		memcpy(why, info->why, sizeof(why));
		read_cpus(rootfd, pmufd, info, root);
		memcpy(info->why, why, sizeof(why));
	}
	info->level = level;
cleanup:
	if (pmufd >= 0)
		close(pmufd);
	if (devfd >= 0)
		close(devfd);
	close(rootfd);
	return err;
}
