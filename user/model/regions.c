// SPDX-License-Identifier: GPL-2.0
/* Region specs and region rows: pure (see regions.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/counts.h"
#include "model/regions.h"

int region_key_cmp(const struct td_region_key *a, const struct td_region_key *b)
{
	if (a->region != b->region)
		return a->region < b->region ? -1 : 1;
	return td_key_cmp(&a->task, &b->task);
}

int region_spec_split(const char *spec, char *buf, size_t len, const char **binary,
		      const char **symbol)
{
	size_t n = strlen(spec);
	char *colon;

	if (n >= len)
		return -EINVAL;
	memcpy(buf, spec, n + 1);
	colon = strrchr(buf, ':');
	if (!colon || colon == buf || !colon[1] || strchr(colon + 1, '/'))
		return -EINVAL;
	*colon = '\0';
	*binary = buf;
	*symbol = colon + 1;
	return 0;
}

/* The first row whose key is not below @key. */
static size_t lower_bound(const struct region_set *s, const struct td_region_key *key)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (region_key_cmp(&s->v[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct region_row *region_find(const struct region_set *s, const struct td_region_key *key)
{
	size_t i = lower_bound(s, key);

	return i < s->nr && !region_key_cmp(&s->v[i].key, key) ? &s->v[i] : NULL;
}

struct region_row *region_get(struct region_set *s, const struct td_region_key *key)
{
	size_t i = lower_bound(s, key);

	if (i < s->nr && !region_key_cmp(&s->v[i].key, key))
		return &s->v[i];
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct region_row *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	memmove(&s->v[i + 1], &s->v[i], (s->nr - i) * sizeof(*s->v));
	s->nr++;
	memset(&s->v[i], 0, sizeof(s->v[i]));
	s->v[i].key = *key;
	return &s->v[i];
}

void region_remove(struct region_set *s, const struct td_region_key *key)
{
	size_t i = lower_bound(s, key);

	if (i == s->nr || region_key_cmp(&s->v[i].key, key))
		return;
	memmove(&s->v[i], &s->v[i + 1], (s->nr - i - 1) * sizeof(*s->v));
	s->nr--;
}

int region_set_add(struct region_set *acc, const struct region_set *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		struct region_row *r = region_get(acc, &d->v[i].key);

		if (!r)
			return -ENOMEM;
		td_counts_add(&r->c, &d->v[i].c, TD_WIDTH_WHOLE);
		r->calls += d->v[i].calls;
		r->name = d->v[i].name;
		r->tgid = d->v[i].tgid;
		memcpy(r->comm, d->v[i].comm, sizeof(r->comm));
	}
	return 0;
}

int region_read_half(struct region_set *seen, struct region_set *delta,
		     const struct td_region_key *key, const struct region_val_read *val,
		     unsigned int closed)
{
	const struct td_counts *now = &val->c[closed & 1];
	struct region_row *was = region_get(seen, key), *d;
	struct td_counts diff;
	__u64 calls;

	if (!was)
		return -ENOMEM;
	td_counts_sub(now, &was->c, &diff, TD_WIDTH_WHOLE);
	calls = val->calls[closed & 1] - was->calls;
	was->c = *now;
	was->calls = val->calls[closed & 1];
	if (!calls && td_counts_equal(&diff, &(struct td_counts){ 0 }, TD_WIDTH_WHOLE))
		return 0;
	d = region_get(delta, key);
	if (!d)
		return -ENOMEM;
	td_counts_add(&d->c, &diff, TD_WIDTH_WHOLE);
	d->calls += calls;
	d->tgid = val->tgid;
	memcpy(d->comm, val->comm, sizeof(d->comm));
	return 0;
}

void region_set_clear(struct region_set *s)
{
	s->nr = 0;
}

void region_set_free(struct region_set *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
