#!/bin/sh
# make bench: what tdtrace costs per context switch, side by side with the
# floors any sched_switch tracer pays, on `perf bench sched pipe` pinned to
# CPU 0. Configurations are interleaved round by round so that drift of the
# machine hits them all alike; each is reported as the median and range of
# ROUNDS runs. Needs root. Prints a markdown table on stdout.
#
#   ROUNDS=7 LOOPS=300000 bench/run.sh
set -u

ROUNDS=${ROUNDS:-7}
LOOPS=${LOOPS:-300000}
B=${OUTPUT:-build}
TMP=$(mktemp -d)
CG_MOUNT=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
CG="$CG_MOUNT/tdtrace-bench-$$"
sleeper=""

cleanup() {
	[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null && wait "$sleeper" 2>/dev/null
	[ -d "$CG" ] && rmdir "$CG" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

if [ "$(id -u)" != 0 ]; then
	echo "bench: needs root (BPF, perf events)" >&2
	exit 1
fi

# A traced task that is not the benchmark's, for the -c and -p configurations.
mkdir -p "$CG"
sh -c "echo \$\$ > $CG/cgroup.procs && exec sleep 100000" &
sleeper=$!

# name | command started in the background (empty: nothing) | line on stderr that says ready
CONFIGS="none||
floor-empty|$B/floor empty|ready
floor-read|$B/floor read 1|ready
tdtrace|$B/tdtrace --software -I 1000|counting
tdtrace-c|$B/tdtrace --software -I 1000 -c ${CG#"$CG_MOUNT"}|counting
tdtrace-p|$B/tdtrace --software -I 1000 -p $sleeper|counting
tdtrace-per-cgroup|$B/tdtrace --software -I 1000 --per-cgroup|counting
perf-stat|perf stat -a -e cpu-clock -o /dev/null sleep 100000|"

# Start a configuration, wait until it says it is attached. Prints its pid.
start() {
	cmd=$1 ready=$2
	[ -z "$cmd" ] && return 0
	$cmd >/dev/null 2>"$TMP/err" &
	pid=$!
	if [ -z "$ready" ]; then
		sleep 1 # perf stat says nothing when it starts counting
	else
		for _ in $(seq 100); do
			grep -q "$ready" "$TMP/err" && break
			sleep 0.05
		done
	fi
	echo "$pid"
}

pipe_us() {
	taskset -c 0 perf bench sched pipe -l "$LOOPS" 2>/dev/null |
		awk '/usecs\/op/ { print $1 }'
}

for round in $(seq "$ROUNDS"); do
	echo "$CONFIGS" | while IFS='|' read -r name cmd ready; do
		pid=$(start "$cmd" "$ready")
		us=$(pipe_us)
		if [ -n "$pid" ]; then
			kill -INT "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
		fi
		echo "$name $us" >>"$TMP/results"
	done
	echo "bench: round $round of $ROUNDS done" >&2
done

# The program's own cost, from the kernel's BPF statistics.
prog_ns() {
	name=$1 cmd=$2 ready=$3
	sysctl -qw kernel.bpf_stats_enabled=1
	pid=$(start "$cmd" "$ready")
	pipe_us >/dev/null
	bpftool -j prog show name "$name" 2>/dev/null | awk '{
		match($0, /"run_time_ns":[0-9]+/); t = substr($0, RSTART + 14, RLENGTH - 14)
		match($0, /"run_cnt":[0-9]+/); c = substr($0, RSTART + 10, RLENGTH - 10)
		if (c > 0) printf "%.0f", t / c
	}' >"$TMP/stat-$name"
	kill -INT "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	sysctl -qw kernel.bpf_stats_enabled=0
}
prog_ns floor_empty "$B/floor empty" ready
prog_ns floor_read "$B/floor read 1" ready
prog_ns td_switch "$B/tdtrace --software -I 1000" counting

echo "| configuration | us/op median | min - max | added ns/switch | throughput loss |"
echo "| --- | --- | --- | --- | --- |"
base=$(awk '$1 == "none" { print $2 }' "$TMP/results" | sort -n |
	awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
echo "$CONFIGS" | while IFS='|' read -r name cmd ready; do
	awk -v n="$name" -v base="$base" '$1 == n { print $2 }' "$TMP/results" | sort -n |
		awk -v n="$name" -v base="$base" '
		{ v[NR] = $1 }
		END {
			med = v[int((NR + 1) / 2)]
			# one pipe op is two context switches on CPU 0
			printf "| %s | %.3f | %.3f - %.3f | %+.0f | %+.1f%% |\n", n, med, v[1], v[NR],
				(med - base) * 1000 / 2, (1 - base / med) * 100
		}'
done
echo
for p in floor_empty floor_read td_switch; do
	echo "- \`$p\`: $(cat "$TMP/stat-$p" 2>/dev/null || echo '?') ns per run (kernel.bpf_stats_enabled, run_time_ns / run_cnt)"
done
echo "- $ROUNDS interleaved rounds of \`taskset -c 0 perf bench sched pipe -l $LOOPS\`; $(nproc) CPUs, $(uname -r)"
