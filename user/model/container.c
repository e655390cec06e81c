// SPDX-License-Identifier: GPL-2.0
/*
 * Name a cgroup v2 path by what runs there (see container.h).
 *
 * Choices the header leaves open, made the way a docker/kubectl user reads ids:
 * - without a container, a Kubernetes pod outranks user-<uid>.slice, which
 *   outranks a unit: the pod is the more specific owner (usernetes runs
 *   kubelet inside user@<uid>.service);
 * - a pod row's id is the pod UID (also in pod_uid);
 * - lxc.monitor.<name> is labelled "lxc-monitor:<name>", as conmon gets its
 *   own label, so the monitor's cost is not mixed into the container's row;
 * - a bare 64-hex component is a container only directly under "docker"
 *   (docker's cgroupfs driver) or anywhere below a pod (kubelet's cgroupfs
 *   layout, labelled containerd; cri-dockerd uses the same layout and can't
 *   be told apart);
 * - ids are lower-case hex as the runtimes write them; anything else is not
 *   an id, so "docker-XYZ.scope" is just a unit;
 * - two real formats the header does not list are containers too:
 *   libpod-payload-<id> (podman --cgroups=split, quadlet's default) and
 *   nerdctl-<id>.scope (labelled containerd);
 * - text too long for id or label is cut at a UTF-8 character boundary;
 * - a NULL @c is also -EINVAL; on error a non-NULL @c is zeroed.
 */
#include <errno.h>
#include <string.h>
#include "model/container.h"

#define ID_HEX	 64
#define ID_SHORT 12

struct comp {
	const char *s;
	size_t len;
};

/* A bounded string being built: stops at the first byte that does not fit. */
struct out {
	char *buf;
	size_t size;
	size_t len;
	int cut;
};

static void out_init(struct out *o, char *buf, size_t size)
{
	o->buf = buf;
	o->size = size;
	o->len = 0;
	o->cut = 0;
	buf[0] = '\0';
}

/* Drop a multi-byte character left incomplete by a cut, so labels stay valid UTF-8. */
static void out_trim_utf8(struct out *o)
{
	size_t i = o->len, cont = 0;
	unsigned char lead;
	size_t need;

	while (i > 0 && cont < 3 && ((unsigned char)o->buf[i - 1] & 0xc0) == 0x80) {
		i--;
		cont++;
	}
	if (i == 0)
		return;
	lead = (unsigned char)o->buf[i - 1];
	if (lead >= 0xf0)
		need = 4;
	else if (lead >= 0xe0)
		need = 3;
	else if (lead >= 0xc0)
		need = 2;
	else
		return;
	if (need > cont + 1) {
		o->len = i - 1;
		o->buf[o->len] = '\0';
	}
}

static void out_putc(struct out *o, char ch)
{
	if (o->cut)
		return;
	if (o->len + 1 >= o->size) {
		o->cut = 1;
		out_trim_utf8(o);
		return;
	}
	o->buf[o->len++] = ch;
	o->buf[o->len] = '\0';
}

static void out_mem(struct out *o, const char *s, size_t len)
{
	while (len-- > 0)
		out_putc(o, *s++);
}

static void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static void copy_str(char *dst, size_t size, const char *s, size_t len)
{
	struct out o;

	out_init(&o, dst, size);
	out_mem(&o, s, len);
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static int is_lower_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	}
	return 1;
}

static int comp_is(const struct comp *c, const char *s)
{
	return c->s && c->len == strlen(s) && !memcmp(c->s, s, c->len);
}

static int has_prefix(const char *s, size_t len, const char *pre)
{
	size_t n = strlen(pre);

	return len >= n && !memcmp(s, pre, n);
}

static int has_suffix(const char *s, size_t len, const char *suf)
{
	size_t n = strlen(suf);

	return len >= n && !memcmp(s + len - n, suf, n);
}

/* systemd writes unit names with \xHH escapes (e.g. "\x2d" for '-'); undo them. */
static void out_unescaped(struct out *o, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (i + 3 < len && s[i] == '\\' && s[i + 1] == 'x' && hexval(s[i + 2]) >= 0 &&
		    hexval(s[i + 3]) >= 0) {
			int b = hexval(s[i + 2]) * 16 + hexval(s[i + 3]);

			/* A NUL would end the string early: keep the escape as written. */
			if (b) {
				out_putc(o, (char)b);
				i += 4;
				continue;
			}
		}
		out_putc(o, s[i++]);
	}
}

struct found {
	enum container_kind kind;
	const char *id; /* into the path */
	size_t id_len;
	const char *label_name; /* runtime in the label: "docker", "crio-conmon", ... */
	bool monitor;
};

/* <prefix><64 hex><suffix> component names of the runtimes, conmon before plain. */
static const struct {
	const char *prefix;
	int scope_optional; /* also without ".scope": cgroupfs managers, podman split */
	enum container_kind kind;
	const char *label_name;
	bool monitor; /* conmon: watches the container, is not it */
} scope_pats[] = {
	{ "docker-", 0, CONTAINER_DOCKER, "docker", false },
	{ "cri-containerd-", 0, CONTAINER_CONTAINERD, "containerd", false },
	{ "crio-conmon-", 1, CONTAINER_CRIO, "crio-conmon", true },
	{ "crio-", 1, CONTAINER_CRIO, "crio", false },
	{ "libpod-conmon-", 0, CONTAINER_PODMAN, "podman-conmon", true },
	/* podman --cgroups=split (quadlet's default): <unit>/libpod-payload-<id> */
	{ "libpod-payload-", 1, CONTAINER_PODMAN, "podman", false },
	{ "libpod-", 1, CONTAINER_PODMAN, "podman", false },
	/* nerdctl, containerd's own CLI */
	{ "nerdctl-", 0, CONTAINER_CONTAINERD, "containerd", false },
};

static int match_container(const struct comp *cur, const struct comp *parent, int below_pod,
			   struct found *f)
{
	const char *s = cur->s;
	size_t len = cur->len, i;

	for (i = 0; i < sizeof(scope_pats) / sizeof(scope_pats[0]); i++) {
		size_t pl = strlen(scope_pats[i].prefix);
		size_t rest;

		if (!has_prefix(s, len, scope_pats[i].prefix))
			continue;
		rest = len - pl;
		if (!(rest == ID_HEX + 6 && has_suffix(s, len, ".scope")) &&
		    !(scope_pats[i].scope_optional && rest == ID_HEX))
			continue;
		if (!is_lower_hex(s + pl, ID_HEX))
			continue;
		f->kind = scope_pats[i].kind;
		f->id = s + pl;
		f->id_len = ID_HEX;
		f->label_name = scope_pats[i].label_name;
		f->monitor = scope_pats[i].monitor;
		return 1;
	}

	if (has_prefix(s, len, "lxc.payload.") && len > 12) {
		f->kind = CONTAINER_LXC;
		f->id = s + 12;
		f->id_len = len - 12;
		f->label_name = "lxc";
		return 1;
	}
	if (has_prefix(s, len, "lxc.monitor.") && len > 12) {
		f->kind = CONTAINER_LXC;
		f->id = s + 12;
		f->id_len = len - 12;
		f->label_name = "lxc-monitor";
		f->monitor = true;
		return 1;
	}
	/* Before LXC 4.0 the payload was /lxc/<name>. */
	if (comp_is(parent, "lxc")) {
		f->kind = CONTAINER_LXC;
		f->id = s;
		f->id_len = len;
		f->label_name = "lxc";
		return 1;
	}

	if (len == ID_HEX && is_lower_hex(s, len)) {
		if (comp_is(parent, "docker")) {
			f->kind = CONTAINER_DOCKER;
			f->label_name = "docker";
		} else if (below_pod) {
			f->kind = CONTAINER_CONTAINERD;
			f->label_name = "containerd";
		} else {
			return 0;
		}
		f->id = s;
		f->id_len = len;
		return 1;
	}
	return 0;
}

struct pod {
	char uid[40];
	const char *qos;
};

/*
 * A pod UID: a UUID (8-4-4-4-12 hex; systemd slices write '_' for '-') or,
 * for static pods, the 32-hex hash kubelet gives them. Stored with dashes.
 */
static int parse_pod_uid(const char *s, size_t len, char *uid)
{
	size_t i;

	if (len == 32) {
		if (!is_lower_hex(s, len))
			return 0;
		memcpy(uid, s, len);
		uid[len] = '\0';
		return 1;
	}
	if (len != 36)
		return 0;
	for (i = 0; i < len; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-' && s[i] != '_')
				return 0;
			uid[i] = '-';
		} else {
			if (!is_lower_hex(s + i, 1))
				return 0;
			uid[i] = s[i];
		}
	}
	uid[len] = '\0';
	return 1;
}

static const char *qos_of(const char *s, size_t len)
{
	if (len == 9 && !memcmp(s, "burstable", 9))
		return "burstable";
	if (len == 10 && !memcmp(s, "besteffort", 10))
		return "besteffort";
	if (len == 8 && !memcmp(s, "kubepods", 8))
		return "guaranteed";
	return NULL;
}

/*
 * systemd driver: [<root>-]kubepods[-<qos>]-pod<uid_>.slice, the slice name
 * repeating its parents' names; cgroupfs driver: kubepods[/<qos>]/pod<uid>.
 */
static int match_pod(const struct comp *cur, const struct comp *parent, const struct comp *grand,
		     struct pod *pod)
{
	const char *s = cur->s, *end, *last = NULL, *prev, *w, *dash;
	size_t len = cur->len;

	if (has_suffix(s, len, ".slice")) {
		end = s + len - 6;
		for (w = s; w < end; w++) {
			if (*w == '-')
				last = w;
		}
		/* The last word is pod<uid>, the one before it names the QoS class. */
		if (!last || !has_prefix(last + 1, (size_t)(end - last - 1), "pod") ||
		    !parse_pod_uid(last + 4, (size_t)(end - last - 4), pod->uid))
			return 0;
		prev = s;
		for (w = s; w < last; w++) {
			if (*w == '-')
				prev = w + 1;
		}
		pod->qos = qos_of(prev, (size_t)(last - prev));
		if (!pod->qos)
			return 0;
		/* Some word must be "kubepods", so a stray "x-burstable-pod<uuid>.slice" is no pod.
		 */
		for (w = s; w <= prev; w = dash + 1) {
			dash = memchr(w, '-', (size_t)(last - w));
			if (!dash)
				dash = last;
			if (dash - w == 8 && !memcmp(w, "kubepods", 8))
				return 1;
		}
		return 0;
	}

	if (!has_prefix(s, len, "pod") || !parse_pod_uid(s + 3, len - 3, pod->uid))
		return 0;
	if (comp_is(parent, "kubepods")) {
		pod->qos = "guaranteed";
		return 1;
	}
	if (comp_is(grand, "kubepods") &&
	    (comp_is(parent, "burstable") || comp_is(parent, "besteffort"))) {
		pod->qos = qos_of(parent->s, parent->len);
		return 1;
	}
	return 0;
}

static int match_user(const struct comp *cur)
{
	size_t len = cur->len, i;

	if (!has_prefix(cur->s, len, "user-") || !has_suffix(cur->s, len, ".slice"))
		return 0;
	len -= 5 + 6;
	if (len < 1 || len > 10)
		return 0;
	for (i = 0; i < len; i++) {
		if (cur->s[5 + i] < '0' || cur->s[5 + i] > '9')
			return 0;
	}
	return 1;
}

static int match_unit(const struct comp *cur)
{
	static const char *const types[] = { ".service", ".scope", ".mount", ".socket", ".swap" };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (has_suffix(cur->s, cur->len, types[i]) && cur->len > strlen(types[i]))
			return 1;
	}
	return 0;
}

int container_parse(const char *path, struct container *c)
{
	struct comp cur = { 0 }, parent = { 0 }, grand = { 0 };
	struct comp user = { 0 }, unit = { 0 };
	size_t user_end = 0, unit_end = 0, pod_end = 0, end = 0;
	struct pod pod = { 0 };
	int have_pod = 0, have_ctr = 0;
	struct found f = { 0 };
	struct out label;
	const char *p;

	if (c)
		memset(c, 0, sizeof(*c));
	if (!path || !c || path[0] != '/')
		return -EINVAL;

	for (p = path; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		cur.s = p;
		while (*p && *p != '/')
			p++;
		cur.len = (size_t)(p - cur.s);

		/* The outermost container owns everything below it. */
		if (match_container(&cur, &parent, have_pod, &f)) {
			have_ctr = 1;
			end = (size_t)(p - path);
			break;
		}
		if (!have_pod && match_pod(&cur, &parent, &grand, &pod)) {
			have_pod = 1;
			pod_end = (size_t)(p - path);
		}
		if (!user.s && match_user(&cur)) {
			user = cur;
			user_end = (size_t)(p - path);
		}
		if (!unit.s && match_unit(&cur)) {
			unit = cur;
			unit_end = (size_t)(p - path);
		}
		grand = parent;
		parent = cur;
	}

	out_init(&label, c->label, sizeof(c->label));
	if (have_pod) {
		copy_str(c->pod_uid, sizeof(c->pod_uid), pod.uid, strlen(pod.uid));
		copy_str(c->qos, sizeof(c->qos), pod.qos, strlen(pod.qos));
		out_str(&label, "k8s:");
		out_str(&label, pod.qos);
		out_str(&label, "/pod");
		out_str(&label, pod.uid);
	}
	if (have_ctr) {
		c->kind = f.kind;
		c->monitor = f.monitor;
		c->prefix_len = end;
		copy_str(c->id, sizeof(c->id), f.id, f.id_len);
		if (have_pod)
			out_putc(&label, '/');
		out_str(&label, f.label_name);
		out_putc(&label, ':');
		/* LXC names are chosen by people: show them whole. */
		out_mem(&label, f.id,
			f.kind == CONTAINER_LXC || f.id_len < ID_SHORT ? f.id_len : ID_SHORT);
	} else if (have_pod) {
		c->kind = CONTAINER_POD;
		c->prefix_len = pod_end;
		copy_str(c->id, sizeof(c->id), pod.uid, strlen(pod.uid));
	} else if (user.s) {
		c->kind = CONTAINER_USER;
		c->prefix_len = user_end;
		copy_str(c->id, sizeof(c->id), user.s + 5, user.len - 5 - 6);
		out_str(&label, "user:");
		out_str(&label, c->id);
	} else if (unit.s) {
		struct out id;

		c->kind = CONTAINER_UNIT;
		c->prefix_len = unit_end;
		out_init(&id, c->id, sizeof(c->id));
		out_unescaped(&id, unit.s, unit.len);
		out_str(&label, "unit:");
		out_unescaped(&label, unit.s, unit.len);
	} else {
		c->kind = CONTAINER_NONE;
		c->prefix_len = strlen(path);
		out_str(&label, path);
	}
	return 0;
}

const char *container_kind_name(enum container_kind kind)
{
	switch (kind) {
	case CONTAINER_NONE:
		return "none";
	case CONTAINER_DOCKER:
		return "docker";
	case CONTAINER_CONTAINERD:
		return "containerd";
	case CONTAINER_CRIO:
		return "crio";
	case CONTAINER_PODMAN:
		return "podman";
	case CONTAINER_LXC:
		return "lxc";
	case CONTAINER_POD:
		return "pod";
	case CONTAINER_USER:
		return "user";
	case CONTAINER_UNIT:
		return "unit";
	}
	/* Not a value of the enum: a caller's bug, made visible rather than hidden as "none". */
	return "unknown";
}
