// SPDX-License-Identifier: GPL-2.0
/*
 * Kubernetes names from the runtimes' state files (see k8s_state.h).
 *
 * Choices the header leaves open:
 * - the path below a root is walked one directory at a time with
 *   O_NOFOLLOW, so no symlink is followed there, even one that stays
 *   inside: the runtimes write plain directories and files, and a link
 *   is what someone planted. The root itself may be reached through links
 *   (/var/run is one);
 * - the file is looked at before it is opened (lstat), so that a device
 *   node is never opened, and again after (fstat), in case it was swapped;
 * - the cache is sorted by kind and id, and holds failures too: the file
 *   of a cgroup that is still there is not read again;
 * - when K8S_NAMES_MAX entries are cached, a new container is read on
 *   every call, not cached: the table stays bounded even when the caller
 *   never forgets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host/k8s_state.h"
#include "cli/say.h"

#define ID_LEN	  64
#define MAX_DEPTH 3 /* <id>/userdata/config.json */

const struct k8s_roots k8s_roots_default = {
	.containerd = "/run/containerd/io.containerd.runtime.v2.task/k8s.io",
	.crio_run = "/run/containers/storage/overlay-containers",
	.crio_lib = "/var/lib/containers/storage/overlay-containers",
	.docker = "/var/lib/docker/containers",
};

/* One place a state file may be: a root, the path below it, its format. */
struct place {
	const char *root;
	const char *below[MAX_DEPTH]; /* NULL-terminated; the id is put first */
	enum k8s_format format;
};

static size_t places_of(const struct k8s_roots *r, enum container_kind kind, struct place *p)
{
	const struct place containerd = { r->containerd,
					  { NULL, "config.json" },
					  K8S_FORMAT_CONTAINERD };
	const struct place crio_run = { r->crio_run,
					{ NULL, "userdata", "config.json" },
					K8S_FORMAT_CRIO };
	const struct place crio_lib = { r->crio_lib,
					{ NULL, "userdata", "config.json" },
					K8S_FORMAT_CRIO };
	const struct place docker = { r->docker, { NULL, "config.v2.json" }, K8S_FORMAT_DOCKER };
	size_t nr = 0;

	switch (kind) {
	case CONTAINER_CONTAINERD:
		p[nr++] = containerd;
		p[nr++] = docker;
		break;
	case CONTAINER_CRIO:
	case CONTAINER_PODMAN:
		p[nr++] = crio_run;
		p[nr++] = crio_lib;
		break;
	case CONTAINER_DOCKER:
		p[nr++] = docker;
		break;
	default:
		break;
	}
	return nr;
}

static bool is_id(const char *id)
{
	size_t i;

	for (i = 0; i < ID_LEN; i++)
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
			return false;
	return id[ID_LEN] == '\0';
}

/* What an errno from opening or reading means for the names. */
static enum k8s_result errno_result(int err)
{
	switch (err) {
	case ENOENT:
		return K8S_MISSING;
	case ELOOP:
		return K8S_SYMLINK;
	default:
		return K8S_UNREADABLE;
	}
}

/* Open directory @name below @dirfd, not through a symlink. fd or -errno. */
static int open_dir_below(int dirfd, const char *name)
{
	struct stat st;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	/* O_DIRECTORY may win over O_NOFOLLOW: ENOTDIR for a link to a directory. */
	if (errno == ENOTDIR && !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
	    S_ISLNK(st.st_mode))
		return -ELOOP;
	return -errno;
}

/*
 * Read regular file @name below @dirfd into a new NUL-terminated buffer.
 * K8S_OK with *buf and *len, or what was wrong, with *err an errno or 0.
 */
static enum k8s_result read_below(int dirfd, const char *name, char **buf, size_t *len, int *err)
{
	size_t size, got = 0;
	struct stat st;
	char *b;
	int fd;

	*buf = NULL;
	*err = 0;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		*err = errno;
		return errno_result(*err);
	}
	if (S_ISLNK(st.st_mode))
		return K8S_SYMLINK;
	if (!S_ISREG(st.st_mode))
		return K8S_NOT_REGULAR;
	if (st.st_size > K8S_STATE_MAX_BYTES)
		return K8S_TOO_BIG;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return errno_result(*err);
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return K8S_NOT_REGULAR;
	}
	/* One byte more than the cap, to see a file that grew past it. */
	size = K8S_STATE_MAX_BYTES + 1;
	b = malloc(size + 1);
	while (b && got < size) {
		ssize_t n = read(fd, b + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			*err = errno;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!b) {
		*err = ENOMEM;
		return K8S_UNREADABLE;
	}
	if (*err || got > K8S_STATE_MAX_BYTES) {
		free(b);
		return *err ? K8S_UNREADABLE : K8S_TOO_BIG;
	}
	b[got] = '\0';
	*buf = b;
	*len = got;
	return K8S_OK;
}

/* The state file of @id at @p, parsed into @m; @path gets where it is. */
static enum k8s_result read_place(const struct place *p, const char *id, struct k8s_meta *m,
				  char *path, size_t path_len, char *detail, size_t detail_len)
{
	enum k8s_result r = K8S_OK;
	int fd, err = 0;
	size_t i, len;
	char *buf;

	detail[0] = '\0';
	snprintf(path, path_len, "%s", p->root);
	fd = open(p->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		err = errno;
	for (i = 0; fd >= 0 && i + 1 < MAX_DEPTH && p->below[i + 1]; i++) {
		const char *name = i == 0 ? id : p->below[i];
		int sub = open_dir_below(fd, name);
		size_t at = strlen(path);

		snprintf(path + at, path_len - at, "/%s", name);
		close(fd);
		fd = sub;
		if (fd < 0)
			err = -fd;
	}
	if (fd < 0) {
		if (err == ENOTDIR) /* a file where a directory should be */
			err = ENOENT;
		snprintf(detail, detail_len, "%s", strerror(err));
		return errno_result(err);
	}
	snprintf(path + strlen(path), path_len - strlen(path), "/%s", p->below[i]);
	r = read_below(fd, p->below[i], &buf, &len, &err);
	close(fd);
	if (r != K8S_OK) {
		if (err)
			snprintf(detail, detail_len, "%s", strerror(err));
		return r;
	}
	r = k8s_meta_parse(p->format, buf, len, m, detail, detail_len);
	free(buf);
	return r;
}

enum k8s_result k8s_state_read(const struct k8s_roots *roots, enum container_kind kind,
			       const char *id, struct k8s_meta *m, char *why, size_t why_len)
{
	struct place places[2];
	char path[4096 + 200], detail[200], first[sizeof(path)] = "";
	size_t i, nr = places_of(roots, kind, places);
	enum k8s_result r = nr ? K8S_MISSING : K8S_NOT_KUBERNETES;

	memset(m, 0, sizeof(*m));
	if (why && why_len)
		why[0] = '\0';
	if (nr && (!id || !is_id(id))) {
		if (why && why_len)
			snprintf(why, why_len, "not a container id");
		return K8S_MISSING;
	}
	for (i = 0; i < nr; i++) {
		if (!places[i].root || !places[i].root[0])
			continue;
		/* The id is the first name below the root. */
		r = read_place(&places[i], id, m, path, sizeof(path), detail, sizeof(detail));
		if (r != K8S_MISSING)
			break;
		if (!first[0])
			snprintf(first, sizeof(first), "%s", path);
	}
	if (r == K8S_OK || r == K8S_NOT_KUBERNETES || !why || !why_len)
		return r;
	if (r == K8S_MISSING) {
		snprintf(why, why_len, "%s: %s", first[0] ? first : "no runtime root",
			 k8s_result_name(r));
		return r;
	}
	snprintf(why, why_len, "%s: %s%s%s", path, k8s_result_name(r), detail[0] ? ": " : "",
		 detail);
	return r;
}

struct cached {
	unsigned char kind;   /* enum container_kind */
	unsigned char result; /* enum k8s_result */
	char id[ID_LEN + 1];
	unsigned int gen; /* the sweep it was last got in */
	struct k8s_meta meta;
};

struct k8s_names {
	struct k8s_roots roots; /* pointing into strings */
	char *strings[4];
	struct cached *v; /* sorted by kind, id */
	size_t nr, cap;
	unsigned int gen;
	unsigned int covers; /* k8s_names_cover() calls since the last sweep */
	bool said_missing;   /* a container without a state file was said: not the next ones */
};

static char *dup_root(const char *s, char **keep)
{
	*keep = s ? strdup(s) : NULL;
	return *keep;
}

struct k8s_names *k8s_names_new(const struct k8s_roots *roots)
{
	struct k8s_names *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->roots.containerd = dup_root(roots->containerd, &n->strings[0]);
	n->roots.crio_run = dup_root(roots->crio_run, &n->strings[1]);
	n->roots.crio_lib = dup_root(roots->crio_lib, &n->strings[2]);
	n->roots.docker = dup_root(roots->docker, &n->strings[3]);
	if ((roots->containerd && !n->strings[0]) || (roots->crio_run && !n->strings[1]) ||
	    (roots->crio_lib && !n->strings[2]) || (roots->docker && !n->strings[3])) {
		k8s_names_free(n);
		return NULL;
	}
	return n;
}

void k8s_names_free(struct k8s_names *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < 4; i++)
		free(n->strings[i]);
	free(n->v);
	free(n);
}

static int entry_cmp(const struct cached *e, enum container_kind kind, const char *id)
{
	if (e->kind != (unsigned char)kind)
		return e->kind < (unsigned char)kind ? -1 : 1;
	return strcmp(e->id, id);
}

/* Index of @kind/@id, or of where it would go; *found tells which. */
static size_t find(const struct k8s_names *n, enum container_kind kind, const char *id, bool *found)
{
	size_t lo = 0, hi = n->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = entry_cmp(&n->v[mid], kind, id);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

static void insert(struct k8s_names *n, size_t at, enum container_kind kind, const char *id,
		   enum k8s_result r, const struct k8s_meta *m)
{
	struct cached *e;

	if (n->nr == K8S_NAMES_MAX)
		return;
	if (n->nr == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 64;
		struct cached *v = realloc(n->v, cap * sizeof(*v));

		if (!v)
			return; /* not cached: read again next time */
		n->v = v;
		n->cap = cap;
	}
	memmove(&n->v[at + 1], &n->v[at], (n->nr - at) * sizeof(*n->v));
	n->nr++;
	e = &n->v[at];
	e->kind = (unsigned char)kind;
	e->result = (unsigned char)r;
	snprintf(e->id, sizeof(e->id), "%s", id);
	e->gen = n->gen;
	e->meta = *m;
}

enum k8s_result k8s_names_get(struct k8s_names *n, enum container_kind kind, const char *id,
			      struct k8s_meta *m, struct k8s_lookup *lk)
{
	struct k8s_lookup scratch;
	enum k8s_result r;
	bool found = false;
	size_t at = 0;

	if (!lk)
		lk = &scratch;
	lk->why[0] = '\0';
	if (id && is_id(id))
		at = find(n, kind, id, &found);
	if (found) {
		n->v[at].gen = n->gen;
		lk->fresh = false;
		*m = n->v[at].meta;
		return (enum k8s_result)n->v[at].result;
	}
	lk->fresh = true;
	r = k8s_state_read(&n->roots, kind, id, m, lk->why, sizeof(lk->why));
	if (id && is_id(id))
		insert(n, at, kind, id, r, m);
	return r;
}

bool k8s_names_pod(const struct k8s_names *n, const char *pod_uid, struct k8s_meta *m)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	if (!pod_uid || !pod_uid[0])
		return false;
	for (i = 0; i < n->nr; i++) {
		const struct cached *e = &n->v[i];

		if (e->result != K8S_OK || strcmp(e->meta.pod_uid, pod_uid))
			continue;
		memcpy(m->namespace, e->meta.namespace, sizeof(m->namespace));
		memcpy(m->pod, e->meta.pod, sizeof(m->pod));
		memcpy(m->pod_uid, e->meta.pod_uid, sizeof(m->pod_uid));
		return true;
	}
	return false;
}

void k8s_names_forget(struct k8s_names *n, enum container_kind kind, const char *id)
{
	bool found = false;
	size_t at;

	if (!id || !is_id(id))
		return;
	at = find(n, kind, id, &found);
	if (!found)
		return;
	memmove(&n->v[at], &n->v[at + 1], (n->nr - at - 1) * sizeof(*n->v));
	n->nr--;
}

size_t k8s_names_sweep(struct k8s_names *n)
{
	size_t i, kept = 0, dropped;

	for (i = 0; i < n->nr; i++)
		if (n->v[i].gen == n->gen)
			n->v[kept++] = n->v[i];
	dropped = n->nr - kept;
	n->nr = kept;
	n->gen++;
	return dropped;
}

size_t k8s_names_count(const struct k8s_names *n)
{
	return n->nr;
}

/* One cgroup's container: its names (and its pod's) into @names->k8s. */
static void cover_one(struct k8s_names *n, struct cgroup_names *names, const char *path, FILE *err)
{
	struct k8s_lookup lk;
	struct container c;
	struct k8s_meta m, pod;
	enum k8s_result r;

	if (container_parse(path, &c))
		return;
	switch (c.kind) {
	case CONTAINER_DOCKER:
	case CONTAINER_CONTAINERD:
	case CONTAINER_CRIO:
	case CONTAINER_PODMAN:
		break;
	case CONTAINER_POD: /* a pod's own cgroup: named once one of its containers is */
		if (!k8s_table_get(&names->k8s, CONTAINER_POD, c.pod_uid) &&
		    k8s_names_pod(n, c.pod_uid, &pod))
			k8s_table_put(&names->k8s, CONTAINER_POD, c.pod_uid, &pod);
		return;
	default:
		return;
	}
	r = k8s_names_get(n, c.kind, c.id, &m, &lk);
	if (r != K8S_OK) {
		/*
		 * A broken file is said each time; a missing one once a run: a
		 * node's containers outside Kubernetes (a containerd namespace
		 * of its own, say) would otherwise each cost a line.
		 */
		if (lk.fresh && lk.why[0] && (r != K8S_MISSING || !n->said_missing))
			say(err, "%s; its container is shown without Kubernetes names%s", lk.why,
			    r == K8S_MISSING ? " (other containers without one are not said)" : "");
		n->said_missing |= r == K8S_MISSING;
		return;
	}
	if (!lk.fresh && k8s_table_get(&names->k8s, c.kind, c.id))
		return;
	k8s_table_put(&names->k8s, c.kind, c.id, &m);
	/* The pod, under the UID its cgroup path has (else the runtime's). */
	pod = (struct k8s_meta){ 0 };
	memcpy(pod.namespace, m.namespace, sizeof(pod.namespace));
	memcpy(pod.pod, m.pod, sizeof(pod.pod));
	memcpy(pod.pod_uid, c.pod_uid[0] ? c.pod_uid : m.pod_uid, sizeof(pod.pod_uid));
	if (pod.pod_uid[0])
		k8s_table_put(&names->k8s, CONTAINER_POD, pod.pod_uid, &pod);
}

void k8s_names_cover(struct k8s_names *n, struct cgroup_names *names, const struct entry_set *s,
		     FILE *err)
{
	__u64 last = TD_IDLE_CGROUP_ID;

	if (!n)
		return;
	for (size_t i = 0; i < s->nr; i++) {
		__u64 id = s->v[i].key.cgroup_id;
		const char *path;

		/* Entries of one process in one cgroup often follow each other. */
		if (id == TD_IDLE_CGROUP_ID || id == last)
			continue;
		last = id;
		path = cgroup_names_lookup(names, id);
		if (path)
			cover_one(n, names, path, err);
	}
	if (++n->covers >= K8S_SWEEP_EVERY) {
		n->covers = 0;
		k8s_names_sweep(n);
	}
}
