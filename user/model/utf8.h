/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UTF-8 well-formedness, for the outputs that must carry names from the
 * system (cgroup paths, process names: any bytes) as valid UTF-8: JSON
 * strings and Prometheus label values. Pure.
 */
#ifndef TD_UTF8_H
#define TD_UTF8_H

#include <stddef.h>

/* U+FFFD REPLACEMENT CHARACTER, what a byte of no valid sequence becomes. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * Length of the valid UTF-8 sequence starting at @s (at most @n bytes
 * available), or 0 if the bytes there do not start one. Follows the table
 * of well-formed byte sequences in the Unicode standard (3.9, D92), which
 * rules out overlongs, surrogates and code points above U+10FFFF.
 */
size_t utf8_seq_len(const unsigned char *s, size_t n);

#endif /* TD_UTF8_H */
