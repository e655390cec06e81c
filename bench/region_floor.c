// SPDX-License-Identifier: GPL-2.0
/*
 * region_floor: load bench/region.sh's reference programs on one process
 * and keep them attached until SIGINT/SIGTERM.
 *   region_floor [-s] uprobe PID BINARY SYMBOL   empty uprobe + uretprobe
 *                                                on SYMBOL
 *   region_floor [-s] usdt PID BINARY            empty USDT pair on the
 *                                                tdtrace:region_begin/end
 * Prints "region_floor: ready" on stderr once attached. With -s, the
 * kernel's BPF run-time stats are on while it runs (a BPF_ENABLE_STATS fd,
 * as kernel.bpf_stats_enabled=1, undone when it exits) and it prints, at
 * exit, each program's "NAME RUNS runs NS ns per run" on stdout.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "region_floor.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return 0;
}

/* libbpf returns NULL and sets errno on a failed attach. */
static int attach_uprobe(struct bpf_program *prog, pid_t pid, const char *binary,
			 const char *symbol, bool retprobe)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = symbol, .retprobe = retprobe);

	return bpf_program__attach_uprobe_opts(prog, pid, binary, 0, &opts) ? 0 : -errno;
}

static int attach_usdt(struct bpf_program *prog, pid_t pid, const char *binary, const char *name)
{
	return bpf_program__attach_usdt(prog, pid, binary, "tdtrace", name, NULL) ? 0 : -errno;
}

static void print_stats(struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!bpf_program__autoload(prog) ||
	    bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return;
	printf("%s %llu runs %.0f ns per run\n", bpf_program__name(prog),
	       (unsigned long long)info.run_cnt,
	       info.run_cnt ? (double)info.run_time_ns / info.run_cnt : 0.0);
}

int main(int argc, char **argv)
{
	struct region_floor *skel = NULL;
	bool usdt;
	int ret = 1, err, stats_fd = -1;
	bool stats = false;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "-s")) {
		stats = true;
		argc--;
		argv++;
	}
	usdt = argc == 4 && !strcmp(argv[1], "usdt");
	if (!usdt && !(argc == 5 && !strcmp(argv[1], "uprobe"))) {
		fprintf(stderr, "usage: region_floor [-s] uprobe PID BINARY SYMBOL | "
				"region_floor [-s] usdt PID BINARY\n");
		return 2;
	}
	pid = atoi(argv[2]);
	if (pid <= 0) {
		fprintf(stderr, "region_floor: PID must be a positive number\n");
		return 2;
	}
	libbpf_set_print(quiet);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	if (stats) {
		stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (stats_fd < 0) {
			fprintf(stderr, "region_floor: failed to enable BPF stats: %s\n",
				strerror(-stats_fd));
			return 1;
		}
	}
	skel = region_floor__open();
	if (!skel) {
		fprintf(stderr, "region_floor: failed to open BPF object: %s\n", strerror(errno));
		return 1;
	}
	bpf_program__set_autoload(skel->progs.rfloor_entry, !usdt);
	bpf_program__set_autoload(skel->progs.rfloor_exit, !usdt);
	bpf_program__set_autoload(skel->progs.rfloor_begin, usdt);
	bpf_program__set_autoload(skel->progs.rfloor_end, usdt);
	err = region_floor__load(skel);
	if (err) {
		fprintf(stderr, "region_floor: failed to load BPF programs: %s\n", strerror(-err));
		goto cleanup;
	}
	if (usdt) {
		err = attach_usdt(skel->progs.rfloor_begin, pid, argv[3], "region_begin");
		if (!err)
			err = attach_usdt(skel->progs.rfloor_end, pid, argv[3], "region_end");
	} else {
		err = attach_uprobe(skel->progs.rfloor_entry, pid, argv[3], argv[4], false);
		if (!err)
			err = attach_uprobe(skel->progs.rfloor_exit, pid, argv[3], argv[4], true);
	}
	if (err) {
		fprintf(stderr, "region_floor: failed to attach: %s\n", strerror(-err));
		goto cleanup;
	}
	fprintf(stderr, "region_floor: ready\n");
	while (!stop)
		pause();
	if (stats) {
		print_stats(skel->progs.rfloor_entry);
		print_stats(skel->progs.rfloor_exit);
		print_stats(skel->progs.rfloor_begin);
		print_stats(skel->progs.rfloor_end);
	}
	ret = 0;
cleanup:
	region_floor__destroy(skel);
	if (stats_fd >= 0)
		close(stats_fd);
	return ret;
}
