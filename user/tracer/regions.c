// SPDX-License-Identifier: GPL-2.0
/* --region: resolve, attach the uprobes, read the regions' map (regions.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "tdtrace.h" /* before the skeleton, whose .bss uses its types */
#include "tdtrace.skel.h"
#include "host/machine.h"
#include "tracer/regions.h"
#include "cli/say.h"

/* Library directories searched for a BINARY given by name, after LD_LIBRARY_PATH. */
static const char *const lib_dirs[] = {
#if defined(__x86_64__)
	"/lib/x86_64-linux-gnu",
	"/usr/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
	"/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu",
#endif
	"/lib64",
	"/usr/lib64",
	"/lib",
	"/usr/lib",
	"/usr/local/lib",
};

/* Does file name @base name library or program @name: "libc" names libc.so.6 and libc-2.31.so. */
static bool names(const char *base, const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(base, name))
		return true;
	return !strncmp(base, name, n) && (base[n] == '.' || base[n] == '-') && strstr(base, ".so");
}

static bool regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* A file that @tgid maps, named by @name (@exact: its whole path); 0 or -ENOENT. */
static int in_maps(pid_t tgid, const char *name, bool exact, char *out, size_t len)
{
	char file[64], line[PATH_MAX + 128];
	int err = -ENOENT;
	FILE *f;

	snprintf(file, sizeof(file), "/proc/%d/maps", (int)tgid);
	f = fopen(file, "re");
	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/'), *base;

		if (!path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		base = strrchr(path, '/') + 1;
		if (exact ? !strcmp(path, name) : names(base, name)) {
			snprintf(out, len, "%s", path);
			err = 0;
		}
	}
	fclose(f);
	return err;
}

/* @name in directory @dir, as names() says; 0 or -ENOENT. */
static int in_dir(const char *dir, const char *name, char *out, size_t len)
{
	struct dirent *de;
	DIR *d;
	int err = -ENOENT;

	snprintf(out, len, "%s/%s", dir, name);
	if (regular_file(out))
		return 0;
	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while (err && (de = readdir(d))) {
		if (!names(de->d_name, name))
			continue;
		snprintf(out, len, "%s/%s", dir, de->d_name);
		if (regular_file(out))
			err = 0;
	}
	closedir(d);
	return err;
}

/* Program @name in directory @dir; 0 or -ENOENT. */
static int in_bin_dir(const char *dir, const char *name, char *out, size_t len)
{
	int n = snprintf(out, len, "%s/%s", dir, name);

	return n > 0 && (size_t)n < len && regular_file(out) ? 0 : -ENOENT;
}

/* Each directory of a ':' list (LD_LIBRARY_PATH, PATH); 0 or -ENOENT. */
static int in_path_list(const char *list, const char *name, bool libs, char *out, size_t len)
{
	char dir[PATH_MAX];

	while (list && *list) {
		size_t n = strcspn(list, ":");

		if (n && n < sizeof(dir)) {
			memcpy(dir, list, n);
			dir[n] = '\0';
			if (!(libs ? in_dir : in_bin_dir)(dir, name, out, len))
				return 0;
		}
		list += n + (list[n] == ':');
	}
	return -ENOENT;
}

/*
 * BINARY given by name: in a -p process's mappings first, then in the
 * library directories, then PATH.
 */
static int find_by_name(const char *name, const struct targets *t, char *out, size_t len)
{
	for (int i = 0; i < t->nr_pids; i++)
		if (!in_maps(t->tgids[i], name, false, out, len))
			return 0;
	if (!in_path_list(getenv("LD_LIBRARY_PATH"), name, true, out, len))
		return 0;
	for (size_t i = 0; i < sizeof(lib_dirs) / sizeof(lib_dirs[0]); i++)
		if (!in_dir(lib_dirs[i], name, out, len))
			return 0;
	return in_path_list(getenv("PATH"), name, false, out, len);
}

/* ELF file @path, its descriptor in *@fd; NULL with *@err -errno, or -ENOEXEC if not ELF. */
static Elf *elf_open(const char *path, int *fd, int *err)
{
	Elf *e;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0) {
		*err = -errno;
		return NULL;
	}
	elf_version(EV_CURRENT);
	e = elf_begin(*fd, ELF_C_READ, NULL);
	if (e && elf_kind(e) == ELF_K_ELF)
		return e;
	if (e)
		elf_end(e);
	close(*fd);
	*err = -ENOEXEC;
	return NULL;
}

static void elf_close(Elf *e, int fd)
{
	elf_end(e);
	close(fd);
}

/*
 * Is @sym a function defined in ELF file @path? 0 if so; -ENOEXEC: not
 * an ELF file; -ENOENT: not there, *@stripped if it has no symbol table.
 */
static int find_function(const char *path, const char *sym, bool *stripped)
{
	size_t sym_len = strlen(sym);
	Elf_Scn *scn = NULL;
	int fd, err = -ENOENT;
	Elf *e = elf_open(path, &fd, &err);

	*stripped = true;
	if (!e)
		return err;
	while (err && (scn = elf_nextscn(e, scn))) {
		Elf_Data *data;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			*stripped = false;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			const char *name;
			GElf_Sym s;

			if (!gelf_getsym(data, (int)i, &s) || s.st_shndx == SHN_UNDEF)
				continue;
			if (GELF_ST_TYPE(s.st_info) != STT_FUNC &&
			    GELF_ST_TYPE(s.st_info) != STT_GNU_IFUNC)
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			/* libbpf matches a versioned name too ("memcpy@@GLIBC_2.14") */
			if (name && !strncmp(name, sym, sym_len) &&
			    (name[sym_len] == '\0' || name[sym_len] == '@')) {
				err = 0;
				break;
			}
		}
	}
	elf_close(e, fd);
	return err;
}

/* options_shown() of @s, kept: several in one message. */
static const char *shown(char *keep, size_t len, const char *s)
{
	snprintf(keep, len, "%s", options_shown(s, (size_t)-1));
	return keep;
}

#define SHOWN_LEN 512 /* options_shown() gives at most 100 bytes, each up to 4 */

/*
 * Does ELF file @path hold a USDT note of provider "tdtrace" (tdtrace/
 * region.h)? 0 if so, -ENOENT if not, -ENOEXEC: not an ELF file.
 */
static int find_markers(const char *path)
{
	Elf_Scn *scn = NULL;
	int fd, err = -ENOENT;
	Elf *e = elf_open(path, &fd, &err);

	if (!e)
		return err;
	if (gelf_getclass(e) != ELFCLASS64) {
		elf_close(e, fd);
		return -ENOEXEC;
	}
	while (err && (scn = elf_nextscn(e, scn))) {
		size_t off = 0, name_off, desc_off;
		Elf_Data *data;
		GElf_Nhdr nh;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		while (err && data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off))) {
			const char *desc = (const char *)data->d_buf + desc_off;

			/* type 3, "stapsdt": pc, base, semaphore, then provider, name, args */
			if (nh.n_type != 3 || nh.n_namesz != sizeof("stapsdt") ||
			    memcmp((const char *)data->d_buf + name_off, "stapsdt", nh.n_namesz) ||
			    nh.n_descsz < 3 * 8 + sizeof("tdtrace"))
				continue;
			if (!memcmp(desc + 3 * 8, "tdtrace", sizeof("tdtrace")))
				err = 0;
		}
	}
	elf_close(e, fd);
	return err;
}

/* @path into the --usdt list, once. */
static int add_usdt(struct tracer_regions *rg, const char *path)
{
	for (int i = 0; i < rg->nr_usdt; i++)
		if (!strcmp(rg->usdt[i], path))
			return 0;
	if (rg->nr_usdt == TD_MAX_USDT_BINARIES)
		return -E2BIG;
	snprintf(rg->usdt[rg->nr_usdt++], PATH_MAX, "%s", path);
	return 0;
}

/*
 * --usdt's programs: BINARY, or each -p process's (/proc/PID/exe), or
 * COMMAND's; only those with markers are kept, and one must have them.
 */
static int resolve_usdt(struct tracer_regions *rg, const struct options *o, const struct targets *t)
{
	char path[PATH_MAX], what[SHOWN_LEN], link[64];
	int err, nr_tried = 0;

	rg->usdt = calloc(TD_MAX_USDT_BINARIES, sizeof(*rg->usdt));
	if (!rg->usdt)
		return -ENOMEM;
	for (int i = 0; i <= t->nr_pids; i++) {
		const char *cmd = o->command ? o->command[0] : NULL;

		err = -ENOENT;
		if (o->usdt_binary) {
			if (i)
				break;
			err = strchr(o->usdt_binary, '/')
				      ? (realpath(o->usdt_binary, path) && regular_file(path)
						 ? 0
						 : -ENOENT)
				      : find_by_name(o->usdt_binary, t, path, sizeof(path));
			shown(what, sizeof(what), o->usdt_binary);
		} else if (i < t->nr_pids) {
			ssize_t n;

			snprintf(link, sizeof(link), "/proc/%d/exe", (int)t->tgids[i]);
			n = readlink(link, path, sizeof(path) - 1);
			if (n > 0) {
				path[n] = '\0';
				err = 0;
			}
			shown(what, sizeof(what), link);
		} else if (cmd) {
			err = strchr(cmd, '/')
				      ? (realpath(cmd, path) && regular_file(path) ? 0 : -ENOENT)
				      : in_path_list(getenv("PATH"), cmd, false, path,
						     sizeof(path));
			shown(what, sizeof(what), cmd);
		} else {
			break;
		}
		nr_tried++;
		if (err) {
			say(stderr, "--usdt: no program %s; give --usdt=BINARY", what);
			return -ENOENT;
		}
		err = find_markers(path);
		if (err == -ENOEXEC && o->usdt_binary) {
			say(stderr, "--usdt=%s: %s is not a 64-bit ELF file", what,
			    shown(what, sizeof(what), path));
			return err;
		}
		if (!err && add_usdt(rg, path)) {
			say(stderr,
			    "--usdt: more than %d programs with markers; give --usdt=BINARY",
			    TD_MAX_USDT_BINARIES);
			return -E2BIG;
		}
	}
	if (!nr_tried) {
		say(stderr,
		    "--usdt needs -p, a COMMAND or --usdt=BINARY: which program's markers?");
		return -EINVAL;
	}
	if (!rg->nr_usdt) {
		say(stderr,
		    "--usdt: %s has no tdtrace region markers; mark regions with "
		    "TDTRACE_REGION_BEGIN(name) and END(name) of tdtrace/region.h",
		    nr_tried > 1 ? "none of the -p processes' programs"
				 : shown(what, sizeof(what), path));
		return -ENOENT;
	}
	return 0;
}

static int resolve_one(struct region_spec *r, const struct targets *t)
{
	char buf[PATH_MAX + 256], found[PATH_MAX], name[SHOWN_LEN], what[SHOWN_LEN];
	const char *binary, *symbol;
	bool stripped, mapped = false;
	int err;

	if (region_spec_split(r->name, buf, sizeof(buf), &binary, &symbol) ||
	    strlen(symbol) >= sizeof(r->symbol)) {
		say(stderr, "--region %s: expected BINARY:SYMBOL",
		    options_shown(r->name, (size_t)-1));
		return -EINVAL;
	}
	shown(name, sizeof(name), r->name);
	snprintf(r->symbol, sizeof(r->symbol), "%s", symbol);
	if (strchr(binary, '/'))
		err = realpath(binary, found) && regular_file(found) ? 0 : -ENOENT;
	else
		err = find_by_name(binary, t, found, sizeof(found));
	if (err) {
		say(stderr,
		    "--region %s: no file %s; give a path, or the name of a library or program "
		    "that a -p process maps or that is in the library directories or PATH",
		    name, shown(what, sizeof(what), binary));
		return -ENOENT;
	}
	snprintf(r->path, sizeof(r->path), "%s", found);
	err = find_function(r->path, r->symbol, &stripped);
	if (err == -ENOEXEC) {
		say(stderr,
		    "--region %s: %s is not an ELF file; give a program or a shared library", name,
		    shown(what, sizeof(what), r->path));
		return err;
	}
	if (err) {
		char sym[SHOWN_LEN];

		say(stderr, "--region %s: no function %s in %s%s", name,
		    shown(sym, sizeof(sym), r->symbol), shown(what, sizeof(what), r->path),
		    stripped ? ", which is stripped (no symbol table): give an unstripped build"
			     : " (nm shows its functions)");
		return err;
	}
	for (int i = 0; i < t->nr_pids && !mapped; i++)
		mapped = !in_maps(t->tgids[i], r->path, true, found, sizeof(found));
	if (t->nr_pids && !mapped) {
		say(stderr, "--region %s: no -p process maps %s; trace a process that runs it",
		    name, shown(what, sizeof(what), r->path));
		return -ESRCH;
	}
	return 0;
}

int tracer_regions_resolve(struct tracer_regions *rg, const struct options *o,
			   const struct targets *t)
{
	memset(rg, 0, sizeof(*rg));
	rg->map_fd = -1;
	rg->usdt_fd = -1;
	if (o->usdt) {
		int err = resolve_usdt(rg, o, t);

		if (err)
			return err;
	}
	if (!o->nr_regions)
		return 0;
	rg->v = calloc(o->nr_regions, sizeof(*rg->v));
	if (!rg->v)
		return -ENOMEM;
	rg->nr = o->nr_regions;
	for (int i = 0; i < rg->nr; i++) {
		int err;

		rg->v[i].name = o->regions[i];
		err = resolve_one(&rg->v[i], t);
		if (err)
			return err;
	}
	return 0;
}

void tracer_regions_configure(struct tracer_regions *rg, struct tdtrace *skel,
			      const struct slot_packing *pk, unsigned int max_entries)
{
	struct bpf_program *progs[] = { skel->progs.td_region_enter, skel->progs.td_region_exit,
					skel->progs.td_usdt_begin, skel->progs.td_usdt_end };

	skel->rodata->regions_on = rg->nr > 0 || rg->nr_usdt > 0;
	for (int i = 0; i < 4; i++) {
		bpf_program__set_autoload(progs[i], i < 2 ? rg->nr > 0 : rg->nr_usdt > 0);
		bpf_program__set_autoattach(progs[i], false);
	}
	bpf_map__set_max_entries(skel->maps.td_regions, max_entries);
	/* The counts the run fills, no more, as the entries' (struct td_region_val). */
	rg->pk = *pk;
	bpf_map__set_value_size(skel->maps.td_regions,
				td_region_bytes(pk->counters, pk->groups, pk->times));
	bpf_map__set_value_size(skel->maps.td_region_zero,
				td_region_bytes(pk->counters, pk->groups, pk->times));
}

/* The value at @raw (struct td_region_val and its halves) into @out. */
static void region_unpack(const struct tracer_regions *rg, void *raw, struct region_val_read *out)
{
	const struct td_region_val *head = raw;

	for (int h = 0; h < 2; h++) {
		slot_unpack(packed_half((char *)raw + sizeof(*head), &rg->pk, h), &rg->pk,
			    &out->c[h]);
		out->calls[h] = head->calls[h];
	}
	out->tgid = head->tgid;
	memcpy(out->comm, head->comm, sizeof(out->comm));
}

/* Descriptors open now. */
static unsigned long open_files(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned long n = 0;

	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

int tracer_regions_attach(struct tracer_regions *rg, struct tdtrace *skel)
{
	struct rlimit r;
	int err;

	rg->map_fd = bpf_map__fd(skel->maps.td_regions);
	rg->usdt_fd = bpf_map__fd(skel->maps.td_usdt_names);
	if (!rg->nr && !rg->nr_usdt)
		return 0;
	/* Each probe is an open perf event: room for them beside those open now. */
	if (!getrlimit(RLIMIT_NOFILE, &r) && r.rlim_cur != RLIM_INFINITY) {
		err = machine_reserve_files(open_files() + 2 * rg->nr + 16);
		if (err)
			return err;
	}
	rg->links = calloc(2 * (rg->nr + rg->nr_usdt), sizeof(*rg->links));
	if (!rg->links)
		return -ENOMEM;
	for (int i = 0; i < rg->nr; i++) {
		for (int ret = 0; ret < 2; ret++) {
			LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = rg->v[i].symbol,
				    .retprobe = ret, .bpf_cookie = i + 1);
			struct bpf_program *prog =
				ret ? skel->progs.td_region_exit : skel->progs.td_region_enter;
			struct bpf_link *l =
				bpf_program__attach_uprobe_opts(prog, -1, rg->v[i].path, 0, &opts);

			if (!l) {
				err = -errno;
				say(stderr, "failed to attach the %s of --region %s: %s",
				    ret ? "uretprobe" : "uprobe",
				    options_shown(rg->v[i].name, (size_t)-1), strerror(-err));
				return err;
			}
			rg->links[rg->nr_links++] = l;
		}
	}
	for (int i = 0; i < rg->nr_usdt; i++) {
		for (int end = 0; end < 2; end++) {
			struct bpf_link *l = bpf_program__attach_usdt(
				end ? skel->progs.td_usdt_end : skel->progs.td_usdt_begin, -1,
				rg->usdt[i], "tdtrace", end ? "region_end" : "region_begin", NULL);

			if (!l) {
				char what[SHOWN_LEN];

				err = -errno;
				say(stderr, "failed to attach the USDT probes of %s: %s",
				    shown(what, sizeof(what), rg->usdt[i]), strerror(-err));
				return err;
			}
			rg->links[rg->nr_links++] = l;
		}
	}
	return 0;
}

/* Marker names the program has met since the last call, kept by id. */
static void read_usdt_names(struct tracer_regions *rg)
{
	struct td_usdt_name key, next, *prev = NULL;
	__u32 id;

	while (!bpf_map_get_next_key(rg->usdt_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(rg->usdt_fd, &key, &id) || id < TD_USDT_FIRST_ID ||
		    id >= TD_REGION_ID_LIMIT || rg->usdt_names[id - TD_USDT_FIRST_ID])
			continue;
		rg->usdt_names[id - TD_USDT_FIRST_ID] = strndup(key.s, sizeof(key.s));
	}
}

/* Region @id's name: its --region as given, or its marker's string. */
static const char *region_name(const struct tracer_regions *rg, __u32 id)
{
	if (id >= 1 && id <= (__u32)rg->nr)
		return rg->v[id - 1].name;
	if (id >= TD_USDT_FIRST_ID && id < TD_REGION_ID_LIMIT)
		return rg->usdt_names[id - TD_USDT_FIRST_ID];
	return NULL;
}

/* Is process @tgid still there? A zombie is; so is one tdtrace may not signal. */
static bool process_alive(__u32 tgid)
{
	return !kill((pid_t)tgid, 0) || errno == EPERM;
}

/*
 * Note @key if its process is gone now. A process found gone at one read
 * charged nothing after that read's flush: its entries are whole at the
 * next read (both halves read), which deletes them, so that the map keeps
 * room for the processes that come after. --per-cgroup's have none.
 */
static int note_gone(struct tracer_regions *rg, const struct td_region_key *key)
{
	if (!key->task.id || region_find(&rg->gone[0], key) || process_alive(key->task.id))
		return 0;
	return region_get(&rg->gone[1], key) ? 0 : -ENOMEM;
}

/* Delete the entries of the processes found gone at the last read; this read's are next. */
static int forget_gone(struct tracer_regions *rg)
{
	struct region_set swap;

	for (size_t i = 0; i < rg->gone[0].nr; i++) {
		const struct td_region_key *k = &rg->gone[0].v[i].key;

		if (bpf_map_delete_elem(rg->map_fd, k) && errno != ENOENT)
			return -errno;
		region_remove(&rg->seen[0], k);
		region_remove(&rg->seen[1], k);
	}
	region_set_clear(&rg->gone[0]);
	swap = rg->gone[0];
	rg->gone[0] = rg->gone[1];
	rg->gone[1] = swap;
	return 0;
}

int tracer_regions_read(struct tracer_regions *rg, unsigned int closed, struct region_set *delta)
{
	struct td_region_key key, next, *prev = NULL;
	struct region_val_read val;
	struct region_row *row;
	int err;

	region_set_clear(delta);
	if (rg->map_fd < 0 || (!rg->nr && !rg->nr_usdt))
		return 0;
	if (rg->nr_usdt)
		read_usdt_names(rg);
	if (!rg->val) {
		rg->val = calloc(1, td_region_bytes(rg->pk.counters, rg->pk.groups, rg->pk.times));
		if (!rg->val)
			return -ENOMEM;
	}
	while (!bpf_map_get_next_key(rg->map_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(rg->map_fd, &key, rg->val))
			continue; /* deleted meanwhile */
		region_unpack(rg, rg->val, &val);
		err = region_read_half(&rg->seen[closed & 1], delta, &key, &val, closed);
		if (err)
			return err;
		row = region_find(delta, &key);
		if (row)
			row->name = region_name(rg, key.region);
		err = note_gone(rg, &key);
		if (err)
			return err;
	}
	if (errno != ENOENT)
		return -errno;
	return forget_gone(rg);
}

void tracer_regions_detach(struct tracer_regions *rg)
{
	for (int i = 0; i < rg->nr_links; i++)
		bpf_link__destroy(rg->links[i]);
	rg->nr_links = 0;
}

void tracer_regions_free(struct tracer_regions *rg)
{
	tracer_regions_detach(rg);
	free(rg->links);
	free(rg->val);
	free(rg->v);
	free(rg->usdt);
	for (int i = 0; i < TD_MAX_USDT_NAMES; i++)
		free(rg->usdt_names[i]);
	for (int i = 0; i < 2; i++) {
		region_set_free(&rg->seen[i]);
		region_set_free(&rg->gone[i]);
	}
	memset(rg, 0, sizeof(*rg));
	rg->map_fd = -1;
	rg->usdt_fd = -1;
}
