/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kubernetes names of a container, from its runtime's state file on this
 * node (no kubelet, CRI socket or API server): found by the cgroup's
 * container kind and id (model/container.h), read without blocking, parsed
 * by model/k8s_meta.c, and cached per container until told it is gone.
 */
#ifndef TD_K8S_STATE_H
#define TD_K8S_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "model/cgroup_names.h"
#include "model/container.h"
#include "model/entries.h"
#include "model/k8s_meta.h"

/*
 * Where each runtime keeps its containers' state files; NULL or "" leaves
 * that place out. A container id is the next directory below each.
 */
struct k8s_roots {
	const char *containerd; /* <id>/config.json: the CRI plugin's task bundles */
	const char *crio_run;	/* <id>/userdata/config.json: CRI-O's runroot */
	const char *crio_lib;	/* <id>/userdata/config.json: CRI-O's and podman's root */
	const char *docker;	/* <id>/config.v2.json */
};

/*
 * Upstream's and Debian's: /run/containerd/io.containerd.runtime.v2.task/k8s.io,
 * /run/containers/storage/overlay-containers,
 * /var/lib/containers/storage/overlay-containers, /var/lib/docker/containers.
 */
extern const struct k8s_roots k8s_roots_default;

#define K8S_STATE_MAX_BYTES (1 << 20) /* a state file above this is K8S_TOO_BIG */
#define K8S_NAMES_MAX	    4096      /* containers cached; more are read each time */

/*
 * Read the names of container @id (64 lower-case hex digits) of @kind: a
 * CRI-O or podman container from crio_run, else crio_lib; a docker one
 * from docker; a containerd one from containerd, else docker (kubelet's
 * cgroupfs layout is the same for cri-dockerd). The first place that has
 * the file decides. Other kinds are K8S_NOT_KUBERNETES, without a look.
 * No symlink below a root is followed, and only a regular file of at most
 * K8S_STATE_MAX_BYTES is read, opened with O_NONBLOCK (a FIFO planted
 * there cannot hang the caller). Unless K8S_OK, @m is zeroed. @why (may be
 * NULL) gets "<path>: <what was wrong>" for a result other than K8S_OK and
 * K8S_NOT_KUBERNETES, "" otherwise.
 */
enum k8s_result k8s_state_read(const struct k8s_roots *roots, enum container_kind kind,
			       const char *id, struct k8s_meta *m, char *why, size_t why_len);

/* The cache: k8s_state_read() once per container. */
struct k8s_names;

struct k8s_lookup {
	bool fresh;    /* read by this call; false: the cached result */
	char why[320]; /* as k8s_state_read()'s, on a fresh call; "" when cached */
};

/* A cache reading from @roots (copied). NULL on -ENOMEM. */
struct k8s_names *k8s_names_new(const struct k8s_roots *roots);
void k8s_names_free(struct k8s_names *n);

/*
 * The names of container @id of @kind into @m: read on the first call for
 * that kind and id, from the cache after (failures included, so a broken
 * file is read and reported once). @lk (may be NULL) tells which, and why.
 */
enum k8s_result k8s_names_get(struct k8s_names *n, enum container_kind kind, const char *id,
			      struct k8s_meta *m, struct k8s_lookup *lk);

/*
 * A pod's namespace, name and UID (container "", not a sandbox) from any
 * cached container of the pod with UID @pod_uid: for the pod's own cgroup,
 * once one of its containers was got. false if none is cached.
 */
bool k8s_names_pod(const struct k8s_names *n, const char *pod_uid, struct k8s_meta *m);

/* The cgroup of @kind and @id went away: drop its entry, if any. */
void k8s_names_forget(struct k8s_names *n, enum container_kind kind, const char *id);

/*
 * Drop every entry not got since the previous sweep (or since the start),
 * for a caller that gets each live container once per interval. Returns
 * how many were dropped.
 */
size_t k8s_names_sweep(struct k8s_names *n);

size_t k8s_names_count(const struct k8s_names *n); /* entries cached */

#define K8S_SWEEP_EVERY 256 /* covers between sweeps: a container idle that long is read again */

/*
 * The collect stage: the Kubernetes names of every container (and its
 * pod) charged in @s, whose cgroup @names knows, into @names->k8s, read
 * through the cache @n (NULL: none are read). A state file that costs a
 * container its names is said once on @err (NULL: silent), never the
 * counts; of the containers with no state file at all, only the first.
 * Every K8S_SWEEP_EVERY calls, entries not got since are swept.
 */
void k8s_names_cover(struct k8s_names *n, struct cgroup_names *names, const struct entry_set *s,
		     FILE *err);

#endif /* TD_K8S_STATE_H */
