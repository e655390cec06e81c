// SPDX-License-Identifier: GPL-2.0
/*
 * A PMU's description as sysfs writes it: format/ fields, events/ strings,
 * cpu lists, the type file, /proc/cpuinfo lines. Parsing and encoding
 * only, no file is read here (host/pmu.c reads them).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/pmu_desc.h"

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* Length of @s[0..len) without trailing white space. */
static size_t trim_end(const char *s, size_t len)
{
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return len;
}

/*
 * Parse all of [s, end) as one unsigned number: decimal, or hex with 0x if
 * @hex. No sign, no blanks (strtoull alone would take both).
 */
static int parse_num(const char *s, const char *end, bool hex, __u64 *val)
{
	char tmp[32], *stop;
	size_t len = end - s;
	int base = 10;

	if (len == 0 || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (hex && len > 2 && tmp[0] == '0' && (tmp[1] == 'x' || tmp[1] == 'X'))
		base = 16;
	if (!isxdigit((unsigned char)tmp[base == 16 ? 2 : 0]))
		return -EINVAL;
	errno = 0;
	*val = strtoull(tmp, &stop, base);
	if (errno || *stop)
		return -EINVAL;
	return 0;
}

/*
 * Step through a comma-separated list in [*p, end): the next item, blanks
 * around it trimmed, goes to [*start, *stop). False when the list is done.
 */
static bool next_item(const char **p, const char *end, const char **start, const char **stop)
{
	const char *s = *p, *comma;

	if (!s)
		return false;
	comma = memchr(s, ',', end - s);
	*p = comma ? comma + 1 : NULL;
	if (!comma)
		comma = end;
	while (s < comma && isspace((unsigned char)*s))
		s++;
	*start = s;
	*stop = s + trim_end(s, comma - s);
	return true;
}

/* Set bits lo..hi inclusive (hi - lo + 1 may be 64). */
static __u64 bit_range(unsigned int lo, unsigned int hi)
{
	return (~0ULL >> (63 - hi)) & (~0ULL << lo);
}

/* "lo-hi" or "n" in [s, end) into @lo, @hi. */
static int parse_range(const char *s, const char *end, bool hex, __u64 *lo, __u64 *hi)
{
	const char *dash = memchr(s, '-', end - s);

	if (parse_num(s, dash ? dash : end, hex, lo))
		return -EINVAL;
	*hi = *lo;
	if (dash && parse_num(dash + 1, end, hex, hi))
		return -EINVAL;
	return *lo > *hi ? -EINVAL : 0;
}

int pmu_parse_format(const char *text, struct pmu_format_field *field)
{
	const char *p = skip_space(text), *colon, *end, *start, *stop;
	__u64 mask = 0, lo, hi;
	size_t wlen;
	int word;

	colon = strchr(p, ':');
	if (!colon)
		return -EINVAL;
	wlen = colon - p;
	if (wlen == 6 && !strncmp(p, "config", 6))
		word = 0;
	else if (wlen == 7 && !strncmp(p, "config1", 7))
		word = 1;
	else if (wlen == 7 && !strncmp(p, "config2", 7))
		word = 2;
	else
		return -EINVAL;

	p = colon + 1;
	end = p + trim_end(p, strlen(p));
	while (next_item(&p, end, &start, &stop)) {
		if (parse_range(start, stop, false, &lo, &hi) || hi > 63)
			return -EINVAL;
		mask |= bit_range(lo, hi);
	}
	field->word = word;
	field->mask = mask;
	return 0;
}

static const struct pmu_format_field *find_field(const struct pmu_format *format, const char *name,
						 size_t len)
{
	int i;

	for (i = 0; i < format->nr; i++) {
		const struct pmu_format_field *f = &format->field[i];

		if (strlen(f->name) == len && !strncmp(f->name, name, len))
			return f;
	}
	return NULL;
}

/* Spread the low bits of @val over the set bits of @mask, lowest first. */
static int deposit(__u64 val, __u64 mask, __u64 *out)
{
	__u64 res = 0, bit;

	for (bit = 1; bit && mask; bit <<= 1) {
		if (!(mask & bit))
			continue;
		if (val & 1)
			res |= bit;
		val >>= 1;
		mask &= ~bit;
	}
	if (val)
		return -EINVAL;
	*out = res;
	return 0;
}

int pmu_encode_event(const char *text, const struct pmu_format *format, struct pmu_event *ev,
		     char *err, size_t errlen)
{
	const char *p = skip_space(text), *end = p + trim_end(p, strlen(p)), *start, *stop;

	memset(ev, 0, sizeof(*ev));
	if (p == end) {
		snprintf(err, errlen, "empty event string");
		return -EINVAL;
	}
	while (next_item(&p, end, &start, &stop)) {
		const char *eq = memchr(start, '=', stop - start);
		const struct pmu_format_field *f;
		int nlen = (eq ? eq : stop) - start;
		__u64 val = 1, bits;

		if (nlen == 0) {
			snprintf(err, errlen, "empty term in event string");
			return -EINVAL;
		}
		f = find_field(format, start, nlen);
		if (!f) {
			snprintf(err, errlen, "unknown term '%.*s' (not in the PMU's format/)",
				 nlen, start);
			return -EINVAL;
		}
		if (eq && parse_num(eq + 1, stop, true, &val)) {
			snprintf(err, errlen, "bad value '%.*s' for term '%s'",
				 (int)(stop - eq - 1), eq + 1, f->name);
			return -EINVAL;
		}
		if (deposit(val, f->mask, &bits)) {
			snprintf(err, errlen, "value 0x%llx does not fit term '%s' (%d bits)",
				 (unsigned long long)val, f->name, __builtin_popcountll(f->mask));
			return -EINVAL;
		}
		/* A repeated term replaces the earlier value. */
		ev->config[f->word] = (ev->config[f->word] & ~f->mask) | bits;
	}
	ev->present = true;
	return 0;
}

int pmu_parse_cpu_list(const char *text, bool *cpus, int max)
{
	const char *p = skip_space(text), *end = p + trim_end(p, strlen(p)), *start, *stop;
	__u64 lo, hi, c;
	int count = 0;

	memset(cpus, 0, max * sizeof(*cpus));
	/* The kernel prints an empty mask as an empty line. */
	if (p == end)
		return 0;
	while (next_item(&p, end, &start, &stop)) {
		if (parse_range(start, stop, false, &lo, &hi) || hi >= (__u64)max)
			goto fail;
		for (c = lo; c <= hi; c++) {
			count += !cpus[c];
			cpus[c] = true;
		}
	}
	return count;
fail:
	memset(cpus, 0, max * sizeof(*cpus));
	return -EINVAL;
}

int pmu_format_cpu_list(const bool *cpus, int max, char *buf, size_t size)
{
	size_t len = 0;
	int n = 0;

	buf[0] = '\0';
	for (int lo = 0; lo < max; lo++) {
		int hi = lo;

		if (!cpus[lo])
			continue;
		while (hi + 1 < max && cpus[hi + 1])
			hi++;
		len += snprintf(buf + len, len < size ? size - len : 0,
				hi > lo ? "%s%d-%d" : "%s%d", n ? "," : "", lo, hi);
		n += hi - lo + 1;
		lo = hi;
	}
	return len < size ? n : -ENOSPC;
}

/* Copy the value of "key<blanks>: value" into @out if @line has @key. */
bool pmu_cpuinfo_value(const char *line, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key), vlen;
	const char *p;

	if (strncmp(line, key, klen))
		return false;
	p = line + klen;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return false;
	p = skip_space(p + 1);
	vlen = trim_end(p, strlen(p));
	snprintf(out, size, "%.*s", (int)vlen, p);
	return true;
}

int pmu_parse_type(const char *text, __u32 *type)
{
	__u64 v;

	if (parse_num(text, text + trim_end(text, strlen(text)), false, &v) || v > 0xffffffffULL)
		return -EINVAL;
	*type = v;
	return 0;
}

const struct pmu_named_event *core_pmu_event(const struct core_pmu *p, const char *name)
{
	for (int i = 0; i < p->nr_events; i++)
		if (!strcmp(p->events[i].name, name))
			return &p->events[i];
	return NULL;
}

unsigned long long pmu_midr(unsigned int implementer, unsigned int variant, unsigned int part,
			    unsigned int revision)
{
	return (unsigned long long)(implementer & 0xff) << 24 | (variant & 0xf) << 20 | 0xf << 16 |
	       (part & 0xfff) << 4 | (revision & 0xf);
}
