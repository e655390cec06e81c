// SPDX-License-Identifier: GPL-2.0
/*
 * faulter [-w] PAGES: touch PAGES fresh anonymous pages (one page fault
 * each), then exit 0. With -w, wait for one byte on stdin first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), pages;
	int arg = 1;
	char *mem, go;

	if (argc > 1 && !strcmp(argv[1], "-w")) {
		if (read(0, &go, 1) != 1)
			return 3;
		arg++;
	}
	if (arg >= argc || (pages = atol(argv[arg])) <= 0) {
		fprintf(stderr, "usage: faulter [-w] PAGES\n");
		return 2;
	}
	mem = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	for (long i = 0; i < pages; i++)
		mem[i * page] = 1;
	return 0;
}
