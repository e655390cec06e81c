// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_discover_all(): the CPU and every core PMU, against the fake roots in
 * tests/fixtures/sysfs, trees made on the fly, and this machine. Expected
 * configs are worked out by hand from the format/ bit ranges (event
 * config:0-7, umask 8-15, edge 18, any 21, inv 23, cmask 24-31, in_tx 32,
 * in_tx_cp 33; AMD event 0-7 and 32-35). Run from the repository root.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host/pmu.h"
#include "model/cpu_name.h"

#define FIXTURES "tests/fixtures/sysfs"

static struct cpu_pmus *discover(const char *root)
{
	struct cpu_pmus *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	assert_int_equal(pmu_discover_all(root, c), 0);
	return c;
}

static const struct core_pmu *pmu(const struct cpu_pmus *c, const char *name)
{
	for (int i = 0; i < c->nr_pmus; i++)
		if (!strcmp(c->pmu[i].name, name))
			return &c->pmu[i];
	fail_msg("no PMU %s", name);
	return NULL;
}

static void assert_cpus(const struct core_pmu *p, int lo, int hi)
{
	assert_int_equal(p->nr_cpus, hi - lo + 1);
	for (int i = 0; i < PMU_MAX_CPUS; i++)
		if (p->cpus[i] != (i >= lo && i <= hi))
			fail_msg("%s: cpu %d is %s", p->name, i, p->cpus[i] ? "in" : "out");
}

static void assert_event(const struct core_pmu *p, const char *name, __u64 config, __u64 config1)
{
	const struct pmu_named_event *ev = core_pmu_event(p, name);

	if (!ev)
		fail_msg("%s: no event %s", p->name, name);
	assert_int_equal(ev->config[0], config);
	assert_int_equal(ev->config[1], config1);
	assert_int_equal(ev->config[2], 0);
}

static void assert_ident(const struct cpu_pmus *c, const char *vendor, int family, int model,
			 int stepping)
{
	assert_string_equal(c->vendor, vendor);
	assert_int_equal(c->family, family);
	assert_int_equal(c->model, model);
	assert_int_equal(c->stepping, stepping);
}

/* slots and topdown-retiring .. -mem-bound: event 0, umask 0x4 and 0x80 .. 0x87. */
static void assert_metrics(const struct core_pmu *p, int nr)
{
	static const char *const names[] = {
		"topdown-retiring",  "topdown-bad-spec",  "topdown-fe-bound",
		"topdown-be-bound",  "topdown-heavy-ops", "topdown-br-mispredict",
		"topdown-fetch-lat", "topdown-mem-bound",
	};

	assert_event(p, "slots", 0x400, 0);
	for (int i = 0; i < 8; i++) {
		if (i < nr)
			assert_event(p, names[i], 0x8000 + (i << 8), 0);
		else
			assert_null(core_pmu_event(p, names[i]));
	}
}

/* --------------------------------------------------------------- fixtures */

static void test_icelake(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/icelake");
	const struct core_pmu *p;

	(void)state;
	assert_ident(c, "GenuineIntel", 6, 0x7e, 5);
	assert_string_equal(c->model_name, "Intel(R) Core(TM) i7-1065G7 CPU @ 1.30GHz");
	assert_false(c->hypervisor);
	assert_true(c->smt_on);
	assert_int_equal(c->nmi_watchdog, 1);
	assert_int_equal(c->nr_pmus, 1);
	assert_string_equal(c->why, "");
	p = pmu(c, "cpu");
	assert_int_equal(p->type, 4);
	assert_cpus(p, 0, 7);
	assert_int_equal(p->format.nr, 12);
	/* 15 event files; the 8 .scale/.unit companions are not events. */
	assert_int_equal(p->nr_events, 15);
	assert_null(core_pmu_event(p, "topdown-retiring.scale"));
	assert_null(core_pmu_event(p, "topdown-retiring.unit"));
	assert_metrics(p, 4);
	/* event=0xcd,umask=0x1,ldlat=3: ldlat is config1:0-15. */
	assert_event(p, "mem-loads", 0x1cd, 3);
	assert_event(p, "ref-cycles", 0x0300, 0);
	free(c);
}

static void test_sapphirerapids(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/sapphirerapids");
	const struct core_pmu *p;

	(void)state;
	assert_ident(c, "GenuineIntel", 6, 0x8f, 8);
	assert_true(c->smt_on);
	assert_int_equal(c->nmi_watchdog, 0);
	assert_int_equal(c->nr_pmus, 1);
	p = pmu(c, "cpu");
	assert_int_equal(p->type, 4);
	assert_cpus(p, 0, 111);
	assert_int_equal(p->nr_events, 19);
	assert_metrics(p, 8);
	free(c);
}

static void test_alderlake(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/alderlake");
	const struct core_pmu *core, *atom;

	(void)state;
	assert_ident(c, "GenuineIntel", 6, 0x97, 2);
	assert_true(c->smt_on);
	assert_int_equal(c->nmi_watchdog, 1);
	assert_int_equal(c->nr_pmus, 2);
	/* Fixed order: cpu, cpu_core, cpu_atom, cpu_lowpower. */
	assert_string_equal(c->pmu[0].name, "cpu_core");
	assert_string_equal(c->pmu[1].name, "cpu_atom");
	core = pmu(c, "cpu_core");
	atom = pmu(c, "cpu_atom");
	assert_int_equal(core->type, 4);
	assert_int_equal(atom->type, 8);
	assert_cpus(core, 0, 15);
	assert_cpus(atom, 16, 23);
	assert_metrics(core, 8);
	/* Gracemont's topdown names are ordinary events: event=0xc2,umask=0x0 etc. */
	assert_event(atom, "topdown-retiring", 0xc2, 0);
	assert_event(atom, "topdown-bad-spec", 0x73, 0);
	assert_event(atom, "topdown-fe-bound", 0x71, 0);
	assert_event(atom, "topdown-be-bound", 0x74, 0);
	assert_null(core_pmu_event(atom, "slots"));
	assert_int_equal(atom->nr_events, 8);
	assert_int_equal(atom->format.nr, 8);
	free(c);
}

static void test_lunarlake(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/lunarlake");
	const struct core_pmu *core, *atom;

	(void)state;
	assert_ident(c, "GenuineIntel", 6, 0xbd, 1);
	assert_false(c->smt_on);
	assert_int_equal(c->nmi_watchdog, 1);
	assert_int_equal(c->nr_pmus, 2);
	core = pmu(c, "cpu_core");
	atom = pmu(c, "cpu_atom");
	assert_int_equal(core->type, 4);
	assert_int_equal(atom->type, 8);
	assert_cpus(core, 0, 3);
	assert_cpus(atom, 4, 7);
	/* slots and all 8 metrics on the P-cores. */
	assert_metrics(core, 8);
	/* Skymont: retiring 0xc2/0x02, fe 0x9c/0x01, be 0xa4/0x02, bad-spec 0x73/0x0. */
	assert_event(atom, "topdown-retiring", 0x02c2, 0);
	assert_event(atom, "topdown-fe-bound", 0x019c, 0);
	assert_event(atom, "topdown-be-bound", 0x02a4, 0);
	assert_event(atom, "topdown-bad-spec", 0x73, 0);
	assert_event(atom, "mem-loads", 0x05d0, 3);
	assert_null(core_pmu_event(atom, "slots"));
	assert_null(core_pmu_event(atom, "topdown-heavy-ops"));
	free(c);
}

static void test_meteorlake(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/meteorlake");
	const struct core_pmu *core, *atom;

	(void)state;
	assert_ident(c, "GenuineIntel", 6, 0xaa, 4);
	assert_true(c->smt_on);
	assert_int_equal(c->nmi_watchdog, 0);
	assert_int_equal(c->nr_pmus, 2);
	core = pmu(c, "cpu_core");
	atom = pmu(c, "cpu_atom");
	assert_cpus(core, 0, 11);
	assert_cpus(atom, 12, 21);
	assert_metrics(core, 8);
	assert_event(atom, "topdown-retiring", 0xc2, 0);
	assert_event(atom, "topdown-fe-bound", 0x71, 0);
	assert_event(atom, "topdown-be-bound", 0x74, 0);
	free(c);
}

/* Skylake-era names with SMT: the "any=1" (bit 21) variants. */
static void assert_skl_topdown_ht(const struct core_pmu *p)
{
	assert_event(p, "topdown-total-slots", 0x20003c, 0);
	assert_event(p, "topdown-slots-issued", 0x010e, 0);
	assert_event(p, "topdown-slots-retired", 0x02c2, 0);
	assert_event(p, "topdown-fetch-bubbles", 0x019c, 0);
	/* event 0xd, umask 0x3, cmask 1 (bit 24), any (bit 21) */
	assert_event(p, "topdown-recovery-bubbles", 0x0120030d, 0);
	assert_null(core_pmu_event(p, "slots"));
	assert_null(core_pmu_event(p, "topdown-retiring"));
	assert_null(core_pmu_event(p, "topdown-total-slots.scale"));
}

static void test_skylake(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/skylake");
	const struct core_pmu *p;

	(void)state;
	assert_ident(c, "GenuineIntel", 6, 0x5e, 3);
	assert_true(c->smt_on);
	assert_int_equal(c->nmi_watchdog, 1);
	assert_int_equal(c->nr_pmus, 1);
	p = pmu(c, "cpu");
	assert_int_equal(p->type, 4);
	assert_cpus(p, 0, 7);
	/* 8 generic + tx-start, cycles-t, cycles-ct + mem-loads, mem-stores + 5 topdown. */
	assert_int_equal(p->nr_events, 18);
	assert_skl_topdown_ht(p);
	/* cycles-ct: event 0x3c, in_tx (32), in_tx_cp (33). */
	assert_event(p, "cycles-ct", 0x30000003cULL, 0);
	assert_event(p, "mem-stores", 0x82d0, 0);
	free(c);
}

static void test_skylakex(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/skylakex");

	(void)state;
	assert_ident(c, "GenuineIntel", 6, 0x55, 4);
	assert_int_equal(c->nr_pmus, 1);
	assert_cpus(pmu(c, "cpu"), 0, 79);
	assert_skl_topdown_ht(pmu(c, "cpu"));
	free(c);
}

static void test_cascadelakex(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/cascadelakex");
	const struct core_pmu *p;

	(void)state;
	/* Same model as Skylake-SP; stepping 7 tells it apart. */
	assert_ident(c, "GenuineIntel", 6, 0x55, 7);
	assert_false(c->smt_on);
	assert_int_equal(c->nmi_watchdog, 0);
	p = pmu(c, "cpu");
	assert_cpus(p, 0, 39);
	/* One thread per core: no any=1. */
	assert_event(p, "topdown-total-slots", 0x3c, 0);
	assert_event(p, "topdown-recovery-bubbles", 0x0100030d, 0);
	free(c);
}

static void test_icelakex(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/icelakex");
	const struct core_pmu *p;

	(void)state;
	assert_ident(c, "GenuineIntel", 6, 0x6a, 6);
	assert_true(c->smt_on);
	p = pmu(c, "cpu");
	assert_int_equal(p->type, 4);
	assert_cpus(p, 0, 159);
	assert_metrics(p, 4);
	free(c);
}

static void assert_amd_cpu(const struct core_pmu *p, int last_cpu)
{
	const struct pmu_format_field *event = NULL;
	struct pmu_event ev;
	char err[128];

	assert_string_equal(p->name, "cpu");
	assert_int_equal(p->type, 4);
	assert_cpus(p, 0, last_cpu);
	assert_int_equal(p->format.nr, 5);
	for (int i = 0; i < p->format.nr; i++)
		if (!strcmp(p->format.field[i].name, "event"))
			event = &p->format.field[i];
	assert_non_null(event);
	assert_int_equal(event->mask, 0xf000000ffULL);
	assert_int_equal(p->nr_events, 8);
	assert_event(p, "cpu-cycles", 0x76, 0);
	/* event=0x64,umask=0x09 */
	assert_event(p, "cache-misses", 0x0964, 0);
	/* event=0x120,umask=0x01: 0x20 in bits 0-7, 0x1 in bits 32-35, umask in 8-15. */
	assert_event(p, "ref-cycles", 0x100000120ULL, 0);
	/* The 12-bit event select spreads over both ranges: 0xa0 low, 0x1 at bit 32. */
	assert_int_equal(pmu_encode_event("event=0x1a0", &p->format, &ev, err, sizeof(err)), 0);
	assert_int_equal(ev.config[0], 0x1000000a0ULL);
	/* ...and a 13th bit does not fit. */
	assert_int_equal(pmu_encode_event("event=0x1000", &p->format, &ev, err, sizeof(err)),
			 -EINVAL);
}

static void test_amdzen4(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/amdzen4");

	(void)state;
	assert_ident(c, "AuthenticAMD", 0x19, 0x11, 1);
	assert_string_equal(c->model_name, "AMD EPYC 9124 16-Core Processor");
	assert_false(c->hypervisor);
	assert_true(c->smt_on);
	assert_int_equal(c->nmi_watchdog, 1);
	/* ibs_op and amd_df are no core PMUs. */
	assert_int_equal(c->nr_pmus, 1);
	assert_amd_cpu(&c->pmu[0], 31);
	free(c);
}

static void test_amdzen4_nowatchdog(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/amdzen4-nowatchdog");

	(void)state;
	assert_ident(c, "AuthenticAMD", 0x19, 0x11, 1);
	assert_int_equal(c->nmi_watchdog, 0);
	assert_int_equal(c->nr_pmus, 1);
	assert_amd_cpu(&c->pmu[0], 31);
	free(c);
}

static void test_amdzen5(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/amdzen5");

	(void)state;
	assert_ident(c, "AuthenticAMD", 0x1a, 0x02, 1);
	assert_int_equal(c->nmi_watchdog, 1);
	assert_int_equal(c->nr_pmus, 1);
	assert_amd_cpu(&c->pmu[0], 127);
	free(c);
}

/*
 * The fixtures of the rows taken from perf v7.3 (and of Panther Lake and
 * Nova Lake, which perf has no TopDown metrics for): each machine's
 * identity, its core PMUs and their CPUs, SMT and the watchdog.
 */
static void test_added_fixtures(void **state)
{
	static const struct {
		const char *fixture, *vendor;
		int family, model, stepping;
		const char *pmu; /* the first core PMU */
		int last_cpu, nr_pmus;
		bool smt;
		int watchdog;
	} m[] = {
		{ "haswell", "GenuineIntel", 6, 0x3c, 3, "cpu", 7, 1, true, 1 },
		{ "haswellx", "GenuineIntel", 6, 0x3f, 2, "cpu", 71, 1, true, 1 },
		{ "broadwell", "GenuineIntel", 6, 0x3d, 4, "cpu", 3, 1, true, 1 },
		{ "broadwellx", "GenuineIntel", 6, 0x4f, 1, "cpu", 87, 1, true, 0 },
		{ "broadwellde", "GenuineIntel", 6, 0x56, 3, "cpu", 7, 1, false, 1 },
		{ "sierraforest", "GenuineIntel", 6, 0xaf, 3, "cpu", 143, 1, false, 1 },
		{ "grandridge", "GenuineIntel", 6, 0xb6, 1, "cpu", 23, 1, false, 0 },
		{ "alderlaken", "GenuineIntel", 6, 0xbe, 0, "cpu", 3, 1, false, 1 },
		{ "amdzen6", "AuthenticAMD", 0x1a, 0x50, 0, "cpu", 127, 1, true, 1 },
		{ "pantherlake", "GenuineIntel", 6, 0xcc, 1, "cpu_core", 3, 2, false, 1 },
		{ "novalake", "GenuineIntel", 18, 0x01, 1, "cpu_core", 3, 2, false, 1 },
	};
	char root[256];

	(void)state;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct cpu_pmus *c;
		const struct core_pmu *p;

		snprintf(root, sizeof(root), FIXTURES "/%s", m[i].fixture);
		c = discover(root);
		assert_ident(c, m[i].vendor, m[i].family, m[i].model, m[i].stepping);
		assert_int_equal(c->nr_pmus, m[i].nr_pmus);
		assert_int_equal(c->smt_on, m[i].smt);
		assert_int_equal(c->nmi_watchdog, m[i].watchdog);
		p = pmu(c, m[i].pmu);
		assert_cpus(p, 0, m[i].last_cpu);
		free(c);
	}
}

/* The E-core-only parts' own topdown-* strings, one core PMU "cpu" (kernel core.c). */
static void test_ecore_only_events(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/sierraforest");
	const struct core_pmu *p = pmu(c, "cpu");

	(void)state;
	/* cmt_events_attrs: retiring event 0x72, bad-spec 0x73 (umask 0). */
	assert_event(p, "topdown-retiring", 0x72, 0);
	assert_event(p, "topdown-bad-spec", 0x73, 0);
	assert_null(core_pmu_event(p, "slots"));
	free(c);
	c = discover(FIXTURES "/alderlaken");
	p = pmu(c, "cpu");
	/* tnt_events_attrs: retiring event 0xc2, bad-spec 0x73 umask 0x6. */
	assert_event(p, "topdown-retiring", 0xc2, 0);
	assert_event(p, "topdown-bad-spec", 0x0673, 0);
	free(c);
	/* Haswell-EP: Skylake's hsw_events_attrs strings, SMT on. */
	c = discover(FIXTURES "/haswellx");
	assert_skl_topdown_ht(pmu(c, "cpu"));
	free(c);
}

/*
 * arm64: the core PMUs named armv8_* with their cpus, each one's MIDR
 * (regs/identification/midr_el1, or /proc/cpuinfo's CPU implementer,
 * variant, part and revision) and its caps/slots; on DynamIQ parts a PMU
 * per cluster, each with its own MIDR.
 */
static void test_arm64(void **state)
{
	static const struct {
		const char *fixture, *pmu;
		int first_cpu, last_cpu, nr_pmus;
		unsigned long long midr;
		unsigned int slots;
		int watchdog;
	} m[] = {
		/* MIDR from /proc/cpuinfo only: N2 r0p2 */
		{ "neoverse-n2-v2", "armv8_pmuv3_0", 0, 7, 1, 0x410fd492, 5, 0 },
		/* from midr_el1: V1 r1p1 */
		{ "neoverse-v1", "armv8_pmuv3_0", 0, 15, 1, 0x411fd401, 8, 1 },
		{ "neoverse-n3", "armv8_pmuv3_0", 0, 7, 1, 0x410fd8e0, 5, 0 },
		{ "neoverse-v3", "armv8_pmuv3_0", 0, 7, 1, 0x410fd830, 10, 0 },
		{ "t410", "armv8_pmuv3_0", 0, 7, 1, 0x4e0f0100, 10, 1 },
		{ "hip08", "armv8_pmuv3_0", 0, 7, 1, 0x480fd010, 0, 0 }, /* no caps/slots */
		{ "cortex-a78", "armv8_cortex_a55", 0, 3, 2, 0x412fd050, 0, 0 },
		{ "cortex-a78", "armv8_cortex_a78", 4, 7, 2, 0x411fd410, 4, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		char root[256];
		struct cpu_pmus *c = discover((snprintf(root, sizeof(root), FIXTURES "/%s",
							m[i].fixture),
					       root));
		const struct core_pmu *p = pmu(c, m[i].pmu);

		assert_int_equal(c->nr_pmus, m[i].nr_pmus);
		assert_false(c->smt_on);
		assert_int_equal(c->nmi_watchdog, m[i].watchdog);
		assert_cpus(p, m[i].first_cpu, m[i].last_cpu);
		if (p->midr != m[i].midr)
			fail_msg("%s %s: MIDR 0x%llx, expected 0x%llx", m[i].fixture, m[i].pmu,
				 p->midr, m[i].midr);
		assert_int_equal(p->slots, m[i].slots);
		assert_non_null(core_pmu_event(p, "cpu_cycles"));
		assert_int_equal(core_pmu_event(p, "cpu_cycles")->config[0], 0x11);
		free(c);
	}
	/* cpuinfo's fields make the MIDR (architecture 0xf), as midr_el1 holds it */
	assert_int_equal(pmu_midr(0x41, 0x1, 0xd40, 1), 0x411fd401);
	assert_int_equal(pmu_midr(0xc0, 0x0, 0xac3, 0), 0xc00fac30);
}

/* This project's build machine: a 2-CPU KVM guest on Zen 5 without a virtual PMU. */
static void test_vm(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/vm");

	(void)state;
	assert_ident(c, "AuthenticAMD", 26, 2, 1);
	assert_string_equal(c->model_name, "AMD EPYC");
	assert_true(c->hypervisor);
	assert_false(c->smt_on);
	assert_int_equal(c->nmi_watchdog, 0);
	assert_int_equal(c->nr_pmus, 0);
	print_message("vm: %s\n", c->why);
	assert_non_null(strstr(c->why, "AMD family 0x1a model 0x02 (Zen 5) guest"));
	assert_non_null(strstr(c->why, FIXTURES "/vm/sys/bus/event_source/devices/cpu)"));
	assert_non_null(strstr(c->why, "pmu=on"));
	assert_null(strchr(c->why, '\n'));
	free(c);
}

/* "" and a trailing slash are the same root; no "//" in messages. */
static void test_root_spelling(void **state)
{
	struct cpu_pmus *c = discover(FIXTURES "/vm/");

	(void)state;
	assert_non_null(strstr(c->why, FIXTURES "/vm/sys/bus"));
	assert_null(strstr(c->why, "//"));
	free(c);
}

static void test_missing_root(void **state)
{
	struct cpu_pmus *c = calloc(1, sizeof(*c));

	(void)state;
	assert_non_null(c);
	assert_int_equal(pmu_discover_all(FIXTURES "/no-such-machine", c), -ENOENT);
	/* A directory without sys/bus/event_source/devices is no system root. */
	assert_int_equal(pmu_discover_all(FIXTURES, c), -ENOENT);
	assert_int_equal(c->nr_pmus, 0);
	assert_true(pmu_discover_all(FIXTURES "/README.md", c) < 0);
	free(c);
}

/* Only what holds on any Linux machine. */
static void test_this_machine(void **state)
{
	struct cpu_pmus *c = discover("/"), *d = discover("");

	(void)state;
	print_message("this machine: %s family %d model %d, %d core PMU(s)%s%s\n", c->vendor,
		      c->family, c->model, c->nr_pmus, c->nr_pmus ? "" : ": ", c->why);
	assert_true(c->vendor[0] != '\0');
	assert_true(c->nr_pmus > 0 || c->why[0] != '\0');
	for (int i = 0; i < c->nr_pmus; i++)
		assert_true(c->pmu[i].nr_cpus > 0);
	/* "" means "/". */
	assert_string_equal(d->vendor, c->vendor);
	assert_int_equal(d->nr_pmus, c->nr_pmus);
	free(d);
	free(c);
}

/* ------------------------------------------------------ trees made here */

struct tree {
	char root[64];
};

static void put(struct tree *t, const char *rel, const char *text)
{
	char path[PATH_MAX], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	for (p = path + strlen(t->root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("failed to mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	assert_int_equal(fclose(f), 0);
}

static void drop(struct tree *t, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	assert_int_equal(unlink(path), 0);
}

static void move(struct tree *t, const char *from, const char *to)
{
	char a[PATH_MAX], b[PATH_MAX];

	snprintf(a, sizeof(a), "%s/%s", t->root, from);
	snprintf(b, sizeof(b), "%s/%s", t->root, to);
	assert_int_equal(rename(a, b), 0);
}

#define DEV "sys/bus/event_source/devices/"

/* A "cpu" PMU with two format fields and one event; CPUs 0-3 online. */
static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	strcpy(t->root, "/tmp/tdtrace-disc-XXXXXX");
	if (!mkdtemp(t->root))
		return -1;
	put(t, DEV "cpu/type", "4");
	put(t, DEV "cpu/format/event", "config:0-7");
	put(t, DEV "cpu/format/umask", "config:8-15");
	put(t, DEV "cpu/events/cpu-cycles", "event=0x3c");
	put(t, "sys/devices/system/cpu/online", "0-3");
	*state = t;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	int err = nftw(t->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);

	free(t);
	return err;
}

/* No cpuinfo, no smt, no watchdog file: unknown, and no error. */
static void test_tree_minimal(void **state)
{
	struct cpu_pmus *c = discover(((struct tree *)*state)->root);

	assert_ident(c, "", -1, -1, -1);
	assert_false(c->hypervisor);
	assert_false(c->smt_on);
	assert_int_equal(c->nmi_watchdog, -1);
	assert_int_equal(c->nr_pmus, 1);
	assert_cpus(&c->pmu[0], 0, 3);
	assert_int_equal(c->pmu[0].nr_events, 1);
	assert_event(&c->pmu[0], "cpu-cycles", 0x3c, 0);
	free(c);
}

static void test_tree_events_that_do_not_encode(void **state)
{
	struct tree *t = *state;
	struct cpu_pmus *c;
	char rel[256];

	put(t, DEV "cpu/events/unknown-term", "event=0x3c,period=1000");
	put(t, DEV "cpu/events/too-wide", "event=0x3c,umask=0x100");
	put(t, DEV "cpu/events/empty", "");
	put(t, DEV "cpu/events/garbage", "event=0xzz");
	put(t, DEV "cpu/events/cpu-cycles.scale", "2");
	put(t, DEV "cpu/events/instructions", "event=0xc0");
	/* A name longer than struct pmu_named_event holds is left out, not cut. */
	snprintf(rel, sizeof(rel), DEV "cpu/events/%070d", 0);
	put(t, rel, "event=0x1");
	c = discover(t->root);
	assert_int_equal(c->nr_pmus, 1);
	assert_int_equal(c->pmu[0].nr_events, 2);
	/* In name order. */
	assert_string_equal(c->pmu[0].events[0].name, "cpu-cycles");
	assert_string_equal(c->pmu[0].events[1].name, "instructions");
	assert_event(&c->pmu[0], "instructions", 0xc0, 0);
	assert_null(core_pmu_event(&c->pmu[0], "too-wide"));
	free(c);
}

static void test_tree_hybrid(void **state)
{
	struct tree *t = *state;
	struct cpu_pmus *c;
	const struct core_pmu *p;

	/* No "cpu" on a hybrid machine: three PMUs, and CPU 2 offline. */
	move(t, DEV "cpu", DEV "cpu_core");
	put(t, DEV "cpu_core/cpus", "0-1");
	put(t, DEV "cpu_atom/type", "10");
	put(t, DEV "cpu_atom/format/event", "config:0-7");
	put(t, DEV "cpu_atom/cpus", "2-3");
	put(t, DEV "cpu_lowpower/type", "11");
	put(t, DEV "cpu_lowpower/format/event", "config:0-7");
	put(t, DEV "cpu_lowpower/cpus", "4-5");
	put(t, "sys/devices/system/cpu/online", "0-1,3-5");
	c = discover(t->root);
	assert_int_equal(c->nr_pmus, 3);
	assert_string_equal(c->pmu[0].name, "cpu_core");
	assert_string_equal(c->pmu[1].name, "cpu_atom");
	assert_string_equal(c->pmu[2].name, "cpu_lowpower");
	assert_cpus(pmu(c, "cpu_core"), 0, 1);
	p = pmu(c, "cpu_atom");
	assert_int_equal(p->type, 10);
	assert_cpus(p, 3, 3);
	assert_int_equal(p->nr_events, 0); /* no events/ at all */
	p = pmu(c, "cpu_lowpower");
	assert_int_equal(p->type, 11);
	assert_cpus(p, 4, 5);
	free(c);

	/* A hybrid PMU must say which CPUs it has. */
	drop(t, DEV "cpu_atom/cpus");
	c = calloc(1, sizeof(*c));
	assert_non_null(c);
	assert_int_equal(pmu_discover_all(t->root, c), -ENOENT);
	assert_int_equal(c->nr_pmus, 0);
	free(c);
}

static void test_tree_errors(void **state)
{
	struct tree *t = *state;
	struct cpu_pmus *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	put(t, "proc/cpuinfo", "vendor_id\t: GenuineIntel\n");
	put(t, DEV "cpu/type", "four");
	assert_int_equal(pmu_discover_all(t->root, c), -EINVAL);
	/* What identifies the CPU survives the error. */
	assert_string_equal(c->vendor, "GenuineIntel");
	assert_int_equal(c->nr_pmus, 0);

	put(t, DEV "cpu/type", "4");
	put(t, "sys/devices/system/cpu/online", "0-3,");
	assert_int_equal(pmu_discover_all(t->root, c), -EINVAL);
	put(t, "sys/devices/system/cpu/online", "0-3");
	assert_int_equal(pmu_discover_all(t->root, c), 0);
	assert_int_equal(c->nr_pmus, 1);
	free(c);
}

/* Bare metal without a core PMU, and a cpuinfo that only looks like a guest. */
static void test_tree_no_pmu_not_guest(void **state)
{
	struct tree *t = *state;
	struct cpu_pmus *c;

	put(t, "proc/cpuinfo",
	    "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
	    "model name\t: Some CPU\nstepping\t: 7\nflags\t\t: fpu nohypervisor hypervisor_x\n\n"
	    "processor\t: 1\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
	    "flags\t\t: fpu hypervisor\n");
	put(t, "proc/sys/kernel/nmi_watchdog", "garbage");
	put(t, "sys/devices/system/cpu/smt/active", "0");
	move(t, DEV "cpu", DEV "other");
	c = discover(t->root);
	/* Only the first processor block counts. */
	assert_ident(c, "GenuineIntel", 6, 0x55, 7);
	assert_false(c->hypervisor);
	assert_false(c->smt_on);
	assert_int_equal(c->nmi_watchdog, -1);
	assert_int_equal(c->nr_pmus, 0);
	assert_non_null(strstr(c->why, "Intel family 0x6 model 0x55 (Cascade Lake-SP): "));
	assert_non_null(strstr(c->why, "kernel registered no core PMU"));
	free(c);

	/* Nothing known about the CPU at all. */
	drop(t, "proc/cpuinfo");
	c = discover(t->root);
	assert_non_null(strstr(c->why, "unknown CPU: "));
	free(c);
}

/* ------------------------------------------------------------- names */

static void test_cpu_names(void **state)
{
	(void)state;
	assert_string_equal(cpu_vendor_short("GenuineIntel"), "Intel");
	assert_string_equal(cpu_vendor_short("AuthenticAMD"), "AMD");
	assert_string_equal(cpu_vendor_short("CentaurHauls"), "CentaurHauls");
	assert_string_equal(cpu_codename("GenuineIntel", 6, 0x55, 4), "Skylake-SP");
	assert_string_equal(cpu_codename("GenuineIntel", 6, 0x55, 7), "Cascade Lake-SP");
	assert_string_equal(cpu_codename("GenuineIntel", 6, 0x55, 11), "Cooper Lake");
	assert_null(cpu_codename("GenuineIntel", 6, 0x55, 8));
	assert_string_equal(cpu_codename("GenuineIntel", 6, 0xbd, 1), "Lunar Lake");
	assert_string_equal(cpu_codename("AuthenticAMD", 0x19, 0x11, 1), "Zen 4");
	assert_string_equal(cpu_codename("AuthenticAMD", 0x19, 0x21, 0), "Zen 3");
	assert_string_equal(cpu_codename("AuthenticAMD", 0x1a, 0x02, 1), "Zen 5");
	assert_string_equal(cpu_codename("AuthenticAMD", 0x1a, 0x50, 0), "Zen 6");
	assert_null(cpu_codename("AuthenticAMD", 0x1a, 0x30, 0));
	/* Family 6 model 0x55 is Intel's, not AMD's. */
	assert_null(cpu_codename("AuthenticAMD", 6, 0x55, 4));
	assert_null(cpu_codename("", -1, -1, -1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icelake),
		cmocka_unit_test(test_sapphirerapids),
		cmocka_unit_test(test_alderlake),
		cmocka_unit_test(test_lunarlake),
		cmocka_unit_test(test_meteorlake),
		cmocka_unit_test(test_skylake),
		cmocka_unit_test(test_skylakex),
		cmocka_unit_test(test_cascadelakex),
		cmocka_unit_test(test_icelakex),
		cmocka_unit_test(test_amdzen4),
		cmocka_unit_test(test_amdzen4_nowatchdog),
		cmocka_unit_test(test_amdzen5),
		cmocka_unit_test(test_added_fixtures),
		cmocka_unit_test(test_ecore_only_events),
		cmocka_unit_test(test_vm),
		cmocka_unit_test(test_root_spelling),
		cmocka_unit_test(test_missing_root),
		cmocka_unit_test(test_this_machine),
		cmocka_unit_test_setup_teardown(test_tree_minimal, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_events_that_do_not_encode, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_hybrid, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_errors, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tree_no_pmu_not_guest, tree_setup,
						tree_teardown),
		cmocka_unit_test(test_cpu_names),
		cmocka_unit_test(test_arm64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
