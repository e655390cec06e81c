// SPDX-License-Identifier: GPL-2.0
/*
 * CPU names for messages. The model numbers are the kernel's
 * (arch/x86/include/asm/intel-family.h; the Zen ranges of bsp_init_amd()
 * in arch/x86/kernel/cpu/amd.c).
 */
#include <stddef.h>
#include <string.h>
#include "model/cpu_name.h"

struct model_range {
	int family, lo, hi;   /* cpu family; models lo..hi */
	int step_lo, step_hi; /* steppings; both 0: any */
	const char *name;
};

static const struct model_range intel[] = {
	{ 6, 0x3c, 0x3c, 0, 0, "Haswell" },
	{ 6, 0x45, 0x46, 0, 0, "Haswell" },
	{ 6, 0x3f, 0x3f, 0, 0, "Haswell-EP" },
	{ 6, 0x3d, 0x3d, 0, 0, "Broadwell" },
	{ 6, 0x47, 0x47, 0, 0, "Broadwell" },
	{ 6, 0x4f, 0x4f, 0, 0, "Broadwell-EP" },
	{ 6, 0x56, 0x56, 0, 0, "Broadwell-DE" },
	{ 6, 0x4e, 0x4e, 0, 0, "Skylake" },
	{ 6, 0x5e, 0x5e, 0, 0, "Skylake" },
	/* One model number, three server generations, told apart by stepping. */
	{ 6, 0x55, 0x55, 0, 4, "Skylake-SP" },
	{ 6, 0x55, 0x55, 5, 7, "Cascade Lake-SP" },
	{ 6, 0x55, 0x55, 10, 11, "Cooper Lake" },
	{ 6, 0x8e, 0x8e, 0, 0, "Kaby Lake/Coffee Lake" },
	{ 6, 0x9e, 0x9e, 0, 9, "Kaby Lake" },
	{ 6, 0x9e, 0x9e, 10, 13, "Coffee Lake" },
	{ 6, 0xa5, 0xa6, 0, 0, "Comet Lake" },
	{ 6, 0x66, 0x66, 0, 0, "Cannon Lake" },
	{ 6, 0x7d, 0x7e, 0, 0, "Ice Lake" },
	{ 6, 0x6a, 0x6a, 0, 0, "Ice Lake-SP" },
	{ 6, 0x6c, 0x6c, 0, 0, "Ice Lake-D" },
	{ 6, 0x8c, 0x8d, 0, 0, "Tiger Lake" },
	{ 6, 0xa7, 0xa7, 0, 0, "Rocket Lake" },
	{ 6, 0x8a, 0x8a, 0, 0, "Lakefield" },
	{ 6, 0x97, 0x97, 0, 0, "Alder Lake" },
	{ 6, 0x9a, 0x9a, 0, 0, "Alder Lake" },
	{ 6, 0xbe, 0xbe, 0, 0, "Alder Lake-N" },
	{ 6, 0xb7, 0xb7, 0, 0, "Raptor Lake" },
	{ 6, 0xba, 0xba, 0, 0, "Raptor Lake" },
	{ 6, 0xbf, 0xbf, 0, 0, "Raptor Lake" },
	{ 6, 0xd7, 0xd7, 0, 0, "Bartlett Lake" },
	{ 6, 0x8f, 0x8f, 0, 0, "Sapphire Rapids" },
	{ 6, 0xcf, 0xcf, 0, 0, "Emerald Rapids" },
	{ 6, 0xad, 0xad, 0, 0, "Granite Rapids" },
	{ 6, 0xae, 0xae, 0, 0, "Granite Rapids-D" },
	{ 6, 0xaa, 0xaa, 0, 0, "Meteor Lake" },
	{ 6, 0xac, 0xac, 0, 0, "Meteor Lake" },
	{ 6, 0xbd, 0xbd, 0, 0, "Lunar Lake" },
	{ 6, 0xb5, 0xb5, 0, 0, "Arrow Lake" },
	{ 6, 0xc5, 0xc6, 0, 0, "Arrow Lake" },
	{ 6, 0xcc, 0xcc, 0, 0, "Panther Lake" },
	{ 6, 0x5c, 0x5c, 0, 0, "Goldmont" },
	{ 6, 0x7a, 0x7a, 0, 0, "Goldmont Plus" },
	{ 6, 0x86, 0x86, 0, 0, "Snow Ridge" },
	{ 6, 0x96, 0x96, 0, 0, "Elkhart Lake" },
	{ 6, 0x9c, 0x9c, 0, 0, "Jasper Lake" },
	{ 6, 0xaf, 0xaf, 0, 0, "Sierra Forest" },
	{ 6, 0xb6, 0xb6, 0, 0, "Grand Ridge" },
	{ 6, 0xdd, 0xdd, 0, 0, "Clearwater Forest" },
	{ 18, 0x01, 0x01, 0, 0, "Nova Lake" },
	{ 18, 0x03, 0x03, 0, 0, "Nova Lake" },
	{ 19, 0x01, 0x01, 0, 0, "Diamond Rapids" },
};

static const struct model_range amd[] = {
	{ 0x17, 0x00, 0x2f, 0, 0, "Zen/Zen+" }, { 0x17, 0x50, 0x5f, 0, 0, "Zen/Zen+" },
	{ 0x17, 0x30, 0x4f, 0, 0, "Zen 2" },	{ 0x17, 0x60, 0x7f, 0, 0, "Zen 2" },
	{ 0x17, 0x90, 0x91, 0, 0, "Zen 2" },	{ 0x17, 0xa0, 0xaf, 0, 0, "Zen 2" },
	{ 0x19, 0x00, 0x0f, 0, 0, "Zen 3" },	{ 0x19, 0x20, 0x5f, 0, 0, "Zen 3" },
	{ 0x19, 0x10, 0x1f, 0, 0, "Zen 4" },	{ 0x19, 0x60, 0xaf, 0, 0, "Zen 4" },
	{ 0x1a, 0x00, 0x2f, 0, 0, "Zen 5" },	{ 0x1a, 0x40, 0x4f, 0, 0, "Zen 5" },
	{ 0x1a, 0x60, 0x7f, 0, 0, "Zen 5" },	{ 0x1a, 0x50, 0x5f, 0, 0, "Zen 6" },
	{ 0x1a, 0x80, 0xaf, 0, 0, "Zen 6" },	{ 0x1a, 0xc0, 0xcf, 0, 0, "Zen 6" },
};

static const struct model_range hygon[] = {
	{ 0x18, 0x00, 0xff, 0, 0, "Dhyana (Zen)" },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *lookup(const struct model_range *r, size_t n, int family, int model,
			  int stepping)
{
	for (size_t i = 0; i < n; i++) {
		if (r[i].family != family || model < r[i].lo || model > r[i].hi)
			continue;
		if (r[i].step_lo || r[i].step_hi) {
			if (stepping < r[i].step_lo || stepping > r[i].step_hi)
				continue;
		}
		return r[i].name;
	}
	return NULL;
}

const char *cpu_vendor_short(const char *vendor)
{
	if (!strcmp(vendor, "GenuineIntel"))
		return "Intel";
	if (!strcmp(vendor, "AuthenticAMD"))
		return "AMD";
	if (!strcmp(vendor, "HygonGenuine"))
		return "Hygon";
	return vendor;
}

const char *cpu_codename(const char *vendor, int family, int model, int stepping)
{
	if (!strcmp(vendor, "GenuineIntel"))
		return lookup(intel, ARRAY_LEN(intel), family, model, stepping);
	if (!strcmp(vendor, "AuthenticAMD"))
		return lookup(amd, ARRAY_LEN(amd), family, model, stepping);
	if (!strcmp(vendor, "HygonGenuine"))
		return lookup(hygon, ARRAY_LEN(hygon), family, model, stepping);
	return NULL;
}
