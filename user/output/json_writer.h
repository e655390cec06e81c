/* SPDX-License-Identifier: GPL-2.0 */
/* JSON value writers: always produce valid JSON, whatever the input bytes. */
#ifndef TD_JSON_H
#define TD_JSON_H

#include <stddef.h>
#include <stdio.h>

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
