// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/json.c: every output must parse as JSON (jansson);
 * a cgroup line's Kubernetes names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include <jansson.h>

#include "output/json.h"
#include "output/json_writer.h"
#include "tdtrace.h"
#include "k8s_report.h"

static const char fffd[] = "\xef\xbf\xbd";

/* Output of one json_write_* call, NUL-terminated; caller frees. */
struct out {
	char *buf;
	size_t len;
	FILE *f;
};

static void out_open(struct out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	assert_non_null(o->f);
}

static void out_close(struct out *o)
{
	assert_int_equal(fclose(o->f), 0);
	assert_non_null(o->buf);
	/* The writers never emit NUL bytes themselves. */
	assert_int_equal(strlen(o->buf), o->len);
}

static char *render_string(const char *s, size_t len)
{
	struct out o;

	out_open(&o);
	json_write_string(o.f, s, len);
	out_close(&o);
	return o.buf;
}

static char *render_cstring(const char *s, size_t max)
{
	struct out o;

	out_open(&o);
	json_write_cstring(o.f, s, max);
	out_close(&o);
	return o.buf;
}

static char *render_double(double v)
{
	struct out o;

	out_open(&o);
	json_write_double(o.f, v);
	out_close(&o);
	return o.buf;
}

static char *render_fixed(double v, int decimals)
{
	struct out o;

	out_open(&o);
	json_write_fixed(o.f, v, decimals);
	out_close(&o);
	return o.buf;
}

static json_t *parse(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);

	if (!j)
		fail_msg("not JSON: '%s': %s at %d", text, err.text, err.position);
	return j;
}

/* Parse @text as a JSON string and check it decodes to exactly @want/@want_len. */
static void assert_json_string(const char *text, const char *want, size_t want_len)
{
	json_t *j = parse(text);

	assert_true(json_is_string(j));
	assert_int_equal(json_string_length(j), want_len);
	assert_memory_equal(json_string_value(j), want, want_len);
	json_decref(j);
}

/* Encode @s, parse the output and compare with @want. */
static void check_string(const char *s, size_t len, const char *want, size_t want_len)
{
	char *text = render_string(s, len);

	assert_json_string(text, want, want_len);
	free(text);
}

/* Encode @s and compare the raw output text. */
static void check_text(const char *s, size_t len, const char *want_text)
{
	char *text = render_string(s, len);

	assert_string_equal(text, want_text);
	free(text);
}

/*
 * Independent reference for the expected decoded string: decode the code
 * point arithmetically and reject overlong, surrogate and out-of-range
 * values, replacing the lead byte with U+FFFD and resuming at the next byte.
 * Returns the number of bytes written to @dst (at most 3 * @len).
 */
static size_t reference_decode(const unsigned char *s, size_t len, char *dst)
{
	size_t i = 0, o = 0, n, k;
	uint32_t cp, min;

	while (i < len) {
		unsigned char c = s[i];

		if (c < 0x80) {
			dst[o++] = c;
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0) {
			n = 2, cp = c & 0x1f, min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			n = 3, cp = c & 0x0f, min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			n = 4, cp = c & 0x07, min = 0x10000;
		} else {
			goto bad;
		}
		if (i + n > len)
			goto bad;
		for (k = 1; k < n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				goto bad;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			goto bad;
		memcpy(dst + o, s + i, n);
		o += n;
		i += n;
		continue;
	bad:
		memcpy(dst + o, fffd, 3);
		o += 3;
		i++;
	}
	return o;
}

static void test_each_byte_alone(void **state)
{
	int b;

	for (b = 0; b < 256; b++) {
		char in = (char)b;

		if (b < 0x80)
			check_string(&in, 1, &in, 1);
		else
			check_string(&in, 1, fffd, 3);
	}
}

static void test_all_bytes_in_one_string(void **state)
{
	char in[256], want[128 + 128 * 3];
	int b;

	for (b = 0; b < 256; b++)
		in[b] = (char)b;
	/*
	 * 0x00-0x7f come back as they are. No byte >= 0x80 starts a valid
	 * sequence here: 0x80-0xbf are stray continuations, 0xc0-0xf4 are
	 * followed by another lead byte, 0xf5-0xff are never valid.
	 */
	for (b = 0; b < 128; b++)
		want[b] = (char)b;
	for (b = 0; b < 128; b++)
		memcpy(want + 128 + 3 * b, fffd, 3);
	check_string(in, sizeof(in), want, sizeof(want));
}

static void test_escapes_exact(void **state)
{
	check_text("", 0, "\"\"");
	check_text("plain", 5, "\"plain\"");
	check_text("a\"b", 3, "\"a\\\"b\"");
	check_text("a\\b", 3, "\"a\\\\b\"");
	check_text("\b\f\n\r\t", 5, "\"\\b\\f\\n\\r\\t\"");
	check_text("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"");
	check_text("/", 1, "\"/\"");
	check_text("\x80", 1, "\"\\ufffd\"");
}

static void test_quotes_backslash(void **state)
{
	const char s[] = "\"\\\"\\\\\"x\\";

	check_string(s, sizeof(s) - 1, s, sizeof(s) - 1);
}

static void test_embedded_nul(void **state)
{
	const char s[] = "a\0b";
	char *text = render_string(s, 3);

	assert_string_equal(text, "\"a\\u0000b\"");
	assert_json_string(text, s, 3);
	free(text);
}

static void test_comm_control_chars(void **state)
{
	/* A full 16-byte comm, no NUL terminator, every kind of trouble. */
	const char comm[TD_COMM_LEN] = {
		'k',  '\x1b', '[',    '3',    '1',    'm',    '\t',   '"',
		'\\', '\n',   '\x7f', '\x01', '\xff', '\xc3', '\xa9', 'z'
	};
	const char want[] = "k\x1b[31m\t\"\\\n\x7f\x01\xef\xbf\xbd\xc3\xa9z";
	char *text;

	text = render_cstring(comm, sizeof(comm));
	assert_json_string(text, want, sizeof(want) - 1);
	free(text);

	/* The same bytes as a counted string. */
	check_string(comm, sizeof(comm), want, sizeof(want) - 1);
}

static void test_cstring_stops(void **state)
{
	const char s[] = "abc\0def";
	char *text;

	text = render_cstring(s, sizeof(s));
	assert_string_equal(text, "\"abc\"");
	free(text);

	text = render_cstring("abcdef", 4);
	assert_string_equal(text, "\"abcd\"");
	free(text);

	text = render_cstring("abc", 0);
	assert_string_equal(text, "\"\"");
	free(text);

	/* Cutting a multi-byte sequence at max leaves an invalid byte. */
	text = render_cstring("a\xc3\xa9", 2);
	assert_json_string(text, "a\xef\xbf\xbd", 4);
	free(text);
}

static void test_valid_utf8_roundtrip(void **state)
{
	static const char *const cases[] = {
		"\xc2\x80",		    /* U+0080, smallest 2-byte */
		"\xc3\xa9t\xc3\xa9",	    /* été */
		"\xdf\xbf",		    /* U+07FF */
		"\xe0\xa0\x80",		    /* U+0800, smallest 3-byte */
		"\xe2\x82\xac",		    /* € */
		"\xed\x9f\xbf",		    /* U+D7FF, just below surrogates */
		"\xee\x80\x80",		    /* U+E000, just above */
		"\xef\xbf\xbd",		    /* U+FFFD itself */
		"\xef\xbf\xbf",		    /* U+FFFF */
		"\xe6\x97\xa5\xe6\x9c\xac", /* 日本 */
		"\xf0\x90\x80\x80",	    /* U+10000, smallest 4-byte */
		"\xf0\x9f\x98\x80",	    /* 😀 */
		"\xf4\x8f\xbf\xbf",	    /* U+10FFFF, largest */
		"\xe2\x80\xa8",		    /* U+2028 line separator */
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = strlen(cases[i]);
		char *text = render_string(cases[i], len);

		/* Valid UTF-8 is written as is, not as \u escapes. */
		assert_int_equal(strlen(text), len + 2);
		assert_memory_equal(text + 1, cases[i], len);
		assert_json_string(text, cases[i], len);
		free(text);
	}
}

static void test_invalid_utf8_replaced(void **state)
{
	/* Overlong '/': both bytes are invalid (0xc0 never leads, 0xaf stray). */
	check_string("\xc0\xaf", 2, "\xef\xbf\xbd\xef\xbf\xbd", 6);
	/* Overlong 3-byte NUL. */
	check_string("\xe0\x80\x80", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 9);
	/* Overlong 4-byte U+FFFF. */
	check_string("\xf0\x8f\xbf\xbf", 4, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 12);
	/* Surrogate U+D800: three replacements. */
	check_string("\xed\xa0\x80", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 9);
	/* Surrogate U+DFFF. */
	check_string("\xed\xbf\xbf", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 9);
	/* U+110000, above the last code point. */
	check_string("\xf4\x90\x80\x80", 4, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 12);
	/* Truncated € at the end of the string. */
	check_string("\xe2\x82", 2, "\xef\xbf\xbd\xef\xbf\xbd", 6);
	/* Truncated € followed by ASCII: resume at the next byte. */
	check_string("\xe2\x82x", 3, "\xef\xbf\xbd\xef\xbf\xbdx", 7);
	/* Invalid lead then a valid sequence: the valid one survives. */
	check_string("\xff\xc3\xa9", 3, "\xef\xbf\xbd\xc3\xa9", 5);
	/* A lead byte followed by a new lead byte. */
	check_string("\xc3\xc3\xa9", 3, "\xef\xbf\xbd\xc3\xa9", 5);
	/* Stray continuation bytes. */
	check_string("a\x80\xbf", 3, "a\xef\xbf\xbd\xef\xbf\xbd", 7);
	/* 5- and 6-byte forms do not exist. */
	check_string("\xf8\x88\x80\x80\x80", 5,
		     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 15);
	/* Length cuts a valid sequence: the bytes past len are not read. */
	check_string("\xe2\x82\xac", 2, "\xef\xbf\xbd\xef\xbf\xbd", 6);
}

/* Random strings biased towards UTF-8-ish bytes, against the reference. */
static void test_random_against_reference(void **state)
{
	static const unsigned char pool[] = { 0x00, 0x01, 0x1f, '"',  '\\', 'a',  0x7f, 0x80,
					      0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2,
					      0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0,
					      0xf1, 0xf3, 0xf4, 0xf5, 0xff, '\n' };
	unsigned int seed = 12345;
	unsigned char in[24];
	char want[3 * sizeof(in)];
	int iter;
	size_t len, i, want_len;

	for (iter = 0; iter < 20000; iter++) {
		seed = seed * 1103515245 + 12345;
		len = (seed >> 16) % (sizeof(in) + 1);
		for (i = 0; i < len; i++) {
			seed = seed * 1103515245 + 12345;
			in[i] = pool[(seed >> 16) % sizeof(pool)];
		}
		want_len = reference_decode(in, len, want);
		check_string((const char *)in, len, want, want_len);
	}
}

static void check_null(double v)
{
	char *text = render_double(v);

	assert_string_equal(text, "null");
	free(text);
	text = render_fixed(v, 2);
	assert_string_equal(text, "null");
	free(text);
}

static void test_double_nonfinite(void **state)
{
	check_null(NAN);
	check_null(-NAN);
	check_null(INFINITY);
	check_null(-INFINITY);
}

/* Output is a JSON number, contains no inf/nan, and strtod's back to @v. */
static char *check_double(double v)
{
	char *text = render_double(v), *end;
	json_t *j = parse(text);
	double back;

	assert_true(json_is_number(j));
	json_decref(j);
	assert_null(strpbrk(text, "inINaA"));
	back = strtod(text, &end);
	assert_int_equal(*end, '\0');
	assert_true(back == v);
	assert_int_equal(!!signbit(back), !!signbit(v));
	return text;
}

static void test_double_roundtrip(void **state)
{
	static const double vals[] = { 0.0,
				       1.0,
				       -1.0,
				       0.5,
				       1.0 / 3.0,
				       2.0 / 3.0,
				       100.0,
				       1e-5,
				       1e21,
				       1e22,
				       4.35,
				       0.3,
				       DBL_MAX,
				       -DBL_MAX,
				       DBL_MIN,
				       DBL_EPSILON,
				       9007199254740993.0,
				       5e-324,
				       123.456e-200 };
	size_t i;
	char *text;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		/* 5e-324 is subnormal: jansson would reject the underflow. */
		if (fpclassify(vals[i]) == FP_SUBNORMAL) {
			char *end;

			text = render_double(vals[i]);
			assert_true(strtod(text, &end) == vals[i]);
			assert_int_equal(*end, '\0');
		} else {
			text = check_double(vals[i]);
		}
		free(text);
	}

	text = check_double(0.1);
	assert_string_equal(text, "0.1"); /* shortest, not 0.10000000000000001 */
	free(text);
	text = check_double(1e300);
	assert_string_equal(text, "1e+300");
	free(text);
	text = check_double(-0.0);
	assert_string_equal(text, "-0");
	free(text);
	text = check_double(123456789012345678.0);
	free(text);
	text = check_double(0.1 + 0.2); /* needs 17 digits */
	assert_string_equal(text, "0.30000000000000004");
	free(text);
	text = check_double(42.0);
	assert_string_equal(text, "42");
	free(text);
}

static void test_fixed(void **state)
{
	char *text;
	json_t *j;

	text = render_fixed(12.3456, 1);
	assert_string_equal(text, "12.3");
	free(text);
	text = render_fixed(12.3456, 2);
	assert_string_equal(text, "12.35");
	free(text);
	text = render_fixed(99.999, 2);
	assert_string_equal(text, "100.00");
	free(text);
	text = render_fixed(7.6, 0);
	assert_string_equal(text, "8");
	free(text);
	text = render_fixed(0.0, 2);
	assert_string_equal(text, "0.00");
	free(text);

	/* -0.0 and tiny negatives round to "-0.00": still valid JSON. */
	text = render_fixed(-0.001, 2);
	j = parse(text);
	assert_true(json_is_number(j));
	assert_true(json_number_value(j) == 0.0);
	json_decref(j);
	free(text);

	/* Huge values are long but still valid numbers, not truncated. */
	text = render_fixed(1e300, 2);
	j = parse(text);
	assert_true(json_is_number(j));
	assert_true(json_number_value(j) == 1e300);
	json_decref(j);
	free(text);
	text = render_fixed(-DBL_MAX, 2);
	j = parse(text);
	assert_true(json_is_number(j));
	assert_true(json_number_value(j) == -DBL_MAX);
	json_decref(j);
	free(text);

	/* Out-of-range decimals do not break the output. */
	text = render_fixed(1.5, -3);
	j = parse(text);
	assert_true(json_is_number(j));
	json_decref(j);
	free(text);
}

/* A tiny PRNG, so that the values are the same in every run. */
static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The fast paths write what printf writes: %.Nf digits, and integers as %.15g does. */
static void test_fast_numbers_match_printf(void **state)
{
	static const double edges[] = { 0.005,	0.015, 0.125,	2.675,	 1.005,	  99.995,
					-0.005, -2.5,  0.49999, 1e9 - 1, 1e9 + 1, 12345.675 };
	static const unsigned long long ints[] = { 0, 1, 9, 10, 99, 100, 18446744073709551615ULL };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char want[400], *text;

	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		struct out o;

		out_open(&o);
		json_write_u64(o.f, ints[i]);
		out_close(&o);
		snprintf(want, sizeof(want), "%llu", ints[i]);
		assert_string_equal(o.buf, want);
		free(o.buf);
	}
	/* Every power of ten and its neighbours, then random widths: two digits at a time. */
	for (int k = 0; k < 20000; k++) {
		unsigned long long v = next_rand(&x) >> (k % 64);
		struct out o;

		if (k < 60) {
			v = 1;
			for (int e = 0; e < k / 3; e++)
				v *= 10;
			v += (unsigned long long)(k % 3) - 1;
		}
		out_open(&o);
		json_write_u64(o.f, v);
		out_close(&o);
		snprintf(want, sizeof(want), "%llu", v);
		assert_string_equal(o.buf, want);
		free(o.buf);
	}
	for (int k = 0; k < 200000; k++) {
		int decimals = k % 7;
		double v;

		if (k < (int)(sizeof(edges) / sizeof(edges[0])))
			v = edges[k];
		else if (k % 3 == 0) /* percentages, ties at every 1/200 among them */
			v = (double)(next_rand(&x) % 2000001) / 20000.0 - 50.0;
		else
			v = (double)(int64_t)next_rand(&x) / 9.2e18 * pow(10, (double)(k % 15));
		text = render_fixed(v, decimals);
		snprintf(want, sizeof(want), "%.*f", decimals, v);
		assert_string_equal(text, want);
		free(text);
		/* Whole numbers below 1e15 skip printf in json_write_double. */
		v = trunc(fmod(v * 1e6, 1e15));
		text = render_double(v);
		snprintf(want, sizeof(want), "%.15g", v);
		assert_string_equal(text, want);
		free(text);
	}
}

/*
 * The cgroup lines of output_json(@k's report), each parsed as tdtrace
 * report reads them (jansson, duplicate keys refused), into @v.
 */
static size_t cgroup_lines(struct k8s_report *k, json_t **v, size_t max)
{
	struct out o;
	size_t nr = 0;

	out_open(&o);
	output_json(o.f, &k->r);
	out_close(&o);
	for (char *line = o.buf, *nl; *line; line = nl + 1) {
		json_error_t err;
		json_t *j;

		nl = strchr(line, '\n');
		assert_non_null(nl);
		j = json_loadb(line, nl - line, JSON_REJECT_DUPLICATES, &err);
		if (!j)
			fail_msg("not JSON: %s: %.*s", err.text, (int)(nl - line), line);
		if (strcmp(json_string_value(json_object_get(j, "type")), "cgroup")) {
			json_decref(j);
			continue;
		}
		assert_true(nr < max);
		v[nr++] = j;
	}
	free(o.buf);
	return nr;
}

/* The line whose @key is the string @want, or whose "cgroup_id" is @id if @key is NULL. */
static json_t *line_of(json_t **v, size_t nr, const char *key, const char *want, __u64 id)
{
	for (size_t i = 0; i < nr; i++) {
		json_t *got = json_object_get(v[i], key ? key : "cgroup_id");

		if (key ? json_is_string(got) && !strcmp(json_string_value(got), want)
			: (__u64)json_integer_value(got) == id)
			return v[i];
	}
	fail_msg("no cgroup line with %s %s", key ? key : "cgroup_id", key ? want : "");
	return NULL;
}

static const char *field(json_t *line, const char *key)
{
	json_t *v = json_object_get(json_object_get(line, "container"), key);

	if (!json_is_string(v))
		fail_msg("container.%s is not a string", key);
	return json_string_value(v);
}

static bool sandbox(json_t *line)
{
	json_t *v = json_object_get(json_object_get(line, "container"), "sandbox");

	assert_true(json_is_boolean(v));
	return json_is_true(v);
}

static void lines_free(json_t **v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		json_decref(v[i]);
}

/* --containers: the container object's Kubernetes names, "" when it has none. */
static void test_k8s_container_object(void **state)
{
	struct k8s_report k;
	json_t *v[16], *o;
	size_t nr;

	(void)state;
	kr_build(&k, true, true, GROUP_CONTAINER, "shop", "api");
	nr = cgroup_lines(&k, v, 16);
	assert_int_equal(nr, 6);
	o = line_of(v, nr, NULL, NULL, KR_ID_NGINX);
	assert_string_equal(json_string_value(json_object_get(o, "label")), "shop/web/nginx");
	assert_string_equal(field(o, "kind"), "containerd");
	assert_string_equal(field(o, "id"), KR_CA);
	assert_string_equal(field(o, "pod_uid"), KR_UID1);
	assert_string_equal(field(o, "qos"), "burstable");
	assert_string_equal(field(o, "namespace"), "shop");
	assert_string_equal(field(o, "pod"), "web");
	assert_string_equal(field(o, "name"), "nginx");
	assert_false(sandbox(o));

	o = line_of(v, nr, NULL, NULL, KR_ID_SANDBOX);
	assert_string_equal(json_string_value(json_object_get(o, "label")), "shop/web/POD");
	assert_string_equal(field(o, "name"), "POD");
	assert_true(sandbox(o));

	o = line_of(v, nr, NULL, NULL, KR_ID_WEB); /* the pod's own cgroup */
	assert_string_equal(json_string_value(json_object_get(o, "label")), "shop/web");
	assert_string_equal(field(o, "kind"), "pod");
	assert_string_equal(field(o, "namespace"), "shop");
	assert_string_equal(field(o, "pod"), "web");
	assert_string_equal(field(o, "name"), "");
	assert_false(sandbox(o));

	o = line_of(v, nr, NULL, NULL, KR_ID_APP);
	assert_string_equal(json_string_value(json_object_get(o, "label")), "shop/api/app");

	o = line_of(v, nr, NULL, NULL, KR_ID_SSHD); /* not Kubernetes */
	assert_string_equal(json_string_value(json_object_get(o, "label")), "unit:sshd.service");
	assert_string_equal(field(o, "namespace"), "");
	assert_string_equal(field(o, "pod"), "");
	assert_string_equal(field(o, "name"), "");
	assert_false(sandbox(o));
	lines_free(v, nr);
	kr_free(&k);
}

/* --group-by: a rolled-up row is no cgroup ("cgroup": null), named by its pod or namespace. */
static void test_k8s_rolled_up(void **state)
{
	struct k8s_report k;
	json_t *v[16], *o;
	size_t nr;

	(void)state;
	kr_build(&k, false, true, GROUP_POD, "shop", "api");
	nr = cgroup_lines(&k, v, 16);
	assert_int_equal(nr, 4); /* idle, sshd, web, api */
	o = line_of(v, nr, "label", "shop/web", 0);
	assert_true(json_is_null(json_object_get(o, "cgroup")));
	assert_null(json_object_get(o, "depth"));
	assert_true((__u64)json_integer_value(json_object_get(o, "cgroup_id")) & K8S_GROUP_ID_BIT);
	assert_false(json_is_true(json_object_get(o, "idle")));
	assert_string_equal(field(o, "kind"), "pod");
	assert_string_equal(field(o, "pod_uid"), KR_UID1);
	assert_string_equal(field(o, "namespace"), "shop");
	assert_string_equal(field(o, "pod"), "web");
	assert_string_equal(field(o, "name"), "");
	assert_false(sandbox(o));
	/* web's own cgroup, nginx and the sandbox: 3 + 4 + 5 thousand slots */
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "counts"), "slots")),
			 12000);
	o = line_of(v, nr, NULL, NULL, KR_ID_SSHD);
	assert_string_equal(json_string_value(json_object_get(o, "cgroup")), KR_SSHD);
	lines_free(v, nr);
	kr_free(&k);

	kr_build(&k, true, true, GROUP_NAMESPACE, "shop", "api");
	nr = cgroup_lines(&k, v, 16);
	assert_int_equal(nr, 3); /* idle, sshd, shop */
	o = line_of(v, nr, "label", "shop", 0);
	assert_true(json_is_null(json_object_get(o, "cgroup")));
	assert_string_equal(field(o, "kind"), "none");
	assert_string_equal(field(o, "namespace"), "shop");
	assert_string_equal(field(o, "pod"), "");
	assert_string_equal(field(o, "pod_uid"), "");
	assert_string_equal(field(o, "name"), "");
	lines_free(v, nr);
	kr_free(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_byte_alone),
		cmocka_unit_test(test_all_bytes_in_one_string),
		cmocka_unit_test(test_escapes_exact),
		cmocka_unit_test(test_quotes_backslash),
		cmocka_unit_test(test_embedded_nul),
		cmocka_unit_test(test_comm_control_chars),
		cmocka_unit_test(test_cstring_stops),
		cmocka_unit_test(test_valid_utf8_roundtrip),
		cmocka_unit_test(test_invalid_utf8_replaced),
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_double_nonfinite),
		cmocka_unit_test(test_double_roundtrip),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_fast_numbers_match_printf),
		cmocka_unit_test(test_k8s_container_object),
		cmocka_unit_test(test_k8s_rolled_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
