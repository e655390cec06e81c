// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for cgroup2_find_mount() (user/host/cgroupfs.c), which finds
 * the cgroup2 mount point in /proc/self/mountinfo. It reads a file, so the
 * input (any bytes, NULs too) is written to a memfd and read back through
 * /proc/self/fd/N, the same getline path as the real file. Checks, beyond
 * no crash:
 * - the result is 0, -ENOENT or -ENAMETOOLONG, and on 0 the path is
 *   NUL-terminated inside the buffer, starts with '/' only if the input
 *   has a '/' (mount points are copied, not made up) and is not empty;
 * - with a 16-byte buffer the same, and -ENOENT exactly when the full
 *   search says -ENOENT (the buffer's size changes no line's fate but its
 *   own).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "host/cgroupfs.h"

static int fd = -1;
static char file[32];

static int find(char *buf, size_t len)
{
	int ret = cgroup2_find_mount(file, buf, len);

	assert(ret == 0 || ret == -ENOENT || ret == -ENAMETOOLONG);
	if (!ret)
		assert(memchr(buf, '\0', len) && buf[0]);
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[4096], small[16];
	int ret;

	if (size > 65536)
		return -1;
	if (fd < 0) {
		fd = memfd_create("mountinfo", MFD_CLOEXEC);
		assert(fd >= 0);
		snprintf(file, sizeof(file), "/proc/self/fd/%d", fd);
	}
	assert(!ftruncate(fd, 0));
	assert(pwrite(fd, data, size, 0) == (ssize_t)size);

	ret = find(path, sizeof(path));
	/* A '/' in the mount point comes from the input: as itself, or escaped as \057. */
	if (!ret && path[0] == '/')
		assert(memchr(data, '/', size) || memmem(data, size, "\\057", 4));
	assert((find(small, sizeof(small)) == -ENOENT) == (ret == -ENOENT));
	return 0;
}
