// SPDX-License-Identifier: GPL-2.0
/* perf_event_open() errors, in words. */
#include <errno.h>
#include <string.h>
#include "host/perf_why.h"

const char *perf_open_why(int err)
{
	switch (err) {
	case ENOENT:
	case ENODEV:
		return "this CPU's PMU has no such event (offline, or an E-core without TopDown?)";
	case EBUSY:
		return "the PMU is busy (another tool holds these counters)";
	case EACCES:
	case EPERM:
		return "not allowed (needs root or CAP_PERFMON, or kernel.perf_event_paranoid)";
	case EINVAL:
		return "the kernel refused the group (no TopDown support for this event?)";
	case EOPNOTSUPP:
		/* kernel/events/core.c: mediated_pmu_account_event(), Linux 7.0 on. */
		return "not supported here (EOPNOTSUPP: what a KVM host with a mediated vPMU "
		       "gives an event that counts guests while such a VM runs; tdtrace counts "
		       "the host only)";
	default:
		return strerror(err);
	}
}
