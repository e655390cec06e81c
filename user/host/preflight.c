// SPDX-License-Identifier: GPL-2.0
/* Privileges, BTF and online CPUs: checked before opening anything. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include "host/pmu.h"
#include "host/preflight.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool has_cap(const struct __user_cap_data_struct *data, int cap)
{
	return data[cap / 32].effective & (1u << (cap % 32));
}

bool have_privileges(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};

	/* Capabilities, not uid 0: root in a container may have none of them. */
	/* glibc has no capget wrapper, and libcap would be a dependency for one call. */
	if (syscall(SYS_capget, &hdr, data))
		return false;
	if (has_cap(data, CAP_SYS_ADMIN))
		return true;
	return has_cap(data, CAP_BPF) && has_cap(data, CAP_PERFMON);
}

/*
 * Once attached, tdtrace reads maps, runs td_flush and may open counters
 * on a CPU that comes online: CAP_BPF and CAP_PERFMON (CAP_SYS_ADMIN on
 * kernels before 5.8, which have neither). Everything else goes from the
 * effective, permitted and inheritable sets, and no exec may gain any.
 */
int drop_privileges(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct have[2] = {}, keep[2] = {};
	static const int wanted[] = { CAP_BPF, CAP_PERFMON };

	if (syscall(SYS_capget, &hdr, have))
		return -errno;
	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
		int cap = wanted[i];

		if (!(have[cap / 32].permitted & (1u << (cap % 32))))
			continue;
		keep[cap / 32].permitted |= 1u << (cap % 32);
		keep[cap / 32].effective |= 1u << (cap % 32);
	}
	/* Without CAP_BPF and CAP_PERFMON tdtrace ran on CAP_SYS_ADMIN: keep that one. */
	if (!has_cap(keep, CAP_BPF) || !has_cap(keep, CAP_PERFMON)) {
		memset(keep, 0, sizeof(keep));
		keep[CAP_SYS_ADMIN / 32].permitted = keep[CAP_SYS_ADMIN / 32].effective =
			1u << (CAP_SYS_ADMIN % 32);
	}
	if (syscall(SYS_capset, &hdr, keep))
		return -errno;
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ? -errno : 0;
}

int check_btf(const char *path)
{
	/* Not blocking: a FIFO given as --btf would wait for a writer, deaf to Ctrl-C. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	int err = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	close(fd);
	return err;
}

const char *check_btf_why(int err)
{
	return err == -EINVAL ? "not a regular file" : strerror(-err);
}

int read_online_cpus(const char *root, bool *cpus, int max)
{
	char path[4096], text[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online", root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return pmu_parse_cpu_list(text, cpus, max);
}
