# SPDX-License-Identifier: GPL-2.0
#
#   make            build build/tdtrace
#   make run        install missing packages, build, run tdtrace for 5 s (README)
#   make check      install missing packages, build, run every test (README, .ci/run)
#   make test       build and run every test (packages already there)
#   make test-tools the tests of tools/tdtrace-plot only (also in make test)
#   make install    tdtrace, tdtrace-plot, man pages, completion into PREFIX
#                   (/usr/local), under DESTDIR if set; make uninstall
#   make install-tdregion  libtdregion (.a, .so) and <tdtrace/tdregion.h> into PREFIX
#   make deb-check  build the .deb (debian/) in /tmp, unpack, run, lintian
#   make sanitize   the tests again, built with ASan + UBSan in build/asan
#   make valgrind   the unit tests under valgrind
#   make fuzz       each libFuzzer target in fuzz/ for FUZZ_SECONDS (default 60)
#   make bench      overhead benchmark: prints a table (see BENCHMARKS.md)
#   make bench-scale  its part at 100,000 threads alone (SCALE_TASKS=100000)
#   make soak       10 minutes under a mixed load, checked (SOAK_SECONDS=600)
#   make hwcheck    on TopDown hardware: tdtrace against perf stat -M (tests/hw/)
#   make arm64      cross-build build/arm64/tdtrace (installs the arm64 packages)

OUTPUT ?= build
CLANG ?= clang
BPFTOOL ?= bpftool
ARCH := x86

# Evaluated when used, so that `make check` can install pkg-config first.
LIBBPF_CFLAGS = $(shell pkg-config --cflags libbpf)
LIBBPF_LIBS = $(shell pkg-config --libs libbpf)

CFLAGS ?= -g -O2
override CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Iinclude -Iuser -I$(OUTPUT)
override LDLIBS += $(LIBBPF_LIBS) -lelf -lz -lm -ljansson -lmicrohttpd -lpthread
# The source's path is kept in the object's BTF line info: relative to the
# tree, so that the same source built elsewhere (a package build) gives the
# same binary.
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -Wall -Iinclude -Ivmlinux -Ibpf \
	-ffile-prefix-map=$(CURDIR)=.

# user/: main in tdtrace.c; one folder per stage. cli/ host/ model/ output/
# make no libbpf calls and are what unit tests link; tracer/ drives BPF;
# replay/ is "tdtrace report", recorded lines decoded again; exporter/ is
# the HTTP side of --listen (libmicrohttpd), outside the unit tests' set.
USER_DIRS := cli host model tracer output replay exporter tdregion
PURE_SRCS := $(wildcard $(patsubst %,user/%/*.c,cli host model output replay))
TRACER_SRCS := $(wildcard user/tracer/*.c user/exporter/*.c)
PURE_OBJS := $(patsubst user/%.c,$(OUTPUT)/user/%.o,$(PURE_SRCS))
LIB_OBJS := $(PURE_OBJS) $(patsubst user/%.c,$(OUTPUT)/user/%.o,$(TRACER_SRCS))
USER_HDRS := $(filter-out user/tdregion/%,$(wildcard user/*/*.h))
SKEL := $(OUTPUT)/tdtrace.skel.h
# libtdregion (user/tdregion/): a program's own regions, read in the process.
TDREGION_LIBS := $(OUTPUT)/libtdregion.a $(OUTPUT)/libtdregion.so.0 $(OUTPUT)/libtdregion.so

UNIT_TESTS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(wildcard tests/unit/test_*.c))
INTEG_TESTS := $(patsubst tests/integration/%.c,$(OUTPUT)/tests/%,$(wildcard tests/integration/test_*.c))
# tests/faults/: what a long-running tracer meets (removed targets, hotplug, signals).
FAULT_TESTS := $(patsubst tests/faults/%.c,$(OUTPUT)/tests/%,$(wildcard tests/faults/test_*.c))
TEST_HELPERS := $(patsubst tests/integration/helpers/%.c,$(OUTPUT)/tests/%,$(wildcard tests/integration/helpers/*.c))

.PHONY: all man hwcheck run check test unit integration tdregion install-tdregion uninstall-tdregion sanitize sanitize-tests valgrind fuzz bench bench-scale soak arm64 \
	deps deps-arm64 clean
.DELETE_ON_ERROR:
# The test summary must be the last line CI sees.
MAKEFLAGS += --no-print-directory

all: $(OUTPUT)/tdtrace $(OUTPUT)/tdtrace.8 $(OUTPUT)/tdtrace.bash-completion $(TDREGION_LIBS)

# The man page and completion are made from the option table, as --help is.
# Dated by the last commit, so that a rebuild gives the same page.
MAN_DATE = $(shell git log -1 --format=%cs 2>/dev/null || date +%F)
$(OUTPUT)/mkdoc: tools/mkdoc.c $(PURE_OBJS) | $(OUTPUT)
	$(CC) $(CFLAGS) $< $(PURE_OBJS) $(LDFLAGS) -lm -ljansson -o $@
$(OUTPUT)/tdtrace.8: $(OUTPUT)/mkdoc
	$(OUTPUT)/mkdoc man $(MAN_DATE) > $@
$(OUTPUT)/tdtrace.bash-completion: $(OUTPUT)/mkdoc
	$(OUTPUT)/mkdoc completion > $@
man: $(OUTPUT)/tdtrace.8 $(OUTPUT)/tdtrace.bash-completion

# On a machine with TopDown counters: tdtrace's formulas and attribution
# against perf stat -M on the same workloads (tests/hw/hwcheck.py).
$(OUTPUT)/hw-workload: tests/hw/workload.c | $(OUTPUT)
	$(CC) -O1 -Wall -o $@ $<
# The same workloads inside one libtdregion region (the region case).
$(OUTPUT)/hw-region: tests/hw/region.c tests/hw/workload.c $(OUTPUT)/libtdregion.a | $(OUTPUT)
	$(CC) -O1 -Wall -Iinclude -Itests/hw -o $@ $< $(OUTPUT)/libtdregion.a -lm
hwcheck: deps $(OUTPUT)/tdtrace $(OUTPUT)/hw-workload $(OUTPUT)/hw-region
	OUTPUT=$(OUTPUT) python3 tests/hw/hwcheck.py

$(OUTPUT) $(OUTPUT)/tests $(patsubst %,$(OUTPUT)/user/%,$(USER_DIRS)):
	mkdir -p $@

# BPF object, then its skeleton (the loader embeds the object).
$(OUTPUT)/tdtrace.bpf.o: bpf/tdtrace.bpf.c $(wildcard bpf/*.h bpf/asm/*.h) include/tdtrace.h vmlinux/kernel_types.h | $(OUTPUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	llvm-strip -g $@  # drop DWARF, keep BTF

$(SKEL): $(OUTPUT)/tdtrace.bpf.o
	$(BPFTOOL) gen skeleton $< name tdtrace > $@

$(OUTPUT)/user/tdtrace.o: user/tdtrace.c $(USER_HDRS) include/tdtrace.h $(SKEL) | $(OUTPUT)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LIBBPF_CFLAGS) -c $< -o $@

$(OUTPUT)/user/tracer/%.o: user/tracer/%.c $(USER_HDRS) include/tdtrace.h $(SKEL) | $(OUTPUT)/user/tracer
	$(CC) $(CFLAGS) $(LIBBPF_CFLAGS) -c $< -o $@

$(OUTPUT)/user/%.o: user/%.c $(USER_HDRS) include/tdtrace.h | $(patsubst %,$(OUTPUT)/user/%,$(USER_DIRS))
	$(CC) $(CFLAGS) -c $< -o $@

$(OUTPUT)/tdtrace: $(OUTPUT)/user/tdtrace.o $(LIB_OBJS)
	$(CC) $(CFLAGS) $^ $(LDFLAGS) $(LDLIBS) -o $@

# libtdregion (include/tdtrace/tdregion.h, README "libtdregion"): user/tdregion/
# and the pure layer it discovers and decodes with, built -fPIC in $(OUTPUT)/pic;
# only the tdregion_* functions are exported from the shared library.
TDREGION_PURE := host/pmu cli/say model/cpu_name model/pmu_desc model/models model/models_intel \
	model/models_amd model/models_arm64 model/models_no_topdown model/counters model/decode \
	model/decoder model/expr model/counts
TDREGION_OBJS := $(patsubst user/%.c,$(OUTPUT)/pic/user/%.o,$(wildcard user/tdregion/*.c)) \
	$(patsubst %,$(OUTPUT)/pic/user/%.o,$(TDREGION_PURE))

$(OUTPUT)/pic/user/%.o: user/%.c $(USER_HDRS) $(wildcard user/tdregion/*.h) include/tdtrace.h \
	include/tdtrace/tdregion.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

$(OUTPUT)/libtdregion.a: $(TDREGION_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

$(OUTPUT)/libtdregion.so.0: $(TDREGION_OBJS)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libtdregion.so.0 -Wl,--no-undefined $^ $(LDFLAGS) -lm -o $@

$(OUTPUT)/libtdregion.so: $(OUTPUT)/libtdregion.so.0
	ln -sf libtdregion.so.0 $@

tdregion: $(TDREGION_LIBS)

# Its fallback test, one source linked twice: the static and the shared library.
TDREGION_TESTS := $(OUTPUT)/tests/tdregion_static $(OUTPUT)/tests/tdregion_shared
$(OUTPUT)/tests/tdregion_static: tests/integration/tdregion_fallback.c $(OUTPUT)/libtdregion.a | $(OUTPUT)/tests
	$(CC) $(CFLAGS) $< $(OUTPUT)/libtdregion.a $(LDFLAGS) -lcmocka -lm -o $@

$(OUTPUT)/tests/tdregion_shared: tests/integration/tdregion_fallback.c $(OUTPUT)/libtdregion.so | $(OUTPUT)/tests
	$(CC) $(CFLAGS) $< -L$(OUTPUT) -Wl,-rpath,'$$ORIGIN/..' -ltdregion $(LDFLAGS) -lcmocka -lm -o $@

# test_tdregion: the pure layer and libtdregion's arithmetic.
$(OUTPUT)/user/tdregion/fields.o: user/tdregion/fields.h
$(OUTPUT)/tests/test_tdregion: tests/unit/test_tdregion.c user/tdregion/fields.h $(PURE_OBJS) \
	$(OUTPUT)/user/tdregion/fields.o | $(OUTPUT)/tests
	$(CC) $(CFLAGS) -Itests $< $(PURE_OBJS) $(OUTPUT)/user/tdregion/fields.o $(LDFLAGS) -lm -lcmocka -ljansson -o $@

# Unit tests link the pure objects, without libbpf; integration tests drive build/tdtrace.
$(OUTPUT)/tests/test_%: tests/unit/test_%.c $(PURE_OBJS) | $(OUTPUT)/tests
	$(CC) $(CFLAGS) -Itests $< $(PURE_OBJS) $(LDFLAGS) -lm -lcmocka -ljansson -o $@

# Integration tests share tests/integration/itest.c, compiled once, and find
# the cgroup2 mount with tdtrace's own code; fault tests add tests/faults/faults.c.
ITEST_OBJS := $(OUTPUT)/tests/itest.o $(patsubst %,$(OUTPUT)/user/%.o,host/cgroupfs model/cgroup_names \
	model/k8s_table model/utf8)
FAULT_OBJS := $(OUTPUT)/tests/faults.o $(ITEST_OBJS)
$(OUTPUT)/tests/itest.o: tests/integration/itest.c tests/integration/itest.h $(USER_HDRS) | $(OUTPUT)/tests
	$(CC) $(CFLAGS) -Itests/integration -c $< -o $@

$(OUTPUT)/tests/faults.o: tests/faults/faults.c tests/faults/faults.h tests/integration/itest.h | $(OUTPUT)/tests
	$(CC) $(CFLAGS) -Itests/integration -c $< -o $@

$(OUTPUT)/tests/test_%: tests/integration/test_%.c tests/integration/itest.h $(ITEST_OBJS) | $(OUTPUT)/tests
	$(CC) $(CFLAGS) -Itests/integration $< $(ITEST_OBJS) $(LDFLAGS) -lcmocka -ljansson -lm -o $@

$(OUTPUT)/tests/test_%: tests/faults/test_%.c tests/faults/faults.h tests/integration/itest.h $(FAULT_OBJS) | $(OUTPUT)/tests
	$(CC) $(CFLAGS) -Itests/integration $< $(FAULT_OBJS) $(LDFLAGS) -lcmocka -ljansson -lm -o $@

# tests/tools/test_dashboard.py's synthetic target: /metrics text of TopDown
# counts made up for a model from tests/fixtures/sysfs, by tdtrace's own code.
$(OUTPUT)/tests/synth_exposition: tests/tools/synth_exposition.c $(PURE_OBJS) | $(OUTPUT)/tests
	$(CC) $(CFLAGS) $< $(PURE_OBJS) $(LDFLAGS) -lm -ljansson -o $@

# Helpers are the measured workload: make sanitize builds them plain (HELPER_CFLAGS),
# since LeakSanitizer's exit-time clone would be one more process to count.
HELPER_CFLAGS ?= $(CFLAGS)
$(OUTPUT)/tests/%: tests/integration/helpers/%.c | $(OUTPUT)/tests
	$(CC) $(HELPER_CFLAGS) -Iinclude $< -lpthread -o $@

# test_regions: a library function to put a region on.
$(OUTPUT)/tests/libtdwork.so: tests/integration/libs/tdwork.c | $(OUTPUT)/tests
	$(CC) $(HELPER_CFLAGS) -shared -fPIC $< -o $@
TEST_HELPERS += $(OUTPUT)/tests/libtdwork.so

# make bench: reference programs and the interleaved pipe benchmark (BENCHMARKS.md).
$(OUTPUT)/floor.bpf.o: bench/floor.bpf.c bpf/perf_event_array.h include/tdtrace.h vmlinux/kernel_types.h | $(OUTPUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	llvm-strip -g $@

$(OUTPUT)/floor.skel.h: $(OUTPUT)/floor.bpf.o
	$(BPFTOOL) gen skeleton $< name floor > $@

$(OUTPUT)/floor: bench/floor.c $(OUTPUT)/floor.skel.h $(LIB_OBJS)
	$(CC) $(CFLAGS) $(LIBBPF_CFLAGS) $< $(LIB_OBJS) $(LDFLAGS) $(LDLIBS) -o $@

# bench/region.sh: empty uprobe/uretprobe and USDT programs, and their target.
$(OUTPUT)/region_floor.bpf.o: bench/region_floor.bpf.c vmlinux/kernel_types.h | $(OUTPUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	llvm-strip -g $@

$(OUTPUT)/region_floor.skel.h: $(OUTPUT)/region_floor.bpf.o
	$(BPFTOOL) gen skeleton $< name region_floor > $@

$(OUTPUT)/region_floor: bench/region_floor.c $(OUTPUT)/region_floor.skel.h
	$(CC) $(CFLAGS) $(LIBBPF_CFLAGS) $< $(LDFLAGS) $(LIBBPF_LIBS) -lelf -lz -o $@

$(OUTPUT)/region_target: bench/region_target.c include/tdtrace/region.h | $(OUTPUT)
	$(CC) $(CFLAGS) $< -o $@

$(OUTPUT)/tasks: bench/tasks.c bench/crowd_end.h | $(OUTPUT)
	$(CC) $(CFLAGS) $< -o $@

# bench/scale.sh's crowd: 100,000 threads over processes and cgroups.
$(OUTPUT)/crowd: bench/crowd.c bench/crowd_end.h | $(OUTPUT)
	$(CC) $(CFLAGS) $< -pthread -o $@

# libtdregion's cost per begin/end pair, in each read mode there is here.
$(OUTPUT)/tdregion-bench: bench/tdregion.c $(OUTPUT)/libtdregion.a | $(OUTPUT)
	$(CC) $(CFLAGS) $< $(OUTPUT)/libtdregion.a $(LDFLAGS) -lm -o $@

# Crowds for the user-space part: CPU, RSS and drops at each size (issue 16).
BENCH_TASKS ?= 1000 10000 30000
# The scale part (issue 25): a crowd of threads, 1%, 10% and 100% busy, each
# output mode and the exporter; empty to leave it out. bench/scale.sh says
# what else it takes (TASKS, PROCESSES, CGROUPS, BUSY, ...).
SCALE_TASKS ?= 100000

bench: deps
	$(MAKE) $(OUTPUT)/tdtrace $(OUTPUT)/floor $(OUTPUT)/tasks $(OUTPUT)/tdregion-bench
	bench/run.sh
	$(OUTPUT)/tdregion-bench
	for n in $(BENCH_TASKS); do TASKS=$$n CGROUPS=$$((n / 10)) bench/userspace.sh || exit 1; done
	bench/versus.sh
	$(MAKE) $(OUTPUT)/region_floor $(OUTPUT)/region_target
	bench/region.sh
	[ -z "$(SCALE_TASKS)" ] || $(MAKE) bench-scale

# The scale part alone (a few minutes at 100,000 threads).
bench-scale: deps
	$(MAKE) $(OUTPUT)/tdtrace $(OUTPUT)/crowd
	TASKS=$(SCALE_TASKS) bench/scale.sh

# Not in make check (it takes 10 minutes); its result is quoted in BENCHMARKS.md.
soak: deps
	$(MAKE) $(OUTPUT)/tdtrace
	bench/soak.sh

unit: $(UNIT_TESTS) $(TDREGION_TESTS)
	tests/run.sh $(UNIT_TESTS) $(TDREGION_TESTS)

integration: $(OUTPUT)/tdtrace $(INTEG_TESTS) $(FAULT_TESTS) $(TEST_HELPERS)
	tests/run.sh $(INTEG_TESTS) $(FAULT_TESTS)

# tests/tools/: scripts for the tools beside tdtrace (tdtrace-plot, make
# hwcheck's harness); they print cmocka's summary lines, so tests/run.sh
# counts them as binaries. tests/deploy/: deploy/kubernetes/ and the
# Containerfile's image, built and run under podman (slow: once, here).
# test_check_formulas: scripts/check-formulas on tests/fixtures/pmu-events-v7.3;
# test_check_encodings: scripts/check-encodings on the same.
TOOL_TESTS := tests/tools/test_plot.sh tests/tools/test_plot_reader.py \
	tests/tools/test_plot_memory.py tests/tools/test_unit.sh tests/tools/test_perf_formulas.py \
	tests/tools/test_check_formulas.py tests/tools/test_check_encodings.py \
	tests/tools/test_arm64.sh \
	tests/hw/test_hwcheck.sh tests/tools/test_dashboard.py tests/tools/test_tdregion_install.py \
	tests/deploy/test_manifests.py tests/deploy/test_image.py

test-tools: $(OUTPUT)/tdtrace $(OUTPUT)/mkdoc $(OUTPUT)/hw-workload $(OUTPUT)/hw-region $(TDREGION_LIBS) \
	$(OUTPUT)/tests/synth_exposition
	tests/run.sh $(TOOL_TESTS)

# Builds the Debian package from a copy of this tree in /tmp, unpacks it
# into an empty tree, runs it and lints it. Slow, so not in make test.
deb-check:
	tests/run.sh tests/tools/test_deb.sh

test: $(OUTPUT)/tdtrace $(UNIT_TESTS) $(INTEG_TESTS) $(FAULT_TESTS) $(TEST_HELPERS) \
	$(OUTPUT)/mkdoc $(OUTPUT)/hw-workload $(OUTPUT)/hw-region $(OUTPUT)/tests/synth_exposition \
	$(TDREGION_TESTS)
	tests/run.sh $(UNIT_TESTS) $(TDREGION_TESTS) $(INTEG_TESTS) $(FAULT_TESTS) $(TOOL_TESTS)

# make sanitize: user space (not the BPF object) with ASan + UBSan in its own
# OUTPUT, then unit and integration tests against it. Every report goes to a
# file in reports/, which tests/run.sh turns into a failure of the binary
# that was running; exitcode=86 also fails a tdtrace whose exit code a test
# checks. Leak checking works as root here (LSan needs ptrace of itself).
# handle_segv=0: test_cli sends tdtrace SIGSEGV and wants it to die of it;
# a real bad access is caught before it faults, or still ends in SIGSEGV.
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
SAN_REPORTS = $(abspath $(OUTPUT))/reports
SAN_COMMON = halt_on_error=1:exitcode=86:print_stacktrace=1:handle_segv=0:log_path=$(SAN_REPORTS)/report

sanitize:
	$(MAKE) OUTPUT=$(OUTPUT)/asan CC=clang CFLAGS="-g -O1 $(SAN_FLAGS)" \
		LDFLAGS="$(SAN_FLAGS)" HELPER_CFLAGS="-g -O2" sanitize-tests

# Internal, run by sanitize with OUTPUT=build/asan.
sanitize-tests: $(OUTPUT)/tdtrace $(UNIT_TESTS) $(INTEG_TESTS) $(FAULT_TESTS) $(TEST_HELPERS)
	rm -rf $(SAN_REPORTS) && mkdir -p $(SAN_REPORTS)
	ASAN_OPTIONS=$(SAN_COMMON):detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1 \
	UBSAN_OPTIONS=$(SAN_COMMON) \
	TDTRACE=$(OUTPUT)/tdtrace RUN_LABEL=asan: RUN_REPORTS=$(SAN_REPORTS) \
		tests/run.sh $(UNIT_TESTS) $(INTEG_TESTS) $(FAULT_TESTS)

# make valgrind: the unit tests (integration tests run tdtrace as root and
# are covered by sanitize); a memory error or a definite leak fails.
VALGRIND := valgrind -q --error-exitcode=87 --leak-check=full --show-leak-kinds=definite \
	--errors-for-leak-kinds=definite --track-origins=yes

valgrind: $(UNIT_TESTS)
	RUN_LABEL=valgrind: RUN_WRAPPER="$(VALGRIND)" tests/run.sh $(UNIT_TESTS)

# make fuzz: libFuzzer targets, each built with the parsers it feeds, run
# for FUZZ_SECONDS on its seed corpus in fuzz/corpus/ (see fuzz/run.sh).
FUZZ_SECONDS ?= 60
FUZZ_OUTPUT := $(OUTPUT)/fuzz
FUZZ_FLAGS := -g -O1 -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Iinclude -Iuser $(SAN_FLAGS)
FUZZ_LIB_OBJS := $(patsubst %,$(FUZZ_OUTPUT)/user/%.o,host/pmu model/pmu_desc model/cpu_name \
	model/container cli/options cli/option_table cli/help cli/listen cli/say host/cgroupfs model/cgroup_names \
	replay/replay model/models model/models_intel model/models_amd model/models_arm64 model/decode model/decoder \
	model/expr model/counts model/regions model/utf8 output/table output/toplev_csv model/k8s_meta model/k8s_table)
FUZZERS := $(patsubst fuzz/%.c,$(FUZZ_OUTPUT)/%,$(wildcard fuzz/fuzz_*.c))
.SECONDARY: $(FUZZ_LIB_OBJS)

$(FUZZ_OUTPUT)/user/%.o: user/%.c $(USER_HDRS) include/tdtrace.h
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_OUTPUT)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_LIB_OBJS)
	$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer $< $(FUZZ_LIB_OBJS) -ljansson -lm -o $@

fuzz: $(FUZZERS)
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_ARTIFACTS=$(FUZZ_OUTPUT)/artifacts fuzz/run.sh $(FUZZERS)

deps:
	scripts/install-deps.sh

# make arm64: build/arm64/tdtrace and its BPF object (the same source,
# -D__TARGET_ARCH_arm64: vmlinux/kernel_types.h is CO-RE, for every
# architecture), with Debian's cross compiler and the arm64 libraries by
# multiarch, which scripts/install-arm64-deps.sh installs.
# -ffp-contract=off: no fused multiply-adds, which GCC may make on arm64
# and not for x86-64's baseline: a precaution, so that formulas round alike
# on both (test_arm64 saw no difference without it).
# tests/tools/test_arm64.sh runs it under qemu-user against build/tdtrace.
ARM64_OUTPUT ?= $(OUTPUT)/arm64
ARM64_CC ?= aarch64-linux-gnu-gcc
ARM64_CFLAGS ?= -g -O2 -ffp-contract=off

deps-arm64:
	scripts/install-arm64-deps.sh

arm64: deps-arm64
	PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
		$(MAKE) OUTPUT=$(ARM64_OUTPUT) ARCH=arm64 CC=$(ARM64_CC) \
		CFLAGS="$(ARM64_CFLAGS)" $(ARM64_OUTPUT)/tdtrace

# make install: GNU's conventions. PREFIX (or prefix) and the directories
# may be set on the command line; DESTDIR is put before every path and is
# never set here (a package build stages into it: debian/rules). tdtrace
# goes to sbin with a section 8 page: it needs root, or CAP_BPF and
# CAP_PERFMON. tdtrace-plot needs nothing of the kind: bin, section 1.
PREFIX ?= /usr/local
prefix ?= $(PREFIX)
sbindir ?= $(prefix)/sbin
bindir ?= $(prefix)/bin
mandir ?= $(prefix)/share/man
man1dir ?= $(mandir)/man1
man8dir ?= $(mandir)/man8
# pkg-config --variable=completionsdir bash-completion, relative to the prefix;
# the file is named as the command, for bash-completion's loading on demand.
bashcompdir ?= $(prefix)/share/bash-completion/completions
# The exporter's unit (systemd's place for packages' units is lib/systemd/system
# under the prefix) and its Prometheus recording rules.
unitdir ?= $(prefix)/lib/systemd/system
datadir ?= $(prefix)/share/tdtrace
# libtdregion and its header, <tdtrace/tdregion.h>; <tdtrace/region.h>, the
# markers --usdt finds, for programs to include.
libdir ?= $(prefix)/lib
includedir ?= $(prefix)/include
INSTALL ?= install

INSTALLED := $(sbindir)/tdtrace $(bindir)/tdtrace-plot $(man8dir)/tdtrace.8 \
	$(man1dir)/tdtrace-plot.1 $(bashcompdir)/tdtrace $(unitdir)/tdtrace-exporter.service \
	$(datadir)/tdtrace.rules.yml $(includedir)/tdtrace/region.h

install: all
	$(INSTALL) -D -m 0755 $(OUTPUT)/tdtrace $(DESTDIR)$(sbindir)/tdtrace
	$(INSTALL) -D -m 0755 tools/tdtrace-plot $(DESTDIR)$(bindir)/tdtrace-plot
	$(INSTALL) -D -m 0644 $(OUTPUT)/tdtrace.8 $(DESTDIR)$(man8dir)/tdtrace.8
	$(INSTALL) -D -m 0644 tools/tdtrace-plot.1 $(DESTDIR)$(man1dir)/tdtrace-plot.1
	$(INSTALL) -D -m 0644 $(OUTPUT)/tdtrace.bash-completion $(DESTDIR)$(bashcompdir)/tdtrace
	$(INSTALL) -D -m 0644 systemd/tdtrace-exporter.service $(DESTDIR)$(unitdir)/tdtrace-exporter.service
	$(INSTALL) -D -m 0644 prometheus/tdtrace.rules.yml $(DESTDIR)$(datadir)/tdtrace.rules.yml
	$(INSTALL) -D -m 0644 include/tdtrace/region.h $(DESTDIR)$(includedir)/tdtrace/region.h

# Only the files install wrote; the directories may hold others' files.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

# libtdregion apart from tdtrace (the package installs tdtrace alone, see
# debian/rules): the header as <tdtrace/tdregion.h>, both libraries.
TDREGION_INSTALLED := $(includedir)/tdtrace/tdregion.h $(libdir)/libtdregion.a \
	$(libdir)/libtdregion.so.0 $(libdir)/libtdregion.so

install-tdregion: $(TDREGION_LIBS)
	$(INSTALL) -D -m 0644 include/tdtrace/tdregion.h $(DESTDIR)$(includedir)/tdtrace/tdregion.h
	$(INSTALL) -D -m 0644 $(OUTPUT)/libtdregion.a $(DESTDIR)$(libdir)/libtdregion.a
	$(INSTALL) -D -m 0755 $(OUTPUT)/libtdregion.so.0 $(DESTDIR)$(libdir)/libtdregion.so.0
	ln -sf libtdregion.so.0 $(DESTDIR)$(libdir)/libtdregion.so

uninstall-tdregion:
	rm -f $(addprefix $(DESTDIR),$(TDREGION_INSTALLED))

# The README's two commands.
run: deps
	$(MAKE) all
	scripts/demo.sh $(OUTPUT)/tdtrace

# Every part runs even after another failed. Each appends its counts to a
# tally; tests/run.sh --total prints them and then the sum, the one closing
# line CI reads, and fails if any part failed (or broke before it counted).
CHECK_PARTS := test sanitize valgrind fuzz

check: deps
	@scripts/install-arm64-deps.sh || echo "make check: arm64 packages missing; test_arm64 will skip" >&2
	@tally=$(abspath $(OUTPUT))/check.tally; mkdir -p $(OUTPUT) && : > $$tally; \
	for part in $(CHECK_PARTS); do \
		n=$$(wc -l < $$tally); \
		RUN_TALLY=$$tally $(MAKE) $$part || [ $$(wc -l < $$tally) -gt $$n ] || \
			echo "$$part 0 1 0" >> $$tally; \
	done; \
	tests/run.sh --total $$tally

clean:
	rm -rf $(OUTPUT)
