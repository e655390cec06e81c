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
#include <limits.h>
#include "host/pmu.h"
#include "model/cpu_name.h"
#include "cli/say.h"

#define DEVICES_DIR  "sys/bus/event_source/devices"
#define ONLINE_FILE  "sys/devices/system/cpu/online"
#define CPUINFO_FILE "proc/cpuinfo"

/* Enough for any format/, events/ or type file. */
#define SMALL_FILE   512
/* A cpu list of PMU_MAX_CPUS CPUs written one by one ("0,2,4,...") fits. */
#define CPULIST_FILE (PMU_MAX_CPUS * 6)

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

/* "<root>/<rel>" for messages, without "//" when root is "/". */
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

/* ------------------------------------------------------------------ */
/* Every core PMU, and the CPU around them. */

#define SMT_FILE      "sys/devices/system/cpu/smt/active"
#define WATCHDOG_FILE "proc/sys/kernel/nmi_watchdog"

/* The names the x86 kernel gives its core PMUs: one "cpu", or the hybrid ones. */
static const char *const core_pmu_names[] = { "cpu", "cpu_core", "cpu_atom", "cpu_lowpower" };

/*
 * arm64's core PMUs (drivers/perf/arm_pmuv3.c): "armv8_pmuv3_0" (ACPI), or
 * one per core type named by the device tree ("armv8_cortex_a78"), each
 * with a cpus file.
 */
#define ARM_PMU_PREFIX "armv8_"

/* A decimal int in @text (blanks around it allowed); -1 if there is none. */
static int parse_int(const char *text)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || v < 0 || v > 0x7fffffff)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -1 : (int)v;
}

/* Does the blank-separated list @flags hold @word? */
static bool has_word(const char *flags, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = flags; (p = strstr(p, word)); p += len) {
		if ((p == flags || isspace((unsigned char)p[-1])) &&
		    (!p[len] || isspace((unsigned char)p[len])))
			return true;
	}
	return false;
}

/*
 * Vendor, family, model, stepping, name and the hypervisor flag, from the
 * first processor block: x86 prints the same for every CPU. Unknown if the
 * file is missing, as in trees made for tests.
 */
static void read_cpu_ident(int rootfd, struct cpu_pmus *out)
{
	char *line = NULL, val[64];
	size_t cap = 0;
	bool seen = false;
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
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '\n' && seen)
			break; /* end of the first block */
		seen = true;
		pmu_cpuinfo_value(line, "vendor_id", out->vendor, sizeof(out->vendor));
		pmu_cpuinfo_value(line, "model name", out->model_name, sizeof(out->model_name));
		if (pmu_cpuinfo_value(line, "cpu family", val, sizeof(val)))
			out->family = parse_int(val);
		/* "model" stops at its colon, so it never matches "model name". */
		if (pmu_cpuinfo_value(line, "model", val, sizeof(val)))
			out->model = parse_int(val);
		if (pmu_cpuinfo_value(line, "stepping", val, sizeof(val)))
			out->stepping = parse_int(val);
		/* flags is far longer than val: look at the line itself. */
		if (!strncmp(line, "flags", 5) && strchr(line, ':'))
			out->hypervisor = has_word(strchr(line, ':') + 1, "hypervisor");
	}
	free(line);
	fclose(f);
}

/* A small file holding one int; -1 if it is missing or holds something else. */
static int read_int_at(int dirfd, const char *path)
{
	char buf[32];

	if (read_text_at(dirfd, path, buf, sizeof(buf)) < 0)
		return -1;
	return parse_int(buf);
}

/* The hex number in @text ("0x00000000410fd493\n"); 0 if none. */
static unsigned long long parse_hex(const char *text)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(text, &end, 16);
	while (isspace((unsigned char)*end))
		end++;
	return errno || end == text || *end ? 0 : v;
}

/*
 * arm64: the MIDR of @cpu, from its regs/identification/midr_el1 (as
 * perf reads it), else from its /proc/cpuinfo block; 0 if neither says.
 */
static unsigned long long read_midr(int rootfd, int cpu)
{
	unsigned int v[4] = { 0 }, seen = 0;
	char path[96], buf[64], *line = NULL;
	static const char *const keys[] = { "CPU implementer", "CPU variant", "CPU part",
					    "CPU revision" };
	size_t cap = 0;
	bool mine = false;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/regs/identification/midr_el1",
		 cpu);
	if (read_text_at(rootfd, path, buf, sizeof(buf)) > 0 && parse_hex(buf))
		return parse_hex(buf);
	fd = openat(rootfd, CPUINFO_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return 0;
	}
	while (getline(&line, &cap, f) > 0) {
		if (pmu_cpuinfo_value(line, "processor", buf, sizeof(buf))) {
			if (mine)
				break;
			mine = parse_int(buf) == cpu;
		}
		for (int i = 0; mine && i < 4; i++) {
			if (pmu_cpuinfo_value(line, keys[i], buf, sizeof(buf))) {
				v[i] = strtoul(buf, NULL, 0);
				seen |= 1u << i;
			}
		}
	}
	free(line);
	fclose(f);
	return seen == 0xf ? pmu_midr(v[0], v[1], v[2], v[3]) : 0;
}

/* arm64: the MIDR of @p's first CPU and its caps/slots (hex or decimal, as perf reads it). */
static void read_arm_ident(int rootfd, int pmufd, struct core_pmu *p)
{
	char buf[64];

	for (int i = 0; i < PMU_MAX_CPUS; i++) {
		if (p->cpus[i]) {
			p->midr = read_midr(rootfd, i);
			break;
		}
	}
	if (read_text_at(pmufd, "caps/slots", buf, sizeof(buf)) > 0)
		p->slots = (unsigned int)strtoul(buf, NULL, 0);
}

static int cmp_text(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The arm64 core PMUs under @devfd by name, sorted; returns how many (at most @max). */
static int arm_pmu_names(int devfd, char names[][32], int max)
{
	struct dirent *de;
	int nr = 0, fd;
	DIR *dir;

	fd = openat(devfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return 0;
	}
	while ((de = readdir(dir)) && nr < max) {
		if (strncmp(de->d_name, ARM_PMU_PREFIX, strlen(ARM_PMU_PREFIX)) ||
		    strlen(de->d_name) >= 32)
			continue;
		strcpy(names[nr++], de->d_name);
	}
	closedir(dir);
	qsort(names, nr, sizeof(names[0]), cmp_text);
	return nr;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_field(const void *a, const void *b)
{
	return strcmp(((const struct pmu_format_field *)a)->name,
		      ((const struct pmu_format_field *)b)->name);
}

/*
 * Every events/ entry that encodes with the PMU's format/, in name order so
 * that what is kept when there are more than PMU_MAX_EVENTS does not depend
 * on readdir. Companions ("x.scale", "x.unit") and entries that do not
 * encode (a term this format lacks) are left out: they name no event we can
 * open. Returns 0 or -errno; a PMU without events/ has no events.
 */
static int read_all_events(int pmufd, struct core_pmu *p)
{
	char buf[SMALL_FILE], err[128], **names = NULL;
	size_t nr = 0, cap = 0;
	struct dirent *de;
	int fd, ret = 0;
	DIR *dir;

	fd = openat(pmufd, "events", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || strchr(de->d_name, '.') ||
		    strlen(de->d_name) >= sizeof(p->events[0].name))
			continue;
		if (nr == cap) {
			char **more = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof(*names));

			if (!more) {
				ret = -ENOMEM;
				goto out;
			}
			names = more;
		}
		if (!(names[nr] = strdup(de->d_name))) {
			ret = -ENOMEM;
			goto out;
		}
		nr++;
	}
	qsort(names, nr, sizeof(*names), cmp_name);
	for (size_t i = 0; i < nr && p->nr_events < PMU_MAX_EVENTS; i++) {
		struct pmu_named_event *ev = &p->events[p->nr_events];
		struct pmu_event enc;

		if (read_text_at(fd, names[i], buf, sizeof(buf)) < 0 ||
		    pmu_encode_event(buf, &p->format, &enc, err, sizeof(err)))
			continue;
		strcpy(ev->name, names[i]);
		memcpy(ev->config, enc.config, sizeof(ev->config));
		p->nr_events++;
	}
out:
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	closedir(dir);
	return ret;
}

/*
 * The CPUs @p covers that are @online: its cpus file; "cpu" has none and
 * covers every CPU. Hybrid PMUs always have one, so its absence is an error.
 */
static int read_pmu_cpus(int pmufd, struct core_pmu *p, const bool *online, char *buf)
{
	int n;

	n = read_text_at(pmufd, "cpus", buf, CPULIST_FILE);
	if (n == -ENOENT && !strcmp(p->name, "cpu")) {
		memcpy(p->cpus, online, sizeof(p->cpus));
	} else {
		if (n >= 0)
			n = pmu_parse_cpu_list(buf, p->cpus, PMU_MAX_CPUS);
		if (n < 0)
			return n;
		for (int i = 0; i < PMU_MAX_CPUS; i++)
			p->cpus[i] = p->cpus[i] && online[i];
	}
	p->nr_cpus = 0;
	for (int i = 0; i < PMU_MAX_CPUS; i++)
		p->nr_cpus += p->cpus[i];
	return 0;
}

/* One core PMU: type, format/, events/, CPUs. Prints what failed; 0 or -errno. */
static int read_core_pmu(int pmufd, struct core_pmu *p, const bool *online, char *buf,
			 const char *devices)
{
	char small[SMALL_FILE];
	const char *what;
	int err;

	what = "type";
	err = read_text_at(pmufd, "type", small, sizeof(small));
	if (err >= 0)
		err = pmu_parse_type(small, &p->type);
	if (err < 0)
		goto fail;
	what = "format/";
	err = read_format_dir(pmufd, &p->format);
	if (err < 0)
		goto fail;
	qsort(p->format.field, p->format.nr, sizeof(p->format.field[0]), cmp_field);
	what = "events/";
	err = read_all_events(pmufd, p);
	if (err < 0)
		goto fail;
	what = "cpus";
	err = read_pmu_cpus(pmufd, p, online, buf);
	if (err < 0)
		goto fail;
	return 0;
fail:
	say(stderr, "failed to read %s/%s/%s: %s", devices, p->name, what, strerror(-err));
	return err;
}

static int why_line(struct cpu_pmus *out, const char *cpu, const char *devices)
{
	if (out->hypervisor)
		return snprintf(out->why, sizeof(out->why),
				"%s guest: the hypervisor exposes no core PMU (no %s/cpu); "
				"enable PMU passthrough (e.g. QEMU -cpu host,pmu=on)",
				cpu, devices);
	return snprintf(out->why, sizeof(out->why),
			"%s: the kernel registered no core PMU (no %s/cpu); "
			"see its \"Performance Events\" boot message (dmesg)",
			cpu, devices);
}

/*
 * No core PMU: say what the machine is and what to do about it, since the
 * usual cause is a VM whose hypervisor does not virtualize the PMU.
 */
static void explain_no_pmu(struct cpu_pmus *out, const char *devices)
{
	const char *code = cpu_codename(out->vendor, out->family, out->model, out->stepping);
	char cpu[96];
	size_t len;

	len = snprintf(cpu, sizeof(cpu), "%s",
		       out->vendor[0] ? cpu_vendor_short(out->vendor) : "unknown CPU");
	if (out->family >= 0 && len < sizeof(cpu))
		len += snprintf(cpu + len, sizeof(cpu) - len, " family 0x%x", out->family);
	if (out->model >= 0 && len < sizeof(cpu))
		len += snprintf(cpu + len, sizeof(cpu) - len, " model 0x%02x", out->model);
	if (code && len < sizeof(cpu))
		len += snprintf(cpu + len, sizeof(cpu) - len, " (%s)", code);
	/* With a root too long for the line, name the directory without it. */
	if (why_line(out, cpu, devices) >= (int)sizeof(out->why))
		why_line(out, cpu, "sys/bus/event_source/devices");
}

int pmu_nmi_watchdog(const char *root)
{
	int rootfd, on;

	rootfd = open(root && root[0] ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -1;
	on = read_int_at(rootfd, WATCHDOG_FILE);
	close(rootfd);
	return on;
}

int pmu_discover_all(const char *root, struct cpu_pmus *out)
{
	char devices[PATH_MAX], path[PATH_MAX], *buf = NULL;
	char names[sizeof(core_pmu_names) / sizeof(core_pmu_names[0]) + PMU_MAX_CORE_PMUS][32];
	int rootfd, devfd = -1, err = 0, n, nr_names;
	bool *online = NULL;

	memset(out, 0, sizeof(*out));
	out->family = out->model = out->stepping = -1;
	out->nmi_watchdog = -1;
	if (!root || !root[0])
		root = "/";
	show_path(devices, sizeof(devices), root, DEVICES_DIR);

	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		err = -errno;
		say(stderr, "failed to open %s: %s", root, strerror(-err));
		return err;
	}
	devfd = openat(rootfd, DEVICES_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (devfd < 0) {
		err = -errno;
		say(stderr, "failed to open %s: %s", devices, strerror(-err));
		goto cleanup;
	}

	read_cpu_ident(rootfd, out);
	out->smt_on = read_int_at(rootfd, SMT_FILE) == 1;
	out->nmi_watchdog = read_int_at(rootfd, WATCHDOG_FILE);

	buf = malloc(CPULIST_FILE);
	online = calloc(PMU_MAX_CPUS, sizeof(*online));
	if (!buf || !online) {
		say(stderr, "out of memory");
		err = -ENOMEM;
		goto cleanup;
	}
	n = read_text_at(rootfd, ONLINE_FILE, buf, CPULIST_FILE);
	if (n >= 0)
		n = pmu_parse_cpu_list(buf, online, PMU_MAX_CPUS);
	if (n < 0) {
		show_path(path, sizeof(path), root, ONLINE_FILE);
		say(stderr, "failed to read %s: %s", path, strerror(-n));
		err = n;
		goto cleanup;
	}

	nr_names = sizeof(core_pmu_names) / sizeof(core_pmu_names[0]);
	for (int i = 0; i < nr_names; i++)
		strcpy(names[i], core_pmu_names[i]);
	nr_names += arm_pmu_names(devfd, names + nr_names, PMU_MAX_CORE_PMUS);
	for (int i = 0; i < nr_names && out->nr_pmus < PMU_MAX_CORE_PMUS; i++) {
		struct core_pmu *p = &out->pmu[out->nr_pmus];
		int pmufd;

		pmufd = openat(devfd, names[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pmufd < 0) {
			if (errno == ENOENT)
				continue;
			err = -errno;
			say(stderr, "failed to open %s/%s: %s", devices, names[i], strerror(-err));
			goto cleanup;
		}
		strcpy(p->name, names[i]);
		err = read_core_pmu(pmufd, p, online, buf, devices);
		if (!err && !strncmp(p->name, ARM_PMU_PREFIX, strlen(ARM_PMU_PREFIX)))
			read_arm_ident(rootfd, pmufd, p);
		close(pmufd);
		if (err)
			goto cleanup;
		out->nr_pmus++;
	}
	if (!out->nr_pmus)
		explain_no_pmu(out, devices);
cleanup:
	if (err) {
		/* Keep what identifies the CPU; drop half-read PMUs. */
		memset(out->pmu, 0, sizeof(out->pmu));
		out->nr_pmus = 0;
	}
	free(online);
	free(buf);
	if (devfd >= 0)
		close(devfd);
	close(rootfd);
	return err;
}
