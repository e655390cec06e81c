// SPDX-License-Identifier: GPL-2.0
/* Discover: the PMU, privileges, BTF, the cgroup v2 mount, the online CPUs. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include "host/cgroupfs.h"
#include "host/machine.h"
#include "host/hotplug.h"
#include "host/k8s_state.h"
#include "host/preflight.h"
#include "cli/say.h"

/* The first number after @key in the file @rel under @root, or 0. */
static unsigned long long read_number(const char *root, const char *rel, const char *key)
{
	char path[4096], line[256];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = key ? strstr(line, key) : line;

		if (p && sscanf(p + (key ? strlen(key) : 0), " %llu", &v) == 1)
			break;
	}
	fclose(f);
	return v;
}

/* Processes now: /proc's numeric directories. 0 if /proc cannot be read. */
static unsigned long count_processes(const char *root)
{
	char path[4096];
	struct dirent *d;
	unsigned long n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/proc", root);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		n += d->d_name[0] >= '1' && d->d_name[0] <= '9';
	closedir(dir);
	return n;
}

/* What sizes the entry map: threads and processes now, pid_max, memory. Unknown ones are 0. */
static void read_size(const char *root, struct machine_size *sz)
{
	char path[4096], buf[128];
	unsigned long running, total;
	FILE *f;

	/* /proc/loadavg's fourth field: "running/total" scheduling entities. */
	snprintf(path, sizeof(path), "%s/proc/loadavg", root);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f) &&
	    sscanf(buf, "%*s %*s %*s %lu/%lu", &running, &total) == 2)
		sz->threads = total;
	if (f)
		fclose(f);
	sz->processes = count_processes(root);
	sz->pid_max = read_number(root, "proc/sys/kernel/pid_max", NULL);
	sz->mem_bytes = read_number(root, "proc/meminfo", "MemTotal:") * 1024;
}

int machine_discover(const struct options *o, struct machine *m)
{
	int err;

	m->hotplug_fd = -1;
	m->cpu = calloc(1, sizeof(*m->cpu));
	m->online = calloc(PMU_MAX_CPUS, sizeof(*m->online));
	m->changed = calloc(PMU_MAX_CPUS, sizeof(*m->changed));
	if (!m->cpu || !m->online || !m->changed) {
		say(stderr, "out of memory");
		return -ENOMEM;
	}
	/* pmu_discover_all says what failed itself. */
	err = pmu_discover_all(o->sysfs_root, m->cpu);
	if (err)
		return err;
	if (read_online_cpus(o->sysfs_root, m->online, PMU_MAX_CPUS) <= 0) {
		say(stderr, "failed to read the online CPUs from sysfs");
		return -ENOENT;
	}
	read_size(o->sysfs_root, &m->size);
	return 0;
}

/* --runtime-root over the runtimes' own places. */
static struct k8s_roots runtime_roots(const struct options *o)
{
	struct k8s_roots r = k8s_roots_default;

	if (o->containerd_root)
		r.containerd = o->containerd_root;
	if (o->crio_run_root)
		r.crio_run = o->crio_run_root;
	if (o->crio_root)
		r.crio_lib = o->crio_root;
	if (o->docker_root)
		r.docker = o->docker_root;
	return r;
}

int machine_prepare(const struct options *o, struct machine *m)
{
	const char *btf = o->btf_path ? o->btf_path : TD_KERNEL_BTF;
	struct k8s_roots roots = runtime_roots(o);
	int err;

	if (!have_privileges()) {
		say(stderr, "needs root, or CAP_BPF and CAP_PERFMON: run it with sudo");
		return -EPERM;
	}
	err = check_btf(btf);
	if (err) {
		say(stderr,
		    "no kernel BTF at %s: %s; needs a kernel with "
		    "CONFIG_DEBUG_INFO_BTF=y (5.12 or later), or --btf FILE",
		    options_shown(btf, (size_t)-1), check_btf_why(err));
		return err;
	}
	if (cgroup2_find_mount("/proc/self/mountinfo", m->mount, sizeof(m->mount))) {
		if (!o->nr_cgroups)
			say(stderr, "no cgroup v2 mounted: per-cgroup rows need cgroup "
				    "v2; process rows still work");
		m->mount[0] = '\0';
	}
	if (cgroup_names_init(&m->names, m->mount[0] ? m->mount : NULL) ||
	    ((o->containers || o->listen) && m->mount[0] && !(m->k8s = k8s_names_new(&roots)))) {
		say(stderr, "out of memory");
		return -ENOMEM;
	}
	/* Hotplug uevents, if this namespace gets them; else the online list each interval. */
	m->hotplug_fd = hotplug_open();
	if (m->hotplug_fd < 0)
		m->hotplug_fd = -1;
	return 0;
}

int machine_cpus_now(const struct options *o, struct machine *m)
{
	bool *now = calloc(PMU_MAX_CPUS, sizeof(*now));
	int err = 0;

	if (!now)
		return -ENOMEM;
	memset(m->changed, 0, PMU_MAX_CPUS * sizeof(*m->changed));
	if (m->hotplug_fd >= 0)
		hotplug_drain(m->hotplug_fd, m->changed, PMU_MAX_CPUS);
	if (read_online_cpus(o->sysfs_root, now, PMU_MAX_CPUS) > 0)
		memcpy(m->online, now, PMU_MAX_CPUS * sizeof(*now));
	else
		err = -ENOENT;
	free(now);
	return err;
}

int machine_reserve_files(unsigned long needed)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return -errno;
	if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur >= needed)
		return 0;
	if (r.rlim_cur == RLIM_INFINITY)
		return 0;
	if (r.rlim_max != RLIM_INFINITY && r.rlim_max < needed) {
		say(stderr,
		    "needs %lu open files (counters on every CPU, BPF maps), but "
		    "the hard limit is %llu: raise it (ulimit -Hn %lu as root, or "
		    "LimitNOFILE=%lu in a systemd unit)",
		    needed, (unsigned long long)r.rlim_max, needed, needed);
		return -EMFILE;
	}
	r.rlim_cur = needed;
	if (setrlimit(RLIMIT_NOFILE, &r)) {
		int err = -errno;

		say(stderr, "failed to raise the open file limit to %lu: %s", needed,
		    strerror(-err));
		return err;
	}
	return 0;
}

int machine_drop_privileges(void)
{
	int err = drop_privileges();

	if (err)
		say(stderr, "failed to drop capabilities it no longer needs: %s", strerror(-err));
	return err;
}

void machine_free(struct machine *m)
{
	cgroup_names_free(&m->names);
	k8s_names_free(m->k8s);
	free(m->cpu);
	free(m->changed);
	if (m->hotplug_fd >= 0)
		close(m->hotplug_fd);
	free(m->online);
	memset(m, 0, sizeof(*m));
	m->hotplug_fd = -1;
}
