/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tdtrace report [--json] [FILE]: decode recorded JSON lines again.
 *
 * tdtrace's JSON lines carry each entity's raw counts by perf's event
 * names and the model that counted them (and the pmu-events version of
 * its formulas, which --json output sets to this build's; older lines
 * have none), so they can be decoded again later, on another machine,
 * with this build's formulas: to compare
 * with perf on the same counts, or to check a model's formulas against
 * vectors worked out from perf's metric JSON (tests/unit/test_replay.c).
 */
#ifndef TD_REPLAY_H
#define TD_REPLAY_H

#include <stdio.h>

/*
 * Run "tdtrace report" with @argc/@argv starting at "report". Reads FILE
 * (or stdin, or "-"), writes tables or JSON lines to @out, one-line
 * errors naming the line to @err. Returns an exit code: 0, 1 when a line
 * cannot be decoded or the file read, 2 for a bad command line.
 */
int replay_main(int argc, char **argv, FILE *out, FILE *err);

#endif /* TD_REPLAY_H */
