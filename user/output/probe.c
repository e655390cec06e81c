// SPDX-License-Identifier: GPL-2.0
/* tdtrace --probe: one line per thing tdtrace needs, with what was found. */
#include <string.h>
#include <sys/utsname.h>
#include "host/cgroupfs.h"
#include "host/preflight.h"
#include "output/probe.h"

int probe_print(FILE *f, const struct pmu_info *pmu, const struct options *o)
{
	const char *btf = o->btf_path ? o->btf_path : TD_KERNEL_BTF;
	struct utsname u;
	char mount[4096];
	int err;

	fprintf(f, "cpu:        %s%s%s\n", pmu->vendor[0] ? pmu->vendor : "unknown vendor",
		pmu->model[0] ? ", " : "", pmu->model);
	if (!uname(&u))
		fprintf(f, "kernel:     %s %s\n", u.release, u.machine);
	if (pmu->name[0])
		fprintf(f, "core PMU:   %s (type %u)%s, %d CPUs\n", pmu->name, pmu->type,
			pmu->hybrid ? ", hybrid: TopDown on the cpu_core CPUs only" : "",
			pmu->nr_cpus);
	else
		fprintf(f, "core PMU:   none\n");
	if (pmu->level) {
		fprintf(f, "TopDown:    level %d\n", pmu->level);
		for (int i = 0; i < (pmu->level == 2 ? TD_NR_ROLES : TD_BE_BOUND + 1); i++)
			fprintf(f, "  %-22s config=0x%llx\n", pmu_event_names[i],
				(unsigned long long)pmu->events[i].config[0]);
	} else {
		fprintf(f, "TopDown:    no: %s\n", pmu->why);
	}

	err = check_btf(btf);
	fprintf(f, "BTF:        %s: %s\n", btf, err ? strerror(-err) : "ok");
	err = cgroup2_find_mount("/proc/self/mountinfo", mount, sizeof(mount));
	fprintf(f, "cgroup v2:  %s\n", err ? "not mounted: per-cgroup rows need cgroup v2" : mount);
	fprintf(f, "privileges: %s\n",
		have_privileges() ? "ok" : "missing: run as root, or with CAP_BPF and CAP_PERFMON");
	if (pmu->level)
		fprintf(f, "verdict:    `tdtrace` counts TopDown level %d\n", pmu->level);
	else
		fprintf(f,
			"verdict:    no TopDown here; `tdtrace --software` attributes CPU time\n");
	return EXIT_OK;
}
