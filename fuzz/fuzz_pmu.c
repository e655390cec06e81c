// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the sysfs parsers in user/model/pmu_desc.c (read
 * by user/host/pmu.c). The input, cut at its first NUL, is what a PMU's
 * sysfs file could hold; it is given to all three parsers, since any of these files may be read by any of them on a
 * broken or hostile system:
 *
 * - pmu_parse_cpu_list() (cpus, online). Checks: the count is the number of
 *   CPUs set; pmu_format_cpu_list() writes them back as a list that parses
 *   to the same set and formats to itself (canonical); a short buffer gives
 *   -ENOSPC or the same text, always NUL-terminated inside the buffer.
 * - pmu_parse_format() (format/ files). Checks: the word is 0..2; the field's
 *   all-ones value encodes to exactly its mask; one bit more does not fit.
 * - pmu_encode_event() (events/ strings), against Sapphire Rapids' format/.
 *   Checks: on success only bits of the known fields are set; on failure
 *   there is a reason, NUL-terminated and cut to the buffer given.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host/pmu.h"

#define MAX_INPUT 4096
#define NR_CPUS	  1024

/* tests/fixtures/sysfs/sapphirerapids/.../cpu/format/ */
static const struct {
	const char *name, *spec;
} spr_format[] = {
	{ "event", "config:0-7" },
	{ "umask", "config:8-15" },
	{ "edge", "config:18" },
	{ "pc", "config:19" },
	{ "any", "config:21" },
	{ "inv", "config:23" },
	{ "cmask", "config:24-31" },
	{ "in_tx", "config:32" },
	{ "in_tx_cp", "config:33" },
	{ "ldlat", "config1:0-15" },
	{ "offcore_rsp", "config1:0-63" },
	{ "frontend", "config1:0-23" },
};

static struct pmu_format format;
static __u64 known[3]; /* bits of config, config1, config2 that some field covers */

static void load_format(void)
{
	for (size_t i = 0; i < sizeof(spr_format) / sizeof(spr_format[0]); i++) {
		struct pmu_format_field *f = &format.field[format.nr++];

		if (pmu_parse_format(spr_format[i].spec, f))
			abort();
		snprintf(f->name, sizeof(f->name), "%s", spr_format[i].name);
		known[f->word] |= f->mask;
	}
}

static void check_cpu_list(const char *text)
{
	static bool cpus[NR_CPUS], again[NR_CPUS];
	static char list[NR_CPUS * 6], relist[NR_CPUS * 6];
	char small[8];
	int n, set = 0, m;

	n = pmu_parse_cpu_list(text, cpus, NR_CPUS);
	for (int i = 0; i < NR_CPUS; i++)
		set += cpus[i];
	if (n < 0) {
		assert(set == 0); /* a bad list leaves no CPU behind */
		return;
	}
	assert(n == set);

	assert(pmu_format_cpu_list(cpus, NR_CPUS, list, sizeof(list)) == n);
	assert(pmu_parse_cpu_list(list, again, NR_CPUS) == n);
	assert(!memcmp(cpus, again, sizeof(cpus)));
	assert(pmu_format_cpu_list(again, NR_CPUS, relist, sizeof(relist)) == n);
	assert(!strcmp(list, relist));

	m = pmu_format_cpu_list(cpus, NR_CPUS, small, sizeof(small));
	assert(memchr(small, '\0', sizeof(small)));
	if (strlen(list) < sizeof(small))
		assert(m == n && !strcmp(small, list));
	else
		assert(m == -ENOSPC && !strncmp(small, list, sizeof(small) - 1));
}

static void check_format(const char *text)
{
	struct pmu_format one = { .nr = 1 };
	struct pmu_format_field *f = &one.field[0];
	struct pmu_event ev;
	char spec[64], err[128];
	int bits;

	if (pmu_parse_format(text, f))
		return;
	assert(f->word >= 0 && f->word <= 2);
	strcpy(f->name, "f");
	bits = __builtin_popcountll(f->mask);

	/* All ones fills the mask exactly (an empty mask takes only 0). */
	snprintf(spec, sizeof(spec), "f=0x%llx", bits ? ~0ULL >> (64 - bits) : 0ULL);
	assert(!pmu_encode_event(spec, &one, &ev, err, sizeof(err)));
	assert(ev.config[f->word] == f->mask);
	if (bits < 64) {
		snprintf(spec, sizeof(spec), "f=0x%llx", 1ULL << bits);
		assert(pmu_encode_event(spec, &one, &ev, err, sizeof(err)) == -EINVAL);
	}
}

static void check_event(const char *text)
{
	struct pmu_event ev;
	char err[128], tiny[12];
	int ret;

	ret = pmu_encode_event(text, &format, &ev, err, sizeof(err));
	if (!ret) {
		assert(ev.present);
		for (int w = 0; w < 3; w++)
			assert(!(ev.config[w] & ~known[w]));
		return;
	}
	assert(ret == -EINVAL && !ev.present);
	assert(err[0] && memchr(err, '\0', sizeof(err)));

	/* The same failure, with a reason cut to a small buffer. */
	assert(pmu_encode_event(text, &format, &ev, tiny, sizeof(tiny)) == -EINVAL);
	assert(memchr(tiny, '\0', sizeof(tiny)) && !strncmp(tiny, err, strlen(tiny)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[MAX_INPUT + 1];

	if (size > MAX_INPUT)
		return -1; /* sysfs files are small; longer inputs are not kept */
	if (!format.nr)
		load_format();
	memcpy(text, data, size);
	text[size] = '\0';

	check_cpu_list(text);
	check_format(text);
	check_event(text);
	return 0;
}
