/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A Kubernetes container's names, from one container runtime state file's
 * bytes: namespace, pod, container, pod UID, and whether it is the pod's
 * sandbox (pause) container. Pure: bytes in, struct out; host/k8s_state.c
 * finds and reads the file.
 */
#ifndef TD_K8S_META_H
#define TD_K8S_META_H

#include <stdbool.h>
#include <stddef.h>

/* Which runtime wrote the file, and so where its names are. */
enum k8s_format {
	/*
	 * containerd's CRI plugin: the task bundle's OCI config.json,
	 * "annotations": io.kubernetes.cri.sandbox-namespace, sandbox-name,
	 * container-name, sandbox-uid; container-type "sandbox" for the pause.
	 */
	K8S_FORMAT_CONTAINERD,
	/*
	 * CRI-O and podman: userdata/config.json (OCI), "annotations":
	 * io.kubernetes.pod.namespace, pod.name, container.name, pod.uid;
	 * io.kubernetes.cri-o.ContainerType "sandbox" for the pause.
	 */
	K8S_FORMAT_CRIO,
	/*
	 * Docker through cri-dockerd: config.v2.json, "Config": {"Labels"}:
	 * the same io.kubernetes.* keys as CRI-O; io.kubernetes.docker.type
	 * "podsandbox" for the pause.
	 */
	K8S_FORMAT_DOCKER,
};

/*
 * What a look-up gave. Only K8S_OK has names; K8S_NOT_KUBERNETES is a
 * container that no pod owns (a plain docker or podman one), not an error.
 * The rest cost the names, never the counts: the caller says so once.
 * k8s_meta_parse() gives the first four; host/k8s_state.c the others.
 */
enum k8s_result {
	K8S_OK,
	K8S_NOT_KUBERNETES, /* well-formed, without a pod namespace and name */
	K8S_BAD_JSON,	    /* not JSON, duplicate keys, or not UTF-8 */
	K8S_BAD_SHAPE,	    /* JSON, but a member of the wrong type */
	K8S_MISSING,	    /* no state file for this id under any root */
	K8S_NOT_REGULAR,    /* a directory, FIFO, device or socket */
	K8S_SYMLINK,	    /* a symlink below the root: not followed */
	K8S_TOO_BIG,	    /* over K8S_STATE_MAX_BYTES */
	K8S_UNREADABLE,	    /* open or read failed otherwise */
};

/*
 * Each string is sanitised: NUL-terminated, cut to fit at a UTF-8
 * character boundary, every control character (C0, DEL, C1) replaced by
 * '?'. Sizes are Kubernetes' limits: a namespace and a container name are
 * DNS labels (63), a pod name a DNS subdomain (253), a UID 36.
 */
struct k8s_meta {
	char namespace[64];
	char pod[254];
	char container[64]; /* "" for the sandbox, whatever the runtime wrote */
	char pod_uid[40];   /* "" if the runtime does not write it (containerd < 1.6.11) */
	bool sandbox;
};

/*
 * Parse @len bytes of @buf (need not be NUL-terminated) as a state file of
 * @format. An OCI file (containerd, crio) whose own keys name no pod is
 * read again with the other OCI runtime's keys, each set taken whole. K8S_OK needs a non-empty namespace and pod name; a container
 * name or pod UID that is absent is left "". A key of the wrong type, or
 * the annotations/labels object being something else, is K8S_BAD_SHAPE; a
 * file without them, or null labels, is K8S_NOT_KUBERNETES. Unless
 * K8S_OK, @m is zeroed. @why (may be NULL) gets a one-line detail for a
 * K8S_BAD_* result, "" otherwise.
 */
enum k8s_result k8s_meta_parse(enum k8s_format format, const char *buf, size_t len,
			       struct k8s_meta *m, char *why, size_t why_len);

const char *k8s_format_name(enum k8s_format format); /* "containerd", "crio", "docker" */
const char *k8s_result_name(enum k8s_result result); /* "malformed JSON", ... */

#endif /* TD_K8S_META_H */
