/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What people call a CPU, from its /proc/cpuinfo vendor, family, model and
 * stepping: "Zen 5", "Ice Lake-SP". Only for messages (a machine without a
 * core PMU still deserves to be named); nothing decides on it. Pure.
 */
#ifndef TD_CPU_NAME_H
#define TD_CPU_NAME_H

/* "AMD", "Intel", "Hygon", or @vendor itself if not one of those; "" stays "". */
const char *cpu_vendor_short(const char *vendor);

/* The generation or code name, or NULL if this table does not know it. */
const char *cpu_codename(const char *vendor, int family, int model, int stepping);

#endif /* TD_CPU_NAME_H */
