// SPDX-License-Identifier: GPL-2.0
/* CPU hotplug notices from the kernel's uevent netlink socket. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include "host/hotplug.h"

#define UEVENT_KERNEL_GROUP 1 /* the kernel's own uevents (udev's are group 2) */

int hotplug_open(void)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = UEVENT_KERNEL_GROUP };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_KOBJECT_UEVENT);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int hotplug_parse(const char *msg, int len)
{
	static const char *const actions[] = { "online@", "offline@" };
	static const char cpu_path[] = "/devices/system/cpu/cpu";
	const char *p = NULL, *end;
	long cpu;

	/* The header is "ACTION@DEVPATH\0", then KEY=VALUE\0 pairs. */
	if (len <= 0 || !memchr(msg, '\0', len))
		return -1;
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strncmp(msg, actions[i], strlen(actions[i])))
			p = msg + strlen(actions[i]);
	if (!p || strncmp(p, cpu_path, sizeof(cpu_path) - 1))
		return -1;
	p += sizeof(cpu_path) - 1;
	if (*p < '0' || *p > '9')
		return -1;
	cpu = strtol(p, (char **)&end, 10);
	if (*end || cpu > 1 << 20)
		return -1;
	return (int)cpu;
}

int hotplug_drain(int fd, bool *changed, int max)
{
	char buf[8192];
	int n = 0;

	for (;;) {
		ssize_t len = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		int cpu;

		if (len < 0 && errno == EINTR)
			continue;
		if (len <= 0)
			break; /* EAGAIN: none left; ENOBUFS: some lost, the online list tells */
		buf[len] = '\0';
		cpu = hotplug_parse(buf, (int)len + 1);
		if (cpu >= 0 && cpu < max) {
			changed[cpu] = true;
			n++;
		}
	}
	return n;
}
