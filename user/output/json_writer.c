// SPDX-License-Identifier: GPL-2.0
/* JSON value writers: always produce valid JSON, whatever the input bytes. */
#include <math.h>
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

void json_write_string(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	fputc('"', f);
	while (p && i < len) {
		unsigned char c = p[i];

		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, f);
			} else {
				n = utf8_seq_len(p + i, len - i);
				if (n == 0) {
					/* Resume at the next byte. */
					fputs("\\ufffd", f);
				} else {
					fwrite(p + i, 1, n, f);
					i += n;
					continue;
				}
			}
			break;
		}
		i++;
	}
	fputc('"', f);
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
			fputc(*p, f);
			in_point = 0;
		} else if (!in_point) {
			fputc('.', f);
			in_point = 1;
		}
	}
}

void json_write_double(FILE *f, double v)
{
	char buf[64];
	int prec;

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
	put_number(f, buf);
}

void json_write_fixed(FILE *f, double v, int decimals)
{
	/* DBL_MAX has 309 integer digits. */
	char buf[400];
	int n;

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 40)
		decimals = 40;
	n = snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		json_write_double(f, v);
		return;
	}
	put_number(f, buf);
}
