/* SPDX-License-Identifier: GPL-2.0 */
/* What must hold before anything is opened or loaded. */
#ifndef TD_PREFLIGHT_H
#define TD_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>

#define TD_KERNEL_BTF "/sys/kernel/btf/vmlinux"

/* Root, or CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN) in the effective set. */
bool have_privileges(void);

/*
 * Keep only the capabilities a running tdtrace uses (CAP_BPF and
 * CAP_PERFMON, or CAP_SYS_ADMIN where it ran on that) and set
 * no_new_privs. 0 or -errno.
 */
int drop_privileges(void);

/*
 * 0 if @path is a readable regular file, else -errno: -EINVAL for a FIFO, a
 * device or a socket (opened without blocking). check_btf_why says it.
 */
int check_btf(const char *path);
const char *check_btf_why(int err);

/* Read @root/sys/devices/system/cpu/online into @cpus. Returns the count or -errno. */
int read_online_cpus(const char *root, bool *cpus, int max);

#endif /* TD_PREFLIGHT_H */
