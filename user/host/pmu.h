/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Discover: the CPU and its core PMUs in sysfs, with their events.
 * Reads files only under a root directory ("/" on a live system, a fake
 * tree in tests): <root>/sys/bus/event_source/devices/..., <root>/sys/devices/
 * system/cpu/online and <root>/proc/cpuinfo.
 */
#ifndef TD_PMU_H
#define TD_PMU_H

#include "model/pmu_desc.h"

/*
 * Fill @out with the CPU (vendor, family, model, stepping, SMT, NMI
 * watchdog, hypervisor flag) and every core PMU under @root: "cpu", or on
 * hybrid parts "cpu_core" and "cpu_atom", each with its type, format/,
 * encoded events/ and online CPUs. Returns 0 when the tree could be read,
 * even with no core PMU (then nr_pmus is 0 and why says so), or -errno
 * when @root itself is unreadable.
 */
int pmu_discover_all(const char *root, struct cpu_pmus *out);

/* /proc/sys/kernel/nmi_watchdog under @root ("/" if NULL or ""): 1, 0, or -1. */
int pmu_nmi_watchdog(const char *root);

#endif /* TD_PMU_H */
