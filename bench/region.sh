#!/bin/sh
# make bench, issue 24 part 5: what a region costs a traced program per
# call. bench/region_target calls an empty noinline function LOOPS times
# and prints its ns per call; each configuration attaches something to it
# first (the target waits for a go file):
#   none, none-usdt       nothing attached (the plain loop; the loop with
#                         TDTRACE_REGION_BEGIN/END around each call)
#   uprobe-floor          an empty uprobe + uretprobe on the function
#   tdtrace-region        tdtrace --software --region=TARGET:work -p PID
#   usdt-floor            an empty USDT pair on the markers
#   tdtrace-usdt          tdtrace --software --usdt -p PID
# Configurations are interleaved round by round; medians and ranges of
# ROUNDS runs, and the floors and tdtrace over them from the medians and
# from the minima (other work on the machine only adds time). Then
# STATS_ROUNDS more runs of the four traced ones with the kernel's BPF
# run-time stats on (tdtrace --self-stats, region_floor -s: each holds a
# BPF_ENABLE_STATS fd, as kernel.bpf_stats_enabled=1, undone when it
# exits) give each program's own ns per run. Needs root. Prints markdown
# tables on stdout. Bounded: about a minute; each wait gives up after 5 s.
#
#   ROUNDS=9 LOOPS=40000 STATS_ROUNDS=3 bench/region.sh
set -u

ROUNDS=${ROUNDS:-9}
LOOPS=${LOOPS:-40000}
STATS_ROUNDS=${STATS_ROUNDS:-3}
B=${OUTPUT:-build}
TMP=$(mktemp -d)
target_pid="" tracer_pid=""

cleanup() {
	[ -n "$tracer_pid" ] && kill -INT "$tracer_pid" 2>/dev/null && wait "$tracer_pid"
	[ -n "$target_pid" ] && kill "$target_pid" 2>/dev/null && wait "$target_pid"
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

if [ "$(id -u)" != 0 ]; then
	echo "bench: needs root (BPF, uprobes)" >&2
	exit 1
fi
TARGET=$(realpath "$B/region_target") || exit 1

# name | target mode | tracer command (empty: none; PID replaced) | tracer's ready line
CONFIGS="none|plain||
none-usdt|usdt||
uprobe-floor|plain|$B/region_floor uprobe PID $TARGET work|ready
tdtrace-region|plain|$B/tdtrace --software -I 3600000 --region=$TARGET:work -p PID|counting
usdt-floor|usdt|$B/region_floor usdt PID $TARGET|ready
tdtrace-usdt|usdt|$B/tdtrace --software -I 3600000 --usdt -p PID|counting"

# Wait (5 s at most) for a line in a file.
wait_for() {
	for _ in $(seq 100); do
		grep -qs "$1" "$2" && return 0
		sleep 0.05
	done
	echo "bench: no \"$1\" in 5 s: $(cat "$2" 2>/dev/null)" >&2
	return 1
}

# One run: target started, tracer attached, go, ns per call on stdout; the
# tracer's stdout (its stats, if asked for) left in $TMP/tracer.out.
# STATS=1 adds the stats options.
one() {
	mode=$1 cmd=$2 ready=$3
	rm -f "$TMP/go" "$TMP/tracer.out"
	"$TARGET" "$mode" "$LOOPS" "$TMP/go" >"$TMP/target.out" 2>"$TMP/target.err" &
	target_pid=$!
	wait_for ready "$TMP/target.err" || return 1
	if [ -n "$cmd" ]; then
		cmd=$(echo "$cmd" | sed "s/PID/$target_pid/")
		if [ "${STATS:-0}" = 1 ]; then
			cmd=$(echo "$cmd" | sed 's/region_floor /region_floor -s /; s/tdtrace /tdtrace --self-stats /')
		fi
		$cmd >"$TMP/tracer.out" 2>"$TMP/tracer.err" &
		tracer_pid=$!
		wait_for "$ready" "$TMP/tracer.err" || return 1
	fi
	touch "$TMP/go"
	wait "$target_pid"
	target_pid=""
	if [ -n "$tracer_pid" ]; then
		kill -INT "$tracer_pid" 2>/dev/null
		wait "$tracer_pid"
		tracer_pid=""
	fi
	cat "$TMP/target.out"
}

for round in $(seq "$ROUNDS"); do
	echo "$CONFIGS" >"$TMP/configs"
	while IFS='|' read -r name mode cmd ready; do
		ns=$(one "$mode" "$cmd" "$ready" </dev/null) || exit 1
		echo "$name $ns" >>"$TMP/results"
	done <"$TMP/configs"
	echo "bench: region round $round of $ROUNDS done" >&2
done

# The programs' own ns per run: region_floor -s and tdtrace --self-stats
# print "NAME RUNS runs NS ns per run".
for round in $(seq "$STATS_ROUNDS"); do
	grep -v '||$' "$TMP/configs" | while IFS='|' read -r name mode cmd ready; do
		STATS=1 one "$mode" "$cmd" "$ready" </dev/null >/dev/null || exit 1
		awk '$3 == "runs" && $6 == "per" && $1 ~ /^(rfloor|td_region|td_usdt)/ {
			print $1, $4 }' "$TMP/tracer.out" >>"$TMP/stats"
	done || exit 1
	echo "bench: region stats round $round of $STATS_ROUNDS done" >&2
done

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
med() {
	awk -v n="$1" '$1 == n { print $2 }' "$TMP/results" | median
}

echo "| configuration | ns per call, median | min - max |"
echo "| --- | --- | --- |"
echo "$CONFIGS" | while IFS='|' read -r name mode cmd ready; do
	awk -v n="$name" '$1 == n { print $2 }' "$TMP/results" | sort -n |
		awk -v n="$name" '{ v[NR] = $1 }
		END { printf "| %s | %.1f | %.1f - %.1f |\n", n, v[int((NR + 1) / 2)], v[1], v[NR] }'
done
echo
lo() {
	awk -v n="$1" '$1 == n { print $2 }' "$TMP/results" | sort -n | head -1
}
# Each difference from the medians and, as the noise of other work on the
# machine only adds time, from the fastest runs too.
echo "| ns per call | from medians | from minima |"
echo "| --- | --- | --- |"
for how in med lo; do
	echo "$($how none) $($how none-usdt) $($how uprobe-floor) $($how tdtrace-region)" \
		"$($how usdt-floor) $($how tdtrace-usdt)"
done | awk '
function row(label, x, y, f) {
	printf "| %s | " f " | " f " |\n", label, x[1] - y[1], x[2] - y[2]
}
{ a[NR] = $1; au[NR] = $2; b[NR] = $3; c[NR] = $4; d[NR] = $5; e[NR] = $6 }
END {
	row("floor: empty uprobe + uretprobe pair (uprobe-floor - none)", b, a, "%.0f")
	row("tdtrace --region over the floor (tdtrace-region - uprobe-floor)", c, b, "%+.0f")
	row("what a --region traced program loses (tdtrace-region - none)", c, a, "%.0f")
	row("markers, nothing attached (none-usdt - none)", au, a, "%+.1f")
	row("floor: empty USDT pair (usdt-floor - none-usdt)", d, au, "%.0f")
	row("tdtrace --usdt over the floor (tdtrace-usdt - usdt-floor)", e, d, "%+.0f")
	row("what a --usdt traced program loses (tdtrace-usdt - none-usdt)", e, au, "%.0f")
}'
echo
echo "| BPF program | ns per run, median of $STATS_ROUNDS | min - max |"
echo "| --- | --- | --- |"
for p in rfloor_entry rfloor_exit td_region_enter td_region_exit \
	rfloor_begin rfloor_end td_usdt_begin td_usdt_end; do
	awk -v p="$p" '$1 == p { print $2 }' "$TMP/stats" | sort -n |
		awk -v p="$p" '{ v[NR] = $1 }
		END { if (NR) printf "| `%s` | %d | %d - %d |\n", p, v[int((NR + 1) / 2)], v[1], v[NR] }'
done
echo
echo "- $ROUNDS interleaved rounds of $LOOPS calls per configuration;" \
	"program stats (kernel BPF run-time stats) from $STATS_ROUNDS more;" \
	"$(nproc) CPUs, $(uname -r)"
