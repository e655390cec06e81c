/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Name a cgroup v2 path by what runs there: a container, a user's slice, a
 * systemd unit, or else the path itself. Pure: string in, struct out.
 */
#ifndef TD_CONTAINER_H
#define TD_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>

enum container_kind {
	CONTAINER_NONE,	      /* no pattern: the row is the path itself */
	CONTAINER_DOCKER,     /* docker-<id>.scope, /docker/<id> */
	CONTAINER_CONTAINERD, /* cri-containerd-<id>.scope, and Kubernetes cgroupfs paths */
	CONTAINER_CRIO,	      /* crio-<id>.scope, crio-conmon-<id>.scope */
	CONTAINER_PODMAN, /* libpod-<id>.scope, libpod-conmon-<id>.scope, /libpod_parent/libpod-<id>
			   */
	CONTAINER_LXC,	  /* /lxc/<name>, lxc.payload.<name>, lxc.monitor.<name> */
	CONTAINER_POD,	  /* a Kubernetes pod's own cgroup, no container below it in the path */
	CONTAINER_USER,	  /* user-<uid>.slice */
	CONTAINER_UNIT,	  /* a systemd unit: .service .scope .mount .socket .swap */
};

struct container {
	enum container_kind kind;
	size_t prefix_len; /* the row's cgroup: path[0..prefix_len), ends at the matched component
			    */
	char id[72];	   /* full container id, LXC name, uid, or unescaped unit name */
	char pod_uid[40];  /* Kubernetes pod UID with dashes ("" if none) */
	char qos[16];	   /* "guaranteed", "burstable", "besteffort" ("" if not Kubernetes) */
	char label[384];   /* what a row shows, see container_parse(); room for NS/POD/CONTAINER */
	bool monitor;	   /* crio-conmon, libpod-conmon: the runtime's monitor of container id */
};

/*
 * Parse @path ("/system.slice/docker-<64 hex>.scope/...", relative to the
 * cgroup2 mount, starting with '/'). The OUTERMOST container component wins
 * (a container's own nested cgroups, e.g. systemd units inside it, belong to
 * it); a pod component is remembered for the container below it. With no
 * container: the first user-<uid>.slice, else the first systemd unit
 * component, else CONTAINER_NONE with prefix_len = strlen(path).
 *
 * Labels: "docker:<id12>", "containerd:<id12>", "crio:<id12>",
 * "podman:<id12>" (conmon: "crio-conmon:<id12>", "podman-conmon:<id12>"),
 * "lxc:<name>"; under Kubernetes "k8s:<qos>/pod<uid>/<runtime>:<id12>";
 * a pod alone "k8s:<qos>/pod<uid>"; "user:<uid>"; "unit:<name>" with
 * systemd's \xHH escapes decoded; CONTAINER_NONE: the path itself.
 * Returns 0; -EINVAL only for a NULL or empty path, or one not starting with '/'.
 */
int container_parse(const char *path, struct container *c);

const char *container_kind_name(enum container_kind kind); /* "docker", ..., "none" */

#endif /* TD_CONTAINER_H */
