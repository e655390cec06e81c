// SPDX-License-Identifier: GPL-2.0
/*
 * The integration tests' helpers, declared (and described) in itest.h:
 * compiled once, linked into every integration and fault test.
 */
#include "itest.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

long long itest_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

void itest_sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

bool itest_is_root(void)
{
	return geteuid() == 0;
}

const char *itest_tdtrace_path(void)
{
	const char *p = getenv("TDTRACE");

	return p && *p ? p : "build/tdtrace";
}

/* Every helper path handed out: one per name, kept while the test runs. */
struct itest_helper {
	struct itest_helper *next;
	const char *name; /* the last part of path */
	char path[];
};

static struct itest_helper *itest_helpers;

const char *itest_helper_path(const char *name)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;
	struct itest_helper *h;
	size_t dir_len;

	for (h = itest_helpers; h; h = h->next)
		if (!strcmp(h->name, name))
			return h->path;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return name;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return name;
	*slash = '\0';
	dir_len = slash - exe;
	h = malloc(sizeof(*h) + dir_len + 1 + strlen(name) + 1);
	if (!h)
		return name;
	sprintf(h->path, "%s/%s", exe, name);
	h->name = h->path + dir_len + 1;
	h->next = itest_helpers;
	itest_helpers = h;
	return h->path;
}

char *itest_read_fd(int fd)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	ssize_t n;

	if (!buf)
		return NULL;
	for (;;) {
		if (len + 1 >= cap) {
			char *p = realloc(buf, cap * 2);

			if (!p) {
				free(buf);
				return NULL;
			}
			buf = p;
			cap *= 2;
		}
		n = pread(fd, buf + len, cap - len - 1, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	return buf;
}

char *itest_read_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *s;

	if (fd < 0)
		return NULL;
	s = itest_read_fd(fd);
	close(fd);
	return s;
}

int itest_tmpfile(void)
{
	char path[] = "/tmp/tdtrace-itest-XXXXXX";
	int fd = mkostemp(path, O_CLOEXEC);

	if (fd >= 0)
		unlink(path);
	return fd;
}

int itest_count_lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* Children itest_spawn started and nobody has reaped yet. */
static pid_t itest_children[ITEST_MAX_CHILDREN];

void itest_track(pid_t pid)
{
	for (int i = 0; i < ITEST_MAX_CHILDREN; i++) {
		if (!itest_children[i]) {
			itest_children[i] = pid;
			return;
		}
	}
}

void itest_untrack(pid_t pid)
{
	for (int i = 0; i < ITEST_MAX_CHILDREN; i++)
		if (itest_children[i] == pid)
			itest_children[i] = 0;
}

void itest_proc_init(struct itest_proc *p)
{
	memset(p, 0, sizeof(*p));
	p->out_fd = p->out_pipe = p->err_fd = p->in_pipe = -1;
}

void itest_child_exec(char *const argv[], int flags, pid_t parent, int in, int out, int err)
{
	int devnull = open("/dev/null", O_RDONLY);

	/* Die with the test binary, whatever happens to it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	if (in < 0)
		in = devnull;
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	if (flags & ITEST_DROP_ROOT) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(125);
	}
	execv(argv[0], argv);
	_exit(127);
}

int itest_spawn(struct itest_proc *p, char *const argv[], int flags)
{
	int outp[2] = { -1, -1 }, inp[2] = { -1, -1 };
	pid_t parent = getpid();
	int out, err = 0;

	itest_proc_init(p);
	p->err_fd = itest_tmpfile();
	if (p->err_fd < 0)
		return -errno;
	if (flags & ITEST_STDOUT_PIPE) {
		if (pipe2(outp, O_CLOEXEC))
			return -errno;
		p->out_pipe = outp[0];
		out = outp[1];
	} else {
		p->out_fd = itest_tmpfile();
		if (p->out_fd < 0)
			return -errno;
		out = p->out_fd;
	}
	if ((flags & ITEST_STDIN_PIPE) && pipe2(inp, O_CLOEXEC))
		err = -errno;
	p->in_pipe = inp[1];

	if (!err) {
		fflush(NULL);
		p->pid = fork();
		if (p->pid < 0)
			err = -errno;
		else if (p->pid == 0)
			itest_child_exec(argv, flags, parent, inp[0], out, p->err_fd);
		else
			itest_track(p->pid);
	}
	/* The child's ends: the parent must not hold them (EOF, EPIPE). */
	if (outp[1] >= 0)
		close(outp[1]);
	if (inp[0] >= 0)
		close(inp[0]);
	return err;
}

bool itest_poll_exit(struct itest_proc *p)
{
	pid_t r;

	if (p->reaped)
		return true;
	r = waitpid(p->pid, &p->status, WNOHANG);
	if (r == p->pid) {
		p->reaped = true;
		itest_untrack(p->pid);
	}
	return p->reaped;
}

int itest_wait(struct itest_proc *p, long timeout_ms)
{
	long long end = itest_now_ms() + timeout_ms;

	while (!itest_poll_exit(p)) {
		if (itest_now_ms() >= end)
			return -ETIMEDOUT;
		itest_sleep_ms(5);
	}
	return 0;
}

int itest_wait_nowait(struct itest_proc *p, long timeout_ms)
{
	long long end = itest_now_ms() + timeout_ms;
	siginfo_t si;

	for (;;) {
		memset(&si, 0, sizeof(si));
		if (!waitid(P_PID, p->pid, &si, WEXITED | WNOWAIT | WNOHANG) && si.si_pid == p->pid)
			return 0;
		if (itest_now_ms() >= end)
			return -ETIMEDOUT;
		itest_sleep_ms(2);
	}
}

int itest_exit_code(const struct itest_proc *p)
{
	if (!p->reaped)
		return -1;
	if (WIFEXITED(p->status))
		return WEXITSTATUS(p->status);
	if (WIFSIGNALED(p->status))
		return 128 + WTERMSIG(p->status);
	return -1;
}

void itest_proc_release(struct itest_proc *p)
{
	if (p->pid > 0 && !p->reaped) {
		kill(p->pid, SIGKILL);
		if (waitpid(p->pid, &p->status, 0) == p->pid)
			p->reaped = true;
		itest_untrack(p->pid);
	}
	if (p->out_fd >= 0)
		close(p->out_fd);
	if (p->out_pipe >= 0)
		close(p->out_pipe);
	if (p->err_fd >= 0)
		close(p->err_fd);
	if (p->in_pipe >= 0)
		close(p->in_pipe);
	p->out_fd = p->out_pipe = p->err_fd = p->in_pipe = -1;
}

char *itest_stdout(const struct itest_proc *p)
{
	return p->out_fd >= 0 ? itest_read_fd(p->out_fd) : strdup("");
}

char *itest_stderr(const struct itest_proc *p)
{
	return itest_read_fd(p->err_fd);
}

bool itest_early_exit(struct itest_proc *td, char *skip, size_t skip_len, char *error,
		      size_t error_len)
{
	char *e = itest_stderr(td);
	bool can_not_run = itest_exit_code(td) == 1 && e && (strstr(e, "BPF") || strstr(e, "BTF"));

	if (can_not_run)
		snprintf(skip, skip_len, "tdtrace --software cannot load its BPF programs here: %s",
			 e);
	else
		snprintf(error, error_len, "%s exited %d before counting; stderr: %s",
			 itest_tdtrace_path(), itest_exit_code(td), e ? e : "");
	free(e);
	itest_proc_release(td);
	return can_not_run;
}

int itest_run(struct itest_proc *p, char *const argv[], int flags, long timeout_ms)
{
	int err = itest_spawn(p, argv, flags);

	if (err)
		return err;
	err = itest_wait(p, timeout_ms);
	if (err) {
		kill(p->pid, SIGKILL);
		itest_wait(p, 2000);
	}
	return err;
}

void itest_tdtrace_argv(char *argv[], int max, const char *const args[])
{
	int n = 0;

	argv[n++] = (char *)itest_tdtrace_path();
	for (; *args && n < max - 1; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
}

int itest_tdtrace_run(struct itest_proc *p, int flags, long timeout_ms, const char *const args[])
{
	char *argv[32];

	itest_tdtrace_argv(argv, 32, args);
	return itest_run(p, argv, flags, timeout_ms);
}

bool itest_one_error_line(const char *s)
{
	return s && !strncmp(s, "tdtrace: ", 9) && itest_count_lines(s) == 1 &&
	       s[strlen(s) - 1] == '\n';
}

int itest_tdtrace_start(struct itest_proc *p, int flags, long timeout_ms, const char *const args[])
{
	char *argv[32];
	long long end;
	int err;

	itest_tdtrace_argv(argv, 32, args);
	err = itest_spawn(p, argv, flags);
	if (err)
		return err;

	end = itest_now_ms() + timeout_ms;
	for (;;) {
		char *e = itest_stderr(p);
		bool counting = e && strstr(e, "counting");

		free(e);
		if (counting)
			return 0;
		if (itest_poll_exit(p))
			return -ECHILD;
		if (itest_now_ms() >= end)
			return -ETIMEDOUT;
		itest_sleep_ms(10);
	}
}

int itest_signal_and_wait(struct itest_proc *p, int sig, long timeout_ms)
{
	if (!p->reaped)
		kill(p->pid, sig);
	if (itest_wait(p, timeout_ms))
		return -1;
	return itest_exit_code(p);
}

int itest_cgroup2_mount(char *path, size_t len)
{
	return cgroup2_find_mount("/proc/self/mountinfo", path, len);
}

/* Cgroups itest_cgroup_make made: itest_cleanup removes what is left. */
static char itest_cgroups[ITEST_MAX_CGROUPS][PATH_MAX];

int itest_cgroup_make(const char *name, char *path, size_t len)
{
	char mnt[PATH_MAX];
	int err = itest_cgroup2_mount(mnt, sizeof(mnt));

	if (err)
		return err;
	if ((size_t)snprintf(path, len, "%s/%s-%d", mnt, name, (int)getpid()) >= len)
		return -ENAMETOOLONG;
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	for (int i = 0; i < ITEST_MAX_CGROUPS; i++) {
		if (!itest_cgroups[i][0]) {
			snprintf(itest_cgroups[i], PATH_MAX, "%s", path);
			break;
		}
	}
	return 0;
}

int itest_cgroup_remove(const char *path)
{
	long long end = itest_now_ms() + 2000;

	while (rmdir(path)) {
		if (errno == ENOENT)
			break;
		if (errno != EBUSY || itest_now_ms() >= end)
			return -errno;
		itest_sleep_ms(10);
	}
	for (int i = 0; i < ITEST_MAX_CGROUPS; i++)
		if (!strcmp(itest_cgroups[i], path))
			itest_cgroups[i][0] = '\0';
	return 0;
}

int itest_cgroup_move(const char *path, pid_t pid)
{
	char file[PATH_MAX + 16], buf[32];
	int fd, n, ret = 0;

	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	fd = open(file, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%d\n", (int)pid);
	if (write(fd, buf, n) != n)
		ret = -errno;
	close(fd);
	return ret;
}

uint64_t itest_inode(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

int itest_cgroup_usage_usec(const char *path, uint64_t *usec)
{
	char file[PATH_MAX + 16];
	char *text, *p;
	int ret = -ENOENT;

	snprintf(file, sizeof(file), "%s/cpu.stat", path);
	text = itest_read_file(file);
	if (!text)
		return -errno;
	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long v;

		if (sscanf(p, "usage_usec %llu", &v) == 1) {
			*usec = v;
			ret = 0;
			break;
		}
	}
	free(text);
	return ret;
}

int itest_schedstat_ns(pid_t pid, uint64_t *ns)
{
	char file[64];
	unsigned long long v;
	char *text;
	int ret;

	snprintf(file, sizeof(file), "/proc/%d/schedstat", (int)pid);
	text = itest_read_file(file);
	if (!text)
		return -errno;
	ret = sscanf(text, "%llu", &v) == 1 ? 0 : -EINVAL;
	if (!ret)
		*ns = v;
	free(text);
	return ret;
}

uint64_t itest_steal_ns(void)
{
	unsigned long long f[8] = { 0 };
	char *text = itest_read_file("/proc/stat");
	long hz = sysconf(_SC_CLK_TCK);

	if (!text)
		return 0;
	/* cpu  user nice system idle iowait irq softirq steal */
	if (sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3],
		   &f[4], &f[5], &f[6], &f[7]) != 8)
		f[7] = 0;
	free(text);
	return hz > 0 ? f[7] * (1000000000ULL / (uint64_t)hz) : 0;
}

double itest_tolerance_pct(double pct, double want_ns, uint64_t steal_ns)
{
	return want_ns > 0 ? pct + 100.0 * (double)steal_ns / want_ns : pct;
}

void itest_kill_children(void)
{
	for (int i = 0; i < ITEST_MAX_CHILDREN; i++) {
		pid_t pid = itest_children[i];

		if (!pid)
			continue;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		itest_children[i] = 0;
	}
}

void itest_cleanup(void)
{
	itest_kill_children();
	for (int i = 0; i < ITEST_MAX_CGROUPS; i++)
		if (itest_cgroups[i][0])
			itest_cgroup_remove(itest_cgroups[i]);
}

json_t *itest_parse_jsonl(const char *text, int *bad)
{
	json_t *all = json_array();
	int lineno = 0;

	*bad = 0;
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		json_error_t e;
		json_t *obj;

		lineno++;
		obj = json_loadb(text, len, 0, &e);
		if (!json_is_object(obj)) {
			json_decref(obj);
			if (!*bad)
				*bad = lineno;
		} else {
			json_array_append_new(all, obj);
		}
		text = nl ? nl + 1 : text + len;
	}
	return all;
}

const char *itest_jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

long long itest_jint(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

double itest_jnum(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : __builtin_nan("");
}

long long itest_jcount(const json_t *o, const char *obj, const char *key)
{
	return itest_jint(json_object_get(o, obj), key);
}

bool itest_jis(const json_t *o, const char *key, const char *value)
{
	const char *s = itest_jstr(o, key);

	return s && !strcmp(s, value);
}

void itest_add_id(unsigned int *ids, int *nr, unsigned int id)
{
	for (int i = 0; i < *nr; i++)
		if (ids[i] == id)
			return;
	if (*nr < ITEST_MAX_IDS)
		ids[(*nr)++] = id;
}

int itest_bpf_ids_of(pid_t pid, struct itest_bpf_ids *ids)
{
	char dir[64];
	struct dirent *d;
	DIR *fds;

	memset(ids, 0, sizeof(*ids));
	snprintf(dir, sizeof(dir), "/proc/%d/fdinfo", (int)pid);
	fds = opendir(dir);
	if (!fds)
		return -errno;
	while ((d = readdir(fds))) {
		char file[PATH_MAX], *text, *p;
		unsigned int id;

		if (d->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s", dir, d->d_name);
		text = itest_read_file(file);
		if (!text)
			continue;
		if ((p = strstr(text, "\nprog_id:")) && sscanf(p, "\nprog_id: %u", &id) == 1)
			itest_add_id(ids->prog, &ids->nr_progs, id);
		if ((p = strstr(text, "\nmap_id:")) && sscanf(p, "\nmap_id: %u", &id) == 1)
			itest_add_id(ids->map, &ids->nr_maps, id);
		free(text);
	}
	closedir(fds);
	return 0;
}

bool itest_id_in(const unsigned int *ids, int nr, unsigned int id)
{
	for (int i = 0; i < nr; i++)
		if (ids[i] == id)
			return true;
	return false;
}

json_t *itest_bpftool_show(const char *kind)
{
	char cmd[64];
	json_error_t e;
	json_t *all;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "bpftool -j %s show 2>/dev/null", kind);
	f = popen(cmd, "r");
	if (!f)
		return NULL;
	all = json_loadf(f, JSON_DISABLE_EOF_CHECK, &e);
	if (pclose(f) != 0 || !json_is_array(all)) {
		json_decref(all);
		return NULL;
	}
	return all;
}

int itest_td_objects(const char *kind, const unsigned int *only, int nr, char *names, size_t len)
{
	json_t *all, *o;
	size_t i;
	int n = 0;

	if (names && len)
		names[0] = '\0';
	all = itest_bpftool_show(kind);
	if (!all)
		return -1;
	json_array_foreach(all, i, o)
	{
		const char *name = itest_jstr(o, "name");
		long long id = itest_jint(o, "id");

		if (!name || strncmp(name, "td_", 3))
			continue;
		if (only && !itest_id_in(only, nr, (unsigned int)id))
			continue;
		n++;
		if (names && strlen(names) + strlen(name) + 16 < len)
			sprintf(names + strlen(names), "%s%s(%lld)", n > 1 ? " " : "", name, id);
	}
	json_decref(all);
	return n;
}

int itest_wait_td_gone(const struct itest_bpf_ids *ids, long timeout_ms, char *left, size_t len)
{
	long long end = itest_now_ms() + timeout_ms;
	char maps[1024];

	for (;;) {
		int p = itest_td_objects("prog", ids ? ids->prog : NULL, ids ? ids->nr_progs : 0,
					 left, len);
		int m = itest_td_objects("map", ids ? ids->map : NULL, ids ? ids->nr_maps : 0, maps,
					 sizeof(maps));

		if (p < 0 || m < 0)
			return -1;
		if ((p == 0 && m == 0) || itest_now_ms() >= end) {
			if (m && strlen(left) + strlen(maps) + 2 < len)
				sprintf(left + strlen(left), "%s%s", p ? " " : "", maps);
			return p + m;
		}
		itest_sleep_ms(50);
	}
}

int itest_td_ids_of(pid_t pid, struct itest_bpf_ids *ids)
{
	struct itest_bpf_ids all;
	int p, m;

	if (itest_bpf_ids_of(pid, &all))
		return -1;
	*ids = all;
	p = itest_td_objects("prog", all.prog, all.nr_progs, NULL, 0);
	m = itest_td_objects("map", all.map, all.nr_maps, NULL, 0);
	return p > 0 && m > 0 ? 0 : -1;
}

bool itest_have_bpftool(void)
{
	return system("bpftool version >/dev/null 2>&1") == 0;
}

int itest_cgroup_mkdir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int itest_schedstat_process_ns(pid_t pid, uint64_t *ns, int *nr_threads)
{
	char dir[64];
	struct dirent *d;
	DIR *tasks;
	int n = 0, ret = 0;

	*ns = 0;
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	tasks = opendir(dir);
	if (!tasks)
		return -errno;
	while ((d = readdir(tasks))) {
		char file[PATH_MAX];
		unsigned long long v;
		char *text;

		if (d->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s/schedstat", dir, d->d_name);
		text = itest_read_file(file);
		if (!text || sscanf(text, "%llu", &v) != 1) {
			ret = -EINVAL;
			free(text);
			break;
		}
		free(text);
		*ns += v;
		n++;
	}
	closedir(tasks);
	if (nr_threads)
		*nr_threads = n;
	return ret;
}

long long itest_bpf_max_id(const char *kind)
{
	char cmd[64];
	json_error_t e;
	json_t *all, *o;
	long long max = 0;
	size_t i;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "bpftool -j %s show 2>/dev/null", kind);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	all = json_loadf(f, JSON_DISABLE_EOF_CHECK, &e);
	if (pclose(f) != 0 || !json_is_array(all)) {
		json_decref(all);
		return -1;
	}
	json_array_foreach(all, i, o)
	{
		if (itest_jint(o, "id") > max)
			max = itest_jint(o, "id");
	}
	json_decref(all);
	return max;
}

bool itest_bpf_id_held(bool map, unsigned int id)
{
	struct dirent *d;
	DIR *proc = opendir("/proc");
	bool held = false;

	while (proc && !held && (d = readdir(proc))) {
		struct itest_bpf_ids one;
		int pid = atoi(d->d_name);

		if (pid <= 0 || itest_bpf_ids_of(pid, &one))
			continue;
		held = map ? itest_id_in(one.map, one.nr_maps, id)
			   : itest_id_in(one.prog, one.nr_progs, id);
	}
	if (proc)
		closedir(proc);
	return held;
}

int itest_wait_td_orphans_gone(long long min_prog, long long min_map, long timeout_ms, char *left,
			       size_t len)
{
	long long end = itest_now_ms() + timeout_ms;

	for (;;) {
		const char *kinds[] = { "prog", "map" };
		int total = 0;

		if (left && len)
			left[0] = '\0';
		for (int k = 0; k < 2; k++) {
			long long min = k ? min_map : min_prog;
			json_t *all = itest_bpftool_show(kinds[k]), *o;
			size_t i;

			if (!all)
				return -1;
			json_array_foreach(all, i, o)
			{
				const char *name = itest_jstr(o, "name");
				long long id = itest_jint(o, "id");

				if (!name || strncmp(name, "td_", 3) || id <= min)
					continue;
				if (itest_bpf_id_held(k, (unsigned int)id))
					continue; /* someone else's tdtrace, still running */
				total++;
				if (left && strlen(left) + strlen(name) + 24 < len)
					sprintf(left + strlen(left), "%s%s(%lld)", *left ? " " : "",
						name, id);
			}
			json_decref(all);
		}
		if (total == 0 || itest_now_ms() >= end)
			return total;
		itest_sleep_ms(50);
	}
}

/* ------------------------------------------------------------- network */

int itest_free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}
