#!/bin/sh
# make bench, second part: tdtrace's own user-space CPU per interval and its
# peak RSS with many live tasks and cgroups (issue 4: 10,000 and 1,000).
#   TASKS=10000 CGROUPS=1000 SECONDS_RUN=10 WARMUP_SECONDS=3 bench/userspace.sh
set -u
TASKS=${TASKS:-10000}
CGROUPS=${CGROUPS:-1000}
RUN=${SECONDS_RUN:-10}
WARMUP=${WARMUP_SECONDS:-3}
B=${OUTPUT:-build}
TMP=$(mktemp -d)
CG_MOUNT=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
DIR="$CG_MOUNT/tdtrace-crowd-$$"
crowd=""

cleanup() {
	[ -n "$crowd" ] && kill "$crowd" 2>/dev/null && wait "$crowd" 2>/dev/null
	rmdir "$DIR" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

mkdir -p "$DIR"
"$B/tasks" "$DIR" "$TASKS" "$CGROUPS" 500 2>"$TMP/crowd" &
crowd=$!
# Forking 30,000 takes a while here: up to 20 ms a process.
for _ in $(seq $((TASKS / 5 + 600))); do
	grep -q ready "$TMP/crowd" && break
	sleep 0.1
done
cat "$TMP/crowd" >&2
if ! grep -q ready "$TMP/crowd"; then
	echo "userspace: the crowd of $TASKS is not ready; not measured" >&2
	exit 1
fi

# Measure one tdtrace run; $1 is "table" or "json". Prints "cpu_ticks rss_kib anon_kib".
measure() {
	if [ "$1" = json ]; then
		"$B/tdtrace" --software -I 1000 --json >"$TMP/out" 2>"$TMP/err" &
	else
		"$B/tdtrace" --software -I 1000 >"$TMP/out" 2>"$TMP/err" &
	fi
	td=$!
	for _ in $(seq 100); do
		grep -q counting "$TMP/err" && break
		sleep 0.05
	done
	# The steady state: the first intervals list and sort every entry once.
	sleep "$WARMUP"
	cpu0=$(awk '{ print $14 + $15 }' "/proc/$td/stat")
	sleep "$RUN"
	cpu1=$(awk '{ print $14 + $15 }' "/proc/$td/stat")
	rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$td/status")
	# Of the resident memory now: tdtrace's own heap, and the mapped entry array.
	anon=$(awk '/^RssAnon/ { print $2 }' "/proc/$td/status")
	kill -INT "$td"
	wait "$td"
	echo "$((cpu1 - cpu0)) $rss $anon"
}

ticks=$(getconf CLK_TCK)
# The entry map as sized at start with this crowd alive (said by --probe).
map=$("$B/tdtrace" --probe 2>/dev/null | sed -n 's/^ *map: *//p')
table=$(measure table)
json=$(measure json)
# Slices charged to overflow over the whole json run (the summary's system line).
drops=$(grep '"type":"system","phase":"summary"' "$TMP/out" | sed -n 's/.*"task_drops":\([0-9]*\).*/\1/p')
rows=$(grep -c '"phase":"interval","interval":3,' "$TMP/out")
procs=$(grep '"phase":"interval","interval":3,' "$TMP/out" | grep -c '"type":"process"')
cgs=$(grep '"phase":"interval","interval":3,' "$TMP/out" | grep -c '"type":"cgroup"')
echo
echo "| what | figure |"
echo "| --- | --- |"
echo "| live processes / cgroups made | $TASKS / $CGROUPS (each process wakes every 500 ms) |"
echo "| rows in one interval with --json (process, cgroup, system lines) | $rows ($procs process, $cgs cgroup) |"
echo "| entry map at start | $map |"
echo "| slices dropped, map full (summary task_drops, json run) | ${drops:-?} |"
for m in table json; do
	eval "set -- \$$m"
	awk -v m="$m" -v c="$1" -v t="$ticks" -v run="$RUN" -v rss="$2" -v anon="$3" 'BEGIN {
		printf "| tdtrace -I 1000, %s output: user+system CPU | %.2f%% of one CPU (%.1f ms per interval) |\n",
			m, c / t / run * 100, c / t / run * 1000
		printf "| tdtrace -I 1000, %s output: peak RSS (VmHWM) | %.1f MiB |\n", m, rss / 1024
		printf "| tdtrace -I 1000, %s output: its own heap at the end (RssAnon) | %.1f MiB |\n", m, anon / 1024 }'
done
