// SPDX-License-Identifier: GPL-2.0
/* tdtrace --probe: one line per thing tdtrace needs, with what was found. */
#include <string.h>
#include <sys/utsname.h>
#include "host/cgroupfs.h"
#include "host/preflight.h"
#include "model/models.h"
#include "output/json_writer.h"
#include "output/probe.h"

static const char *smt(const struct cpu_pmus *cpu)
{
	return cpu->smt_on ? "SMT on" : "SMT off";
}

static const char *watchdog(const struct cpu_pmus *cpu)
{
	return cpu->nmi_watchdog == 1	? "NMI watchdog on"
	       : cpu->nmi_watchdog == 0 ? "NMI watchdog off"
					: "NMI watchdog unknown";
}

/* The CPUs of @pp as "0-7,16". */
static void cpu_list(const struct pmu_plan *pp, char *buf, size_t size)
{
	if (pmu_format_cpu_list(pp->cpus, PMU_MAX_CPUS, buf, size) < 0)
		strcpy(buf + size - 4, "...");
}

static void text_pmu(FILE *f, const struct pmu_plan *pp, bool smt_on)
{
	const struct counter_set *cs = &pp->counters;
	const struct pmu_model *m = cs->model;
	char cpus[256];

	cpu_list(pp, cpus, sizeof(cpus));
	if (!m) {
		fprintf(f, "counters:   %s on CPUs %s (--software)\n", cs->name[0], cpus);
		return;
	}
	fprintf(f, "PMU:        %s%s%s%s, CPUs %s: model %s, TopDown level %d\n", pp->pmu,
		pp->core ? " (" : "", pp->core ? pp->core : "", pp->core ? ")" : "", cpus, m->name,
		cs->level);
	if (pp->midr)
		fprintf(f,
			"  arm64:    MIDR 0x%016llx, %u slots per cycle (caps/slots, perf's "
			"#slots)\n",
			pp->midr, pp->slots);
	for (int g = 0, i = 0; g < MODEL_MAX_GROUPS; g++) {
		bool any = false;

		for (i = 0; i < cs->nr; i++) {
			if (cs->group[i] != g)
				continue;
			if (!any)
				fprintf(f, "  group %d: ", g);
			fprintf(f, " %s=0x%llx", cs->name[i],
				(unsigned long long)cs->attr[i].config);
			any = true;
		}
		if (any)
			fputc('\n', f);
	}
	if (cs->left_out[0])
		fprintf(f, "  left out: %s\n", cs->left_out);
	if (m->smt_approximate && smt_on)
		fprintf(f,
			"  SMT:      on: per-task fractions are an approximation on this model "
			"(the sibling thread shares the core; perf's per-thread values are too)\n");
	fprintf(f, "  formulas: perf's %s, pmu-events of %s (%s); checked on hardware: %s\n",
		m->perf_groups ? m->perf_groups : "metrics",
		m->pmu_events ? m->pmu_events : "an unnamed version", m->source ? m->source : "?",
		m->verified ? m->verified : "no");
	fprintf(f, "  compare:  perf stat -a -M %s -I 1000, or make hwcheck\n",
		m->perf_groups ? m->perf_groups : "<groups>");
}

static int probe_text(FILE *f, const struct cpu_pmus *cpu, const struct plan *p, int planned,
		      const struct options *o)
{
	const char *btf = o->btf_path ? o->btf_path : TD_KERNEL_BTF;
	struct utsname u;
	char mount[4096];
	int err;

	if (cpu->nr_pmus && cpu->pmu[0].midr)
		fprintf(f, "cpu:        arm64, MIDR 0x%016llx (each PMU's below), %s, %s, %s\n",
			cpu->pmu[0].midr, cpu->hypervisor ? "a guest" : "bare metal", smt(cpu),
			watchdog(cpu));
	else
		fprintf(f, "cpu:        %s family 0x%x model 0x%x stepping %d%s%s (%s), %s, %s\n",
			cpu->vendor[0] ? cpu->vendor : "unknown vendor", cpu->family, cpu->model,
			cpu->stepping, cpu->model_name[0] ? ": " : "", cpu->model_name,
			cpu->hypervisor ? "a guest" : "bare metal", smt(cpu), watchdog(cpu));
	if (!uname(&u))
		fprintf(f, "kernel:     %s %s\n", u.release, u.machine);
	if (!cpu->nr_pmus)
		fprintf(f, "core PMU:   none: %s\n", cpu->why);
	for (int i = 0; !planned && i < p->nr_pmus; i++)
		text_pmu(f, &p->pmus[i], cpu->smt_on);
	for (int i = 0; i < p->nr_notes; i++)
		fprintf(f, "left out:   %s\n", p->notes[i]);

	fprintf(f, "map:        %s\n", p->map_note);
	err = check_btf(btf);
	fprintf(f, "BTF:        %s: %s\n", btf, err ? check_btf_why(err) : "ok");
	err = cgroup2_find_mount("/proc/self/mountinfo", mount, sizeof(mount));
	fprintf(f, "cgroup v2:  %s\n", err ? "not mounted: per-cgroup rows need cgroup v2" : mount);
	fprintf(f, "privileges: %s\n",
		have_privileges() ? "ok" : "missing: run as root, or with CAP_BPF and CAP_PERFMON");
	if (!planned && p->pmus[0].counters.model)
		fprintf(f, "verdict:    `tdtrace` counts TopDown level %d (%s%s)\n",
			p->pmus[0].counters.level, p->pmus[0].counters.model->name,
			p->nr_pmus > 1 ? " and more: see above" : "");
	else
		fprintf(f,
			"verdict:    no TopDown here; `tdtrace --software` attributes CPU time\n");
	return EXIT_OK;
}

static void jkey(FILE *f, const char *key, const char *s)
{
	fprintf(f, "\"%s\":", key);
	if (s)
		json_write_cstring(f, s, (size_t)-1);
	else
		fputs("null", f);
}

static void json_pmu(FILE *f, const struct pmu_plan *pp, bool smt_on)
{
	const struct counter_set *cs = &pp->counters;
	const struct pmu_model *m = cs->model;
	char cpus[256];

	cpu_list(pp, cpus, sizeof(cpus));
	fputc('{', f);
	jkey(f, "pmu", pp->pmu);
	fputc(',', f);
	jkey(f, "core", pp->core);
	fputc(',', f);
	jkey(f, "cpus", cpus);
	fputc(',', f);
	jkey(f, "model", m ? m->name : NULL);
	fprintf(f, ",\"level\":%d,\"smt_approximate\":%s,", cs->level,
		m && m->smt_approximate && smt_on ? "true" : "false");
	jkey(f, "perf_groups", m ? m->perf_groups : NULL);
	fputc(',', f);
	jkey(f, "pmu_events", m ? m->pmu_events : NULL);
	fputc(',', f);
	jkey(f, "verified", m ? m->verified : NULL);
	fputc(',', f);
	jkey(f, "left_out", cs->left_out);
	if (pp->midr)
		fprintf(f, ",\"cpuid\":\"0x%016llx\",\"slots_per_cycle\":%u", pp->midr, pp->slots);
	fputs(",\"events\":[", f);
	for (int i = 0; i < cs->nr; i++) {
		const struct model_event *e = m ? &m->events[cs->event[i]] : NULL;

		fputs(i ? ",{" : "{", f);
		jkey(f, "name", cs->name[i]);
		fputc(',', f);
		jkey(f, "alias", e ? e->alias : NULL);
		fprintf(f, ",\"group\":%d,\"type\":%u,\"config\":\"0x%llx\"}", cs->group[i],
			cs->attr[i].type, (unsigned long long)cs->attr[i].config);
	}
	fputs("]}", f);
}

static int probe_json(FILE *f, const struct cpu_pmus *cpu, const struct plan *p, int planned)
{
	fputs("{\"cpu\":{", f);
	jkey(f, "vendor", cpu->vendor);
	fprintf(f, ",\"family\":%d,\"model\":%d,\"stepping\":%d,", cpu->family, cpu->model,
		cpu->stepping);
	jkey(f, "model_name", cpu->model_name);
	fprintf(f, ",\"hypervisor\":%s,\"smt_on\":%s,\"nmi_watchdog\":%d},",
		cpu->hypervisor ? "true" : "false", cpu->smt_on ? "true" : "false",
		cpu->nmi_watchdog);
	fprintf(f, "\"topdown\":%s,", !planned && p->pmus[0].counters.model ? "true" : "false");
	jkey(f, "why", cpu->nr_pmus ? (p->nr_notes ? p->notes[0] : NULL) : cpu->why);
	fputs(",\"pmus\":[", f);
	for (int i = 0; !planned && i < p->nr_pmus; i++) {
		if (i)
			fputc(',', f);
		json_pmu(f, &p->pmus[i], cpu->smt_on);
	}
	fputs("],\"left_out\":[", f);
	for (int i = 0; i < p->nr_notes; i++) {
		if (i)
			fputc(',', f);
		json_write_cstring(f, p->notes[i], (size_t)-1);
	}
	fputs("]}\n", f);
	return EXIT_OK;
}

int probe_print(FILE *f, const struct cpu_pmus *cpu, const struct plan *p, int planned,
		const struct options *o)
{
	return o->json ? probe_json(f, cpu, p, planned) : probe_text(f, cpu, p, planned, o);
}
