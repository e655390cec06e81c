// SPDX-License-Identifier: GPL-2.0
/*
 * A slow reader: tdtrace --json -I 100 writes into a pipe (shrunk to one
 * page, so that it fills at once) that is read one byte every 10 ms for 2
 * s, then as fast as it comes for 1.5 s, then closed. tdtrace spends the
 * slow part blocked in write(2). What was read must be whole lines (up to
 * the point where the reader closed), with no interval missing (their
 * numbers consecutive, their elapsed times without a hole), each one
 * conserved; one interval covers the time tdtrace was blocked. The closed
 * pipe then ends the run quietly with exit 0 (README: a reader that goes
 * away is fine) and nothing stays attached. Needs root and BPF; skips
 * without.
 */
#include "faults.h"

#define SLOW_MS 2000
#define BYTE_MS 10
#define FAST_MS 1500
#define END_MS	5000

static struct itest_proc td;

static int setup(void **state)
{
	itest_proc_init(&td);
	return 0;
}

static int teardown(void **state)
{
	itest_proc_release(&td);
	itest_cleanup();
	return 0;
}

struct text {
	char *s;
	size_t len, cap;
};

static void append(struct text *t, const char *p, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	memcpy(t->s + t->len, p, n);
	t->len += n;
	t->s[t->len] = '\0';
}

/* Read up to @max bytes from @fd into @t, waiting at most @wait_ms. Returns bytes read. */
static ssize_t read_some(int fd, struct text *t, size_t max, int wait_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[65536];
	ssize_t n;

	if (poll(&pfd, 1, wait_ms) <= 0)
		return 0;
	n = read(fd, buf, max < sizeof(buf) ? max : sizeof(buf));
	if (n > 0)
		append(t, buf, n);
	return n;
}

static void test_slow_reader(void **state)
{
	static const char *const args[] = { "--software", "--json", "-I", "100", NULL };
	struct text got = { 0 };
	struct itest_bpf_ids ids;
	long long end, prev_nr = 0, slow_bytes = 0;
	double prev_elapsed = 0, longest = 0;
	json_t *lines, *o;
	char *err, *cut;
	size_t i;
	int code;

	fault_start(&td, ITEST_STDOUT_PIPE, args, &ids);
	/* One page: tdtrace blocks on its first interval or so, not after 64 KiB. */
	if (fcntl(td.out_pipe, F_SETPIPE_SZ, 4096) < 0)
		fail_msg("failed to shrink the pipe: %s", strerror(errno));

	for (end = itest_now_ms() + SLOW_MS; itest_now_ms() < end;) {
		slow_bytes += read_some(td.out_pipe, &got, 1, 1000);
		itest_sleep_ms(BYTE_MS);
	}
	for (end = itest_now_ms() + FAST_MS; itest_now_ms() < end;)
		read_some(td.out_pipe, &got, 65536, 100);
	assert_false(itest_poll_exit(&td));
	close(td.out_pipe);
	td.out_pipe = -1;

	code = itest_wait(&td, END_MS) ? -1 : itest_exit_code(&td);
	err = itest_stderr(&td);
	if (!err)
		fail_msg("cannot read tdtrace's stderr");
	print_message("read %zu bytes (%lld slowly); exit %d; stderr: %s", got.len, slow_bytes,
		      code, err);
	if (code != 0)
		fail_msg("exit %d after the reader closed the pipe (want 0)", code);
	if (strstr(err, "failed"))
		fail_msg("a closed pipe is not a failure; stderr: %s", err);

	/* The reader closed where it liked: only what comes before the last newline counts. */
	assert_non_null(got.s);
	cut = strrchr(got.s, '\n');
	assert_non_null(cut);
	cut[1] = '\0';
	lines = fault_lines(got.s);
	json_array_foreach(lines, i, o)
	{
		long long nr;
		double d, e;

		if (!itest_jis(o, "type", "system"))
			continue;
		nr = itest_jint(o, "interval");
		d = itest_jnum(o, "duration_s");
		e = itest_jnum(o, "elapsed_s");
		if (nr != prev_nr + 1)
			fail_msg("interval %lld follows interval %lld: lost in between", nr,
				 prev_nr);
		if (e - prev_elapsed - d > 0.005 || e - prev_elapsed - d < -0.005)
			fail_msg("interval %lld: elapsed %.3f s after %.3f s, but duration %.3f s",
				 nr, e, prev_elapsed, d);
		longest = d > longest ? d : longest;
		prev_nr = nr;
		prev_elapsed = e;
	}
	print_message("%lld intervals read, the longest %.3f s\n", prev_nr, longest);
	/* Blocked for most of the slow part: else this test tested nothing. */
	if (longest < SLOW_MS / 2000.0)
		fail_msg("no interval longer than %.1f s: the slow reader never held tdtrace back",
			 SLOW_MS / 2000.0);
	if (prev_nr < 5)
		fail_msg("only %lld intervals read", prev_nr);
	json_decref(lines);
	free(got.s);
	free(err);
	fault_assert_detached(&ids);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_slow_reader, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
