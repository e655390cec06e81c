// SPDX-License-Identifier: GPL-2.0
/*
 * floor: load one reference program for `make bench` and keep it attached
 * until SIGINT/SIGTERM.
 *   floor empty        dispatch floor: an empty tp_btf/sched_switch program
 *   floor read [N]     read floor: reads N cpu-clock counters (default 1,
 *                      what tdtrace --software reads) per switch
 * Prints "floor: ready" on stderr once attached.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "floor.skel.h"
#include "model/counters.h"
#include "tracer/perf_open.h"

/* floor.bpf.c reads up to nine arrays, floor_counter_0..8, one per counter. */
#define FLOOR_MAX_COUNTERS 9

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return 0;
}

int main(int argc, char **argv)
{
	struct cpu_groups groups[FLOOR_MAX_COUNTERS] = {};
	struct counter_set cs;
	struct floor *skel = NULL;
	bool read_mode;
	int nr = 1, ret = 1, err;

	if (argc < 2 || (strcmp(argv[1], "empty") && strcmp(argv[1], "read"))) {
		fprintf(stderr, "usage: floor empty | floor read [N]\n");
		return 2;
	}
	read_mode = !strcmp(argv[1], "read");
	if (argc > 2)
		nr = atoi(argv[2]);
	if (nr < 1 || nr > FLOOR_MAX_COUNTERS) {
		fprintf(stderr, "floor: N must be 1 to %d\n", FLOOR_MAX_COUNTERS);
		return 2;
	}
	libbpf_set_print(quiet);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	skel = floor__open();
	if (!skel) {
		fprintf(stderr, "floor: failed to open BPF object: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->nr_counters = nr;
	bpf_program__set_autoload(read_mode ? skel->progs.floor_empty : skel->progs.floor_read,
				  false);
	err = floor__load(skel);
	if (err) {
		fprintf(stderr, "floor: failed to load BPF program: %s\n", strerror(-err));
		goto cleanup;
	}
	if (read_mode) {
		struct bpf_map *maps[FLOOR_MAX_COUNTERS] = {
			skel->maps.floor_counter_0, skel->maps.floor_counter_1,
			skel->maps.floor_counter_2, skel->maps.floor_counter_3,
			skel->maps.floor_counter_4, skel->maps.floor_counter_5,
			skel->maps.floor_counter_6, skel->maps.floor_counter_7,
			skel->maps.floor_counter_8,
		};

		/* N independent cpu-clock counters per CPU, one array each, as tdtrace's roles. */
		counters_software(&cs);
		for (int i = 0; i < nr; i++) {
			err = cpu_groups_open(&groups[i], &cs, NULL, libbpf_num_possible_cpus(),
					      stderr);
			if (!err)
				err = cpu_groups_enable(&groups[i]);
			for (int cpu = 0; !err && cpu < groups[i].nr_cpus; cpu++) {
				int fd = cpu_groups_fd(&groups[i], cpu, 0);
				__u32 key = cpu;

				if (fd >= 0 &&
				    bpf_map_update_elem(bpf_map__fd(maps[i]), &key, &fd, BPF_ANY))
					err = -errno;
			}
			if (err) {
				fprintf(stderr, "floor: failed to set up counters: %s\n",
					strerror(-err));
				goto cleanup;
			}
		}
	}
	err = floor__attach(skel);
	if (err) {
		fprintf(stderr, "floor: failed to attach: %s\n", strerror(-err));
		goto cleanup;
	}
	fprintf(stderr, "floor: ready\n");
	while (!stop)
		pause();
	ret = 0;
cleanup:
	floor__destroy(skel);
	for (int i = 0; i < FLOOR_MAX_COUNTERS; i++)
		cpu_groups_close(&groups[i]);
	return ret;
}
