// SPDX-License-Identifier: GPL-2.0
/*
 * make hwcheck's region case: tests/hw/workload.c's main, run inside one
 * libtdregion region, then the region's level 1 as one JSON line on
 * stdout, in percent by node name:
 *   {"mode": "rdpmc", "why": "...", "calls": 1, "retiring": 41.2, ...}
 * (null where the node is absent). hwcheck.py runs it under perf stat -M
 * and compares. Use the kinds whose set-up is negligible (alu, branch).
 */
#include <math.h>
#include <stdio.h>
#include "tdtrace/tdregion.h"

#define main workload_main
#include "workload.c"
#undef main

static void node(const char *name, double v)
{
	if (isnan(v))
		printf(", \"%s\": null", name);
	else
		printf(", \"%s\": %.4f", name, v * 100);
}

/* @s as a JSON string's content. */
static void json_text(const char *s)
{
	for (; *s; s++)
		printf(*s == '"' || *s == '\\'	  ? "\\%c"
		       : (unsigned char)*s < 0x20 ? " "
						  : "%c",
		       *s);
}

int main(int argc, char **argv)
{
	struct tdregion_region r = TDREGION_REGION_INIT("workload");
	struct tdregion_result res;
	struct tdregion *td = tdregion_open(0);
	unsigned int mode;
	int ret;

	if (!td) {
		perror("hw-region: failed to open the thread's counters");
		return 1;
	}
	mode = tdregion_mode(td);
	if (tdregion_begin(td, &r)) {
		perror("hw-region: failed to begin the region");
		return 1;
	}
	ret = workload_main(argc, argv);
	if (tdregion_end(td, &r) || tdregion_report(td, &r, &res)) {
		perror("hw-region: failed to end the region");
		return 1;
	}
	printf("{\"mode\": \"%s\", \"why\": \"", mode & TDREGION_RDPMC	? "rdpmc"
						 : mode & TDREGION_READ ? "read"
									: "software");
	json_text(tdregion_why(td));
	printf("\", \"calls\": %llu, \"level\": %d", res.calls, res.level);
	node("retiring", res.retiring);
	node("bad_speculation", res.bad_speculation);
	node("frontend_bound", res.frontend_bound);
	node("backend_bound", res.backend_bound);
	node("smt_contention", res.smt_contention);
	printf("}\n");
	tdregion_close(td);
	return ret;
}
