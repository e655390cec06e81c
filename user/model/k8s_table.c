// SPDX-License-Identifier: GPL-2.0
/* Kubernetes names by container and pod: a sorted array, found by bsearch. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/array.h"
#include "model/k8s_table.h"
#include "model/utf8.h"

static int cmp_key(enum container_kind kind, const char *id, const struct k8s_entry *e)
{
	if (kind != e->kind)
		return kind < e->kind ? -1 : 1;
	return strcmp(id, e->id);
}

/* The index of @kind/@id, or where it would go (*found false). */
static size_t seek(const struct k8s_table *t, enum container_kind kind, const char *id, bool *found)
{
	size_t lo = 0, hi = t->nr;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(kind, id, &t->v[mid]);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int k8s_table_put(struct k8s_table *t, enum container_kind kind, const char *id,
		  const struct k8s_meta *m)
{
	size_t len = id ? strlen(id) : 0, i;
	bool found;

	if (!len || len >= sizeof(t->v->id))
		return -EINVAL;
	i = seek(t, kind, id, &found);
	if (!found) {
		if (array_reserve((void **)&t->v, &t->cap, t->nr + 1, sizeof(*t->v)))
			return -ENOMEM;
		memmove(&t->v[i + 1], &t->v[i], (t->nr - i) * sizeof(*t->v));
		t->nr++;
		t->v[i].kind = kind;
		memcpy(t->v[i].id, id, len + 1);
	}
	t->v[i].meta = *m;
	return 0;
}

const struct k8s_meta *k8s_table_get(const struct k8s_table *t, enum container_kind kind,
				     const char *id)
{
	bool found;
	size_t i;

	if (!t->nr || !id || !*id)
		return NULL;
	i = seek(t, kind, id, &found);
	return found ? &t->v[i].meta : NULL;
}

const struct k8s_meta *k8s_table_find(const struct k8s_table *t, const struct container *c)
{
	/* A runtime's monitor (conmon) is not its container: it is the pod's, if any. */
	if (c->monitor)
		return k8s_table_get(t, CONTAINER_POD, c->pod_uid);
	switch (c->kind) {
	case CONTAINER_DOCKER:
	case CONTAINER_CONTAINERD:
	case CONTAINER_CRIO:
	case CONTAINER_PODMAN:
		return k8s_table_get(t, c->kind, c->id);
	case CONTAINER_POD:
		return k8s_table_get(t, CONTAINER_POD, c->pod_uid);
	default:
		return NULL;
	}
}

void k8s_table_free(struct k8s_table *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const char *k8s_container_name(const struct k8s_meta *m)
{
	return m->sandbox ? "POD" : m->container;
}

void k8s_format_label(const struct k8s_meta *m, char *buf, size_t size)
{
	const char *name = k8s_container_name(m);
	size_t len = 0;
	int full;

	if (!size)
		return;
	full = snprintf(buf, size, "%s%s%s%s%s", m->namespace, *m->pod ? "/" : "", m->pod,
			*m->pod && *name ? "/" : "", *m->pod ? name : "");
	if (full < 0 || (size_t)full < size)
		return;
	/* Cut short: at the last whole character (the names are UTF-8), not inside one. */
	full = (int)strlen(buf);
	for (size_t n; len < (size_t)full &&
		       (n = utf8_seq_len((const unsigned char *)buf + len, full - len)) > 0;)
		len += n;
	buf[len] = '\0';
}
