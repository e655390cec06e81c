#!/bin/sh
# The sched_switch program's own cost, ns per run, of two or more tdtrace
# binaries side by side (say, before and after a change to the BPF side).
# Each round runs every binary once, in turn, under the same
# `taskset -c 0 perf bench sched pipe`; the figure is tdtrace's own
# --self-stats line (kernel BPF run-time stats of its td_switch program
# only, so other tracers running at the same time do not mix in). Needs root.
#
#   ROUNDS=5 LOOPS=200000 ARGS="--software" bench/prog_ns.sh old/tdtrace build/tdtrace
set -u

ROUNDS=${ROUNDS:-5}
LOOPS=${LOOPS:-200000}
ARGS=${ARGS:---software}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

if [ "$(id -u)" != 0 ] || [ $# -lt 1 ]; then
	echo "usage (as root): ROUNDS=5 LOOPS=200000 ARGS='--software' $0 TDTRACE..." >&2
	exit 1
fi

# Run one binary under the pipe benchmark; prints its ns per run.
one() {
	"$1" $ARGS --self-stats -I 3600000 >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	for _ in $(seq 200); do
		grep -q counting "$TMP/err" && break
		sleep 0.05
	done
	taskset -c 0 perf bench sched pipe -l "$LOOPS" >/dev/null 2>&1
	kill -INT "$pid"
	wait "$pid"
	sed -n 's/^ *td_switch  *[0-9]* runs  *\([0-9]*\) ns per run.*/\1/p' "$TMP/out"
}

for round in $(seq "$ROUNDS"); do
	for bin in "$@"; do
		echo "$bin $(one "$bin")" >>"$TMP/results"
	done
	echo "prog_ns: round $round of $ROUNDS done" >&2
done

echo "| binary | ns per run, each round | median |"
echo "| --- | --- | --- |"
for bin in "$@"; do
	awk -v b="$bin" '$1 == b { print $2 }' "$TMP/results" >"$TMP/one"
	all=$(paste -sd, "$TMP/one" | sed 's/,/, /g')
	med=$(sort -n "$TMP/one" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	echo "| $bin | $all | $med |"
done
echo
echo "$ROUNDS interleaved rounds; ARGS: $ARGS; taskset -c 0 perf bench sched pipe -l $LOOPS;" \
	"$(nproc) CPUs, $(uname -r)"
