// SPDX-License-Identifier: GPL-2.0
/*
 * churn [-p PROCS] [-t THREADS] [-e EXECS] [-r REUSES] [-m CGROUP -M MOVERS]
 *       [-w WAVES] [-d MS]:
 * many short-lived processes and threads, for test_churn.
 *
 *  1. Wait for one byte on stdin (the caller moves it into a cgroup
 *     first); end of file exits 3.
 *  2. In WAVES waves spread over MS milliseconds, create PROCS processes
 *     in all, which spin for 100 us (threads 50 us) unless told otherwise:
 *       - EXECS of them exec /bin/true;
 *       - THREADS / 10 of them start 10 threads each; half of those join
 *         their threads, the other half exit while the threads still
 *         run (exit_group ends them);
 *       - REUSES of them are made with clone3(set_tid) at the PID of an
 *         earlier plain child already reaped: half of the time one of
 *         this wave's, reaped just before, else one from the previous
 *         wave. This forces PID reuse whatever pid_max is (needs
 *         CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE);
 *       - MOVERS of them sleep a millisecond (so that they are charged
 *         where they started), move themselves into the cgroup v2
 *         directory CGROUP, and exit there;
 *       - the rest fork and _exit.
 *     Each wave's children are reaped before the next wave starts.
 *  3. Print "pid N" for every process made (a reused PID is printed
 *     again), "reuse N" for each forced reuse, then one line
 *       churn processes N threads N execs N reused N moved N natural N failed N
 *     where natural counts PIDs the kernel handed out twice on its own
 *     and failed counts what could not be made. Exit 0, or 1 if anything
 *     failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define THREADS_PER_HOLDER 10
/* CPU time a child burns: enough that the switches around it are a small part. */
#define BURN_US		   100

struct shared {
	long threads; /* created by the children, summed atomically */
	long thread_failures;
	long moved;
	long move_failures;
};

static struct shared *shared;
static const char *move_to; /* CGROUP of -m */
static pid_t *seen;	    /* every PID made, to find the kernel's own reuse */
static size_t nr_seen;
static long failed;

static void burn_us(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

static void *thread_body(void *block)
{
	burn_us(BURN_US / 2);
	if (block)
		for (;;)
			pause(); /* until the process exits under it */
	return NULL;
}

/* A child with THREADS_PER_HOLDER threads: joined, or left running at exit. */
static void holder(bool join)
{
	pthread_t t[THREADS_PER_HOLDER];
	int n = 0;

	for (int i = 0; i < THREADS_PER_HOLDER; i++) {
		if (pthread_create(&t[n], NULL, thread_body, join ? NULL : (void *)1)) {
			__atomic_fetch_add(&shared->thread_failures, 1, __ATOMIC_RELAXED);
			continue;
		}
		n++;
		__atomic_fetch_add(&shared->threads, 1, __ATOMIC_RELAXED);
	}
	if (join)
		for (int i = 0; i < n; i++)
			pthread_join(t[i], NULL);
	else
		burn_us(50); /* let some of them get going */
	_exit(0);
}

enum kind { PLAIN, EXEC, HOLDER_JOIN, HOLDER_LEAVE, MOVER };

/* Charged where it started first, then into move_to, then exit. */
static void mover(void)
{
	struct timespec ms = { 0, 1000000L };
	char path[4096], pid[16];
	int fd, n;
	bool ok;

	nanosleep(&ms, NULL);
	snprintf(path, sizeof(path), "%s/cgroup.procs", move_to);
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	ok = fd >= 0 && write(fd, pid, n) == n;
	if (fd >= 0)
		close(fd);
	__atomic_fetch_add(ok ? &shared->moved : &shared->move_failures, 1, __ATOMIC_RELAXED);
	burn_us(BURN_US);
	_exit(0);
}

static void child(enum kind k)
{
	char *argv[] = { "/bin/true", NULL };

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	switch (k) {
	case EXEC:
		execv(argv[0], argv);
		_exit(127);
	case HOLDER_JOIN:
	case HOLDER_LEAVE:
		holder(k == HOLDER_JOIN);
		break;
	case MOVER:
		mover();
		break;
	default:
		burn_us(BURN_US);
		_exit(0);
	}
}

static void record(pid_t pid)
{
	seen[nr_seen++] = pid;
	printf("pid %d\n", (int)pid);
}

static pid_t spawn(enum kind k)
{
	pid_t pid = fork();

	if (pid == 0)
		child(k);
	if (pid < 0) {
		failed++;
		return -1;
	}
	record(pid);
	return pid;
}

/* A plain child at exactly @pid, which must be free: 0, or -errno. */
static int spawn_at(pid_t pid)
{
	struct clone_args args = {
		.exit_signal = SIGCHLD,
		.set_tid = (uintptr_t)&pid,
		.set_tid_size = 1,
	};
	long r = syscall(SYS_clone3, &args, sizeof(args));

	if (r == 0)
		child(PLAIN);
	if (r < 0)
		return -errno;
	record(r);
	printf("reuse %d\n", (int)r);
	return 0;
}

static void reap_all(void)
{
	while (wait(NULL) > 0 || errno == EINTR)
		;
}

static int cmp_pid(const void *a, const void *b)
{
	return *(const pid_t *)a - *(const pid_t *)b;
}

static void usage(void)
{
	fprintf(stderr, "usage: churn [-p PROCS] [-t THREADS] [-e EXECS] [-r REUSES] "
			"[-m CGROUP -M MOVERS] [-w WAVES] [-d MS]\n");
	exit(2);
}

/* Wave w of @waves gets its share of @total, the remainder spread over the first ones. */
static long share(long total, int w, int waves)
{
	return total / waves + (w < total % waves);
}

int main(int argc, char **argv)
{
	long procs = 6000, threads = 4000, execs = 600, reuses = 300, movers = 0, ms = 12000;
	long reused = 0, natural = 0, reuse_errors = 0;
	int waves = 24, opt, last_errno = 0;
	pid_t *prev_wave = NULL, *this_wave;
	size_t nr_prev = 0, nr_this;
	struct timespec start, next;
	char go;

	while ((opt = getopt(argc, argv, "p:t:e:r:m:M:w:d:")) != -1) {
		long v = strtol(optarg, NULL, 10);

		switch (opt) {
		case 'p':
			procs = v;
			break;
		case 't':
			threads = v;
			break;
		case 'e':
			execs = v;
			break;
		case 'r':
			reuses = v;
			break;
		case 'm':
			move_to = optarg;
			break;
		case 'M':
			movers = v;
			break;
		case 'w':
			waves = v;
			break;
		case 'd':
			ms = v;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || waves < 2 || ms < 0 || execs < 0 || threads < 0 || reuses < 0 ||
	    movers < 0 || (movers && !move_to) ||
	    procs < execs + threads / THREADS_PER_HOLDER + reuses + movers)
		usage();

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		      0);
	seen = calloc(procs + 1, sizeof(*seen));
	this_wave = calloc(procs + 1, sizeof(*this_wave));
	prev_wave = calloc(procs + 1, sizeof(*prev_wave));
	if (shared == MAP_FAILED || !seen || !this_wave || !prev_wave) {
		perror("churn: memory");
		return 1;
	}
	/* Children never flush: only the parent's own buffer reaches stdout. */
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (read(0, &go, 1) != 1)
		return 3;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int w = 0; w < waves; w++) {
		long holders = share(threads / THREADS_PER_HOLDER, w, waves);
		long n_exec = share(execs, w, waves), n_reuse = share(reuses, w, waves);
		long n_move = share(movers, w, waves);
		long n_plain = share(procs - execs - threads / THREADS_PER_HOLDER - reuses - movers,
				     w, waves);
		size_t late = 0, early = 0;

		nr_this = 0;
		for (long i = 0; i < n_plain; i++) {
			pid_t pid = spawn(PLAIN);

			if (pid > 0)
				this_wave[nr_this++] = pid;
		}
		for (long i = 0; i < n_exec; i++)
			spawn(EXEC);
		for (long i = 0; i < holders; i++)
			spawn(i % 2 ? HOLDER_LEAVE : HOLDER_JOIN);
		for (long i = 0; i < n_move; i++)
			spawn(MOVER);

		/* Last wave's children were reaped: their PIDs are free unless taken since. */
		for (long i = 0; i < n_reuse; i++) {
			bool now = i % 2 == 0 || late >= nr_prev;
			int err = -EEXIST;

			if (now && early < nr_this) {
				/* One of this wave's, reaped now: its PID is free again. */
				pid_t pid = this_wave[early++];

				if (waitpid(pid, NULL, 0) == pid)
					err = spawn_at(pid);
			} else {
				while (late < nr_prev &&
				       (err = spawn_at(prev_wave[late++])) == -EEXIST)
					;
			}
			if (err) {
				reuse_errors++;
				last_errno = -err;
			} else {
				reused++;
			}
		}
		reap_all();
		memcpy(prev_wave, this_wave, nr_this * sizeof(*this_wave));
		nr_prev = nr_this;

		/* The next wave starts on time, however long this one took. */
		next = start;
		next.tv_sec += (long)ms * (w + 1) / waves / 1000;
		next.tv_nsec += (long)ms * (w + 1) / waves % 1000 * 1000000L;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		while (w + 1 < waves &&
		       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}

	qsort(seen, nr_seen, sizeof(*seen), cmp_pid);
	for (size_t i = 1; i < nr_seen; i++)
		natural += seen[i] == seen[i - 1];
	natural -= reused;
	if (reuse_errors)
		fprintf(stderr, "churn: %ld reuses failed, last: %s\n", reuse_errors,
			strerror(last_errno));
	failed += reuse_errors + shared->thread_failures + shared->move_failures;
	printf("churn processes %zu threads %ld execs %ld reused %ld moved %ld natural %ld "
	       "failed %ld\n",
	       nr_seen, shared->threads, execs, reused, shared->moved, natural, failed);
	return fflush(stdout) || failed ? 1 : 0;
}
