// SPDX-License-Identifier: GPL-2.0
/*
 * Roll per-cgroup charges up into rows. Each charge is a contribution to
 * its owner row (self and sum) and to every ancestor row (sum only); the
 * contributions are sorted by path and merged, so the cost is a sort, not
 * a search per ancestor.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/array.h"
#include "model/cgroup_rows.h"
#include "model/decode.h"

struct contribution {
	const char *path; /* not NUL-terminated at len: a prefix of a sample's path */
	size_t len;
	const struct cgroup_sample *sample;
	bool self;
	const struct container *label; /* containers mode */
};

int cgroup_path_depth(const char *path)
{
	int depth = 0;

	for (const char *p = path; *p; p++)
		depth += *p == '/' && p[1] && p[1] != '/';
	return depth;
}

/* Length of the prefix of @path at @depth components ("/a/b/c", 1 -> "/a"). */
static size_t prefix_at_depth(const char *path, int depth)
{
	size_t i = 0;

	if (depth == 0)
		return 1; /* "/" */
	for (int seen = 0; path[i]; i++) {
		if (path[i] == '/' && i > 0 && ++seen == depth)
			return i;
	}
	return i;
}

static bool at_or_below(const char *path, size_t len, const char *root)
{
	size_t rlen = strlen(root);

	if (!strcmp(root, "/"))
		return true;
	return len >= rlen && !strncmp(path, root, rlen) && (len == rlen || path[rlen] == '/');
}

static bool in_roots(const char *path, size_t len, const struct cgroup_rows_opts *o)
{
	if (!o->nr_roots)
		return true;
	for (int i = 0; i < o->nr_roots; i++)
		if (at_or_below(path, len, o->roots[i]))
			return true;
	return false;
}

static int cmp_contribution(const void *a, const void *b)
{
	const struct contribution *x = a, *y = b;
	size_t min = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->path, y->path, min);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

static int push(struct contribution **v, size_t *nr, size_t *cap, struct contribution c)
{
	if (array_reserve((void **)v, cap, *nr + 1, sizeof(**v)))
		return -ENOMEM;
	(*v)[(*nr)++] = c;
	return 0;
}

/* One sample's contributions: its owner row, then (without --containers) its ancestors. */
static int contribute(const struct cgroup_sample *s, const char *path,
		      const struct cgroup_rows_opts *o, struct container *label,
		      struct contribution **v, size_t *nr, size_t *cap)
{
	size_t owner = strlen(path);
	struct contribution c = { .path = path, .sample = s, .self = true };

	if (o->containers) {
		container_parse(path, label);
		c.len = label->prefix_len;
		c.label = label;
		return push(v, nr, cap, c);
	}
	if (o->depth >= 0 && cgroup_path_depth(path) > o->depth)
		owner = prefix_at_depth(path, o->depth);
	/*
	 * The owner row always (a charge outside every root keeps its own row,
	 * so that nothing charged goes missing), then its ancestors up to the
	 * roots. Rows end without a trailing '/', except "/" itself.
	 */
	for (size_t len = owner; len > 0;) {
		if (!c.self && !in_roots(path, len, o))
			break;
		c.len = len;
		if (push(v, nr, cap, c))
			return -ENOMEM;
		c.self = false;
		if (len == 1)
			break;
		while (len > 1 && path[len - 1] != '/')
			len--;
		if (len > 1)
			len--; /* drop the '/' too, except the root's */
	}
	return 0;
}

/* @r's Kubernetes names; with containers its label shows them. */
static void name_row(struct cgroup_row *r, const struct cgroup_names *names,
		     const struct cgroup_rows_opts *o)
{
	struct container c;

	if (o->containers) {
		r->k8s = k8s_table_find(&names->k8s, &r->label);
		if (r->k8s)
			k8s_format_label(r->k8s, r->label.label, sizeof(r->label.label));
		return;
	}
	if (!container_parse(r->path, &c))
		r->k8s = k8s_table_find(&names->k8s, &c);
}

/* The names a Kubernetes row rolls up to, and their id: FNV-1a of them, cut to K8S_GROUP_ID_BIT. */
static __u64 group_key(const struct k8s_meta *m, enum cgroup_group by, struct k8s_meta *key)
{
	__u64 h = 0xcbf29ce484222325ULL;
	const char *parts[2];

	memset(key, 0, sizeof(*key));
	memcpy(key->namespace, m->namespace, sizeof(key->namespace));
	if (by == GROUP_POD) {
		memcpy(key->pod, m->pod, sizeof(key->pod));
		memcpy(key->pod_uid, m->pod_uid, sizeof(key->pod_uid));
	}
	parts[0] = key->namespace;
	parts[1] = key->pod;
	for (int i = 0; i < 2; i++)
		for (const char *p = parts[i];; p++) {
			h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
			if (!*p)
				break;
		}
	return (h & (K8S_GROUP_ID_BIT - 1)) | K8S_GROUP_ID_BIT;
}

static int cmp_group(const void *a, const void *b)
{
	const struct cgroup_row *x = a, *y = b;
	int c;

	/* Rows without names first, in the order they came (qsort is not stable: by path). */
	if (!x->group != !y->group)
		return x->group ? 1 : -1;
	if (!x->group)
		return x->path && y->path ? strcmp(x->path, y->path)
					  : (x->path != NULL) - (y->path != NULL);
	c = strcmp(x->group->namespace, y->group->namespace);
	return c ? c : strcmp(x->group->pod, y->group->pod);
}

/*
 * --group-by pod or namespace: each Kubernetes row takes its group's names,
 * then rows of one group are summed into the first of them.
 */
static int group_rows(struct cgroup_row *rows, size_t *nr, enum cgroup_group by)
{
	size_t out = 0;

	for (size_t i = 0; i < *nr; i++) {
		struct cgroup_row *r = &rows[i];
		struct k8s_meta key;

		if (!r->k8s)
			continue;
		r->id = group_key(r->k8s, by, &key);
		/* containerd < 1.6.11 does not write the pod's UID: its cgroup's path has it. */
		if (by == GROUP_POD && !key.pod_uid[0])
			memcpy(key.pod_uid, r->label.pod_uid, sizeof(key.pod_uid));
		r->group = malloc(sizeof(*r->group));
		if (!r->group)
			return -ENOMEM;
		*r->group = key;
		r->k8s = r->group;
		free(r->path);
		r->path = NULL;
		r->depth = 0;
		memset(&r->label, 0, sizeof(r->label));
		r->label.kind = by == GROUP_POD ? CONTAINER_POD : CONTAINER_NONE;
		memcpy(r->label.pod_uid, key.pod_uid, sizeof(r->label.pod_uid));
		memcpy(r->label.id, key.pod_uid, sizeof(r->label.pod_uid));
		k8s_format_label(r->group, r->label.label, sizeof(r->label.label));
	}
	qsort(rows, *nr, sizeof(*rows), cmp_group);
	for (size_t i = 0; i < *nr; i++) {
		struct cgroup_row *last = out ? &rows[out - 1] : NULL;

		if (last && last->group && rows[i].group && !cmp_group(last, &rows[i])) {
			td_counts_add(&last->sum, &rows[i].sum, TD_WIDTH_WHOLE);
			td_counts_add(&last->self, &rows[i].self, TD_WIDTH_WHOLE);
			free(rows[i].group);
			continue;
		}
		rows[out++] = rows[i];
	}
	*nr = out;
	return 0;
}

static int add_row(struct cgroup_row **rows, size_t *nr, size_t *cap, struct cgroup_row r)
{
	if (array_reserve((void **)rows, cap, *nr + 1, sizeof(**rows)))
		return -ENOMEM;
	(*rows)[(*nr)++] = r;
	return 0;
}

int cgroup_rows_build(const struct cgroup_sample *v, size_t n, const struct cgroup_names *names,
		      const struct cgroup_rows_opts *o, struct cgroup_row **rows, size_t *nr)
{
	struct contribution *cv = NULL;
	struct container *labels = NULL;
	size_t ncv = 0, capcv = 0, caprows = 0;
	int err = -ENOMEM;

	*rows = NULL;
	*nr = 0;
	labels = calloc(n ? n : 1, sizeof(*labels));
	if (!labels)
		goto fail;

	for (size_t i = 0; i < n; i++) {
		const struct cgroup_sample *s = &v[i];
		const char *path =
			s->id == TD_IDLE_CGROUP_ID ? NULL : cgroup_names_lookup(names, s->id);
		struct cgroup_row r = { .id = s->id, .sum = s->c, .self = s->c };

		/* The idle row and cgroups removed before we could name them stand alone. */
		if (!path) {
			r.idle = s->id == TD_IDLE_CGROUP_ID;
			if (add_row(rows, nr, &caprows, r))
				goto fail;
			continue;
		}
		if (contribute(s, path, o, &labels[i], &cv, &ncv, &capcv))
			goto fail;
	}

	if (ncv) /* cv is NULL when nothing contributed: qsort must not see it */
		qsort(cv, ncv, sizeof(*cv), cmp_contribution);
	for (size_t i = 0; i < ncv;) {
		struct cgroup_row r = { 0 };
		size_t j;

		r.path = strndup(cv[i].path, cv[i].len);
		if (!r.path)
			goto fail;
		r.depth = cgroup_path_depth(r.path);
		/*
		 * The whole struct: a row's few samples are summed once, not read
		 * from the map, so a narrower width would save next to nothing.
		 */
		for (j = i; j < ncv && !cmp_contribution(&cv[i], &cv[j]); j++) {
			td_counts_add(&r.sum, &cv[j].sample->c, TD_WIDTH_WHOLE);
			if (cv[j].self)
				td_counts_add(&r.self, &cv[j].sample->c, TD_WIDTH_WHOLE);
			/* A sample whose own path is the row names the row's id. */
			if (cv[j].len == strlen(cv[j].path))
				r.id = cv[j].sample->id;
			if (cv[j].label)
				r.label = *cv[j].label;
		}
		if (!r.id)
			r.id = cgroup_names_id(names, r.path);
		name_row(&r, names, o);
		if (add_row(rows, nr, &caprows, r)) {
			free(r.path);
			goto fail;
		}
		i = j;
	}
	if (o->containers && o->group_by != GROUP_CONTAINER && group_rows(*rows, nr, o->group_by))
		goto fail;
	err = 0;
fail:
	free(cv);
	free(labels);
	if (err) {
		cgroup_rows_free(*rows, *nr);
		*rows = NULL;
		*nr = 0;
	}
	return err;
}

void cgroup_rows_free(struct cgroup_row *rows, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(rows[i].path);
		free(rows[i].group);
	}
	free(rows);
}
