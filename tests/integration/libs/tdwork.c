// SPDX-License-Identifier: GPL-2.0
/* libtdwork.so: a library function for test_regions' --region LIBRARY:SYMBOL. */
#include <time.h>

static long long thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Burn @ns of this thread's CPU time. */
__attribute__((noinline)) void tdwork_burn(long long ns)
{
	long long t0 = thread_ns();

	while (thread_ns() - t0 < ns)
		;
}
