// SPDX-License-Identifier: GPL-2.0
/*
 * Kubernetes names with a real container runtime: podman (runc) runs
 * busybox containers from a root file system made here (no image, no
 * registry), with the OCI annotations that Kubernetes' runtimes write:
 *
 *   A  containerd's CRI plugin (io.kubernetes.cri.*), in pod P, under
 *      --cgroup-parent=/kubepods/burstable/pod<uid> as kubelet's cgroupfs
 *      driver places it;
 *   S  P's sandbox (pause) container, sleeping;
 *   B  CRI-O's (io.kubernetes.pod.*, container.name), in pod Q;
 *   D  a plain podman container, no annotations: not Kubernetes;
 *
 * and a spinner of the test's own runs in P's own cgroup, as conmon does
 * under CRI-O's cgroupfs driver. tdtrace --software --containers, as JSON,
 * as the table and as /metrics (--listen on 127.0.0.1), and with
 * --group-by=pod and --group-by=namespace, runs while they spin: each is
 * named namespace/pod/container (POD for the sandbox, namespace/pod for
 * P's own cgroup, nothing for D), and its CPU time matches its cgroup's
 * cpu.stat usage_usec within 2% plus the hypervisor's steal. What each
 * --json run printed is read back by `tdtrace report`, and by jansson.
 *
 * Then hostile state files: tdtrace reads a copy of podman's storage dir
 * (--runtime-root) in which one container's config.json is a symlink,
 * one's is over the size limit, one's is malformed, and one's is intact.
 * Only the names are lost: counts still right, one stderr line per file,
 * exit 0.
 *
 * Spinning containers wait on a gate (a FIFO in a directory bind-mounted
 * at /go, read with no CPU time spent), spin for SPIN_S seconds, say so in
 * /go and sleep. Needs root, podman,
 * runc, a static busybox and BPF; skips with the reason otherwise. The
 * teardown removes the containers, their pod cgroups (in every hierarchy
 * podman made them in) and the temporary directory.
 */
#include "itest.h"

#include <elf.h>
#include <ftw.h>
#include <math.h>

#define TOLERANCE_PCT 2.0
#define START_MS      5000
#define STOP_MS	      5000
#define PODMAN_MS     30000 /* one podman command, on a loaded machine */
#define DONE_MS	      20000 /* the containers' spin, from the gate */
#define SPIN_S	      "2"   /* seconds each container spins (wall time) */
#define MIN_SPIN_NS   100e6 /* what a spinner must have had to be a fair test */

/* ---------------------------------------------------------------- state */

#define MAX_CTRS 8
#define MAX_PODS 4
#define MAX_RUNS 4

struct ctr {
	char name[64];	       /* podman --name */
	char id[72];	       /* podman's 64 hex digits */
	char rel[PATH_MAX];    /* its cgroup, relative to the cgroup2 mount */
	char cg[2 * PATH_MAX]; /* its cgroup, absolute */
	bool spins;	       /* waits on the gate, spins, writes /go/<name>.done */
	uint64_t base_usec;    /* usage_usec when the gate opened */
	uint64_t usec;	       /* usage_usec once done, less base_usec */
};

struct run {
	struct itest_proc p;
	char port[8];
	char *out, *err, *metrics;
	json_t *lines;
	int bad;
};

static struct ctr ctrs[MAX_CTRS];
static int nr_ctrs;
static struct run runs[MAX_RUNS];
static int nr_runs;
static struct itest_proc pod_spin;

/* Pod cgroups podman made (mount-relative), removed in every hierarchy. */
static char pods[MAX_PODS][128];
static int nr_pods;
/* Parents podman would make if missing: removed if they were not there. */
static const char *const pod_parents[] = { "/kubepods/burstable", "/kubepods" };
static bool parent_existed[2];

static char tmpdir[64];
static char mnt[PATH_MAX];
static char podman_path[PATH_MAX], busybox_path[PATH_MAX], curl_path[PATH_MAX];
static uint64_t steal_at_start;

/* -------------------------------------------------------------- helpers */

/* An executable @name in $PATH or the sbin directories, into @out. */
static bool find_exe(const char *name, char *out, size_t len)
{
	const char *env = getenv("PATH");
	char path[4096], *save = NULL, *dir;

	snprintf(path, sizeof(path), "%s:/usr/sbin:/sbin:/usr/bin:/bin", env ? env : "");
	for (dir = strtok_r(path, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", dir, name);
		if (*dir && !access(out, X_OK))
			return true;
	}
	return false;
}

/* Is @path an ELF executable without a program interpreter (static)? */
static bool is_static_elf(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	bool interp = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
		close(fd);
		return false;
	}
	for (int i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * eh.e_phentsize) !=
		    sizeof(ph))
			break;
		interp |= ph.p_type == PT_INTERP;
	}
	close(fd);
	return !interp;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static void write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		fail_msg("cannot create %s: %s", path, strerror(errno));
	if (write(fd, data, len) != (ssize_t)len)
		fail_msg("cannot write %s: %s", path, strerror(errno));
	close(fd);
}

static double error_pct(double got, double want)
{
	return want > 0 ? 100.0 * (got - want) / want : INFINITY;
}

static double tolerance(double want_ns)
{
	return itest_tolerance_pct(TOLERANCE_PCT, want_ns, itest_steal_ns() - steal_at_start);
}

/*
 * @what's CPU time @got_ns against @want_ns (cpu.stat): within 2% plus
 * steal, plus SWITCH_NS for each of the row's @slices. The kernel charges
 * a task up to the run-queue clock taken as __schedule() begins; tdtrace
 * up to its BPF program's read on sched_switch, later in the same switch
 * (after the pick, and after the programs of every other tracer attached
 * before it: four runs of tdtrace here, and the other users'). Seen here,
 * always tdtrace's way: 2 to 9 us a slice with a light load, up to about
 * 30 us with a load of 5 on 2 CPUs, where a spinner gets slices of a few
 * ms. A container's start (runc's Go threads) is hundreds of short slices:
 * under make sanitize's load a sandbox's start came out +8.6 ms over 287
 * slices (30 us each). This VM reports no steal, so a vCPU held by the
 * host inside a switch lands here too. 40 us a slice covers what was seen.
 */
#define SWITCH_NS 40000.0

/* A JSON row's slices, for check_cpu(). */
static long long slices_of(const json_t *row)
{
	long long n = itest_jint(row, "slices");

	return n > 0 ? n : 0;
}

static void check_cpu(const char *what, double got_ns, double want_ns, long long slices)
{
	double err = error_pct(got_ns, want_ns);
	double tol = tolerance(want_ns) + (want_ns > 0 ? 100.0 * SWITCH_NS * slices / want_ns : 0);

	print_message("%-44s %12.0f ns, want %12.0f ns: %+.3f%% (tolerance %.2f%%)\n", what, got_ns,
		      want_ns, err, tol);
	if (!(fabs(err) <= tol))
		fail_msg("%s: %.0f ns, want %.0f ns: %+.3f%% (tolerance %.2f%%)", what, got_ns,
			 want_ns, err, tol);
}

static uint64_t usage_usec(const char *cg)
{
	uint64_t u = 0;
	int err = itest_cgroup_usage_usec(cg, &u);

	if (err)
		fail_msg("cannot read %s/cpu.stat: %s", cg, strerror(-err));
	return u;
}

/* Every cgroup v1 and v2 mount point, from /proc/self/mountinfo; returns how many. */
static int cgroup_mounts(char (*mp)[PATH_MAX], int max)
{
	char *info = itest_read_file("/proc/self/mountinfo"), *line;
	int n = 0;

	for (line = info; line && *line && n < max;
	     line = strchr(line, '\n'), line = line ? line + 1 : 0) {
		const char *dash = strstr(line, " - ");
		char fstype[32];

		if (!dash || sscanf(dash, " - %31s", fstype) != 1 ||
		    (strcmp(fstype, "cgroup") && strcmp(fstype, "cgroup2")))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp[n]) == 1)
			n++;
	}
	free(info);
	return n;
}

/* rmdir @rel (and the conmon cgroup podman makes in it on v1) in every hierarchy. */
static void remove_cgroup_everywhere(const char *rel)
{
	static char mp[16][PATH_MAX];
	char path[2 * PATH_MAX];
	int n = cgroup_mounts(mp, 16);

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%.4000s%.200s", mp[i], rel);
		if (!is_dir(path))
			continue;
		snprintf(path, sizeof(path), "%.4000s%.200s/conmon", mp[i], rel);
		if (is_dir(path))
			itest_cgroup_remove(path);
		snprintf(path, sizeof(path), "%.4000s%.200s", mp[i], rel);
		if (itest_cgroup_remove(path))
			print_message("cannot remove %s: %s\n", path, strerror(errno));
	}
}

/* A command's argv run to the end; its stdout (caller frees), or fail. */
static char *run_cmd(char *const argv[], long timeout_ms, int *code)
{
	struct itest_proc p;
	char *out, *err;
	int rc = itest_run(&p, argv, 0, timeout_ms);

	if (rc)
		fail_msg("%s %s: %s", argv[0], argv[1], strerror(-rc));
	out = itest_stdout(&p);
	err = itest_stderr(&p);
	*code = itest_exit_code(&p);
	if (*code)
		print_message("%s %s ... exited %d: %s", argv[0], argv[1], *code, err ? err : "");
	free(err);
	itest_proc_release(&p);
	return out;
}

/* --------------------------------------------------------- environment */

/* Root, podman, runc, a static busybox, a cgroup2 mount: else skip. */
static void require_podman(void)
{
	char runc[PATH_MAX];

	itest_require_root();
	if (!find_exe("podman", podman_path, sizeof(podman_path)))
		itest_skip("podman is not installed (Debian: podman)\n");
	if (!find_exe("runc", runc, sizeof(runc)))
		itest_skip("runc is not installed (Debian: runc)\n");
	if (!find_exe("busybox", busybox_path, sizeof(busybox_path)) ||
	    !is_static_elf(busybox_path))
		itest_skip("no static busybox for the containers' root file system "
			   "(Debian: busybox-static)\n");
	if (itest_cgroup2_mount(mnt, sizeof(mnt)))
		itest_skip("no cgroup v2 mounted\n");
	if (!find_exe("curl", curl_path, sizeof(curl_path)))
		curl_path[0] = '\0';
}

/* tmpdir/rootfs: busybox and the few applets the containers run; tmpdir/gate for /go. */
static void make_rootfs(void)
{
	static const char *const applets[] = { "sh", "sleep", "timeout" };
	char path[PATH_MAX], *bin;
	int fd;
	size_t len;

	strcpy(tmpdir, "/tmp/tdtrace-k8s-XXXXXX");
	if (!mkdtemp(tmpdir))
		fail_msg("mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/rootfs", tmpdir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/rootfs/bin", tmpdir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/rootfs/go", tmpdir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/gate", tmpdir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/gate/gate", tmpdir);
	assert_int_equal(mkfifo(path, 0600), 0);

	fd = open(busybox_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail_msg("cannot open %s: %s", busybox_path, strerror(errno));
	bin = itest_read_fd(fd);
	close(fd);
	if (!bin)
		fail_msg("cannot read %s", busybox_path);
	{
		struct stat st;

		assert_int_equal(stat(busybox_path, &st), 0);
		len = (size_t)st.st_size;
	}
	snprintf(path, sizeof(path), "%s/rootfs/bin/busybox", tmpdir);
	write_file(path, bin, len);
	free(bin);
	assert_int_equal(chmod(path, 0755), 0);
	for (size_t i = 0; i < sizeof(applets) / sizeof(applets[0]); i++) {
		snprintf(path, sizeof(path), "%s/rootfs/bin/%s", tmpdir, applets[i]);
		assert_int_equal(symlink("busybox", path), 0);
	}
}

/* ---------------------------------------------------------- containers */

/*
 * A pod of this test: namespace tdk<pid>, name <name>-<pid>, a UID ending
 * in @tag, its cgroup where kubelet's cgroupfs driver puts a burstable pod.
 */
struct pod {
	char ns[32], name[32], uid[40], parent[96];
};

static void pod_init(struct pod *p, const char *name, int tag)
{
	int pid = (int)getpid();

	snprintf(p->ns, sizeof(p->ns), "tdk%d", pid);
	snprintf(p->name, sizeof(p->name), "%s-%d", name, pid);
	snprintf(p->uid, sizeof(p->uid), "%08x-0000-4000-8000-%012x", pid, tag);
	snprintf(p->parent, sizeof(p->parent), "/kubepods/burstable/pod%s", p->uid);
}

/* The annotations a runtime writes on a Kubernetes container, as podman's --annotation. */
struct annotations {
	char kv[5][320];
	const char *list[6]; /* NULL-terminated */
};

/*
 * containerd's CRI plugin's (@cri) or CRI-O's annotations for container
 * @name of pod @ns/@pod with UID @uid; @name NULL: the pod's sandbox,
 * which containerd gives no container name and CRI-O names "POD".
 */
static const char *const *annotations(struct annotations *a, bool cri, const char *ns,
				      const char *pod, const char *uid, const char *name)
{
	static const char *const keys[2][5] = {
		{ "io.kubernetes.pod.namespace", "io.kubernetes.pod.name", "io.kubernetes.pod.uid",
		  "io.kubernetes.cri-o.ContainerType", "io.kubernetes.container.name" },
		{ "io.kubernetes.cri.sandbox-namespace", "io.kubernetes.cri.sandbox-name",
		  "io.kubernetes.cri.sandbox-uid", "io.kubernetes.cri.container-type",
		  "io.kubernetes.cri.container-name" },
	};
	const char *values[5] = { ns, pod, uid, name ? "container" : "sandbox",
				  name	? name
				  : cri ? NULL
					: "POD" };
	int n = 0;

	for (int k = 0; k < 5; k++) {
		if (!values[k])
			continue;
		snprintf(a->kv[n], sizeof(a->kv[n]), "%s=%s", keys[cri][k], values[k]);
		a->list[n] = a->kv[n];
		n++;
	}
	a->list[n] = NULL;
	return a->list;
}

/*
 * podman run -d a container named tdk<pid>-<tag> with the annotations
 * @ann (NULL-terminated "key=value"), under @parent if not NULL. A
 * spinner waits on the gate, spins SPIN_S s, writes /go/<name>.done and
 * sleeps; the others sleep.
 */
static struct ctr *container(const char *tag, const char *parent, bool spins,
			     const char *const ann[])
{
	char rootfs[PATH_MAX], gate[PATH_MAX + 8], cgparent[160], script[512];
	char *argv[64] = { podman_path, "--runtime",	  "runc",     "run",
			   "-d",	"--network=none", "--ulimit", "nofile=1024:1024",
			   "--ulimit",	"nproc=4096:4096" };
	struct ctr *c;
	char *out;
	int n = 10, code;

	if (nr_ctrs >= MAX_CTRS)
		fail_msg("too many containers");
	c = &ctrs[nr_ctrs++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "tdk%d-%s", (int)getpid(), tag);
	c->spins = spins;
	snprintf(rootfs, sizeof(rootfs), "%s/rootfs", tmpdir);
	snprintf(gate, sizeof(gate), "%s/gate:/go", tmpdir);
	if (spins)
		snprintf(script, sizeof(script),
			 "read x < /go/gate; "
			 "timeout %s sh -c 'while :; do :; done'; : > /go/%s.done; exec sleep 600",
			 SPIN_S, c->name);
	else
		snprintf(script, sizeof(script), "exec sleep 600");
	argv[n++] = "--name";
	argv[n++] = c->name;
	argv[n++] = "-v";
	argv[n++] = gate;
	if (parent) {
		snprintf(cgparent, sizeof(cgparent), "--cgroup-parent=%s", parent);
		argv[n++] = cgparent;
	}
	for (; ann && *ann && n < 52; ann++) {
		argv[n++] = "--annotation";
		argv[n++] = (char *)*ann;
	}
	argv[n++] = "--rootfs";
	argv[n++] = rootfs;
	argv[n++] = "/bin/sh";
	argv[n++] = "-c";
	argv[n++] = script;
	argv[n] = NULL;
	out = run_cmd(argv, PODMAN_MS, &code);
	if (code || !out || sscanf(out, "%71s", c->id) != 1 || strlen(c->id) != 64)
		fail_msg("podman run %s exited %d; stdout: %s", c->name, code, out ? out : "");
	free(out);
	return c;
}

/* The cgroup of each container from ctrs[@from] on, from its first process's /proc/PID/cgroup. */
static void find_cgroups(int from)
{
	for (int i = from; i < nr_ctrs; i++) {
		struct ctr *c = &ctrs[i];
		char *argv[] = {
			podman_path, "inspect", "--format", "{{.State.Pid}}", c->id, NULL
		};
		char path[64], *out, *cg, *line;
		int code, pid = 0;

		out = run_cmd(argv, PODMAN_MS, &code);
		if (code || !out || sscanf(out, "%d", &pid) != 1 || pid <= 0)
			fail_msg("podman inspect %s: exit %d, %s", c->name, code, out ? out : "");
		free(out);
		snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
		cg = itest_read_file(path);
		line = cg ? strstr(cg, "0::/") : NULL;
		if (!line || (line != cg && line[-1] != '\n'))
			fail_msg("no cgroup v2 line in %s: %s", path, cg ? cg : "");
		line += 3;
		line[strcspn(line, "\n")] = '\0';
		snprintf(c->rel, sizeof(c->rel), "%s", line);
		snprintf(c->cg, sizeof(c->cg), "%s%s", mnt, c->rel);
		free(cg);
		print_message("container %s %.12s: cgroup %s\n", c->name, c->id, c->rel);
	}
}

/*
 * Open the gate: every container's base usage, then a line into the FIFO
 * for each spinner, whose `read` takes one (the FIFO stays open until
 * wait_done(), for a reader that came late).
 */
static int gate_fd = -1;

/*
 * Before tdtrace starts: each spinner blocked at the gate, its usage the
 * same over three reads 100 ms apart. A shell still starting (busybox
 * under load) when tdtrace attaches would be counted by tdtrace and not by
 * cpu.stat's difference from the gate: seen as +2% on the first container.
 */
static void wait_at_gate(void)
{
	long long end = itest_now_ms() + DONE_MS;

	for (int i = 0; i < nr_ctrs; i++) {
		uint64_t last = usage_usec(ctrs[i].cg);
		int same = 0;

		while (ctrs[i].spins && same < 2) {
			uint64_t now;

			if (itest_now_ms() > end)
				fail_msg("container %s still busy before the gate", ctrs[i].name);
			itest_sleep_ms(100);
			now = usage_usec(ctrs[i].cg);
			same = now == last ? same + 1 : 0;
			last = now;
		}
	}
}

static void open_gate(void)
{
	char path[PATH_MAX];

	for (int i = 0; i < nr_ctrs; i++)
		ctrs[i].base_usec = usage_usec(ctrs[i].cg);
	snprintf(path, sizeof(path), "%s/gate/gate", tmpdir);
	gate_fd = open(path, O_RDWR | O_CLOEXEC);
	if (gate_fd < 0)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	for (int i = 0; i < nr_ctrs; i++)
		if (ctrs[i].spins && write(gate_fd, "g\n", 2) != 2)
			fail_msg("cannot write to %s: %s", path, strerror(errno));
}

/* Wait for every spinner's .done; then each container's usage since the gate. */
static void wait_done(void)
{
	long long end = itest_now_ms() + DONE_MS;
	char path[PATH_MAX + 80];

	for (int i = 0; i < nr_ctrs; i++) {
		if (!ctrs[i].spins)
			continue;
		snprintf(path, sizeof(path), "%s/gate/%.63s.done", tmpdir, ctrs[i].name);
		while (access(path, F_OK)) {
			if (itest_now_ms() > end)
				fail_msg("container %s did not finish spinning in %d ms",
					 ctrs[i].name, DONE_MS);
			itest_sleep_ms(20);
		}
	}
	close(gate_fd);
	gate_fd = -1;
	/* exec sleep: a moment after the .done. */
	itest_sleep_ms(100);
	for (int i = 0; i < nr_ctrs; i++)
		ctrs[i].usec = usage_usec(ctrs[i].cg) - ctrs[i].base_usec;
}

/* ------------------------------------------------------------- tdtrace */

/* Start tdtrace --software -I 200 @args counting; with @listen, on a free port. */
static struct run *td_start(const char *const args[], bool listen)
{
	const char *all[32] = { "--software", "-I", "200" };
	char addr[32];
	struct run *r;
	char skip[512], error[512];
	int n = 3, err;

	if (nr_runs >= MAX_RUNS)
		fail_msg("too many tdtrace runs");
	r = &runs[nr_runs++];
	if (listen) {
		snprintf(r->port, sizeof(r->port), "%d", itest_free_port());
		snprintf(addr, sizeof(addr), "127.0.0.1:%s", r->port);
		all[n++] = "--listen";
		all[n++] = addr;
	}
	for (; *args && n < 31; args++)
		all[n++] = *args;
	all[n] = NULL;
	err = itest_tdtrace_start(&r->p, 0, START_MS, all);
	if (err == -ECHILD) {
		if (itest_early_exit(&r->p, skip, sizeof(skip), error, sizeof(error)))
			itest_skip("%s", skip);
		fail_msg("%s", error);
	}
	if (err)
		fail_msg("tdtrace did not start counting: %s", strerror(-err));
	return r;
}

/* GET /metrics of run @r with curl; NULL if curl is not there. */
static void scrape(struct run *r)
{
	char url[64];
	char *argv[] = { curl_path, "-s", "-m", "5", url, NULL };
	int code;

	if (!*curl_path)
		return;
	snprintf(url, sizeof(url), "http://127.0.0.1:%s/metrics", r->port);
	r->metrics = run_cmd(argv, 10000, &code);
	if (code || !r->metrics || !*r->metrics)
		fail_msg("curl %s: exit %d", url, code);
}

/*
 * tdtrace report reads what run @r printed (JSON lines) again: exit 0.
 * Its reader is the project's own, so what --json writes must pass it.
 */
static void check_report(const struct run *r, const char *what)
{
	const char *args[] = { "report", NULL, NULL };
	char path[PATH_MAX];
	struct itest_proc p;
	char *err;
	int code;

	snprintf(path, sizeof(path), "%s/%s.json", tmpdir, what);
	write_file(path, r->out, strlen(r->out));
	args[1] = path;
	if (itest_tdtrace_run(&p, 0, 10000, args))
		fail_msg("tdtrace report %s did not end in 10 s", what);
	code = itest_exit_code(&p);
	err = itest_stderr(&p);
	if (code)
		fail_msg("tdtrace report cannot read the %s run's JSON lines: exit %d, %.*s (%d "
			 "stderr lines)",
			 what, code, err ? (int)strcspn(err, "\n") : 0, err ? err : "",
			 itest_count_lines(err ? err : ""));
	print_message("tdtrace report reads the %s run's JSON lines: exit 0\n", what);
	free(err);
	itest_proc_release(&p);
}

/* Fail if a JSON run printed a line that is not a JSON object (jansson's reading). */
static void check_json(const struct run *r, const char *what)
{
	const char *l = r->out;

	if (!r->bad)
		return;
	for (int n = 1; l && n < r->bad; n++)
		l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL;
	fail_msg("tdtrace %s: stdout line %d is not a JSON object: %.*s", what, r->bad,
		 l ? (int)strcspn(l, "\n") : 0, l ? l : "");
}

/* SIGINT every run, collect; each must exit 0; JSON lines parsed (if JSON), checked by the caller.
 */
static void td_stop_all(bool json[])
{
	for (int i = 0; i < nr_runs; i++) {
		struct run *r = &runs[i];
		int code = itest_signal_and_wait(&r->p, SIGINT, STOP_MS);

		r->out = itest_stdout(&r->p);
		r->err = itest_stderr(&r->p);
		if (code != 0)
			fail_msg("tdtrace run %d exited %d after SIGINT (want 0); stderr: %s", i,
				 code, r->err);
		if (json[i])
			r->lines = itest_parse_jsonl(r->out, &r->bad);
	}
}

static bool is_summary(const json_t *o, const char *type)
{
	return itest_jis(o, "phase", "summary") && itest_jis(o, "type", type);
}

/* The summary cgroup row of @r with cgroup_id @id; fails on none or two. */
static const json_t *row_by_id(const struct run *r, uint64_t id, const char *what)
{
	const json_t *found = NULL, *o;
	size_t i;

	json_array_foreach(r->lines, i, o)
	{
		if (!is_summary(o, "cgroup") || itest_jint(o, "cgroup_id") != (long long)id)
			continue;
		if (found)
			fail_msg("two summary cgroup rows for %s", what);
		found = o;
	}
	if (!found)
		fail_msg("no summary cgroup row for %s (id %llu); stdout begins:\n%.3000s", what,
			 (unsigned long long)id, r->out);
	return found;
}

/* The summary cgroup row of @r whose container has @ns and @pod (not a container's). */
static const json_t *row_by_names(const struct run *r, const char *ns, const char *pod)
{
	const json_t *found = NULL, *o;
	size_t i;

	json_array_foreach(r->lines, i, o)
	{
		const json_t *c = json_object_get(o, "container");

		if (!is_summary(o, "cgroup") || !itest_jis(c, "namespace", ns) ||
		    !itest_jis(c, "pod", pod ? pod : "") || !itest_jis(c, "name", ""))
			continue;
		if (found)
			fail_msg("two summary rows for %s/%s", ns, pod ? pod : "");
		found = o;
	}
	if (!found)
		fail_msg("no summary row for namespace %s pod %s; stdout begins:\n%.3000s", ns,
			 pod ? pod : "(any)", r->out);
	return found;
}

/* A row's container object has these names (NULL ns: not Kubernetes). */
static void check_names(const json_t *row, const char *what, const char *ns, const char *pod,
			const char *name, bool sandbox, const char *label)
{
	const json_t *c = json_object_get(row, "container");
	char *dump = json_dumps(c, JSON_COMPACT);

	print_message("%-10s label %-40s container %s\n", what, itest_jstr(row, "label"), dump);
	if (!json_is_object(c) || !itest_jis(c, "namespace", ns ? ns : "") ||
	    !itest_jis(c, "pod", pod ? pod : "") || !itest_jis(c, "name", name ? name : "") ||
	    json_is_true(json_object_get(c, "sandbox")) != sandbox ||
	    !json_is_boolean(json_object_get(c, "sandbox")) ||
	    (label && !itest_jis(row, "label", label)))
		fail_msg("%s: want namespace \"%s\", pod \"%s\", name \"%s\", sandbox %s, label "
			 "\"%s\"; got label \"%s\", container %s",
			 what, ns ? ns : "", pod ? pod : "", name ? name : "",
			 sandbox ? "true" : "false", label ? label : "(any)",
			 itest_jstr(row, "label") ? itest_jstr(row, "label") : "(none)",
			 dump ? dump : "(none)");
	free(dump);
}

/* ------------------------------------------------------------- metrics */

/* The value of a label in one series line: into @v; false if absent. */
static bool label_of(const char *line, const char *label, char *v, size_t len)
{
	char key[64];
	const char *p, *end = strchr(line, '}');

	snprintf(key, sizeof(key), "%s=\"", label);
	for (p = strstr(line, key); p && end && p < end; p = strstr(p + 1, key)) {
		if (p[-1] != '{' && p[-1] != ',')
			continue;
		p += strlen(key);
		snprintf(v, len, "%.*s", (int)(strcspn(p, "\"")), p);
		return true;
	}
	return false;
}

/*
 * The one line of @metric in @body whose label @key is @value: its copy
 * into @line; false if there is none, fail if two.
 */
static bool series(const char *body, const char *metric, const char *key, const char *value,
		   char *line, size_t len)
{
	const char *p;
	bool found = false;
	char v[512];

	for (p = body; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : 0) {
		size_t n = strcspn(p, "\n");

		if (strncmp(p, metric, strlen(metric)) || p[strlen(metric)] != '{')
			continue;
		snprintf(v, sizeof(v), "%.*s", (int)n, p);
		{
			char got[512];

			if (!label_of(v, key, got, sizeof(got)) || strcmp(got, value))
				continue;
		}
		if (found)
			fail_msg("two %s series with %s=\"%s\"", metric, key, value);
		snprintf(line, len, "%s", v);
		found = true;
	}
	return found;
}

/* A series line's Kubernetes labels are these ("" or absent when not Kubernetes). */
static void check_labels(const char *line, const char *what, const char *ns, const char *pod,
			 const char *container)
{
	const char *keys[3] = { "namespace", "pod", "container" };
	const char *want[3] = { ns, pod, container };

	print_message("%-10s %s\n", what, line);
	for (int k = 0; k < 3; k++) {
		char got[256] = "";

		label_of(line, keys[k], got, sizeof(got));
		if (strcmp(got, want[k] ? want[k] : ""))
			fail_msg("%s: label %s is \"%s\", want \"%s\" in: %s", what, keys[k], got,
				 want[k] ? want[k] : "", line);
	}
}

static double value_of(const char *line)
{
	const char *p = strrchr(line, '}');

	return p ? strtod(p + 1, NULL) : NAN;
}

/* --------------------------------------------------------------- table */

/*
 * CPU_MS (and SLICES, into @slices) of the summary table's cgroup row
 * shown as @label (the last column of a 4-column row: %CPU CPU_MS SLICES
 * CONTAINER); NAN if none.
 */
static double table_cpu_ms(const char *out, const char *label, long long *slices)
{
	const char *summary = NULL, *p;
	double ms = NAN;

	for (p = strstr(out, "summary of"); p; p = strstr(p + 1, "summary of"))
		summary = p;
	for (p = summary; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : 0) {
		char f[5][256];
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
		if (sscanf(line, "%255s %255s %255s %255s %255s", f[0], f[1], f[2], f[3], f[4]) ==
			    4 &&
		    !strcmp(f[3], label)) {
			if (!isnan(ms))
				fail_msg("two table rows named %s", label);
			ms = strtod(f[1], NULL);
			*slices = strtoll(f[2], NULL, 10);
		}
	}
	return ms;
}

/* ------------------------------------------------------------ fixtures */

static int setup(void **state)
{
	nr_ctrs = nr_runs = nr_pods = 0;
	memset(runs, 0, sizeof(runs));
	for (int i = 0; i < MAX_RUNS; i++)
		itest_proc_init(&runs[i].p);
	itest_proc_init(&pod_spin);
	tmpdir[0] = '\0';
	return 0;
}

/* The pod cgroup @rel will be made by podman: note it, and whether its parents were there. */
static void note_pod(const char *rel)
{
	char path[2 * PATH_MAX];

	if (nr_pods >= MAX_PODS)
		fail_msg("too many pods");
	snprintf(pods[nr_pods++], sizeof(pods[0]), "%s", rel);
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s%s", mnt, pod_parents[i]);
		parent_existed[i] = is_dir(path);
	}
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/*
 * Remove what the test made: tdtrace runs, containers, pod cgroups (and
 * the kubepods parents podman made), the temporary directory. With
 * @check, fail if any of it stays (the teardown calls it again, unchecked,
 * for what a failed test left).
 */
static void clean_up(bool check)
{
	char *argv[MAX_CTRS + 8] = { podman_path, "rm", "-f", "-t0" };
	char path[2 * PATH_MAX];
	int n = 4, code;

	for (int i = 0; i < nr_runs; i++) {
		itest_proc_release(&runs[i].p);
		free(runs[i].out);
		free(runs[i].err);
		free(runs[i].metrics);
		json_decref(runs[i].lines);
	}
	memset(runs, 0, sizeof(runs));
	nr_runs = 0;
	itest_proc_release(&pod_spin);
	if (gate_fd >= 0)
		close(gate_fd);
	gate_fd = -1;
	for (int i = 0; i < nr_ctrs; i++)
		argv[n++] = ctrs[i].name;
	argv[n] = NULL;
	if (nr_ctrs) {
		struct itest_proc p;
		char *err = NULL;

		code = itest_run(&p, argv, 0, PODMAN_MS);
		if (code || itest_exit_code(&p)) {
			err = itest_stderr(&p);
			print_message("podman rm -f -t0 failed (%d): %s", itest_exit_code(&p),
				      err ? err : "");
		}
		free(err);
		itest_proc_release(&p);
		if (check && (code || itest_exit_code(&p)))
			fail_msg("podman rm -f -t0 failed");
	}
	for (int i = 0; i < nr_pods; i++) {
		remove_cgroup_everywhere(pods[i]);
		snprintf(path, sizeof(path), "%s%s", mnt, pods[i]);
		if (check && is_dir(path))
			fail_msg("pod cgroup %s still there", path);
	}
	for (size_t i = 0; nr_pods && i < 2; i++)
		if (!parent_existed[i])
			remove_cgroup_everywhere(pod_parents[i]);
	if (*tmpdir && !strncmp(tmpdir, "/tmp/tdtrace-k8s-", 17)) {
		/* Depth first, not through symlinks (the hostile test plants one). */
		code = nftw(tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
		if (code || is_dir(tmpdir))
			print_message("could not remove %s: %s\n", tmpdir, strerror(errno));
		if (check && (code || is_dir(tmpdir)))
			fail_msg("could not remove %s", tmpdir);
	}
	tmpdir[0] = '\0';
	nr_ctrs = nr_pods = 0;
}

static int teardown(void **state)
{
	clean_up(false);
	itest_cleanup();
	return 0;
}

/*
 * The end of a test: everything removed, and no podman container of this
 * test and no td_ BPF object of its tdtrace runs (ids above @min_prog,
 * @min_map) left.
 */
static void check_clean(long long min_prog, long long min_map)
{
	char filter[64], left[1024] = "";
	char *argv[] = { podman_path, "ps", "-a", "-q", "--filter", filter, NULL };
	char *out;
	int code, nleft;

	clean_up(true);
	snprintf(filter, sizeof(filter), "name=tdk%d-", (int)getpid());
	out = run_cmd(argv, PODMAN_MS, &code);
	if (code || (out && *out))
		fail_msg("podman ps -a --filter %s: exit %d, still: %s", filter, code,
			 out ? out : "");
	free(out);
	if (min_prog < 0 || min_map < 0 || !itest_have_bpftool()) {
		print_message("bpftool missing: BPF leftovers not checked\n");
		return;
	}
	nleft = itest_wait_td_orphans_gone(min_prog, min_map, 3000, left, sizeof(left));
	if (nleft)
		fail_msg("td_ BPF objects left behind: %d %s", nleft, left);
}

/* ------------------------------------------------------------------ 1 */

static void test_names_and_cpu(void **state)
{
	struct pod P, Q;
	const char *ns = P.ns, *pod_p = P.name, *pod_q = Q.name, *uid_p = P.uid, *uid_q = Q.uid;
	const char *parent_p = P.parent, *parent_q = Q.parent;
	char label_a[128], label_b[128], label_s[128], label_p[96], pod_cg[2 * PATH_MAX];
	struct annotations ann_a, ann_s, ann_b;
	const char *args_ctr[] = { "--containers", "--json", "--table", NULL };
	const char *args_tab[] = { "--containers", NULL };
	const char *args_pod[] = { "--group-by=pod", "--json", "--table", NULL };
	const char *args_ns[] = { "--group-by=namespace", "--json", NULL };
	bool json[] = { true, false, true, true };
	char *spin_argv[] = { (char *)itest_helper_path("spin"), "-w", SPIN_S, NULL };
	struct ctr *a, *s, *b, *d;
	struct run *r_ctr, *r_tab, *r_pod, *r_ns;
	char q_cg[2 * PATH_MAX];
	uint64_t p_start, q_start, own_usec, s_usec, p_usec, q_usec;
	long long s_slices = 0, sl_a = 0, sl_b = 0, sl_d = 0, sl_own = 0;
	double sum_p = 0, sum_q = 0;
	long long min_prog, min_map;
	int err;

	require_podman();
	if (access(spin_argv[0], X_OK))
		fail_msg("%s: %s (build it: make build/tests/spin)", spin_argv[0], strerror(errno));
	make_rootfs();

	pod_init(&P, "web", 0xa);
	pod_init(&Q, "db", 0xb);
	snprintf(label_a, sizeof(label_a), "%s/%s/spin", ns, pod_p);
	snprintf(label_s, sizeof(label_s), "%s/%s/POD", ns, pod_p);
	snprintf(label_b, sizeof(label_b), "%s/%s/work", ns, pod_q);
	snprintf(label_p, sizeof(label_p), "%s/%s", ns, pod_p);

	/*
	 * A, B and D wait at the gate before tdtrace starts: what they spin
	 * after it is all tdtrace can see of them, and cpu.stat's difference.
	 * The sandbox S starts while tdtrace runs: a container cgroup new to
	 * it, whose whole CPU time (runc's start of it) is in the run.
	 */
	note_pod(parent_p);
	note_pod(parent_q);
	/* containerd's CRI plugin's annotations for A and its sandbox S; CRI-O's for B */
	a = container("a", parent_p, true, annotations(&ann_a, true, ns, pod_p, uid_p, "spin"));
	b = container("b", parent_q, true, annotations(&ann_b, false, ns, pod_q, uid_q, "work"));
	d = container("plain", NULL, true, NULL);
	find_cgroups(0);
	snprintf(pod_cg, sizeof(pod_cg), "%s%s", mnt, parent_p);
	snprintf(q_cg, sizeof(q_cg), "%s%s", mnt, parent_q);
	wait_at_gate();
	p_start = usage_usec(pod_cg);
	q_start = usage_usec(q_cg);

	min_prog = itest_bpf_max_id("prog");
	min_map = itest_bpf_max_id("map");
	steal_at_start = itest_steal_ns();
	r_ctr = td_start(args_ctr, true);
	r_tab = td_start(args_tab, false);
	r_pod = td_start(args_pod, true);
	r_ns = td_start(args_ns, false);

	s = container("sandbox", parent_p, false,
		      annotations(&ann_s, true, ns, pod_p, uid_p, NULL));
	find_cgroups(3);
	if (strncmp(a->rel, parent_p, strlen(parent_p)) ||
	    strncmp(s->rel, parent_p, strlen(parent_p)) ||
	    strncmp(b->rel, parent_q, strlen(parent_q)))
		fail_msg("containers not in their pods' cgroups: %s, %s, %s", a->rel, s->rel,
			 b->rel);

	/* P's own cgroup gets a task of its own, as conmon under CRI-O's cgroupfs driver. */
	err = itest_spawn(&pod_spin, spin_argv, ITEST_STDIN_PIPE);
	if (err)
		fail_msg("cannot start %s: %s", spin_argv[0], strerror(-err));
	err = itest_cgroup_move(pod_cg, pod_spin.pid);
	if (err)
		fail_msg("cannot move the spinner into %s: %s", pod_cg, strerror(-err));
	open_gate();
	if (write(pod_spin.in_pipe, "g", 1) != 1)
		fail_msg("cannot release the spinner: %s", strerror(errno));
	wait_done();
	if (itest_wait(&pod_spin, DONE_MS) || itest_exit_code(&pod_spin))
		fail_msg("the spinner in %s did not end well (exit %d)", pod_cg,
			 itest_exit_code(&pod_spin));
	/* P's own: its subtree less its containers; it had no task before the run. */
	own_usec = usage_usec(pod_cg) - usage_usec(a->cg) - usage_usec(s->cg);
	s_usec = s->base_usec + s->usec;
	/* The pods in the run: A and B since the gate, the whole of S and of P's own. */
	p_usec = usage_usec(pod_cg) - p_start;
	q_usec = usage_usec(q_cg) - q_start;
	print_message("cpu.stat (us): A %llu, B %llu, D %llu since the gate; S %llu, P's own "
		      "%llu in all; pod P %llu, pod Q %llu in the run\n",
		      (unsigned long long)a->usec, (unsigned long long)b->usec,
		      (unsigned long long)d->usec, (unsigned long long)s_usec,
		      (unsigned long long)own_usec, (unsigned long long)p_usec,
		      (unsigned long long)q_usec);
	for (int i = 0; i < nr_ctrs; i++)
		if (ctrs[i].spins && ctrs[i].usec * 1000.0 < MIN_SPIN_NS)
			fail_msg("container %s spun only %llu us: too loaded to compare",
				 ctrs[i].name, (unsigned long long)ctrs[i].usec);

	itest_sleep_ms(500); /* an interval or two: /metrics holds all of it */
	scrape(r_ctr);
	scrape(r_pod);
	td_stop_all(json);
	check_report(r_ctr, "containers");
	check_report(r_pod, "group-by-pod");
	check_report(r_ns, "group-by-namespace");
	check_json(r_ctr, "--containers --json");
	check_json(r_pod, "--group-by=pod --json");
	check_json(r_ns, "--group-by=namespace --json");

	/* --containers --json: names, and CPU against cpu.stat. */
	{
		const json_t *ra = row_by_id(r_ctr, itest_inode(a->cg), "A");
		const json_t *rs = row_by_id(r_ctr, itest_inode(s->cg), "S");
		const json_t *rb = row_by_id(r_ctr, itest_inode(b->cg), "B");
		const json_t *rd = row_by_id(r_ctr, itest_inode(d->cg), "D");
		const json_t *rp = row_by_id(r_ctr, itest_inode(pod_cg), "P's own");

		check_names(ra, "A", ns, pod_p, "spin", false, label_a);
		check_names(rs, "S", ns, pod_p, "POD", true, label_s);
		check_names(rb, "B", ns, pod_q, "work", false, label_b);
		check_names(rd, "D", NULL, NULL, NULL, false, NULL);
		check_names(rp, "P's own", ns, pod_p, "", false, label_p);
		assert_true(itest_jis(json_object_get(rp, "container"), "kind", "pod"));
		assert_true(itest_jis(json_object_get(rp, "container"), "pod_uid", uid_p));
		assert_true(itest_jis(json_object_get(ra, "container"), "pod_uid", uid_p));
		assert_true(itest_jis(json_object_get(rb, "container"), "pod_uid", uid_q));

		sl_a = slices_of(ra);
		sl_b = slices_of(rb);
		sl_d = slices_of(rd);
		sl_own = slices_of(rp);
		s_slices = slices_of(rs);
		check_cpu("--containers A (containerd annotations)", itest_jnum(ra, "cpu_ns"),
			  a->usec * 1000.0, sl_a);
		check_cpu("--containers B (CRI-O annotations)", itest_jnum(rb, "cpu_ns"),
			  b->usec * 1000.0, sl_b);
		check_cpu("--containers D (plain podman)", itest_jnum(rd, "cpu_ns"),
			  d->usec * 1000.0, sl_d);
		check_cpu("--containers S (sandbox, its start)", itest_jnum(rs, "cpu_ns"),
			  s_usec * 1000.0, s_slices);
		check_cpu("--containers P's own cgroup", itest_jnum(rp, "cpu_ns"),
			  own_usec * 1000.0, sl_own);
		sum_p = itest_jnum(ra, "cpu_ns") + itest_jnum(rs, "cpu_ns") +
			itest_jnum(rp, "cpu_ns");
		sum_q = itest_jnum(rb, "cpu_ns");
	}

	/* The table: the CONTAINER column, and CPU_MS. */
	{
		const char *labels[] = { label_a, label_s, label_b, label_p };
		const double want[] = { a->usec * 1000.0, s_usec * 1000.0, b->usec * 1000.0,
					own_usec * 1000.0 };

		for (int k = 0; k < 4; k++) {
			long long slices = 0;
			double ms = table_cpu_ms(r_tab->out, labels[k], &slices);

			if (isnan(ms))
				fail_msg("no summary table row named %s; stdout ends:\n%s",
					 labels[k],
					 r_tab->out + (strlen(r_tab->out) > 3000
							       ? strlen(r_tab->out) - 3000
							       : 0));
			check_cpu(labels[k], ms * 1e6, want[k], slices);
		}
	}

	/* /metrics: namespace, pod, container on every per-cgroup series. */
	if (!*curl_path) {
		print_message("SKIP the /metrics part: curl is not installed (Debian: curl)\n");
	} else {
		const struct {
			const char *what;
			const struct ctr *c;
			const char *ns, *pod, *container;
			double ns_want;
			long long slices;
		} want[] = {
			{ "/metrics A", a, ns, pod_p, "spin", a->usec * 1000.0, sl_a },
			{ "/metrics S", s, ns, pod_p, "POD", s_usec * 1000.0, s_slices },
			{ "/metrics B", b, ns, pod_q, "work", b->usec * 1000.0, sl_b },
			{ "/metrics D", d, NULL, NULL, NULL, d->usec * 1000.0, sl_d },
			{ "/metrics P's own", NULL, ns, pod_p, "", own_usec * 1000.0, sl_own },
		};
		char line[2048], cg[64] = "";

		for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
			const char *rel = want[k].c ? want[k].c->rel : parent_p;

			if (!series(r_ctr->metrics, "tdtrace_cpu_seconds_total", "cgroup", rel,
				    line, sizeof(line)))
				fail_msg("no tdtrace_cpu_seconds_total{cgroup=\"%s\"} in:\n%s", rel,
					 r_ctr->metrics);
			check_labels(line, want[k].what, want[k].ns, want[k].pod,
				     want[k].container);
			check_cpu(want[k].what, value_of(line) * 1e9, want[k].ns_want,
				  want[k].slices);
			if (!series(r_ctr->metrics, "tdtrace_cgroup_info", "cgroup", rel, line,
				    sizeof(line)))
				fail_msg("no tdtrace_cgroup_info{cgroup=\"%s\"}", rel);
			check_labels(line, want[k].what, want[k].ns, want[k].pod,
				     want[k].container);
		}
		/* --group-by=pod: one series per pod, cgroup="". */
		if (!series(r_pod->metrics, "tdtrace_cpu_seconds_total", "pod", pod_p, line,
			    sizeof(line)))
			fail_msg("--group-by=pod: no tdtrace_cpu_seconds_total{pod=\"%s\"} in:\n%s",
				 pod_p, r_pod->metrics);
		check_labels(line, "pod P", ns, pod_p, NULL);
		label_of(line, "cgroup", cg, sizeof(cg));
		if (*cg)
			fail_msg("--group-by=pod: a pod's series has cgroup=\"%s\": %s", cg, line);
		check_cpu("/metrics --group-by=pod P", value_of(line) * 1e9, p_usec * 1000.0,
			  sl_a + s_slices + sl_own);
	}

	/* --group-by=pod and --group-by=namespace: the pods' and the namespace's sums. */
	{
		const json_t *rp = row_by_names(r_pod, ns, pod_p);
		const json_t *rq = row_by_names(r_pod, ns, pod_q);
		const json_t *rn = row_by_names(r_ns, ns, NULL);
		const json_t *rd = row_by_id(r_pod, itest_inode(d->cg), "D (--group-by=pod)");

		check_cpu("--group-by=pod P", itest_jnum(rp, "cpu_ns"), p_usec * 1000.0,
			  slices_of(rp));
		check_cpu("--group-by=pod Q", itest_jnum(rq, "cpu_ns"), q_usec * 1000.0,
			  slices_of(rq));
		check_cpu("--group-by=namespace", itest_jnum(rn, "cpu_ns"),
			  (p_usec + q_usec) * 1000.0, slices_of(rn));
		check_names(rd, "D (pod)", NULL, NULL, NULL, false, NULL);
		check_cpu("--group-by=pod D (not Kubernetes)", itest_jnum(rd, "cpu_ns"),
			  d->usec * 1000.0, slices_of(rd));
		/* Against the --containers run's rows: the roll-up is their sum. */
		check_cpu("--group-by=pod P vs A + S + P's own rows", itest_jnum(rp, "cpu_ns"),
			  sum_p, 0);
		check_cpu("--group-by=pod Q vs B's row", itest_jnum(rq, "cpu_ns"), sum_q, 0);
		check_cpu("--group-by=namespace vs the containers' rows", itest_jnum(rn, "cpu_ns"),
			  sum_p + sum_q, 0);
	}
	check_clean(min_prog, min_map);
}

/* ------------------------------------------------------------------ 2 */

/*
 * config.json, in a copy of podman's storage dir that tdtrace is pointed
 * at, replaced once the container runs: by a symlink to the real file, by
 * the real file padded past the size limit, by its first half; and, as
 * the control, left intact.
 */
static void test_hostile_state_files(void **state)
{
	static const char *const tags[] = { "symlink", "huge", "malformed", "intact" };
	struct pod H;
	const char *ns = H.ns, *pod = H.name, *uid = H.uid, *parent = H.parent;
	char store[256], crio_root[288], graph[PATH_MAX];
	struct annotations ann;
	const char *args[] = { "--containers",
			       "--json",
			       "--runtime-root=crio-run=",
			       "--runtime-root=containerd=",
			       "--runtime-root=docker=",
			       crio_root,
			       NULL };
	char files[4][2 * PATH_MAX];
	bool json[] = { true };
	struct run *r;
	int lines_naming[4] = { 0 }, others = 0, code;
	long long min_prog, min_map;
	const char *line;

	require_podman();
	make_rootfs();
	pod_init(&H, "bad", 0xc);
	snprintf(store, sizeof(store), "%s/storage", tmpdir);
	snprintf(crio_root, sizeof(crio_root), "--runtime-root=crio=%s", store);
	assert_int_equal(mkdir(store, 0755), 0);

	note_pod(parent);
	for (int k = 0; k < 4; k++)
		container(tags[k], parent, true, annotations(&ann, false, ns, pod, uid, "c"));
	find_cgroups(0);
	{
		char *argv[] = { podman_path, "info", "--format", "{{.Store.GraphRoot}}", NULL };
		char *out = run_cmd(argv, PODMAN_MS, &code);

		if (code || !out || !*out)
			fail_msg("podman info: exit %d", code);
		out[strcspn(out, "\n")] = '\0';
		snprintf(graph, sizeof(graph), "%s", out);
		free(out);
	}

	/* The copy: <id>/userdata/config.json, each replaced as its tag says. */
	for (int k = 0; k < 4; k++) {
		struct ctr *c = &ctrs[k];
		char real[2 * PATH_MAX], dir[2 * PATH_MAX];
		char *body;

		snprintf(real, sizeof(real), "%s/overlay-containers/%s/userdata/config.json", graph,
			 c->id);
		body = itest_read_file(real);
		if (!body || !strstr(body, "\"io.kubernetes.pod.namespace\"") || !strstr(body, ns))
			fail_msg("podman's %s does not hold the annotations", real);
		snprintf(dir, sizeof(dir), "%s/%s", store, c->id);
		assert_int_equal(mkdir(dir, 0755), 0);
		snprintf(dir, sizeof(dir), "%s/%s/userdata", store, c->id);
		assert_int_equal(mkdir(dir, 0755), 0);
		snprintf(files[k], sizeof(files[k]), "%.4000s/config.json", dir);
		if (!strcmp(tags[k], "symlink")) {
			assert_int_equal(symlink(real, files[k]), 0);
		} else if (!strcmp(tags[k], "huge")) {
			size_t len = strlen(body), big = len + (2u << 20);
			char *pad = malloc(big);

			assert_non_null(pad);
			memcpy(pad, body, len);
			memset(pad + len, ' ', big - len); /* still valid JSON, only too big */
			write_file(files[k], pad, big);
			free(pad);
		} else if (!strcmp(tags[k], "malformed")) {
			write_file(files[k], body, strlen(body) / 2);
		} else {
			write_file(files[k], body, strlen(body));
		}
		free(body);
	}

	min_prog = itest_bpf_max_id("prog");
	min_map = itest_bpf_max_id("map");
	steal_at_start = itest_steal_ns();
	r = td_start(args, false);
	open_gate();
	wait_done();
	itest_sleep_ms(400);
	td_stop_all(json);
	check_json(r, "--containers --json --runtime-root");

	/*
	 * Each line names one file; a line naming no file of this test (a
	 * container someone else runs here, not in the copy) must still be
	 * about the copy; "counting" aside, nothing else.
	 */
	for (line = r->err; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : 0) {
		size_t n = strcspn(line, "\n");
		bool named = false;

		for (int k = 0; k < 4; k++)
			if (memmem(line, n, files[k], strlen(files[k]))) {
				lines_naming[k]++;
				named = true;
			}
		if (named || !strncmp(line, "tdtrace: counting", 17))
			continue;
		if (!memmem(line, n, store, strlen(store)))
			fail_msg("stderr line about something else: %.*s", (int)n, line);
		for (int k = 0; k < 4; k++)
			if (memmem(line, n, ctrs[k].id, 64))
				fail_msg("a second line about %s: %.*s", ctrs[k].name, (int)n,
					 line);
		others++;
	}
	if (others)
		print_message("%d lines about containers of others, not in the copy\n", others);
	print_message("stderr:\n%s", r->err);
	for (int k = 0; k < 4; k++) {
		struct ctr *c = &ctrs[k];
		const json_t *row = row_by_id(r, itest_inode(c->cg), c->name);
		char label[128];
		bool intact = !strcmp(tags[k], "intact");

		snprintf(label, sizeof(label), "%s/%s/c", ns, pod);
		if (intact)
			check_names(row, tags[k], ns, pod, "c", false, label);
		else
			check_names(row, tags[k], NULL, NULL, NULL, false, NULL);
		if (c->usec * 1000.0 < MIN_SPIN_NS)
			fail_msg("container %s spun only %llu us: too loaded to compare", c->name,
				 (unsigned long long)c->usec);
		check_cpu(tags[k], itest_jnum(row, "cpu_ns"), c->usec * 1000.0, slices_of(row));
		if (lines_naming[k] != (intact ? 0 : 1))
			fail_msg("%d stderr lines name %s (want %d)", lines_naming[k], files[k],
				 intact ? 0 : 1);
	}
	check_clean(min_prog, min_map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_names_and_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_state_files, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
