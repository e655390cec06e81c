/* SPDX-License-Identifier: GPL-2.0 */
/* JSON value writers: always produce valid JSON, whatever the input bytes. */
#ifndef TD_JSON_H
#define TD_JSON_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/*
 * A buffer in front of a FILE: JSON lines are written a few bytes at a
 * time (some 120 pieces for a line), and stdio's per-call cost was a
 * third of a JSON run's CPU. Pieces go into buf; jw_flush hands it to the
 * FILE, also whenever it fills up. A report's buffer holds many lines, so
 * that a report costs a few large writes, not one per 8 KB.
 */
struct jw {
	FILE *f;
	char *p;   /* next free byte of buf */
	char *end; /* one past buf's last byte */
	char *buf;
};

static inline void jw_init(struct jw *w, FILE *f, char *buf, size_t size)
{
	w->f = f;
	w->buf = w->p = buf;
	w->end = buf + size;
}

void jw_flush(struct jw *w);

/* More than the buffer holds: flushed, then written straight through. */
void jw_write_long(struct jw *w, const char *s, size_t n);

static inline void jw_write(struct jw *w, const char *s, size_t n)
{
	if (n > (size_t)(w->end - w->p)) {
		if (n > (size_t)(w->end - w->buf) / 2) {
			jw_write_long(w, s, n);
			return;
		}
		jw_flush(w);
	}
	memcpy(w->p, s, n);
	w->p += n;
}

static inline void jw_puts(struct jw *w, const char *s)
{
	jw_write(w, s, strlen(s));
}

static inline void jw_putc(struct jw *w, char c)
{
	if (w->p == w->end)
		jw_flush(w);
	*w->p++ = c;
}

/* The writers below, into a line buffer. */
void jw_string(struct jw *w, const char *s, size_t len);
void jw_cstring(struct jw *w, const char *s, size_t max);
void jw_u64(struct jw *w, unsigned long long v);
void jw_double(struct jw *w, double v);
void jw_fixed(struct jw *w, double v, int decimals);

/*
 * Write @len bytes of @s as a quoted JSON string. Valid UTF-8 passes
 * through; '"' and '\\' are escaped; bytes below 0x20 and 0x7f become
 * \u00XX (with \n \t etc. in short form); each byte that is not part of
 * a valid UTF-8 sequence (including overlongs, surrogates, > U+10FFFF)
 * becomes \ufffd.
 */
void json_write_string(FILE *f, const char *s, size_t len);

/* Like json_write_string for a NUL-terminated string of at most @max bytes. */
void json_write_cstring(FILE *f, const char *s, size_t max);

/* An unsigned integer, without printf. */
void json_write_u64(FILE *f, unsigned long long v);

/* A finite double as a JSON number (shortest round-trip form); NaN and ±inf as null. */
void json_write_double(FILE *f, double v);

/*
 * A double rounded to @decimals places (for percentages), the digits
 * printf's %.Nf gives; non-finite as null.
 */
void json_write_fixed(FILE *f, double v, int decimals);

#endif /* TD_JSON_H */
