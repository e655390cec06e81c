// SPDX-License-Identifier: GPL-2.0
/* cgroup id -> path: the table and its look-ups. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/cgroup_names.h"

int cgroup_names_init(struct cgroup_names *n, const char *mount)
{
	memset(n, 0, sizeof(*n));
	if (mount) {
		size_t len = strlen(mount);

		/* "/sys/fs/cgroup/" and "/sys/fs/cgroup" must name cgroups alike. */
		while (len > 1 && mount[len - 1] == '/')
			len--;
		n->mount = strndup(mount, len);
		if (!n->mount)
			return -ENOMEM;
	}
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct cgroup_name *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

const char *cgroup_names_lookup(const struct cgroup_names *n, __u64 id)
{
	struct cgroup_name key = { .id = id }, *e;

	e = n->nr ? bsearch(&key, n->v, n->nr, sizeof(*n->v), cmp_id) : NULL;
	return e ? e->path : NULL;
}

__u64 cgroup_names_id(const struct cgroup_names *n, const char *path)
{
	for (size_t i = 0; i < n->nr; i++)
		if (!strcmp(n->v[i].path, path))
			return n->v[i].id;
	return 0;
}

void cgroup_names_free(struct cgroup_names *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->v[i].path);
	free(n->v);
	free(n->mount);
	k8s_table_free(&n->k8s);
	memset(n, 0, sizeof(*n));
}
