// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for user/host/k8s_state.h: each runtime's state tree built
 * in a temporary directory from tests/fixtures/k8s (run from the
 * repository root), hostile files planted in it, the cache, and the
 * collect stage's k8s_names_cover().
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/k8s_state.h"
#include "k8s_fixtures.h"

#define ID_A "9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
#define ID_B "4f7c3e1a9b2d8c6e5a0f1b3d7e9c2a4b6d8f0e1c3a5b7d9f2e4c6a8b0d1f3e5a"

/* Small enough that every path made from them fits in PATH_MAX. */
static char tmp[64];
static char root_containerd[128], root_crio_run[128], root_crio_lib[128], root_docker[128];
static struct k8s_roots roots;
static const struct k8s_meta zero;

static void make_dirs(const char *path)
{
	char p[PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s", path);
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
		*s = '/';
	}
	assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/tdtrace-k8s-XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(root_containerd, sizeof(root_containerd),
		 "%s/run/containerd/io.containerd.runtime.v2.task/k8s.io", tmp);
	snprintf(root_crio_run, sizeof(root_crio_run),
		 "%s/run/containers/storage/overlay-containers", tmp);
	snprintf(root_crio_lib, sizeof(root_crio_lib),
		 "%s/var/lib/containers/storage/overlay-containers", tmp);
	snprintf(root_docker, sizeof(root_docker), "%s/var/lib/docker/containers", tmp);
	make_dirs(root_containerd);
	make_dirs(root_crio_run);
	make_dirs(root_crio_lib);
	make_dirs(root_docker);
	roots.containerd = root_containerd;
	roots.crio_run = root_crio_run;
	roots.crio_lib = root_crio_lib;
	roots.docker = root_docker;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	(void)state;
	return nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Where container @id's state file goes under @root: "<root>/<id>/<below>". */
static void file_path(char *path, size_t len, const char *root, const char *id, const char *below)
{
	snprintf(path, len, "%s/%s/%s", root, id, below);
}

static void write_file(const char *path, const char *data, size_t len)
{
	char dir[PATH_MAX];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	make_dirs(dir);
	f = fopen(path, "we");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Copy fixture @name to <root>/<id>/<below>. */
static void plant(const char *root, const char *id, const char *below, const char *name)
{
	char path[PATH_MAX];
	size_t len;
	char *data = fixture_load(name, &len);

	file_path(path, sizeof(path), root, id, below);
	write_file(path, data, len);
	free(data);
}

static enum k8s_result read_one(enum container_kind kind, const char *id, struct k8s_meta *m,
				char *why, size_t why_len)
{
	m->sandbox = true; /* zeroed unless named */
	return k8s_state_read(&roots, kind, id, m, why, why_len);
}

static void test_each_runtime(void **state)
{
	struct k8s_meta m;
	char why[400];

	(void)state;
	plant(root_containerd, ID_A, "config.json", "containerd-container.json");
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_A, &m, why, sizeof(why)), K8S_OK);
	assert_string_equal(why, "");
	assert_string_equal(m.namespace, "shop");
	assert_string_equal(m.pod, "web-7d4b9c8f6-x2x9q");
	assert_string_equal(m.container, "nginx");
	assert_string_equal(m.pod_uid, UID);

	plant(root_crio_run, ID_A, "userdata/config.json", "crio-container.json");
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, why, sizeof(why)), K8S_OK);
	assert_string_equal(m.pod, "cache-0");
	assert_string_equal(m.container, "redis");

	plant(root_docker, ID_B, "config.v2.json", "docker-sandbox.json");
	assert_int_equal(read_one(CONTAINER_DOCKER, ID_B, &m, why, sizeof(why)), K8S_OK);
	assert_string_equal(m.pod, "api-5f6d8b7c9-q8w7e");
	assert_true(m.sandbox);

	/* A plain docker container: no names, and nothing to say. */
	plant(root_docker, ID_A, "config.v2.json", "docker-plain.json");
	assert_int_equal(read_one(CONTAINER_DOCKER, ID_A, &m, why, sizeof(why)),
			 K8S_NOT_KUBERNETES);
	assert_string_equal(why, "");
	assert_memory_equal(&m, &zero, sizeof(m));
}

/* CRI-O's runroot first, then its root; podman's containers are in the same place. */
static void test_crio_places(void **state)
{
	struct k8s_meta m;

	(void)state;
	plant(root_crio_lib, ID_A, "userdata/config.json", "crio-sandbox.json");
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, NULL, 0), K8S_OK);
	assert_true(m.sandbox);
	assert_int_equal(read_one(CONTAINER_PODMAN, ID_A, &m, NULL, 0), K8S_OK);
	assert_string_equal(m.pod, "cache-0");

	plant(root_crio_run, ID_A, "userdata/config.json", "crio-container.json");
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, NULL, 0), K8S_OK);
	assert_false(m.sandbox);
	assert_string_equal(m.container, "redis");

	/* A root left out is skipped. */
	roots.crio_run = "";
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, NULL, 0), K8S_OK);
	assert_true(m.sandbox);
	roots.crio_run = NULL;
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, NULL, 0), K8S_OK);
	assert_true(m.sandbox);
}

/* kubelet's cgroupfs layout names cri-dockerd's containers as containerd's. */
static void test_containerd_falls_back_to_docker(void **state)
{
	struct k8s_meta m;

	(void)state;
	plant(root_docker, ID_A, "config.v2.json", "docker-container.json");
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_A, &m, NULL, 0), K8S_OK);
	assert_string_equal(m.namespace, "billing");
	assert_string_equal(m.container, "api");
	/* A containerd bundle, when there is one, decides. */
	plant(root_containerd, ID_A, "config.json", "containerd-old.json");
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_A, &m, NULL, 0), K8S_OK);
	assert_string_equal(m.namespace, "kube-system");
}

static void test_missing(void **state)
{
	struct k8s_meta m;
	char why[400], want[PATH_MAX];

	(void)state;
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_A, &m, why, sizeof(why)), K8S_MISSING);
	assert_memory_equal(&m, &zero, sizeof(m));
	/* Said with the first place looked at. */
	snprintf(want, sizeof(want), "%s/%s: no state file", root_containerd, ID_A);
	assert_string_equal(why, want);

	/* The id directory there, the file not. */
	make_dirs(root_docker);
	file_path(want, sizeof(want), root_docker, ID_A, "");
	make_dirs(want);
	assert_int_equal(read_one(CONTAINER_DOCKER, ID_A, &m, why, sizeof(why)), K8S_MISSING);
	assert_non_null(strstr(why, "config.v2.json: no state file"));

	/* A file where the id's directory should be. */
	snprintf(want, sizeof(want), "%s/%s", root_crio_run, ID_A);
	write_file(want, "{}", 2);
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, why, sizeof(why)), K8S_MISSING);

	/* No root at all. */
	roots.containerd = roots.docker = NULL;
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_A, &m, why, sizeof(why)), K8S_MISSING);
	assert_non_null(strstr(why, "no state file"));
	/* A root that does not exist (not mounted into the pod) is what is said. */
	roots.containerd = "/nonexistent/k8s.io";
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_A, &m, why, sizeof(why)), K8S_MISSING);
	assert_string_equal(why, "/nonexistent/k8s.io: no state file");
}

/* Only a container id, 64 lower-case hex digits, is looked for: no path escapes the root. */
static void test_not_an_id(void **state)
{
	static const char *const ids[] = {
		"../../../../etc",
		"",
		"9A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F9",
		"9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f",
		"9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
		"9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8/.",
	};
	struct k8s_meta m;
	char why[400];
	size_t i;

	(void)state;
	plant(root_containerd, "..", "config.json", "containerd-container.json");
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		assert_int_equal(read_one(CONTAINER_CONTAINERD, ids[i], &m, why, sizeof(why)),
				 K8S_MISSING);
		assert_string_equal(why, "not a container id");
	}
	assert_int_equal(read_one(CONTAINER_CONTAINERD, NULL, &m, why, sizeof(why)), K8S_MISSING);
}

/* LXC, a user's slice, a unit: no runtime state to look at. */
static void test_other_kinds(void **state)
{
	struct k8s_meta m;
	char why[400];

	(void)state;
	assert_int_equal(read_one(CONTAINER_LXC, "web", &m, why, sizeof(why)), K8S_NOT_KUBERNETES);
	assert_string_equal(why, "");
	assert_int_equal(read_one(CONTAINER_UNIT, ID_A, &m, why, sizeof(why)), K8S_NOT_KUBERNETES);
	assert_int_equal(read_one(CONTAINER_POD, UID, &m, why, sizeof(why)), K8S_NOT_KUBERNETES);
	assert_int_equal(read_one(CONTAINER_NONE, NULL, &m, why, sizeof(why)), K8S_NOT_KUBERNETES);
}

static void test_directory(void **state)
{
	struct k8s_meta m;
	char path[PATH_MAX], why[400];

	(void)state;
	file_path(path, sizeof(path), root_containerd, ID_A, "config.json");
	make_dirs(path);
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_A, &m, why, sizeof(why)),
			 K8S_NOT_REGULAR);
	assert_non_null(strstr(why, "config.json: not a regular file"));
	assert_memory_equal(&m, &zero, sizeof(m));
}

static void on_alarm(int sig)
{
	(void)sig;
	fail_msg("reading a FIFO blocked");
}

/* A FIFO planted as the state file is refused at once: no writer is waited for. */
static void test_fifo(void **state)
{
	struct k8s_meta m;
	char path[PATH_MAX], why[400];

	(void)state;
	file_path(path, sizeof(path), root_crio_run, ID_A, "userdata");
	make_dirs(path);
	file_path(path, sizeof(path), root_crio_run, ID_A, "userdata/config.json");
	assert_int_equal(mkfifo(path, 0600), 0);
	signal(SIGALRM, on_alarm);
	alarm(5);
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, why, sizeof(why)), K8S_NOT_REGULAR);
	alarm(0);
	assert_non_null(strstr(why, "not a regular file"));
	/* The runroot's FIFO decides: the root below is not read instead. */
	plant(root_crio_lib, ID_A, "userdata/config.json", "crio-container.json");
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, why, sizeof(why)), K8S_NOT_REGULAR);
}

/* A symlink anywhere below the root is not followed, wherever it points. */
static void test_symlinks(void **state)
{
	struct k8s_meta m;
	char path[PATH_MAX], target[PATH_MAX], why[400];

	(void)state;
	/* A good file outside the root. */
	snprintf(target, sizeof(target), "%s/outside", tmp);
	plant(target, ID_B, "config.json", "containerd-container.json");

	/* The file itself. */
	snprintf(target, sizeof(target), "%s/outside/%s/config.json", tmp, ID_B);
	file_path(path, sizeof(path), root_containerd, ID_A, "");
	make_dirs(path);
	file_path(path, sizeof(path), root_containerd, ID_A, "config.json");
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_A, &m, why, sizeof(why)), K8S_SYMLINK);
	assert_non_null(strstr(why, "config.json: a symlink, not followed"));
	assert_memory_equal(&m, &zero, sizeof(m));

	/* The id's directory. */
	snprintf(target, sizeof(target), "%s/outside/%s", tmp, ID_B);
	snprintf(path, sizeof(path), "%s/%s", root_containerd, ID_B);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_B, &m, why, sizeof(why)), K8S_SYMLINK);
	assert_non_null(strstr(why, ID_B ": a symlink"));

	/* A directory further down (CRI-O's userdata), even one pointing inside the root. */
	plant(root_crio_run, ID_B, "userdata/config.json", "crio-container.json");
	snprintf(target, sizeof(target), "%s/%s/userdata", root_crio_run, ID_B);
	snprintf(path, sizeof(path), "%s/%s", root_crio_run, ID_A);
	make_dirs(path);
	snprintf(path, sizeof(path), "%s/%s/userdata", root_crio_run, ID_A);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, why, sizeof(why)), K8S_SYMLINK);
	assert_non_null(strstr(why, "userdata: a symlink"));

	/* A dangling one. */
	file_path(path, sizeof(path), root_docker, ID_A, "");
	make_dirs(path);
	file_path(path, sizeof(path), root_docker, ID_A, "config.v2.json");
	assert_int_equal(symlink("/nonexistent", path), 0);
	assert_int_equal(read_one(CONTAINER_DOCKER, ID_A, &m, why, sizeof(why)), K8S_SYMLINK);

	/* The root itself may be reached through a link (/var/run -> /run). */
	snprintf(path, sizeof(path), "%s/run-link", tmp);
	assert_int_equal(symlink(root_crio_run, path), 0);
	roots.crio_run = path;
	assert_int_equal(read_one(CONTAINER_CRIO, ID_B, &m, why, sizeof(why)), K8S_OK);
	assert_string_equal(m.container, "redis");
}

/* 2 MiB is refused; 1 MiB exactly (a real file padded with blanks) is read. */
static void test_size_cap(void **state)
{
	const size_t big = 2 << 20;
	const char *head = "{\"Config\": {\"Labels\": {\"io.kubernetes.pod.namespace\": \"a\", "
			   "\"io.kubernetes.pod.name\": \"b\"}}}";
	char *data = malloc(big), path[PATH_MAX], why[400];
	struct k8s_meta m;

	(void)state;
	assert_non_null(data);
	memset(data, ' ', big);
	memcpy(data, head, strlen(head));

	file_path(path, sizeof(path), root_docker, ID_A, "config.v2.json");
	write_file(path, data, big);
	assert_int_equal(read_one(CONTAINER_DOCKER, ID_A, &m, why, sizeof(why)), K8S_TOO_BIG);
	assert_non_null(strstr(why, "config.v2.json: too big"));
	assert_memory_equal(&m, &zero, sizeof(m));

	write_file(path, data, K8S_STATE_MAX_BYTES + 1);
	assert_int_equal(read_one(CONTAINER_DOCKER, ID_A, &m, why, sizeof(why)), K8S_TOO_BIG);

	write_file(path, data, K8S_STATE_MAX_BYTES);
	assert_int_equal(read_one(CONTAINER_DOCKER, ID_A, &m, why, sizeof(why)), K8S_OK);
	assert_string_equal(m.pod, "b");
	free(data);
}

/* Malformed or odd-shaped contents: the reason names the file and the fault. */
static void test_bad_contents(void **state)
{
	static const char truncated[] =
		"{\"annotations\": {\"io.kubernetes.cri.sandbox-name\": \"w";
	static const char array[] = "{\"annotations\": [\"io.kubernetes.cri.sandbox-name\"]}";
	static const char dup[] = "{\"annotations\": {\"io.kubernetes.pod.name\": \"a\", "
				  "\"io.kubernetes.pod.name\": \"b\"}}";
	char path[PATH_MAX], why[400];
	struct k8s_meta m;

	(void)state;
	file_path(path, sizeof(path), root_containerd, ID_A, "config.json");
	write_file(path, truncated, sizeof(truncated) - 1);
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_A, &m, why, sizeof(why)), K8S_BAD_JSON);
	assert_non_null(strstr(why, "config.json: malformed JSON: line 1"));

	write_file(path, array, sizeof(array) - 1);
	assert_int_equal(read_one(CONTAINER_CONTAINERD, ID_A, &m, why, sizeof(why)), K8S_BAD_SHAPE);
	assert_non_null(strstr(why, "\"annotations\" is not an object"));

	file_path(path, sizeof(path), root_crio_run, ID_A, "userdata/config.json");
	write_file(path, dup, sizeof(dup) - 1);
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, why, sizeof(why)), K8S_BAD_JSON);
	assert_non_null(strstr(why, "duplicate"));

	/* Empty. */
	write_file(path, "", 0);
	assert_int_equal(read_one(CONTAINER_CRIO, ID_A, &m, why, sizeof(why)), K8S_BAD_JSON);
}

/* 0 if a file of mode 0 reads as K8S_UNREADABLE, saying why; 1 if not. */
static int read_mode_0(void)
{
	struct k8s_meta m;
	char why[400];

	if (read_one(CONTAINER_DOCKER, ID_A, &m, why, sizeof(why)) != K8S_UNREADABLE)
		return 1;
	return strstr(why, "config.v2.json: unreadable: Permission denied") ? 0 : 1;
}

/* Root reads any mode: as root, the read is done by a child that became nobody. */
static void test_unreadable(void **state)
{
	char path[PATH_MAX];
	int status;
	pid_t pid;

	(void)state;
	plant(root_docker, ID_A, "config.v2.json", "docker-container.json");
	file_path(path, sizeof(path), root_docker, ID_A, "config.v2.json");
	assert_int_equal(chmod(path, 0), 0);
	if (geteuid() != 0) {
		assert_int_equal(read_mode_0(), 0);
		return;
	}
	assert_int_equal(chmod(tmp, 0755), 0); /* mkdtemp's 0700 would stop nobody sooner */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(77);
		_exit(read_mode_0());
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		print_message("skipped: cannot become nobody (uid 65534) to lose root's reads\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* Read once; a change to the file is not seen until the container is forgotten. */
static void test_cache_reads_once(void **state)
{
	struct k8s_names *n = k8s_names_new(&roots);
	struct k8s_lookup lk;
	struct k8s_meta m;

	(void)state;
	assert_non_null(n);
	plant(root_containerd, ID_A, "config.json", "containerd-container.json");
	assert_int_equal(k8s_names_get(n, CONTAINER_CONTAINERD, ID_A, &m, &lk), K8S_OK);
	assert_true(lk.fresh);
	assert_string_equal(m.container, "nginx");
	assert_int_equal(k8s_names_count(n), 1);

	plant(root_containerd, ID_A, "config.json", "containerd-old.json");
	memset(&m, 0, sizeof(m));
	assert_int_equal(k8s_names_get(n, CONTAINER_CONTAINERD, ID_A, &m, &lk), K8S_OK);
	assert_false(lk.fresh);
	assert_string_equal(m.container, "nginx");
	assert_string_equal(m.pod_uid, UID);

	/* The same id under another kind is another container. */
	assert_int_equal(k8s_names_get(n, CONTAINER_DOCKER, ID_A, &m, &lk), K8S_MISSING);
	assert_true(lk.fresh);
	assert_int_equal(k8s_names_count(n), 2);

	k8s_names_forget(n, CONTAINER_CONTAINERD, ID_A);
	assert_int_equal(k8s_names_count(n), 1);
	assert_int_equal(k8s_names_get(n, CONTAINER_CONTAINERD, ID_A, &m, NULL), K8S_OK);
	assert_string_equal(m.container, "coredns");
	/* Forgetting what is not there changes nothing. */
	k8s_names_forget(n, CONTAINER_CRIO, ID_A);
	k8s_names_forget(n, CONTAINER_CRIO, "..");
	assert_int_equal(k8s_names_count(n), 2);
	k8s_names_free(n);
}

/* A broken file is reported by the call that read it, and then kept quiet. */
static void test_cache_failure_said_once(void **state)
{
	struct k8s_names *n = k8s_names_new(&roots);
	char path[PATH_MAX];
	struct k8s_lookup lk;
	struct k8s_meta m;

	(void)state;
	assert_non_null(n);
	file_path(path, sizeof(path), root_crio_run, ID_B, "userdata/config.json");
	write_file(path, "{\"annotations\": 1}", 18);
	assert_int_equal(k8s_names_get(n, CONTAINER_CRIO, ID_B, &m, &lk), K8S_BAD_SHAPE);
	assert_true(lk.fresh);
	assert_non_null(strstr(lk.why, "unexpected JSON layout"));
	assert_int_equal(k8s_names_get(n, CONTAINER_CRIO, ID_B, &m, &lk), K8S_BAD_SHAPE);
	assert_false(lk.fresh);
	assert_string_equal(lk.why, "");
	assert_memory_equal(&m, &zero, sizeof(m));

	/* An id that is no id is never cached: nothing to forget it by. */
	assert_int_equal(k8s_names_get(n, CONTAINER_CRIO, "x", &m, &lk), K8S_MISSING);
	assert_true(lk.fresh);
	assert_int_equal(k8s_names_count(n), 1);
	k8s_names_free(n);
}

/* A sweep drops the containers not got since the one before. */
static void test_cache_sweep(void **state)
{
	struct k8s_names *n = k8s_names_new(&roots);
	struct k8s_lookup lk;
	struct k8s_meta m;

	(void)state;
	assert_non_null(n);
	plant(root_docker, ID_A, "config.v2.json", "docker-container.json");
	plant(root_docker, ID_B, "config.v2.json", "docker-sandbox.json");
	assert_int_equal(k8s_names_get(n, CONTAINER_DOCKER, ID_A, &m, &lk), K8S_OK);
	assert_int_equal(k8s_names_get(n, CONTAINER_DOCKER, ID_B, &m, &lk), K8S_OK);
	assert_int_equal(k8s_names_sweep(n), 0);
	assert_int_equal(k8s_names_count(n), 2);

	/* Only A still there. */
	assert_int_equal(k8s_names_get(n, CONTAINER_DOCKER, ID_A, &m, &lk), K8S_OK);
	assert_false(lk.fresh);
	assert_int_equal(k8s_names_sweep(n), 1);
	assert_int_equal(k8s_names_count(n), 1);
	assert_int_equal(k8s_names_get(n, CONTAINER_DOCKER, ID_A, &m, &lk), K8S_OK);
	assert_false(lk.fresh);
	assert_int_equal(k8s_names_get(n, CONTAINER_DOCKER, ID_B, &m, &lk), K8S_OK);
	assert_true(lk.fresh);
	assert_true(m.sandbox);

	/* Nothing got: all go. */
	assert_int_equal(k8s_names_sweep(n), 0);
	assert_int_equal(k8s_names_sweep(n), 2);
	assert_int_equal(k8s_names_count(n), 0);
	k8s_names_free(n);
}

/* The pod's own cgroup is named from any of its containers in the cache. */
static void test_cache_pod(void **state)
{
	struct k8s_names *n = k8s_names_new(&roots);
	struct k8s_meta m;

	(void)state;
	assert_non_null(n);
	assert_false(k8s_names_pod(n, UID, &m));
	plant(root_containerd, ID_B, "config.json", "containerd-sandbox.json");
	assert_int_equal(k8s_names_get(n, CONTAINER_CONTAINERD, ID_B, &m, NULL), K8S_OK);
	m.sandbox = true;
	assert_true(k8s_names_pod(n, UID, &m));
	assert_string_equal(m.namespace, "shop");
	assert_string_equal(m.pod, "web-7d4b9c8f6-x2x9q");
	assert_string_equal(m.pod_uid, UID);
	assert_string_equal(m.container, "");
	assert_false(m.sandbox);
	assert_false(k8s_names_pod(n, "00000000-0000-0000-0000-000000000000", &m));
	assert_false(k8s_names_pod(n, "", &m));
	assert_false(k8s_names_pod(n, NULL, &m));
	k8s_names_free(n);
}

/* The table stays bounded: past K8S_NAMES_MAX, containers are read each time. */
static void test_cache_bounded(void **state)
{
	struct k8s_names *n = k8s_names_new(&roots);
	struct k8s_lookup lk;
	struct k8s_meta m;
	char id[65];
	size_t i;

	(void)state;
	assert_non_null(n);
	for (i = 0; i <= K8S_NAMES_MAX; i++) {
		snprintf(id, sizeof(id), "%064zx", i);
		assert_int_equal(k8s_names_get(n, CONTAINER_DOCKER, id, &m, &lk), K8S_MISSING);
		assert_true(lk.fresh);
	}
	assert_int_equal(k8s_names_count(n), K8S_NAMES_MAX);
	assert_int_equal(k8s_names_get(n, CONTAINER_DOCKER, id, &m, &lk), K8S_MISSING);
	assert_true(lk.fresh);
	snprintf(id, sizeof(id), "%064x", 7);
	assert_int_equal(k8s_names_get(n, CONTAINER_DOCKER, id, &m, &lk), K8S_MISSING);
	assert_false(lk.fresh);
	k8s_names_free(n);
}

/* The roots are copied: the caller's strings may go. */
static void test_cache_copies_roots(void **state)
{
	struct k8s_roots mine;
	struct k8s_names *n;
	char buf[PATH_MAX];
	struct k8s_meta m;

	(void)state;
	snprintf(buf, sizeof(buf), "%s", root_docker);
	mine = (struct k8s_roots){ .docker = buf };
	n = k8s_names_new(&mine);
	assert_non_null(n);
	memset(buf, 0, sizeof(buf));
	plant(root_docker, ID_A, "config.v2.json", "docker-container.json");
	assert_int_equal(k8s_names_get(n, CONTAINER_DOCKER, ID_A, &m, NULL), K8S_OK);
	assert_string_equal(m.container, "api");
	/* Unset roots stay unset. */
	assert_int_equal(k8s_names_get(n, CONTAINER_CRIO, ID_A, &m, NULL), K8S_MISSING);
	k8s_names_free(n);
	k8s_names_free(NULL);
}

static void test_default_roots(void **state)
{
	(void)state;
	assert_string_equal(k8s_roots_default.containerd,
			    "/run/containerd/io.containerd.runtime.v2.task/k8s.io");
	assert_string_equal(k8s_roots_default.crio_run,
			    "/run/containers/storage/overlay-containers");
	assert_string_equal(k8s_roots_default.crio_lib,
			    "/var/lib/containers/storage/overlay-containers");
	assert_string_equal(k8s_roots_default.docker, "/var/lib/docker/containers");
}

/*
 * The collect stage: k8s_names_cover() over entries charged to a pod's
 * cgroups (its UID in the path is not the one in the files, to see which
 * is used), a broken container, a plain docker container and a unit.
 */
#define ID_C	 "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"
#define ID_D	 "d00dd00dd00dd00dd00dd00dd00dd00dd00dd00dd00dd00dd00dd00dd00dd00d"
#define ID_E	 "e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0"
#define ID_F	 "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0"
#define ID_G	 "a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0"
#define PATH_UID "17bc79bd-5b4f-4e22-931a-9862d25aed77"
#define POD_DIR                                                                                    \
	"/kubepods.slice/kubepods-burstable.slice/"                                                \
	"kubepods-burstable-pod17bc79bd_5b4f_4e22_931a_9862d25aed77.slice"

static struct cgroup_name cover_paths[] = {
	{ 31, "/system.slice/docker-" ID_D ".scope" },
	{ 33, "/system.slice/sshd.service" },
	{ 50, POD_DIR },
	{ 51, POD_DIR "/cri-containerd-" ID_A ".scope" },
	{ 52, POD_DIR "/cri-containerd-" ID_A ".scope/nested.scope" },
	{ 53, POD_DIR "/cri-containerd-" ID_B ".scope" },
	{ 55, POD_DIR "/cri-containerd-" ID_C ".scope" },
	{ 56, POD_DIR "/cri-containerd-" ID_E ".scope" },
	{ 57, POD_DIR "/cri-containerd-" ID_F ".scope" },
	{ 58, POD_DIR "/cri-containerd-" ID_G ".scope" },
	/* A pod whose path has the files' UID. */
	{ 60, "/kubepods/besteffort/pod" UID },
	{ 61, "/kubepods/besteffort/pod" UID "/" ID_B },
};

static struct cgroup_names cover_names = {
	.v = cover_paths,
	.nr = sizeof(cover_paths) / sizeof(cover_paths[0]),
};

/* An entry set of @nr entries charged to cgroups @ids, into @v. */
static void charge(struct entry_set *s, struct entry *v, const __u64 *ids, size_t nr)
{
	memset(s, 0, sizeof(*s));
	s->v = v;
	for (; s->nr < nr; s->nr++)
		v[s->nr] = (struct entry){ .key = { .id = 100 + (__u32)s->nr,
						    .cgroup_id = ids[s->nr] } };
}

#define charged(s, v, ids) charge(s, v, ids, sizeof(ids) / sizeof(ids[0]))

static void plant_cover(void)
{
	char path[PATH_MAX];

	plant(root_containerd, ID_A, "config.json", "containerd-container.json");
	plant(root_containerd, ID_B, "config.json", "containerd-sandbox.json");
	file_path(path, sizeof(path), root_containerd, ID_C, "config.json");
	write_file(path, "{\"annotations\": 1}", 18);
	plant(root_docker, ID_D, "config.v2.json", "docker-plain.json");
}

static int cover_done(void **state)
{
	k8s_table_free(&cover_names.k8s);
	return teardown(state);
}

/* Written to a memory stream, as the err stream would be. */
struct said {
	FILE *f;
	char *buf;
	size_t len;
};

static void said_open(struct said *w)
{
	w->buf = NULL;
	w->f = open_memstream(&w->buf, &w->len);
	assert_non_null(w->f);
}

static char *said_close(struct said *w)
{
	assert_int_equal(fclose(w->f), 0);
	return w->buf;
}

/* Cover @s, and nothing is said. */
static void cover_silent(struct k8s_names *n, const struct entry_set *s)
{
	struct said w;

	said_open(&w);
	k8s_names_cover(n, &cover_names, s, w.f);
	assert_string_equal(said_close(&w), "");
	free(w.buf);
}

static int count_of(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static int count_lines(const char *s)
{
	return count_of(s, "\n");
}

static void test_cover(void **state)
{
	/* The idle tasks (0), a cgroup not in the names (99), cgroups twice in a row. */
	static const __u64 ids[] = { TD_IDLE_CGROUP_ID, 31, 33, 50, 51, 51, 52, 53, 99 };
	struct k8s_names *n = k8s_names_new(&roots);
	const struct k8s_meta *m;
	struct entry v[16];
	struct entry_set s;

	(void)state;
	assert_non_null(n);
	plant_cover();
	charged(&s, v, ids);
	cover_silent(n, &s);

	m = k8s_table_get(&cover_names.k8s, CONTAINER_CONTAINERD, ID_A);
	assert_non_null(m);
	assert_string_equal(m->namespace, "shop");
	assert_string_equal(m->pod, "web-7d4b9c8f6-x2x9q");
	assert_string_equal(m->container, "nginx");
	assert_false(m->sandbox);
	m = k8s_table_get(&cover_names.k8s, CONTAINER_CONTAINERD, ID_B);
	assert_non_null(m);
	assert_true(m->sandbox);
	/* The pod, under the UID of its cgroup's path: what rows look up. */
	m = k8s_table_get(&cover_names.k8s, CONTAINER_POD, PATH_UID);
	assert_non_null(m);
	assert_string_equal(m->namespace, "shop");
	assert_string_equal(m->pod, "web-7d4b9c8f6-x2x9q");
	assert_string_equal(m->container, "");
	assert_false(m->sandbox);
	assert_string_equal(m->pod_uid, PATH_UID);
	assert_null(k8s_table_get(&cover_names.k8s, CONTAINER_POD, UID));
	/* Not Kubernetes: nothing. Only what was read is in the table. */
	assert_null(k8s_table_get(&cover_names.k8s, CONTAINER_DOCKER, ID_D));
	assert_int_equal(cover_names.k8s.nr, 3);
	/* Each container read once: A, B and D (a pod's cgroup and a unit are no container). */
	assert_int_equal(k8s_names_count(n), 3);
	k8s_names_free(n);
}

/* The pod's own cgroup alone, once one of its containers is cached: named by it (by UID). */
static void test_cover_pod_alone(void **state)
{
	static const __u64 ctr[] = { 61 }, pod[] = { 60 };
	struct k8s_names *n = k8s_names_new(&roots);
	const struct k8s_meta *m;
	struct entry v[4];
	struct entry_set s;

	(void)state;
	assert_non_null(n);
	plant(root_containerd, ID_B, "config.json", "containerd-sandbox.json");
	charged(&s, v, pod);
	k8s_names_cover(n, &cover_names, &s, NULL);
	assert_int_equal(cover_names.k8s.nr, 0); /* no container of its read yet */
	charged(&s, v, ctr);
	k8s_names_cover(n, &cover_names, &s, NULL);
	assert_int_equal(cover_names.k8s.nr, 2);
	k8s_table_free(&cover_names.k8s);
	charged(&s, v, pod);
	k8s_names_cover(n, &cover_names, &s, NULL);
	assert_int_equal(cover_names.k8s.nr, 1);
	m = k8s_table_get(&cover_names.k8s, CONTAINER_POD, UID);
	assert_non_null(m);
	assert_string_equal(m->pod, "web-7d4b9c8f6-x2x9q");
	assert_string_equal(m->container, "");
	assert_false(m->sandbox);
	k8s_names_free(n);
}

/* A broken state file is said once, however many intervals charge its container. */
static void test_cover_said_once(void **state)
{
	static const __u64 ids[] = { 51, 55 };
	struct k8s_names *n = k8s_names_new(&roots);
	struct entry v[4];
	struct entry_set s;
	struct said w;
	const char *text, *nl;

	(void)state;
	assert_non_null(n);
	plant_cover();
	charged(&s, v, ids);
	said_open(&w);
	for (int i = 0; i < 5; i++)
		k8s_names_cover(n, &cover_names, &s, w.f);
	text = said_close(&w);
	nl = strchr(text, '\n');
	assert_non_null(nl);
	assert_int_equal(nl[1], '\0'); /* one line */
	assert_int_equal(strncmp(text, "tdtrace: ", 9), 0);
	assert_non_null(strstr(text, ID_C "/config.json: "));
	assert_non_null(strstr(text, "; its container is shown without Kubernetes names\n"));
	assert_null(k8s_table_get(&cover_names.k8s, CONTAINER_CONTAINERD, ID_C));
	assert_non_null(k8s_table_get(&cover_names.k8s, CONTAINER_CONTAINERD, ID_A));
	free(w.buf);
	k8s_names_free(n);
}

/*
 * Containers with no state file at all (outside Kubernetes) cost one line
 * a run, the first; each broken file is still said, once.
 */
static void test_cover_missing_said_once(void **state)
{
	/* C and G broken, E and F without a file, A named */
	static const __u64 first[] = { 51, 55, 56 }, then[] = { 56, 57, 58, 55 };
	struct k8s_names *n = k8s_names_new(&roots);
	char path[PATH_MAX], *text;
	struct entry v[8];
	struct entry_set s;
	struct said w;

	(void)state;
	assert_non_null(n);
	plant_cover();
	file_path(path, sizeof(path), root_containerd, ID_G, "config.json");
	write_file(path, "[", 1);
	said_open(&w);
	charged(&s, v, first);
	k8s_names_cover(n, &cover_names, &s, w.f);
	charged(&s, v, then);
	for (int i = 0; i < 3; i++)
		k8s_names_cover(n, &cover_names, &s, w.f);
	text = said_close(&w);
	assert_int_equal(count_lines(text), 3);
	assert_int_equal(count_of(text, "no state file"), 1);
	assert_non_null(strstr(text, ID_E
			       ": no state file; its container is shown without "
			       "Kubernetes names (other containers without one are not said)\n"));
	assert_null(strstr(text, ID_F));
	assert_int_equal(count_of(text, ID_C "/config.json: "), 1);
	assert_int_equal(count_of(text, ID_G "/config.json: malformed JSON"), 1);
	assert_non_null(k8s_table_get(&cover_names.k8s, CONTAINER_CONTAINERD, ID_A));
	assert_int_equal(cover_names.k8s.nr, 2); /* A and its pod */
	free(text);
	k8s_names_free(n);
}

/* No cache (neither --containers nor --listen): nothing is read, nothing said. */
static void test_cover_no_cache(void **state)
{
	static const __u64 ids[] = { 50, 51, 53, 55 };
	struct entry v[8];
	struct entry_set s;

	(void)state;
	plant_cover();
	charged(&s, v, ids);
	cover_silent(NULL, &s);
	assert_int_equal(cover_names.k8s.nr, 0);
}

/*
 * Every K8S_SWEEP_EVERY covers the cache drops containers not charged since
 * the sweep before; the table keeps their names, and one charged again is
 * read again.
 */
static void test_cover_sweep(void **state)
{
	static const __u64 both[] = { 51, 53 }, a[] = { 51 }, b[] = { 53 };
	struct k8s_names *n = k8s_names_new(&roots);
	struct entry v[4];
	struct entry_set s;
	int i;

	(void)state;
	assert_non_null(n);
	plant_cover();
	charged(&s, v, both);
	k8s_names_cover(n, &cover_names, &s, NULL);
	assert_int_equal(k8s_names_count(n), 2);
	charged(&s, v, a);
	/* The first sweep keeps what was got since the start; the second drops B. */
	for (i = 1; i < 2 * K8S_SWEEP_EVERY - 1; i++)
		k8s_names_cover(n, &cover_names, &s, NULL);
	assert_int_equal(k8s_names_count(n), 2);
	k8s_names_cover(n, &cover_names, &s, NULL);
	assert_int_equal(k8s_names_count(n), 1);
	assert_true(k8s_table_get(&cover_names.k8s, CONTAINER_CONTAINERD, ID_B)->sandbox);
	assert_string_equal(k8s_table_get(&cover_names.k8s, CONTAINER_CONTAINERD, ID_A)->container,
			    "nginx");

	/* B's file changed meanwhile: read again when charged again, and the table follows. */
	plant(root_containerd, ID_B, "config.json", "containerd-old.json");
	charged(&s, v, b);
	k8s_names_cover(n, &cover_names, &s, NULL);
	assert_int_equal(k8s_names_count(n), 2);
	assert_string_equal(k8s_table_get(&cover_names.k8s, CONTAINER_CONTAINERD, ID_B)->container,
			    "coredns");
	k8s_names_free(n);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
#define C(f) cmocka_unit_test_setup_teardown(f, setup, cover_done)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_each_runtime),
		T(test_crio_places),
		T(test_containerd_falls_back_to_docker),
		T(test_missing),
		T(test_not_an_id),
		T(test_other_kinds),
		T(test_directory),
		T(test_fifo),
		T(test_symlinks),
		T(test_size_cap),
		T(test_bad_contents),
		T(test_unreadable),
		T(test_cache_reads_once),
		T(test_cache_failure_said_once),
		T(test_cache_sweep),
		T(test_cache_pod),
		T(test_cache_bounded),
		T(test_cache_copies_roots),
		cmocka_unit_test(test_default_roots),
		C(test_cover),
		C(test_cover_pod_alone),
		C(test_cover_said_once),
		C(test_cover_missing_said_once),
		C(test_cover_no_cache),
		C(test_cover_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
