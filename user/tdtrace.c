// SPDX-License-Identifier: GPL-2.0
/*
 * tdtrace: TopDown per process and per cgroup, attributed at sched_switch.
 *
 * main() is the run, stage by stage; each stage lives in its folder:
 *   parse (cli/) -> discover (host/) -> plan (model/) -> open and BPF
 *   attribute (tracer/, bpf/) -> every interval: collect (tracer/),
 *   decode (model/), output (output/) -> summary -> clean up.
 * "tdtrace report" (replay/) decodes recorded lines again.
 */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>
#include "cli/options.h"
#include "host/cgroupfs.h"
#include "exporter/http.h"
#include "host/machine.h"
#include "host/pmu.h"
#include "host/targets.h"
#include "host/ticker.h"
#include "model/entries.h"
#include "model/plan.h"
#include "model/replan.h"
#include "output/file.h"
#include "output/probe.h"
#include "output/render.h"
#include "replay/replay.h"
#include "tracer/tracer.h"
#include "cli/say.h"

static bool verbose;
static struct ticker tk;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return verbose ? vfprintf(stderr, fmt, args) : 0;
}

/* libbpf's messages with -v only; memory kept in the heap between intervals. */
static void setup_process(const struct options *o)
{
	verbose = o->verbose;
	libbpf_set_print(libbpf_print);
	/* Each interval builds and frees a few MiB (10,000 tasks): don't mmap it afresh. */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

/*
 * What measured a report: its index, when it ends, how long it covers, on
 * how many CPUs, and with --self-stats what tdtrace's BPF programs cost.
 */
static struct report measured(unsigned int interval, double elapsed, double duration,
			      const struct tracer *tr, const struct options *o)
{
	struct timespec ts;
	struct report r;

	clock_gettime(CLOCK_REALTIME, &ts);
	r = (struct report){ .interval = interval,
			     .timestamp = ts.tv_sec + ts.tv_nsec / 1e9,
			     .elapsed_s = elapsed,
			     .duration_s = duration,
			     .nr_cpus = tracer_nr_cpus(tr) };
	if (o->self_stats)
		r.nr_self = tracer_self_cost(tr, r.self, TD_MAX_PROG_COSTS);
	return r;
}

/* --listen: bound now, before counting, so that a port in use fails early. */
static int start_exporter(const struct options *o, struct exporter **ex)
{
	char why[256];

	if (!o->listen)
		return 0;
	if (exporter_start(o->listen, ex, why, sizeof(why))) {
		say(stderr, "%s", why);
		return -1;
	}
	return 0;
}

/*
 * collect: the counts charged since the last read, and the names of the
 * cgroups they were charged to, read now (a cgroup may be gone by the
 * time they are printed), with their containers' Kubernetes names.
 * Decoding and output only look names up.
 */
static int collect(struct tracer *tr, struct tally *tl, struct machine *m)
{
	if (tracer_collect(tr, tl))
		return -1;
	cgroup_names_cover(&m->names, &tl->delta);
	k8s_names_cover(m->k8s, &m->names, &tl->delta, stderr);
	return 0;
}

/* The NMI watchdog during the run (sysctl kernel.nmi_watchdog). */
struct watchdog {
	int seen;	 /* as last read */
	int planned;	 /* as the counters are planned */
	bool pending;	 /* a switch said, its CPUs stopped: made after the interval */
	struct replan r; /* that switch */
};

static struct watchdog wd = { .seen = -2 };

/*
 * The watchdog was turned on or off: plan again with it and say, once per
 * change, what that does. If what the run counts no longer fits (Skylake-
 * class, SMT on, watchdog on: group 0 is never scheduled), the PMUs that
 * change stop charging now, and get their new counters once this
 * interval is read (watchdog_switch). If the new plan counts more (level 2
 * again), or cannot take the run's counts so far exactly, the run keeps
 * its counters and says to restart.
 */
static void watchdog_check(const struct options *o, const struct machine *m, const struct plan *p,
			   struct tracer *tr)
{
	int now = pmu_nmi_watchdog(o->sysfs_root);
	const char *on = now == 1 ? "on" : "off";
	bool drops = false;

	if (wd.seen == -2)
		wd.seen = wd.planned = m->cpu->nmi_watchdog;
	if (now < 0 || now == wd.seen || wd.pending)
		return;
	wd.seen = now;
	switch (replan_watchdog(o, m->cpu, m->online, p, now, &wd.r)) {
	case REPLAN_SWITCH:
		for (int i = 0; i < wd.r.nr; i++)
			drops |= wd.r.set[i].nr < p->pmus[wd.r.pmu[i]].counters.nr;
		say(stderr,
		    "the NMI watchdog was turned %s during the run: counting %s from the next "
		    "interval; %s",
		    on, wd.r.what,
		    drops ? "what is no longer counted is null from then on, in the intervals "
			    "and the summary"
			  : "every event is still counted, regrouped");
		for (int i = 0; i < wd.r.nr; i++)
			tracer_pause(tr, wd.r.pmu[i]);
		wd.pending = true;
		wd.planned = now;
		break;
	case REPLAN_RESTART:
		say(stderr,
		    "the NMI watchdog was turned %s during the run, and the counters were planned "
		    "with it %s (%s now); restart tdtrace to count with the new plan",
		    on, now == 1 ? "off" : "on", wd.r.what);
		break;
	case REPLAN_SAME:
		if ((now == 1) == (wd.planned == 1))
			say(stderr,
			    "the NMI watchdog was turned %s again, as the counters were planned",
			    on);
		else
			say(stderr,
			    "the NMI watchdog was turned %s during the run; the counters' plan is "
			    "the same with it",
			    on);
		break;
	}
}

/*
 * The switch watchdog_check said, once an interval has been read: the run's
 * totals carry each moved count's group times, the PMUs' CPUs open their
 * new counters, and the plan (which decoding reads) is the new one.
 */
static int watchdog_switch(struct plan *p, struct tracer *tr, struct tally *tl, struct renderer *rd)
{
	int err = 0;

	if (!wd.pending)
		return 0;
	replan_carry(&wd.r, p->nr_pmus, &tl->total);
	replan_carry(&wd.r, p->nr_pmus, &tl->cgroups);
	for (int i = 0; i < wd.r.nr; i++)
		tracer_replan(tr, wd.r.pmu[i], &p->pmus[wd.r.pmu[i]].counters, &wd.r.set[i]);
	replan_apply(&wd.r, p);
	for (int i = 0; i < wd.r.nr && !err; i++)
		err = renderer_replan(rd, p, wd.r.pmu[i]);
	wd.pending = false;
	return err;
}

/* Stop the programs, charge the slices still running, read once more, print the whole run. */
static int summary(const struct options *o, struct tracer *tr, struct tally *tl, struct machine *m,
		   struct renderer *rd, unsigned int printed)
{
	struct report rep;
	int err;

	tracer_detach(tr);
	if (collect(tr, tl, m))
		return -1;
	rep = measured(printed, ticker_elapsed(&tk), ticker_elapsed(&tk), tr, o);
	rep.summary = true;
	err = render(rd, &rep, &tl->total);
	return err && err != -EPIPE ? err : 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct machine m = {};
	struct plan p;
	struct targets t;
	struct tracer tr = TRACER_INIT;
	struct tally tl = {}; /* empty until the plan says its width */
	struct output_file out = {};
	struct renderer rd = {};
	struct report rep;
	struct exporter *ex = NULL;
	unsigned int printed = 0;
	bool done = false, finished = false;
	enum tick tick;
	int ret = EXIT_FAIL, err;

	/* report: the default signals, but a closed stdout is a failed write, not SIGPIPE */
	if (argc > 1 && !strcmp(argv[1], "report")) {
		signal(SIGPIPE, SIG_IGN);
		return replay_main(argc - 1, argv + 1, stdout, stderr);
	}
	/*
	 * The tracer, before anything is opened: a stop signal during start-up
	 * waits for the first sleep instead of killing a half-set-up run.
	 */
	ticker_hold_signals(&tk);
	switch (options_parse(argc, argv, &o, stdout, stderr)) {
	case OPTIONS_DONE:
		return EXIT_OK;
	case OPTIONS_BAD:
		return EXIT_USAGE;
	case OPTIONS_RUN:
		break;
	}
	setup_process(&o);
	targets_init(&t);

	/* discover -> plan */
	if (machine_discover(&o, &m))
		goto cleanup;
	err = plan_models(&o, m.cpu, m.online, &p, o.probe ? NULL : stderr);
	if (!err && !o.probe)
		replan_widen(&o, m.cpu, m.online, &p); /* before the run's width is used */
	plan_map_size(&o, &m.size, &p);
	if (o.probe || err) {
		ret = o.probe ? probe_print(stdout, m.cpu, &p, err, &o) : EXIT_USAGE;
		goto cleanup;
	}
	tally_init(&tl, p.width);
	if (machine_prepare(&o, &m) || machine_reserve_files(plan_files(&p, &o)))
		goto cleanup;
	err = output_file_open(&out, o.output); /* -o FIFO: waits for a reader, or a stop */
	if (err) {
		ret = err == -EINTR ? EXIT_OK : EXIT_FAIL;
		goto cleanup;
	}
	if (start_exporter(&o, &ex) || targets_resolve(&o, m.mount, &t))
		goto cleanup;
	if (tracer_regions_resolve(&tr.regions, &o, &t)) {
		ret = EXIT_USAGE;
		goto cleanup;
	}

	/* open -> BPF attribute; COMMAND waits at its gate until all is attached */
	if (tracer_open(&tr, &o, &p, &t) || targets_hold_command(&o, &t) ||
	    tracer_follow(&tr, t.cmd.pid) || tracer_attach(&tr, &tl) || machine_drop_privileges())
		goto cleanup;
	ticker_start(&tk, o.interval_ms, o.duration_s, m.hotplug_fd);
	ret = targets_release_command(&o, &t);
	if (ret)
		goto cleanup;
	ret = EXIT_FAIL;
	tracer_announce(&tr, &p, o.per_thread);
	if (renderer_init(&rd, &o, &p, &t, &out, &m.names,
			  (struct metrics_sink){ .publish = exporter_publish, .ctx = ex }))
		goto cleanup;

	/* every interval: collect -> decode -> output; CPUs that come back are counted at once */
	while (!done && (tick = ticker_wait(&tk, &t)) != TICK_STOP) {
		if (!machine_cpus_now(&o, &m))
			tracer_hotplug(&tr, &p, m.online, m.changed);
		watchdog_check(&o, &m, &p, &tr);
		tracer_retarget(&tr, &t);
		if (tick == TICK_HOTPLUG)
			continue;
		if (collect(&tr, &tl, &m))
			goto cleanup;
		rep = measured(++printed, 0, 0, &tr, &o);
		rep.duration_s = ticker_read(&tk, &rep.elapsed_s, &done);
		err = render(&rd, &rep, &tl.delta);
		if (!err) /* --listen: the run so far */
			err = render_metrics(&rd, &rep, &tl);
		if (err) {
			ret = err == -EPIPE ? EXIT_OK : EXIT_FAIL; /* `tdtrace | head` is fine */
			goto cleanup;
		}
		/* Memory stays bounded however many tasks come and go. */
		entries_fold_exited(&tl.total, p.max_entries);
		if (watchdog_switch(&p, &tr, &tl, &rd))
			goto cleanup;
	}
	ticker_reap(&tk, &t);
	/* Said before the loop ended: the summary is of the new plan. */
	if (watchdog_switch(&p, &tr, &tl, &rd))
		goto cleanup;

	/* summary: the whole run */
	if (summary(&o, &tr, &tl, &m, &rd, printed))
		goto cleanup;
	ret = o.command ? tk.command_status : EXIT_OK;
	finished = true;

cleanup:
	exporter_stop(ex);
	output_file_close(&out, !finished);
	targets_close(&t);
	tracer_close(&tr);
	renderer_free(&rd);
	tally_free(&tl);
	machine_free(&m);
	return ret;
}
