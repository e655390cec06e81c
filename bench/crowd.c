// SPDX-License-Identifier: GPL-2.0
/*
 * crowd: a crowd of threads for bench/scale.sh. Forks P processes, each in
 * one of C new cgroups under DIR (a cgroup v2 directory), that run N threads
 * between them with 64 KiB stacks. BUSY threads in a thousand, spread evenly
 * by index, wake once every PERIOD ms, at times staggered over the period;
 * the others sleep on a futex until the fraction changes. On SIGUSR1 the
 * crowd reads a new BUSY from FILE, so that one crowd serves every fraction.
 * Prints "crowd: ready: ..." on stderr once every thread runs, and "crowd:
 * busy: ..." after each change; on SIGINT/SIGTERM kills them all and
 * removes the cgroups.
 *   crowd DIR N P C BUSY PERIOD_MS FILE
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "crowd_end.h"

#define STACK_SIZE (64 * 1024)
#define NSEC	   1000000000LL

/* Shared by every process of the crowd (an anonymous shared mapping). */
struct shared {
	_Atomic uint32_t gen; /* futex word: bumped when busy changes */
	_Atomic int busy;     /* busy threads per thousand */
	_Atomic long started;
	_Atomic long failed;
	_Atomic int said; /* a failure to start a thread was reported */
	long long t0;	  /* CLOCK_MONOTONIC ns the periods count from */
};

static struct shared *sh;
static long n_threads;
static long long period_ns;
static volatile sig_atomic_t stop, reread;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		reread = 1;
	else
		stop = 1;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

/* Thread g is busy when the count of busy threads below it steps at g. */
static int is_busy(long g, int busy)
{
	return (g + 1) * busy / 1000 != g * busy / 1000;
}

/* The first of thread g's wake times after now: t0 + offset + k * period. */
static long long next_wake(long g, long long now)
{
	long long first = sh->t0 + (long long)((double)g / n_threads * period_ns);

	if (now < first)
		return first;
	return first + ((now - first) / period_ns + 1) * period_ns;
}

static void *run(void *arg)
{
	long g = (long)arg;

	for (;;) {
		uint32_t gen = atomic_load(&sh->gen);

		if (is_busy(g, atomic_load(&sh->busy))) {
			long long t = next_wake(g, now_ns());
			struct timespec ts = { .tv_sec = t / NSEC, .tv_nsec = t % NSEC };

			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		} else {
			/* Shared, not private: the word is in a shared mapping. */
			syscall(SYS_futex, &sh->gen, FUTEX_WAIT, gen, NULL, NULL, 0);
		}
	}
	return NULL;
}

/* One process of the crowd: threads [first, first + count) in cgroup dir. */
static void member(const char *dir, long first, long count)
{
	pthread_attr_t attr;
	char path[4096 + 32];
	FILE *f;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGUSR1, SIG_IGN);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "we");
	if (!f || fprintf(f, "0\n") < 0 || fclose(f))
		fprintf(stderr, "crowd: failed to join %s: %s\n", dir, strerror(errno));
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK_SIZE);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* The process's own thread is the first of its share. */
	for (long i = 1; i < count; i++) {
		pthread_t t;
		int err = pthread_create(&t, &attr, run, (void *)(first + i));

		if (err) {
			if (!atomic_exchange(&sh->said, 1))
				fprintf(stderr, "crowd: failed to start thread %ld: %s\n",
					first + i, strerror(err));
			atomic_fetch_add(&sh->failed, count - i);
			break;
		}
		atomic_fetch_add(&sh->started, 1);
	}
	atomic_fetch_add(&sh->started, 1);
	run((void *)first);
}

static int read_busy(const char *file)
{
	FILE *f = fopen(file, "re");
	int busy = -1;

	if (!f || fscanf(f, "%d", &busy) != 1 || busy < 0 || busy > 1000) {
		fprintf(stderr, "crowd: failed to read a busy fraction (0-1000) from %s\n", file);
		busy = -1;
	}
	if (f)
		fclose(f);
	return busy;
}

static void set_busy(int busy)
{
	atomic_store(&sh->busy, busy);
	atomic_fetch_add(&sh->gen, 1);
	syscall(SYS_futex, &sh->gen, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	fprintf(stderr, "crowd: busy: %d in 1000 threads\n", busy);
}

int main(int argc, char **argv)
{
	long p, c, ms, made = 0;
	char path[4096];
	pid_t *pids;
	int busy;

	if (argc != 8) {
		fprintf(stderr, "usage: crowd DIR N P C BUSY PERIOD_MS FILE\n");
		return 2;
	}
	n_threads = atol(argv[2]);
	p = atol(argv[3]);
	c = atol(argv[4]);
	busy = atoi(argv[5]);
	ms = atol(argv[6]);
	if (n_threads < 1 || p < 1 || p > n_threads || c < 1 || c > p || busy < 0 || busy > 1000 ||
	    ms < 1) {
		fprintf(stderr, "crowd: want 1 <= C <= P <= N, 0 <= BUSY <= 1000, PERIOD_MS > 0\n");
		return 2;
	}
	period_ns = ms * 1000000LL;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(p, sizeof(*pids));
	if (sh == MAP_FAILED || !pids) {
		fprintf(stderr, "crowd: failed to allocate: %s\n", strerror(errno));
		return 1;
	}
	atomic_store(&sh->busy, busy);
	sh->t0 = now_ns() + period_ns;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGUSR1, on_signal);

	for (long i = 0; i < c; i++) {
		snprintf(path, sizeof(path), "%s/c%ld", argv[1], i);
		if (mkdir(path, 0755) && errno != EEXIST) {
			fprintf(stderr, "crowd: failed to make %s: %s\n", path, strerror(errno));
			stop = 1;
			c = i;
			break;
		}
	}
	for (long i = 0; i < p && !stop; i++) {
		long first = n_threads * i / p, next = n_threads * (i + 1) / p;
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "crowd: failed to fork process %ld: %s\n", i,
				strerror(errno));
			atomic_fetch_add(&sh->failed, n_threads - first);
			break;
		}
		if (pid == 0) {
			snprintf(path, sizeof(path), "%s/c%ld", argv[1], i % c);
			member(path, first, next - first);
		}
		pids[made++] = pid;
	}
	while (!stop && atomic_load(&sh->started) + atomic_load(&sh->failed) < n_threads)
		usleep(50000);
	if (!stop)
		fprintf(stderr,
			"crowd: ready: %ld threads (%ld failed) in %ld processes, %ld cgroups, "
			"busy %d in 1000\n",
			atomic_load(&sh->started), atomic_load(&sh->failed), made, c, busy);
	while (!stop) {
		usleep(50000);
		if (reread) {
			reread = 0;
			busy = read_busy(argv[7]);
			if (busy >= 0)
				set_busy(busy);
		}
	}

	crowd_end(pids, made, argv[1], c);
	free(pids);
	return 0;
}
