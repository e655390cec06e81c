#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The arm64 build, run: make arm64 cross-builds $OUTPUT/arm64/tdtrace, and
# qemu-user runs it (qemu-aarch64, binfmt not needed) on what needs no
# kernel: --help, --version, --probe --sysfs-root on every fixture machine
# in tests/fixtures/sysfs/ (arm64 ones join as they are added), and
# tdtrace report, table and --json, on every recording (*.jsonl) under
# tests/fixtures/ and on one line per model row (every row $OUTPUT/mkdoc
# formulas lists, arm64 ones too, with made-up counts). Each must give the
# native $OUTPUT/tdtrace's stdout, stderr and exit code byte for byte,
# except for the machine uname names on --probe's kernel line (qemu-user
# says aarch64). Skips, saying why, without the cross packages
# (scripts/install-arm64-deps.sh) or the native binaries.
# cmocka-style summary for tests/run.sh.
set -u
OUTPUT=${OUTPUT:-build}
NATIVE=$OUTPUT/tdtrace
ARM=$OUTPUT/arm64/tdtrace
tmp=$(mktemp -d /tmp/tdtrace-arm64.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=""

skip() {
	echo "test_arm64: $1"
	echo "[  PASSED  ] 0 test(s)."
	echo "[  SKIPPED ] 1 test(s), listed below:"
	echo "[  SKIPPED ] test_arm64"
	exit 0
}

if [ ! -x "$NATIVE" ] || [ ! -x "$OUTPUT/mkdoc" ]; then
	skip "needs the native $NATIVE and $OUTPUT/mkdoc (make)"
fi
if ! why=$(scripts/install-arm64-deps.sh --check 2>&1); then
	skip "needs the arm64 cross packages (make deps-arm64): $why"
fi
command -v qemu-aarch64 >/dev/null || skip "needs qemu-aarch64 (Debian: qemu-user)"

ok() {
	echo "[       OK ] $1"
	passed=$((passed + 1))
}

bad() {
	echo "[  FAILED  ] $1: $2"
	failed="$failed $1"
}

summary() {
	n=$(echo "$failed" | wc -w)
	echo "[  PASSED  ] $passed test(s)."
	if [ "$n" != 0 ]; then
		echo "[  FAILED  ] $n test(s), listed below:"
		for t in $failed; do echo "[  FAILED  ] $t"; done
		exit 1
	fi
	exit 0
}

# A make of its own: this runs inside make test's recipe.
start=$(date +%s)
if ! env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -j"$(nproc)" OUTPUT="$OUTPUT" arm64 >"$tmp/build" 2>&1; then
	cat "$tmp/build"
	bad build "make arm64 failed"
	summary
fi
echo "test_arm64: make arm64 took $(($(date +%s) - start)) s"

if LC_ALL=C readelf -h "$ARM" 2>/dev/null | grep -q 'Machine:.*AArch64'; then
	ok elf_aarch64
else
	bad elf_aarch64 "$ARM is not an AArch64 ELF"
fi

# Only libbpf's USDT argument readers (bpf_usdt_*, in .text) depend on the
# target architecture (usdt.bpf.h reads the trapped ip through pt_regs:
# rip on x86, user_pt_regs' pc on arm64). Everything else of the arm64
# object is the one the integration tests load here: each program
# section byte for byte, and each other .text function instruction for
# instruction (addresses left out: the readers before them differ in size).
text_functions() { # OBJECT DIR: one file per .text function, addresses stripped
	mkdir -p "$2"
	llvm-objdump -d --no-show-raw-insn -j .text "$1" | awk -v dir="$2" '
		/^[0-9a-f]+ <[^L][^>]*>:$/ { name = substr($2, 2, length($2) - 3); next }
		name != "" && /^ *[0-9a-f]+:/ { sub(/^ *[0-9a-f]+:/, ""); print > (dir "/" name) }'
}
obj_diff=""
for sec in $(llvm-objdump -h "$OUTPUT/tdtrace.bpf.o" | awk 'NR > 5 && $2 !~ /^(\.text|\.BTF.*|\.rel.*|\.debug.*|\.llvm.*|\.symtab|\.strtab|0+)$/ { print $2 }'); do
	llvm-objcopy --dump-section "$sec=$tmp/x86.sec" "$OUTPUT/tdtrace.bpf.o" "$tmp/x86.o"
	llvm-objcopy --dump-section "$sec=$tmp/arm.sec" "$OUTPUT/arm64/tdtrace.bpf.o" "$tmp/arm.o"
	cmp -s "$tmp/x86.sec" "$tmp/arm.sec" || obj_diff="$obj_diff $sec"
done
text_functions "$OUTPUT/tdtrace.bpf.o" "$tmp/fn-x86"
text_functions "$OUTPUT/arm64/tdtrace.bpf.o" "$tmp/fn-arm"
for f in "$tmp"/fn-x86/*; do
	n=${f##*/}
	case $n in bpf_usdt_*) continue ;; esac
	cmp -s "$f" "$tmp/fn-arm/$n" || obj_diff="$obj_diff .text:$n"
done
if [ -z "$obj_diff" ] && [ -n "$(ls "$tmp/fn-x86")" ]; then
	ok bpf_object
else
	bad bpf_object "$OUTPUT/arm64/tdtrace.bpf.o differs from $OUTPUT/tdtrace.bpf.o in:${obj_diff:- (no .text functions read)}"
fi

# same NAME ARGS...: the arm64 binary under qemu-user and the native one agree.
same() {
	name=$1
	shift
	"$NATIVE" "$@" >"$tmp/x86.out" 2>"$tmp/x86.err"
	x86=$?
	qemu-aarch64 "$ARM" "$@" >"$tmp/arm.out" 2>"$tmp/arm.err"
	arm=$?
	sed -i -E 's/^(kernel: .*) aarch64$/\1 x86_64/' "$tmp/arm.out"
	if [ "$arm" != "$x86" ]; then
		bad "$name" "exit $arm under qemu-aarch64, $x86 native"
		head -c 400 "$tmp/arm.err"
	elif ! cmp -s "$tmp/x86.out" "$tmp/arm.out"; then
		bad "$name" "stdout differs"
		diff "$tmp/x86.out" "$tmp/arm.out" | head -n 10
	elif ! cmp -s "$tmp/x86.err" "$tmp/arm.err"; then
		bad "$name" "stderr differs"
		diff "$tmp/x86.err" "$tmp/arm.err" | head -n 10
	elif [ ! -s "$tmp/x86.out" ] && [ ! -s "$tmp/x86.err" ]; then
		bad "$name" "no output at all: nothing compared"
	else
		ok "$name"
	fi
}

same help --help
same version --version
n=0
for d in tests/fixtures/sysfs/*/; do
	m=$(basename "$d")
	same "probe_$m" --probe --sysfs-root "$d"
	same "probe_json_$m" --probe --json --sysfs-root "$d"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || bad probe "no fixture machine in tests/fixtures/sysfs"
n=0
for f in $(find tests/fixtures -name '*.jsonl' | sort); do
	r=$(echo "${f#tests/fixtures/}" | tr '/.' '__')
	same "report_$r" report "$f"
	same "report_json_$r" report --json "$f"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || bad report "no recording (*.jsonl) under tests/fixtures"

# One interval line per model row, counts drawn from a fixed seed;
# slots_per_cycle is arm64 rows' #slots (caps/slots), a field others ignore.
"$OUTPUT/mkdoc" formulas | python3 -c '
import json, random, sys
rng = random.Random(23)
for i, l in enumerate(sys.stdin):
    row = json.loads(l)
    counts = {e["name"]: rng.randint(1000, 10**9) for e in row["events"]}
    print(json.dumps({"schema": 2, "type": "system", "phase": "interval", "interval": i + 1,
                      "mode": "topdown", "model": row["model"], "pmu": row["pmu"],
                      "smt_on": i % 2 == 0, "slots_per_cycle": 8,
                      "time_enabled_ns": 1, "time_running_ns": 1,
                      "counts": counts}))
' >"$tmp/rows.jsonl"
if [ -s "$tmp/rows.jsonl" ]; then
	same report_every_row report "$tmp/rows.jsonl"
	same report_json_every_row report --json "$tmp/rows.jsonl"
else
	bad report_every_row "$OUTPUT/mkdoc formulas listed no row"
fi

summary
