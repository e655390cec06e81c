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

const char *const pmu_event_names[TD_MAX_COUNTERS] = {
	[TD_SLOTS] = "slots",
	[TD_RETIRING] = "topdown-retiring",
	[TD_BAD_SPEC] = "topdown-bad-spec",
	[TD_FE_BOUND] = "topdown-fe-bound",
	[TD_BE_BOUND] = "topdown-be-bound",
	[TD_HEAVY_OPS] = "topdown-heavy-ops",
	[TD_BR_MISPREDICT] = "topdown-br-mispredict",
	[TD_FETCH_LAT] = "topdown-fetch-lat",
	[TD_MEM_BOUND] = "topdown-mem-bound",
};

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* Length of @s[0..len) without trailing white space. */
static size_t trim_end(const char *s, size_t len)
{
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return len;
}

/*
 * Read a whole (small) file below @dirfd into @buf as a string. Returns its
 * length or a negative errno; -EFBIG if it does not fit, so that a truncated
 * cpu list is never taken for a short one.
 */
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
static int parse_num(const char *s, const char *end, bool hex, __u64 *val)
{
	char tmp[32], *stop;
	size_t len = end - s;
	int base = 10;

	if (len == 0 || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (hex && len > 2 && tmp[0] == '0' && (tmp[1] == 'x' || tmp[1] == 'X'))
		base = 16;
	if (!isxdigit((unsigned char)tmp[base == 16 ? 2 : 0]))
		return -EINVAL;
	errno = 0;
	*val = strtoull(tmp, &stop, base);
	if (errno || *stop)
		return -EINVAL;
	return 0;
}

/*
 * Step through a comma-separated list in [*p, end): the next item, blanks
 * around it trimmed, goes to [*start, *stop). False when the list is done.
 */
static bool next_item(const char **p, const char *end, const char **start, const char **stop)
{
	const char *s = *p, *comma;

	if (!s)
		return false;
	comma = memchr(s, ',', end - s);
	*p = comma ? comma + 1 : NULL;
	if (!comma)
		comma = end;
	while (s < comma && isspace((unsigned char)*s))
		s++;
	*start = s;
	*stop = s + trim_end(s, comma - s);
	return true;
}

/* Set bits lo..hi inclusive (hi - lo + 1 may be 64). */
static __u64 bit_range(unsigned int lo, unsigned int hi)
{
	return (~0ULL >> (63 - hi)) & (~0ULL << lo);
}

/* "lo-hi" or "n" in [s, end) into @lo, @hi. */
static int parse_range(const char *s, const char *end, bool hex, __u64 *lo, __u64 *hi)
{
	const char *dash = memchr(s, '-', end - s);

	if (parse_num(s, dash ? dash : end, hex, lo))
		return -EINVAL;
	*hi = *lo;
	if (dash && parse_num(dash + 1, end, hex, hi))
		return -EINVAL;
	return *lo > *hi ? -EINVAL : 0;
}

int pmu_parse_format(const char *text, struct pmu_format_field *field)
{
	const char *p = skip_space(text), *colon, *end, *start, *stop;
	__u64 mask = 0, lo, hi;
	size_t wlen;
	int word;

	colon = strchr(p, ':');
	if (!colon)
		return -EINVAL;
	wlen = colon - p;
	if (wlen == 6 && !strncmp(p, "config", 6))
		word = 0;
	else if (wlen == 7 && !strncmp(p, "config1", 7))
		word = 1;
	else if (wlen == 7 && !strncmp(p, "config2", 7))
		word = 2;
	else
		return -EINVAL;

	p = colon + 1;
	end = p + trim_end(p, strlen(p));
	while (next_item(&p, end, &start, &stop)) {
		if (parse_range(start, stop, false, &lo, &hi) || hi > 63)
			return -EINVAL;
		mask |= bit_range(lo, hi);
	}
	field->word = word;
	field->mask = mask;
	return 0;
}

static const struct pmu_format_field *find_field(const struct pmu_format *format, const char *name,
						 size_t len)
{
	int i;

	for (i = 0; i < format->nr; i++) {
		const struct pmu_format_field *f = &format->field[i];

		if (strlen(f->name) == len && !strncmp(f->name, name, len))
			return f;
	}
	return NULL;
}

/* Spread the low bits of @val over the set bits of @mask, lowest first. */
static int deposit(__u64 val, __u64 mask, __u64 *out)
{
	__u64 res = 0, bit;

	for (bit = 1; bit && mask; bit <<= 1) {
		if (!(mask & bit))
			continue;
		if (val & 1)
			res |= bit;
		val >>= 1;
		mask &= ~bit;
	}
	if (val)
		return -EINVAL;
	*out = res;
	return 0;
}

int pmu_encode_event(const char *text, const struct pmu_format *format, struct pmu_event *ev,
		     char *err, size_t errlen)
{
	const char *p = skip_space(text), *end = p + trim_end(p, strlen(p)), *start, *stop;

	memset(ev, 0, sizeof(*ev));
	if (p == end) {
		snprintf(err, errlen, "empty event string");
		return -EINVAL;
	}
	while (next_item(&p, end, &start, &stop)) {
		const char *eq = memchr(start, '=', stop - start);
		const struct pmu_format_field *f;
		int nlen = (eq ? eq : stop) - start;
		__u64 val = 1, bits;

		if (nlen == 0) {
			snprintf(err, errlen, "empty term in event string");
			return -EINVAL;
		}
		f = find_field(format, start, nlen);
		if (!f) {
			snprintf(err, errlen, "unknown term '%.*s' (not in the PMU's format/)",
				 nlen, start);
			return -EINVAL;
		}
		if (eq && parse_num(eq + 1, stop, true, &val)) {
			snprintf(err, errlen, "bad value '%.*s' for term '%s'",
				 (int)(stop - eq - 1), eq + 1, f->name);
			return -EINVAL;
		}
		if (deposit(val, f->mask, &bits)) {
			snprintf(err, errlen, "value 0x%llx does not fit term '%s' (%d bits)",
				 (unsigned long long)val, f->name, __builtin_popcountll(f->mask));
			return -EINVAL;
		}
		/* A repeated term replaces the earlier value. */
		ev->config[f->word] = (ev->config[f->word] & ~f->mask) | bits;
	}
	ev->present = true;
	return 0;
}

int pmu_parse_cpu_list(const char *text, bool *cpus, int max)
{
	const char *p = skip_space(text), *end = p + trim_end(p, strlen(p)), *start, *stop;
	__u64 lo, hi, c;
	int count = 0;

	memset(cpus, 0, max * sizeof(*cpus));
	/* The kernel prints an empty mask as an empty line. */
	if (p == end)
		return 0;
	while (next_item(&p, end, &start, &stop)) {
		if (parse_range(start, stop, false, &lo, &hi) || hi >= (__u64)max)
			goto fail;
		for (c = lo; c <= hi; c++) {
			count += !cpus[c];
			cpus[c] = true;
		}
	}
	return count;
fail:
	memset(cpus, 0, max * sizeof(*cpus));
	return -EINVAL;
}

/* "<root>/<rel>" for messages, without "//" when root is "/". */
int pmu_format_cpu_list(const bool *cpus, int max, char *buf, size_t size)
{
	size_t len = 0;
	int n = 0;

	buf[0] = '\0';
	for (int lo = 0; lo < max; lo++) {
		int hi = lo;

		if (!cpus[lo])
			continue;
		while (hi + 1 < max && cpus[hi + 1])
			hi++;
		len += snprintf(buf + len, len < size ? size - len : 0,
				hi > lo ? "%s%d-%d" : "%s%d", n ? "," : "", lo, hi);
		n += hi - lo + 1;
		lo = hi;
	}
	return len < size ? n : -ENOSPC;
}

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

	for (i = 0; i < TD_MAX_COUNTERS; i++) {
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

/* Copy the value of "key<blanks>: value" into @out if @line has @key. */
static bool cpuinfo_value(const char *line, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key), vlen;
	const char *p;

	if (strncmp(line, key, klen))
		return false;
	p = line + klen;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return false;
	p = skip_space(p + 1);
	vlen = trim_end(p, strlen(p));
	snprintf(out, size, "%.*s", (int)vlen, p);
	return true;
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
			have_vendor = cpuinfo_value(line, "vendor_id", info->vendor,
						    sizeof(info->vendor));
		if (!have_model)
			have_model =
				cpuinfo_value(line, "model name", info->model, sizeof(info->model));
	}
	free(line);
	fclose(f);
}

int pmu_discover(const char *root, struct pmu_info *info)
{
	char buf[SMALL_FILE], bad[192] = "", path[160];
	int rootfd, devfd = -1, pmufd = -1, err = 0, level = 0;
	__u64 type;

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

	if (read_text_at(pmufd, "type", buf, sizeof(buf)) < 0 ||
	    parse_num(buf, buf + trim_end(buf, strlen(buf)), false, &type) ||
	    type > 0xffffffffULL) {
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
