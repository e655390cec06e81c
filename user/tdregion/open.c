// SPDX-License-Identifier: GPL-2.0
/*
 * libtdregion's setup: find the CPU's model as tdtrace does (host/pmu.c's
 * discovery, the model table, counters_from_model), open the calling
 * thread's counting groups, and choose how to read them: rdpmc on the
 * mmap'd pages where allowed, else read(), else the thread's CPU time.
 * Each step that fails says why in td->why and falls back to the next.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "host/pmu.h"
#include "model/models.h"
#include "tdregion/context.h"
#include "tdregion/fields.h"

#define TDR_VISIBLE __attribute__((visibility("default")))

/* Reset past this many slots, a few seconds' worth (topdown.txt's "every few seconds"). */
#define TDR_RESET_SLOTS	 (1ULL << 36)
#define TDR_SLOTS_CONFIG 0x0400 /* fixed counter 3, the kernel's is_slots_event() */

static __thread char thread_mark;

const void *tdr_thread_mark(void)
{
	return &thread_mark;
}

static int perf_open(struct perf_event_attr *attr, int group_fd)
{
	return (int)syscall(__NR_perf_event_open, attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static void close_counters(struct tdregion *td)
{
	for (int i = 0; i < TD_MAX_COUNTERS; i++) {
		if (td->page[i])
			munmap(td->page[i], td->page_size);
		td->page[i] = NULL;
		if (td->fd[i] >= 0)
			close(td->fd[i]);
		td->fd[i] = -1;
	}
}

/* The model of @cpu's first core PMU that has one, with the PMU in *@pmu; why not in td->why. */
static const struct pmu_model *find_model(struct tdregion *td, const struct cpu_pmus *cpu,
					  const struct core_pmu **pmu)
{
	for (int i = 0; i < cpu->nr_pmus; i++) {
		const struct core_pmu *p = &cpu->pmu[i];
		const struct pmu_model *m =
			p->midr ? model_find_midr(p->midr)
				: model_find(cpu->vendor, cpu->family, cpu->model, cpu->stepping,
					     p->name);

		if (m && (!m->requires || core_pmu_event(p, m->requires))) {
			*pmu = p;
			return m;
		}
	}
	snprintf(td->why, sizeof(td->why), "no TopDown model for %s family 0x%x model 0x%x",
		 cpu->vendor[0] ? cpu->vendor : "this vendor", cpu->family, cpu->model);
	return NULL;
}

/* rdpmc from the mmap'd pages, if allowed: 0, or -1 with why not in td->why. */
static int try_rdpmc(struct tdregion *td, const char *pmu, unsigned int flags)
{
	char path[128], val[16] = "";
	int fd, n;

	if (flags & TDREGION_OPEN_NO_RDPMC) {
		snprintf(td->why, sizeof(td->why),
			 "read(): rdpmc not asked for (TDREGION_OPEN_NO_RDPMC)");
		return -1;
	}
#if !defined(__x86_64__) && !defined(__i386__)
	snprintf(td->why, sizeof(td->why), "read(): rdpmc is read on x86 only");
	return -1;
#endif
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/rdpmc", pmu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, val, sizeof(val) - 1);
		close(fd);
		if (n > 0 && val[0] == '0') {
			snprintf(td->why, sizeof(td->why), "read(): rdpmc is off (%s is 0)", path);
			return -1;
		}
	}
	for (int i = 0; i < td->set.nr; i++) {
		void *p = mmap(NULL, td->page_size, PROT_READ, MAP_SHARED, td->fd[i], 0);

		if (p == MAP_FAILED) {
			snprintf(td->why, sizeof(td->why), "read(): failed to mmap %s: %s",
				 td->set.name[i], strerror(errno));
			return -1;
		}
		td->page[i] = p;
	}
	n = tdr_first_without_rdpmc(td->page, td->set.nr);
	if (n >= 0) {
		snprintf(td->why, sizeof(td->why),
			 "read(): the kernel does not allow rdpmc on %s (cap_user_rdpmc 0)",
			 td->set.name[n]);
		return -1;
	}
	snprintf(td->why, sizeof(td->why), "rdpmc");
	return 0;
}

/*
 * Open td->set's counters for the calling thread, group by group, and
 * choose rdpmc or read() on @pmu: 0, or -1 with why not in td->why.
 */
static int open_set(struct tdregion *td, const char *pmu, unsigned int flags)
{
	if (tdr_nr_values(&td->set) > TDREGION_MAX_VALUES) {
		snprintf(td->why, sizeof(td->why),
			 "no TopDown: %d counters in %d groups need %d values, a region holds %d",
			 td->set.nr, counters_nr_groups(&td->set), tdr_nr_values(&td->set),
			 TDREGION_MAX_VALUES);
		return -1;
	}
	for (int i = 0, leader = 0; i < td->set.nr; i++) {
		struct perf_event_attr attr = td->set.attr[i];

		if (counters_leads(&td->set, i))
			leader = i;
		attr.disabled = 0; /* counting from now on, group by group */
		attr.read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				    PERF_FORMAT_TOTAL_TIME_RUNNING;
		td->fd[i] = perf_open(&attr, i == leader ? -1 : td->fd[leader]);
		if (td->fd[i] < 0) {
			snprintf(td->why, sizeof(td->why), "no TopDown: failed to open %s: %s",
				 td->set.name[i], strerror(errno));
			return -1;
		}
		td->slots_of[i] = leader;
		td->metric_field[i] = td->set.attr[leader].config == TDR_SLOTS_CONFIG
					      ? tdr_metric_field(attr.config)
					      : -1;
	}
	td->mode = try_rdpmc(td, pmu, flags) ? TDREGION_READ : TDREGION_RDPMC;
	return 0;
}

/*
 * Tests only: the environment's TDREGION_TEST_MEMBERS, a list of software
 * events as tdtrace's --test-members takes it, counted after cpu-clock in
 * groups of their own, with no TopDown: to run the read() path (and the
 * kernel's refusal of rdpmc on software events) where there is no PMU.
 */
static int open_members(struct tdregion *td, const char *list, unsigned int flags)
{
	if (counters_software_members(&td->set, list)) {
		snprintf(td->why, sizeof(td->why),
			 "TDREGION_TEST_MEMBERS=%s is not a list of software events", list);
		return -1;
	}
	td->set.software = false; /* counted as a PMU's groups are */
	td_decoding_init(&td->decoding, &td->set, false, NULL, 0);
	return open_set(td, "software", flags);
}

/* TopDown counters of the calling thread: 0, or -1 with why not in td->why. */
static int open_model(struct tdregion *td, unsigned int flags)
{
	struct cpu_pmus *cpu = calloc(1, sizeof(*cpu));
	const struct core_pmu *pmu = NULL;
	const struct pmu_model *m;
	char err[256], cpuid[32];
	int ret = -1;

	if (!cpu) {
		snprintf(td->why, sizeof(td->why), "out of memory");
		return -1;
	}
	if (pmu_discover_all("/", cpu)) {
		snprintf(td->why, sizeof(td->why), "failed to read the PMUs in sysfs");
		goto out;
	}
	if (!cpu->nr_pmus) {
		snprintf(td->why, sizeof(td->why), "no PMU: %s", cpu->why);
		goto out;
	}
	m = find_model(td, cpu, &pmu);
	if (!m)
		goto out;
	if (counters_from_model(m, pmu, 2, cpu->nmi_watchdog == 1, &td->set, err, sizeof(err))) {
		snprintf(td->why, sizeof(td->why), "no TopDown: %s", err);
		goto out;
	}
	if (td_decoding_init(&td->decoding, &td->set, cpu->smt_on, err, sizeof(err))) {
		snprintf(td->why, sizeof(td->why), "no TopDown: %s", err);
		goto out;
	}
	if (pmu->midr) {
		snprintf(cpuid, sizeof(cpuid), "0x%016llx", pmu->midr);
		td_decoder_set_cpu(&td->decoding.decoder, pmu->slots, cpuid);
	}
	if (open_set(td, pmu->name, flags))
		goto out;
	td->mode |= TDREGION_TOPDOWN;
	if (cpu->nr_pmus > 1) {
		size_t n = strlen(td->why);

		snprintf(td->why + n, sizeof(td->why) - n, "; counts on %s CPUs only", pmu->name);
	}
	ret = 0;
out:
	free(cpu);
	return ret;
}

/*
 * The thread's CPU time: CLOCK_THREAD_CPUTIME_ID, the scheduler's own
 * account. Not a task-clock event: perf's context time, it fell short of
 * the thread's CPU time by up to 4% here when the thread was preempted.
 */
static void open_software(struct tdregion *td)
{
	size_t n = strlen(td->why);

	close_counters(td);
	memset(&td->decoding, 0, sizeof(td->decoding));
	counters_software(&td->set);
	td->mode = TDREGION_SOFTWARE;
	snprintf(td->why + n, sizeof(td->why) - n, "; CPU time only (CLOCK_THREAD_CPUTIME_ID)");
	/* Only to name the software set; td_decode reads no attr. */
	td_decoding_init(&td->decoding, &td->set, false, NULL, 0);
}

TDR_VISIBLE struct tdregion *tdregion_open(unsigned int flags)
{
	const char *members = getenv("TDREGION_TEST_MEMBERS");
	struct tdregion *td = calloc(1, sizeof(*td));

	if (!td)
		return NULL;
	for (int i = 0; i < TD_MAX_COUNTERS; i++)
		td->fd[i] = -1;
	td->tid = (int)syscall(SYS_gettid);
	td->thread = tdr_thread_mark();
	td->page_size = (size_t)sysconf(_SC_PAGESIZE);
	td->reset_slots = TDR_RESET_SLOTS;
	if (flags & TDREGION_OPEN_SOFTWARE)
		snprintf(td->why, sizeof(td->why), "no TopDown: TDREGION_OPEN_SOFTWARE asked for");
	else if (members && *members ? !open_members(td, members, flags) : !open_model(td, flags))
		return td;
	open_software(td);
	return td;
}

TDR_VISIBLE void tdregion_close(struct tdregion *td)
{
	if (!td)
		return;
	close_counters(td);
	free(td);
}

TDR_VISIBLE unsigned int tdregion_mode(const struct tdregion *td)
{
	return td->mode;
}

TDR_VISIBLE const char *tdregion_why(const struct tdregion *td)
{
	return td->why;
}

TDR_VISIBLE int tdregion_reset(struct tdregion *td)
{
	if (td->open_regions) {
		errno = EBUSY;
		return -1;
	}
	if (td->mode & TDREGION_SOFTWARE)
		return 0;
	for (int i = 0; i < td->set.nr; i++)
		if (counters_leads(&td->set, i) &&
		    ioctl(td->fd[i], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP))
			return -1;
	return 0;
}
