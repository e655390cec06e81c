/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * tdtrace/region.h: mark a region of code for tdtrace --usdt, in C or C++.
 *
 *   #include <tdtrace/region.h>
 *
 *   TDTRACE_REGION_BEGIN("parse");
 *   parse(input);
 *   TDTRACE_REGION_END("parse");
 *
 * tdtrace --usdt -- ./prog (or -p PID, or --usdt=./prog) then reports each
 * region by its name: calls, on-CPU time, slots and TopDown, per process
 * and cgroup, as --region does for a function (README: Regions). BEGIN
 * and END of one name pair up per thread; regions may nest (at most 4
 * open at once per thread) and recursion counts the outermost pair.
 *
 * Each marker is a USDT probe (<sys/sdt.h>, Debian's systemtap-sdt-dev),
 * provider "tdtrace", probes region_begin and region_end, whose one
 * argument is the name: a nop in the code and a note in the ELF file
 * while nothing is attached, a trap to tdtrace's BPF program while it
 * is. The name is read as a string of at most 63 bytes (longer names are
 * cut); give a string that lives as long as the program, a literal best.
 *
 * Besides the nop, a marker loads the name's first byte: the BPF program
 * may not fault a page in, and a literal the program never reads itself
 * sits in a page of its file that may never have been touched (tdtrace
 * then could not read the name and would lose the region).
 */
#ifndef TDTRACE_REGION_H
#define TDTRACE_REGION_H

#include <sys/sdt.h>

#define TDTRACE_REGION_MARK_(probe, name)                                                          \
	do {                                                                                       \
		const char *tdtrace_name_ = (name);                                                \
		(void)*(const volatile char *)tdtrace_name_;                                       \
		DTRACE_PROBE1(tdtrace, probe, tdtrace_name_);                                      \
	} while (0)

#define TDTRACE_REGION_BEGIN(name) TDTRACE_REGION_MARK_(region_begin, name)
#define TDTRACE_REGION_END(name)   TDTRACE_REGION_MARK_(region_end, name)

#endif /* TDTRACE_REGION_H */
