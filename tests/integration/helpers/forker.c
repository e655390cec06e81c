// SPDX-License-Identifier: GPL-2.0
/*
 * forker THREAD_SECONDS CHILD_SECONDS: a multi-threaded process that forks
 * children mid-run, for the -p tests.
 *
 *  1. Wait for one byte on stdin (the caller starts `tdtrace -p PID` first);
 *     end of file exits 3.
 *  2. Start 2 threads, each burning THREAD_SECONDS of CPU time.
 *  3. 100 ms (wall) later, fork 2 children, each burning CHILD_SECONDS.
 *  4. Once both children have exited, leave them zombies (not reaped, so
 *     /proc/CPID/schedstat stays readable and final) and wait for the
 *     threads, which stay alive but blocked once done (so
 *     /proc/PID/task/TID/schedstat stays readable); then print
 *	ready CPID1 CPID2
 *  5. Wait for one more byte on stdin, reap the children and exit 0.
 *
 * So between "ready" and that byte nothing in the tree runs: the caller can
 * read the whole tree's CPU time from schedstat, and compare.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

static long long thread_target_ns, child_target_ns;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int nr_done;

static long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void burn(long long ns)
{
	long long start = thread_cpu_ns();
	volatile unsigned long sink = 0;

	do {
		for (int i = 0; i < 10000; i++)
			sink += i;
	} while (thread_cpu_ns() - start < ns);
}

/* Spin, then block for good: the process's exit ends the thread. */
static void *spinner(void *arg)
{
	burn(thread_target_ns);
	pthread_mutex_lock(&lock);
	nr_done++;
	pthread_cond_broadcast(&cond);
	for (;;)
		pthread_cond_wait(&cond, &lock);
	return NULL;
}

static int read_byte(void)
{
	ssize_t n;
	char c;

	while ((n = read(0, &c, 1)) < 0 && errno == EINTR)
		;
	return n == 1 ? 0 : -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: forker THREAD_SECONDS CHILD_SECONDS\n");
	exit(2);
}

static double seconds_arg(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (*end || !(v > 0) || v > 3600)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	struct timespec delay = { .tv_sec = 0, .tv_nsec = 100 * 1000000L };
	pid_t children[2];
	pthread_t tids[2];

	if (argc != 3)
		usage();
	thread_target_ns = (long long)(seconds_arg(argv[1]) * 1e9);
	child_target_ns = (long long)(seconds_arg(argv[2]) * 1e9);

	if (read_byte())
		return 3;

	for (int i = 0; i < 2; i++) {
		int err = pthread_create(&tids[i], NULL, spinner, NULL);

		if (err) {
			fprintf(stderr, "forker: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	nanosleep(&delay, NULL);

	fflush(NULL);
	for (int i = 0; i < 2; i++) {
		children[i] = fork();
		if (children[i] < 0) {
			perror("forker: fork");
			return 1;
		}
		if (children[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			burn(child_target_ns);
			_exit(0);
		}
	}

	/* Both children exited, still zombies. */
	for (int i = 0; i < 2; i++) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		while (waitid(P_PID, children[i], &si, WEXITED | WNOWAIT) && errno == EINTR)
			;
	}
	pthread_mutex_lock(&lock);
	while (nr_done < 2)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);

	printf("ready %d %d\n", (int)children[0], (int)children[1]);
	fflush(stdout);

	read_byte(); /* end of file: reap and exit all the same */
	for (int i = 0; i < 2; i++)
		waitpid(children[i], NULL, 0);
	return 0;
}
