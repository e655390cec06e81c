/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Discover: what this machine has. Two stages, because --probe and the
 * choice of counters need the PMU before privileges are checked.
 */
#ifndef TD_MACHINE_H
#define TD_MACHINE_H

#include <limits.h>
#include <stdbool.h>
#include "cli/options.h"
#include "host/pmu.h"
#include "model/plan.h"
#include "model/cgroup_names.h"
#include "host/k8s_state.h"

struct machine {
	struct cpu_pmus *cpu; /* the CPU and its core PMUs */
	bool *online;	      /* [PMU_MAX_CPUS]: online CPUs */
	bool *changed;	      /* [PMU_MAX_CPUS]: went online or offline since the last look */
	int hotplug_fd;	      /* CPU hotplug uevents, or -1: the online list is read each time */
	struct machine_size size; /* threads, pid_max and memory at start: the map's size */
	char mount[PATH_MAX]; /* the cgroup v2 mount, "" if there is none */
	struct cgroup_names names;
	struct k8s_names *k8s; /* with --containers or --listen: Kubernetes names, else NULL */
};

/*
 * The CPU, its core PMUs and the online CPUs, under --sysfs-root. Prints a
 * one-line error; 0 or -errno.
 */
int machine_discover(const struct options *o, struct machine *m);

/*
 * What must hold before anything is opened: privileges and kernel BTF;
 * then the cgroup v2 mount and the online CPUs. Prints a one-line error;
 * 0 or -errno.
 */
int machine_prepare(const struct options *o, struct machine *m);

/*
 * CPUs now: m->online re-read, and in m->changed those a hotplug uevent
 * named since the last call. 0, or -errno (m->online unchanged).
 */
int machine_cpus_now(const struct options *o, struct machine *m);

/*
 * Raise the soft RLIMIT_NOFILE to @needed descriptors if it is lower (up
 * to the hard limit). If the hard limit is lower, says how many are
 * needed and how to allow them, and returns -EMFILE.
 */
int machine_reserve_files(unsigned long needed);

/*
 * Once attached: keep only CAP_BPF and CAP_PERFMON (see drop_privileges).
 * Prints a one-line error; 0 or -errno.
 */
int machine_drop_privileges(void);

void machine_free(struct machine *m);

#endif /* TD_MACHINE_H */
