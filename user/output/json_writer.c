// SPDX-License-Identifier: GPL-2.0
/* JSON value writers: always produce valid JSON, whatever the input bytes. */
#define _GNU_SOURCE /* fwrite_unlocked */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output/json_writer.h"
#include "model/utf8.h"

/* Does @c pass through json_write_string unchanged? */
static bool plain_byte(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

void jw_string(struct jw *w, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	jw_putc(w, '"');
	while (p && i < len) {
		unsigned char c = p[i];

		/* Names and paths are mostly plain ASCII: write each run of it at once. */
		if (plain_byte(c)) {
			n = 1;
			while (i + n < len && plain_byte(p[i + n]))
				n++;
			jw_write(w, (const char *)p + i, n);
			i += n;
			continue;
		}
		switch (c) {
		case '"':
			jw_puts(w, "\\\"");
			break;
		case '\\':
			jw_puts(w, "\\\\");
			break;
		case '\b':
			jw_puts(w, "\\b");
			break;
		case '\f':
			jw_puts(w, "\\f");
			break;
		case '\n':
			jw_puts(w, "\\n");
			break;
		case '\r':
			jw_puts(w, "\\r");
			break;
		case '\t':
			jw_puts(w, "\\t");
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				{
					char u[8];

					snprintf(u, sizeof(u), "\\u%04x", c);
					jw_write(w, u, 6);
				}
			} else {
				n = utf8_seq_len(p + i, len - i);
				if (n == 0) {
					/* Resume at the next byte. */
					jw_puts(w, "\\ufffd");
				} else {
					jw_write(w, (const char *)p + i, n);
					i += n;
					continue;
				}
			}
			break;
		}
		i++;
	}
	jw_putc(w, '"');
}

void jw_cstring(struct jw *w, const char *s, size_t max)
{
	jw_string(w, s, s ? strnlen(s, max) : 0);
}

/*
 * Write the printf output in @buf as a JSON number: keep digits, signs and
 * exponent letters, and turn whatever the locale uses as decimal point into
 * '.'.
 */
static void put_number(struct jw *w, const char *buf)
{
	const char *p;
	int in_point = 0;

	for (p = buf; *p; p++) {
		if ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == 'e' || *p == 'E') {
			jw_putc(w, *p);
			in_point = 0;
		} else if (!in_point) {
			jw_putc(w, '.');
			in_point = 1;
		}
	}
}

/* "00" to "99": two digits per division, half the divisions of one per digit. */
static const char two_digits[201] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";

void jw_u64(struct jw *w, unsigned long long v)
{
	char buf[24];
	char *p = buf + sizeof(buf);

	while (v >= 100) {
		p -= 2;
		memcpy(p, two_digits + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, two_digits + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	jw_write(w, p, (size_t)(buf + sizeof(buf) - p));
}

/* Below this, an integral double is printed by %.15g as all its digits. */
#define TD_EXACT_INT 1e15

void jw_double(struct jw *w, double v)
{
	char buf[64];
	int prec;

	if (!isfinite(v)) {
		jw_puts(w, "null");
		return;
	}
	/* Counts and scales are mostly whole: the same digits as below, without printf. */
	if (v == floor(v) && fabs(v) < TD_EXACT_INT && !(v == 0 && signbit(v))) {
		if (v < 0)
			jw_putc(w, '-');
		jw_u64(w, (unsigned long long)fabs(v));
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
	put_number(w, buf);
}

/*
 * v rounded to @decimals places (at most 6) in integer arithmetic, as
 * %.Nf prints it; false when v is too big or too close to a tie for
 * the product v * 10^N to round the way printf's exact decimal does.
 */
static bool write_fixed_fast(struct jw *w, double v, int decimals)
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
	jw_write(w, p, (size_t)(digits + sizeof(digits) - p));
	return true;
}

void jw_fixed(struct jw *w, double v, int decimals)
{
	/* DBL_MAX has 309 integer digits. */
	char buf[400];
	int n;

	if (!isfinite(v)) {
		jw_puts(w, "null");
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 40)
		decimals = 40;
	if (write_fixed_fast(w, v, decimals))
		return;
	n = snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		jw_double(w, v);
		return;
	}
	put_number(w, buf);
}

void jw_flush(struct jw *w)
{
	if (w->p > w->buf)
		fwrite_unlocked(w->buf, 1, (size_t)(w->p - w->buf), w->f);
	w->p = w->buf;
}

void jw_write_long(struct jw *w, const char *s, size_t n)
{
	jw_flush(w);
	fwrite_unlocked(s, 1, n, w->f);
}

/* The FILE forms: one buffer's worth at a time, flushed at once. */
#define JW_FILE(call)                                                                              \
	do {                                                                                       \
		char b_[1024];                                                                     \
		struct jw w_;                                                                      \
                                                                                                   \
		jw_init(&w_, f, b_, sizeof(b_));                                                   \
		call;                                                                              \
		jw_flush(&w_);                                                                     \
	} while (0)

void json_write_string(FILE *f, const char *s, size_t len)
{
	JW_FILE(jw_string(&w_, s, len));
}

void json_write_cstring(FILE *f, const char *s, size_t max)
{
	JW_FILE(jw_cstring(&w_, s, max));
}

void json_write_u64(FILE *f, unsigned long long v)
{
	JW_FILE(jw_u64(&w_, v));
}

void json_write_double(FILE *f, double v)
{
	JW_FILE(jw_double(&w_, v));
}

void json_write_fixed(FILE *f, double v, int decimals)
{
	JW_FILE(jw_fixed(&w_, v, decimals));
}
