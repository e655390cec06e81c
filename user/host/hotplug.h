/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU hotplug notices: the kernel's uevents ("online@/devices/system/cpu/
 * cpu3"), so that a CPU that comes back is counted at once rather than at
 * the next interval. Where uevents do not come (a container without its
 * own network namespace's uevents, say), the caller still looks at the
 * online CPUs at every interval.
 */
#ifndef TD_HOTPLUG_H
#define TD_HOTPLUG_H

#include <stdbool.h>

/* A socket that receives the kernel's uevents, or -errno (then poll only). */
int hotplug_open(void);

/*
 * Read every pending uevent from @fd; mark in @changed[0..max) the CPUs
 * that went online or offline. Returns how many CPU events there were.
 */
int hotplug_drain(int fd, bool *changed, int max);

/* Parse one uevent ("online@/devices/system/cpu/cpu3\0..."): the CPU, or -1. Pure. */
int hotplug_parse(const char *msg, int len);

#endif /* TD_HOTPLUG_H */
