// SPDX-License-Identifier: GPL-2.0
/* JSON value writers: always produce valid JSON, whatever the input bytes. */
#define _GNU_SOURCE /* fputs_unlocked, fwrite_unlocked */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output/json_writer.h"

/*
 * Length of the valid UTF-8 sequence starting at @s (at most @n bytes
 * available), or 0 if the bytes there do not start one. Follows the table
 * of well-formed byte sequences in the Unicode standard (3.9, D92), which
 * rules out overlongs, surrogates and code points above U+10FFFF.
 */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0; /* overlong below U+0800 */
		else if (c == 0xed)
			hi = 0x9f; /* surrogates U+D800-DFFF */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90; /* overlong below U+10000 */
		else if (c == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
	} else {
		return 0; /* continuation byte, 0xc0, 0xc1, 0xf5-0xff */
	}
	if (n < len)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* Does @c pass through json_write_string unchanged? */
static bool plain_byte(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

void json_write_string(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	putc_unlocked('"', f);
	while (p && i < len) {
		unsigned char c = p[i];

		/* Names and paths are mostly plain ASCII: write each run of it at once. */
		if (plain_byte(c)) {
			n = 1;
			while (i + n < len && plain_byte(p[i + n]))
				n++;
			fwrite_unlocked(p + i, 1, n, f);
			i += n;
			continue;
		}
		switch (c) {
		case '"':
			fputs_unlocked("\\\"", f);
			break;
		case '\\':
			fputs_unlocked("\\\\", f);
			break;
		case '\b':
			fputs_unlocked("\\b", f);
			break;
		case '\f':
			fputs_unlocked("\\f", f);
			break;
		case '\n':
			fputs_unlocked("\\n", f);
			break;
		case '\r':
			fputs_unlocked("\\r", f);
			break;
		case '\t':
			fputs_unlocked("\\t", f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else {
				n = utf8_seq_len(p + i, len - i);
				if (n == 0) {
					/* Resume at the next byte. */
					fputs_unlocked("\\ufffd", f);
				} else {
					fwrite_unlocked(p + i, 1, n, f);
					i += n;
					continue;
				}
			}
			break;
		}
		i++;
	}
	putc_unlocked('"', f);
}

void json_write_cstring(FILE *f, const char *s, size_t max)
{
	json_write_string(f, s, s ? strnlen(s, max) : 0);
}

/*
 * Write the printf output in @buf as a JSON number: keep digits, signs and
 * exponent letters, and turn whatever the locale uses as decimal point into
 * '.'.
 */
static void put_number(FILE *f, const char *buf)
{
	const char *p;
	int in_point = 0;

	for (p = buf; *p; p++) {
		if ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == 'e' || *p == 'E') {
			putc_unlocked(*p, f);
			in_point = 0;
		} else if (!in_point) {
			putc_unlocked('.', f);
			in_point = 1;
		}
	}
}

void json_write_u64(FILE *f, unsigned long long v)
{
	char buf[24];
	char *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

/* Below this, an integral double is printed by %.15g as all its digits. */
#define TD_EXACT_INT 1e15

void json_write_double(FILE *f, double v)
{
	char buf[64];
	int prec;

	if (!isfinite(v)) {
		fputs_unlocked("null", f);
		return;
	}
	/* Counts and scales are mostly whole: the same digits as below, without printf. */
	if (v == floor(v) && fabs(v) < TD_EXACT_INT && !(v == 0 && signbit(v))) {
		if (v < 0)
			putc_unlocked('-', f);
		json_write_u64(f, (unsigned long long)fabs(v));
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
	put_number(f, buf);
}

/*
 * v rounded to @decimals places (at most 6) in integer arithmetic, as
 * %.Nf prints it; false when v is too big or too close to a tie for
 * the product v * 10^N to round the way printf's exact decimal does.
 */
static bool write_fixed_fast(FILE *f, double v, int decimals)
{
	static const double pow10[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };
	char digits[32];
	char *p = digits + sizeof(digits);
	unsigned long long n;
	double scaled;

	if (decimals > 6)
		return false;
	scaled = fabs(v) * pow10[decimals];
	/*
	 * 10^N is exact, so the product is off by at most half an ulp:
	 * scaled * 2^-53. Away from a tie by more than that (and 1e-6), it
	 * rounds as the exact value does. Below 2^52 every integer is exact.
	 */
	if (!(scaled < 0x1p52) || fabs(scaled - floor(scaled) - 0.5) < fmax(1e-6, scaled * 0x1p-52))
		return false;
	n = (unsigned long long)floor(scaled + 0.5);
	for (int i = 0; i < decimals; i++) {
		*--p = (char)('0' + n % 10);
		n /= 10;
	}
	if (decimals)
		*--p = '.';
	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	/* printf keeps the sign of a negative value, even one that rounds to zero. */
	if (signbit(v))
		*--p = '-';
	fwrite_unlocked(p, 1, (size_t)(digits + sizeof(digits) - p), f);
	return true;
}

void json_write_fixed(FILE *f, double v, int decimals)
{
	/* DBL_MAX has 309 integer digits. */
	char buf[400];
	int n;

	if (!isfinite(v)) {
		fputs_unlocked("null", f);
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 40)
		decimals = 40;
	if (write_fixed_fast(f, v, decimals))
		return;
	n = snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		json_write_double(f, v);
		return;
	}
	put_number(f, buf);
}
