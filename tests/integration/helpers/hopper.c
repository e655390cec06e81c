// SPDX-License-Identifier: GPL-2.0
/*
 * hopper [-w] ROUNDS PAGES: ROUNDS times, move to the next online CPU in
 * turn (sched_setaffinity), touch PAGES fresh anonymous pages (one page
 * fault each) and sleep 100 us (a voluntary context switch); then exit 0.
 * So that a tracer sees this process's counts on every CPU. With -w, wait
 * for one byte on stdin first.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), rounds, pages;
	struct timespec nap = { .tv_nsec = 100 * 1000 };
	cpu_set_t online, one;
	int arg = 1, cpu = -1;
	char go;

	if (argc > 1 && !strcmp(argv[1], "-w")) {
		if (read(0, &go, 1) != 1)
			return 3;
		arg++;
	}
	if (arg + 1 >= argc || (rounds = atol(argv[arg])) <= 0 ||
	    (pages = atol(argv[arg + 1])) <= 0) {
		fprintf(stderr, "usage: hopper [-w] ROUNDS PAGES\n");
		return 2;
	}
	if (sched_getaffinity(0, sizeof(online), &online))
		return 1;
	for (long r = 0; r < rounds; r++) {
		char *mem;

		/* The next CPU we may run on, wrapping around. */
		do
			cpu = (cpu + 1) % CPU_SETSIZE;
		while (!CPU_ISSET(cpu, &online));
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			return 1;
		mem = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);
		if (mem == MAP_FAILED)
			return 1;
		for (long i = 0; i < pages; i++)
			mem[i * page] = 1;
		munmap(mem, pages * page);
		nanosleep(&nap, NULL);
	}
	return 0;
}
