#!/bin/sh
# make bench, last part: tdtrace side by side with what a user would run
# instead, on the same switch-heavy load (issue 16, target 5).
#
#   per cgroup: `perf stat -a -e cpu-clock --for-each-cgroup C1,..,CN` against
#               `tdtrace --software --per-cgroup`, for N = 1, 10 and 100
#               cgroups (NS), the load in C1 and a sleeping process in each
#               of the others;
#   one process: `perf stat -e cpu-clock -- LOAD` against
#               `tdtrace --software -o /dev/null -- LOAD`: both count the
#               load's own process, started by the tool, as -p would.
#
# The load is `taskset -c 0 perf bench sched pipe -l LOOPS` (one op is two
# context switches); the figure is its usecs/op, median of ROUNDS rounds,
# configurations interleaved round by round. Needs root.
#
#   ROUNDS=5 LOOPS=200000 NS="1 10 100" bench/versus.sh
set -u

ROUNDS=${ROUNDS:-5}
LOOPS=${LOOPS:-200000}
NS=${NS:-1 10 100}
B=${OUTPUT:-build}
TMP=$(mktemp -d)
CG_MOUNT=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
NAME="tdtrace-versus-$$"
PARENT="$CG_MOUNT/$NAME"
sleepers=""

cleanup() {
	for p in $sleepers; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	for d in "$PARENT"/c*; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
	[ -d "$PARENT" ] && rmdir "$PARENT" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ "$(id -u)" != 0 ]; then
	echo "versus: needs root (BPF, perf events, cgroups)" >&2
	exit 1
fi

max=0
for n in $NS; do
	[ "$n" -gt "$max" ] && max=$n
done
mkdir -p "$PARENT"
for i in $(seq "$max"); do
	mkdir -p "$PARENT/c$i"
	# C1 holds the load; the others a sleeper each, so that every cgroup has a task.
	if [ "$i" -gt 1 ]; then
		sh -c "echo \$\$ > $PARENT/c$i/cgroup.procs && exec sleep 100000" &
		sleepers="$sleepers $!"
	fi
done

# The load in C1; prints its usecs/op.
load() {
	sh -c "echo \$\$ > $PARENT/c1/cgroup.procs && exec taskset -c 0 perf bench sched pipe -l $LOOPS" \
		2>/dev/null | awk '/usecs\/op/ { print $1 }'
}

# Run the load under a tool started in the background ($1: command, $2: line
# on its stderr that says it counts; empty: wait a second). Prints usecs/op.
under() {
	$1 >/dev/null 2>"$TMP/err" &
	pid=$!
	if [ -n "$2" ]; then
		for _ in $(seq 100); do
			grep -q "$2" "$TMP/err" && break
			sleep 0.05
		done
	else
		sleep 1
	fi
	us=$(load)
	kill -INT "$pid" 2>/dev/null
	# perf stat ends when its workload does; started in the background, that
	# workload ignores SIGINT.
	pkill -TERM -P "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "$us"
}

cgroups_list() {
	seq "$1" | sed "s|^|$NAME/c|" | paste -sd, -
}

for round in $(seq "$ROUNDS"); do
	echo "none $(load)" >>"$TMP/results"
	for n in $NS; do
		echo "perf-stat-for-each-cgroup-$n $(under "perf stat -a -e cpu-clock --for-each-cgroup $(cgroups_list "$n") -o /dev/null sleep 100000" "")" >>"$TMP/results"
		echo "tdtrace-per-cgroup-$n $(under "$B/tdtrace --software --per-cgroup -I 1000" counting)" >>"$TMP/results"
	done
	# One process: the tools start the load themselves.
	us=$(perf stat -e cpu-clock -o /dev/null -- taskset -c 0 perf bench sched pipe -l "$LOOPS" 2>/dev/null |
		awk '/usecs\/op/ { print $1 }')
	echo "perf-stat-process $us" >>"$TMP/results"
	us=$("$B/tdtrace" --software -o /dev/null -- taskset -c 0 perf bench sched pipe -l "$LOOPS" 2>/dev/null |
		awk '/usecs\/op/ { print $1 }')
	echo "tdtrace-process $us" >>"$TMP/results"
	echo "versus: round $round of $ROUNDS done" >&2
done

median() {
	awk -v c="$1" '$1 == c { print $2 }' "$TMP/results" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "nan" }'
}

none=$(median none)
# Added ns per switch over no tool: (median - none) * 1000 / 2.
added() {
	awk -v m="$1" -v n="$none" 'BEGIN { printf "%+.0f", (m - n) * 500 }'
}

row() {
	m=$(median "$1")
	echo "| $1 | $m | $(added "$m") |"
}

echo "| configuration | us/op median | added ns/switch |"
echo "| --- | --- | --- |"
echo "| none | $none | +0 |"
for n in $NS; do
	row "perf-stat-for-each-cgroup-$n"
	row "tdtrace-per-cgroup-$n"
done
row perf-stat-process
row tdtrace-process
echo
# The ratio users ask about: what perf adds per switch, over what tdtrace adds.
for pair in $(for n in $NS; do echo "perf-stat-for-each-cgroup-$n:tdtrace-per-cgroup-$n"; done) \
	perf-stat-process:tdtrace-process; do
	p=$(median "${pair%%:*}")
	t=$(median "${pair#*:}")
	awk -v p="$p" -v t="$t" -v n="$none" -v what="$pair" 'BEGIN {
		pa = (p - n) * 500; ta = (t - n) * 500
		printf "- %s: perf adds %+.0f ns per switch, tdtrace %+.0f", what, pa, ta
		if (ta > 5 && pa > 5) printf " (ratio perf/tdtrace %.2f)", pa / ta
		else printf " (one of them is within noise of zero: no ratio)"
		printf "\n" }'
done
echo "- $ROUNDS interleaved rounds of taskset -c 0 perf bench sched pipe -l $LOOPS;" \
	"$(nproc) CPUs, $(uname -r)"
