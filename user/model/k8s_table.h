/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Kubernetes names the collect stage found, by container and by pod,
 * for decoding and output to look up. Pure: host/k8s_state.c reads the
 * runtimes' files, this only keeps what it found.
 */
#ifndef TD_K8S_TABLE_H
#define TD_K8S_TABLE_H

#include <stddef.h>
#include "model/container.h"
#include "model/k8s_meta.h"

struct k8s_entry {
	enum container_kind kind; /* a runtime's, or CONTAINER_POD for a pod */
	char id[72];		  /* container id, or the pod UID from the cgroup path */
	struct k8s_meta meta;	  /* a pod's: container "", not a sandbox */
};

struct k8s_table {
	struct k8s_entry *v; /* sorted by kind, then id */
	size_t nr, cap;
};

/*
 * Set the names of container @id of @kind (CONTAINER_POD: of pod UID @id)
 * to @m, replacing any. 0, -EINVAL for an empty or too long id, -ENOMEM.
 */
int k8s_table_put(struct k8s_table *t, enum container_kind kind, const char *id,
		  const struct k8s_meta *m);

/* The names of container @id of @kind, or NULL. */
const struct k8s_meta *k8s_table_get(const struct k8s_table *t, enum container_kind kind,
				     const char *id);

/*
 * The names of the cgroup @c was parsed from: its container's, or for a
 * pod's own cgroup (CONTAINER_POD) and a runtime's monitor of a container
 * (conmon) its pod's. NULL if none are known.
 */
const struct k8s_meta *k8s_table_find(const struct k8s_table *t, const struct container *c);

void k8s_table_free(struct k8s_table *t);

/*
 * The container's name as shown: "POD" for the sandbox (kubelet's name
 * for it, upper case so that no container's name can be it), else its name.
 */
const char *k8s_container_name(const struct k8s_meta *m);

/*
 * "namespace/pod/container" into @buf: "namespace/pod" for a pod's own
 * cgroup (container ""), "namespace" for a namespace's (pod "").
 */
void k8s_format_label(const struct k8s_meta *m, char *buf, size_t size);

#endif /* TD_K8S_TABLE_H */
