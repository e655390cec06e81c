// SPDX-License-Identifier: GPL-2.0
/* Report input: the buffers of process and cgroup rows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/array.h"
#include "model/snapshot.h"

int snapshot_reserve(struct snapshot *s, size_t tasks, size_t cgroups)
{
	if (array_reserve((void **)&s->tasks, &s->cap_tasks, tasks, sizeof(*s->tasks)) ||
	    array_reserve((void **)&s->cgroups, &s->cap_cgroups, cgroups, sizeof(*s->cgroups)))
		return -ENOMEM;
	return 0;
}

void snapshot_free(struct snapshot *s)
{
	free(s->tasks);
	free(s->cgroups);
	memset(s, 0, sizeof(*s));
}
