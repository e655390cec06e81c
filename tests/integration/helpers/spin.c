// SPDX-License-Identifier: GPL-2.0
/*
 * spin [-w] SECONDS [THREADS]: burn SECONDS of CPU time in each of THREADS
 * threads (default 1: the main thread itself spins), then exit 0.
 *
 * The time is CPU time (CLOCK_THREAD_CPUTIME_ID), not wall time, so a busy
 * machine makes the run longer, not shorter. With -w, wait for one byte on
 * stdin before starting, so the caller can move the process into a cgroup
 * first; end of file on stdin instead exits 3 without spinning.
 *
 * Prints one line per spinning thread when it is done:
 *	thread TID CPU_NS
 * with that thread's CPU time as the thread itself measured it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static long long target_ns;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *spin(void *arg)
{
	long long start = thread_cpu_ns(), now;
	volatile unsigned long sink = 0;

	do {
		for (int i = 0; i < 10000; i++)
			sink += i;
		now = thread_cpu_ns();
	} while (now - start < target_ns);

	pthread_mutex_lock(&out_lock);
	printf("thread %ld %lld\n", (long)syscall(SYS_gettid), now);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: spin [-w] SECONDS [THREADS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t tids[256];
	int nr_threads = 1, opt;
	int wait_stdin = 0;
	double seconds;
	char *end;

	while ((opt = getopt(argc, argv, "w")) != -1) {
		if (opt != 'w')
			usage();
		wait_stdin = 1;
	}
	if (optind >= argc || optind + 2 < argc)
		usage();
	seconds = strtod(argv[optind], &end);
	if (*end || !(seconds > 0) || seconds > 3600)
		usage();
	if (optind + 1 < argc) {
		nr_threads = atoi(argv[optind + 1]);
		if (nr_threads < 1 || nr_threads > 256)
			usage();
	}
	target_ns = (long long)(seconds * 1e9);

	if (wait_stdin) {
		char c;
		ssize_t n;

		while ((n = read(0, &c, 1)) < 0 && errno == EINTR)
			;
		if (n != 1)
			return 3;
	}

	if (nr_threads == 1) {
		spin(NULL);
		return 0;
	}
	for (int i = 0; i < nr_threads; i++) {
		int err = pthread_create(&tids[i], NULL, spin, NULL);

		if (err) {
			fprintf(stderr, "spin: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	for (int i = 0; i < nr_threads; i++)
		pthread_join(tids[i], NULL);
	return 0;
}
