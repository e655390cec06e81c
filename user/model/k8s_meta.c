// SPDX-License-Identifier: GPL-2.0
/*
 * A Kubernetes container's names from a runtime state file (see k8s_meta.h).
 *
 * The keys are what the runtimes write (containerd's pkg/cri/annotations,
 * CRI-O's and podman's pkg/annotations, kubelet's types/labels.go as
 * cri-dockerd copies them into labels). Choices the header leaves open:
 * - JSON is read with duplicate keys rejected: two io.kubernetes.pod.name
 *   would name a pod twice, and which one wins is for no one to guess;
 * - an escaped NUL (\u0000) is allowed in the file, as any annotation a
 *   pod's owner writes may hold one: it costs that string a '?', not the
 *   whole file its names;
 * - a key holding JSON null is absent, as Go writes a nil map or string;
 * - the sandbox's container name is "" whatever the runtime wrote there
 *   (CRI-O and cri-dockerd write "POD", containerd nothing), so that the
 *   three runtimes name a pause container alike;
 * - jansson's error text quotes the input near the error: it is
 *   sanitised as the names are, since the caller prints it.
 */
#include <stdio.h>
#include <string.h>
#include <jansson.h>
#include "model/k8s_meta.h"
#include "model/utf8.h"

struct keys {
	const char *map_name; /* for messages */
	const char *ns, *pod, *container, *uid;
	const char *type, *sandbox; /* the key telling a pause container, and its value */
};

static const struct keys containerd_keys = {
	.map_name = "annotations",
	.ns = "io.kubernetes.cri.sandbox-namespace",
	.pod = "io.kubernetes.cri.sandbox-name",
	.container = "io.kubernetes.cri.container-name",
	.uid = "io.kubernetes.cri.sandbox-uid",
	.type = "io.kubernetes.cri.container-type",
	.sandbox = "sandbox",
};

static const struct keys crio_keys = {
	.map_name = "annotations",
	.ns = "io.kubernetes.pod.namespace",
	.pod = "io.kubernetes.pod.name",
	.container = "io.kubernetes.container.name",
	.uid = "io.kubernetes.pod.uid",
	.type = "io.kubernetes.cri-o.ContainerType",
	.sandbox = "sandbox",
};

static const struct keys docker_keys = {
	.map_name = "Config.Labels",
	.ns = "io.kubernetes.pod.namespace",
	.pod = "io.kubernetes.pod.name",
	.container = "io.kubernetes.container.name",
	.uid = "io.kubernetes.pod.uid",
	.type = "io.kubernetes.docker.type",
	.sandbox = "podsandbox",
};

/*
 * Copy @len bytes of @src into @dst (@size > 0), NUL-terminated: control
 * characters (C0 with NUL, DEL, C1) and bytes of no valid UTF-8 sequence
 * (utf8_seq_len) become '?', and the copy stops before the first
 * character that does not fit whole.
 */
static void copy_clean(char *dst, size_t size, const char *src, size_t len)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0;

	while (i < len) {
		size_t n = utf8_seq_len(s + i, len - i);
		bool control =
			s[i] < 0x20 || s[i] == 0x7f || (n == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0);

		if (!n || control) {
			if (o + 1 >= size)
				break;
			dst[o++] = '?';
			i += n ? n : 1;
			continue;
		}
		if (o + n >= size)
			break;
		memcpy(dst + o, s + i, n);
		o += n;
		i += n;
	}
	dst[o] = '\0';
}

/*
 * The string at @key of @map into @dst ("" if absent or null). -1 if the
 * key holds another type.
 */
static int take(const json_t *map, const char *key, char *dst, size_t size)
{
	const json_t *v = json_object_get(map, key);

	dst[0] = '\0';
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	copy_clean(dst, size, json_string_value(v), json_string_length(v));
	return 0;
}

/* Is @key of @map the string @want (exactly, NULs included)? -1: not a string. */
static int equals(const json_t *map, const char *key, const char *want)
{
	const json_t *v = json_object_get(map, key);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	return json_string_length(v) == strlen(want) &&
	       !memcmp(json_string_value(v), want, strlen(want));
}

static void say_why(char *why, size_t why_len, const char *text)
{
	if (why && why_len)
		copy_clean(why, why_len, text, strlen(text));
}

/* The object holding the names: @root's annotations, or Config.Labels. */
static enum k8s_result find_map(enum k8s_format format, const json_t *root, const json_t **map,
				char *why, size_t why_len)
{
	const json_t *v = root;

	*map = NULL;
	if (!json_is_object(root)) {
		say_why(why, why_len, "the top level is not an object");
		return K8S_BAD_SHAPE;
	}
	if (format == K8S_FORMAT_DOCKER) {
		v = json_object_get(root, "Config");
		if (!v || json_is_null(v))
			return K8S_NOT_KUBERNETES;
		if (!json_is_object(v)) {
			say_why(why, why_len, "\"Config\" is not an object");
			return K8S_BAD_SHAPE;
		}
		v = json_object_get(v, "Labels");
	} else {
		v = json_object_get(v, "annotations");
	}
	if (!v || json_is_null(v))
		return K8S_NOT_KUBERNETES;
	if (!json_is_object(v)) {
		say_why(why, why_len,
			format == K8S_FORMAT_DOCKER ? "\"Config.Labels\" is not an object"
						    : "\"annotations\" is not an object");
		return K8S_BAD_SHAPE;
	}
	*map = v;
	return K8S_OK;
}

static enum k8s_result names(const struct keys *k, const json_t *map, struct k8s_meta *m, char *why,
			     size_t why_len)
{
	const char *bad = NULL;
	char text[160];
	int sandbox = 0;

	if (take(map, k->ns, m->namespace, sizeof(m->namespace)))
		bad = k->ns;
	else if (take(map, k->pod, m->pod, sizeof(m->pod)))
		bad = k->pod;
	else if (take(map, k->container, m->container, sizeof(m->container)))
		bad = k->container;
	else if (take(map, k->uid, m->pod_uid, sizeof(m->pod_uid)))
		bad = k->uid;
	else if ((sandbox = equals(map, k->type, k->sandbox)) < 0)
		bad = k->type;
	if (bad) {
		snprintf(text, sizeof(text), "%s of \"%s\" is not a string", bad, k->map_name);
		say_why(why, why_len, text);
		return K8S_BAD_SHAPE;
	}
	if (!m->namespace[0] || !m->pod[0])
		return K8S_NOT_KUBERNETES;
	m->sandbox = sandbox;
	if (m->sandbox)
		m->container[0] = '\0';
	return K8S_OK;
}

enum k8s_result k8s_meta_parse(enum k8s_format format, const char *buf, size_t len,
			       struct k8s_meta *m, char *why, size_t why_len)
{
	const struct keys *k = format == K8S_FORMAT_CONTAINERD ? &containerd_keys
			       : format == K8S_FORMAT_CRIO     ? &crio_keys
							       : &docker_keys;
	enum k8s_result r;
	const json_t *map;
	json_error_t err;
	json_t *root;

	memset(m, 0, sizeof(*m));
	say_why(why, why_len, "");
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &err);
	if (!root) {
		char text[256];

		snprintf(text, sizeof(text), "line %d column %d: %s", err.line, err.column,
			 err.text);
		say_why(why, why_len, text);
		return K8S_BAD_JSON;
	}
	r = find_map(format, root, &map, why, why_len);
	if (r == K8S_OK)
		r = names(k, map, m, why, why_len);
	/*
	 * Both OCI files are annotations: a bundle either CRI runtime wrote
	 * may carry the other's keys (podman started with the CRI plugin's
	 * annotations, a CRI-O built to write containerd's), so the other
	 * set is tried when the first names no pod.
	 */
	if (r == K8S_NOT_KUBERNETES && format != K8S_FORMAT_DOCKER) {
		memset(m, 0, sizeof(*m));
		r = names(k == &crio_keys ? &containerd_keys : &crio_keys, map, m, why, why_len);
	}
	json_decref(root);
	if (r != K8S_OK)
		memset(m, 0, sizeof(*m));
	return r;
}

const char *k8s_format_name(enum k8s_format format)
{
	switch (format) {
	case K8S_FORMAT_CONTAINERD:
		return "containerd";
	case K8S_FORMAT_CRIO:
		return "crio";
	case K8S_FORMAT_DOCKER:
		return "docker";
	}
	return "unknown";
}

const char *k8s_result_name(enum k8s_result result)
{
	switch (result) {
	case K8S_OK:
		return "named";
	case K8S_NOT_KUBERNETES:
		return "not a Kubernetes container";
	case K8S_BAD_JSON:
		return "malformed JSON";
	case K8S_BAD_SHAPE:
		return "unexpected JSON layout";
	case K8S_MISSING:
		return "no state file";
	case K8S_NOT_REGULAR:
		return "not a regular file";
	case K8S_SYMLINK:
		return "a symlink, not followed";
	case K8S_TOO_BIG:
		return "too big";
	case K8S_UNREADABLE:
		return "unreadable";
	}
	return "unknown";
}
