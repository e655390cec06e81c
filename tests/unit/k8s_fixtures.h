/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime state files in tests/fixtures/k8s (tests run from the
 * repository root), for test_k8s_meta and test_k8s_state. Include after
 * cmocka.h.
 */
#ifndef K8S_FIXTURES_H
#define K8S_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>

#define FIXTURES "tests/fixtures/k8s/"
#define UID	 "6e0c2f4a-8b1d-4c3e-9f5a-7d2b1e0c3a94" /* every fixture's pod */

/* Fixture @name's bytes, malloc'ed and not NUL-terminated (the parser takes a length). */
static inline char *fixture_load(const char *name, size_t *len)
{
	char path[256];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), FIXTURES "%s", name);
	f = fopen(path, "re");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#endif /* K8S_FIXTURES_H */
