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
#               load's own process, started by the tool, as -p would;
#   across cgroups: the load's two tasks in two cgroups, A and B, so that
#               every switch is a cgroup switch, under nothing, `tdtrace
#               --software` (system-wide), `tdtrace --software
#               --per-cgroup`, `perf stat -a -e cpu-clock` and `perf stat
#               -a -e cpu-clock --for-each-cgroup A,B` (issue 25 part 5).
#
# The load is `taskset -c 0 perf bench sched pipe -l LOOPS` (one op is two
# context switches); the figure is its usecs/op, median of ROUNDS rounds,
# configurations interleaved round by round. PARTS picks the parts. Needs root.
#
#   ROUNDS=5 LOOPS=200000 NS="1 10 100" PARTS="per-cgroup process across" bench/versus.sh
set -u

ROUNDS=${ROUNDS:-5}
LOOPS=${LOOPS:-200000}
NS=${NS:-1 10 100}
PARTS=${PARTS:-per-cgroup process across}
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
	for d in "$PARENT"/c* "$PARENT"/a "$PARENT"/b; do
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

has() {
	case " $PARTS " in *" $1 "*) return 0 ;; esac
	return 1
}

max=0
for n in $NS; do
	[ "$n" -gt "$max" ] && max=$n
done
has per-cgroup || max=1
mkdir -p "$PARENT" "$PARENT/a" "$PARENT/b"
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

# The load across two cgroups: perf bench starts in A, and its worker (the
# one task it forks) is moved to B as soon as it exists, a few ms into a
# run of a second or more. Prints usecs/op.
load_across() {
	sh -c "echo \$\$ > $PARENT/a/cgroup.procs && exec taskset -c 0 perf bench sched pipe -l $LOOPS" \
		>"$TMP/across" 2>/dev/null &
	p=$!
	c=""
	for _ in $(seq 100000); do
		read -r c <"/proc/$p/task/$p/children" 2>/dev/null
		[ -n "$c" ] && break
		kill -0 "$p" 2>/dev/null || break
	done
	for k in $c; do
		echo "$k" >"$PARENT/b/cgroup.procs"
	done
	wait "$p"
	awk '/usecs\/op/ { print $1 }' "$TMP/across"
}

# CPU time a cgroup has used, in us (cgroup v2's own accounting).
usage_us() {
	awk '$1 == "usage_usec" { print $2 }' "$1/cpu.stat"
}

# Run the load ($3, default load) under a tool started in the background ($1:
# command, $2: line on its stderr that says it counts; empty: wait a second).
# Prints usecs/op.
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
	us=$(${3:-load})
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

a0=$(usage_us "$PARENT/a")
b0=$(usage_us "$PARENT/b")
for round in $(seq "$ROUNDS"); do
	has per-cgroup || has process && echo "none $(load)" >>"$TMP/results"
	for n in $NS; do
		has per-cgroup || break
		echo "perf-stat-for-each-cgroup-$n $(under "perf stat -a -e cpu-clock --for-each-cgroup $(cgroups_list "$n") -o /dev/null sleep 100000" "")" >>"$TMP/results"
		echo "tdtrace-per-cgroup-$n $(under "$B/tdtrace --software --per-cgroup -I 1000" counting)" >>"$TMP/results"
	done
	if has process; then
		# One process: the tools start the load themselves.
		us=$(perf stat -e cpu-clock -o /dev/null -- taskset -c 0 perf bench sched pipe -l "$LOOPS" 2>/dev/null |
			awk '/usecs\/op/ { print $1 }')
		echo "perf-stat-process $us" >>"$TMP/results"
		us=$("$B/tdtrace" --software -o /dev/null -- taskset -c 0 perf bench sched pipe -l "$LOOPS" 2>/dev/null |
			awk '/usecs\/op/ { print $1 }')
		echo "tdtrace-process $us" >>"$TMP/results"
	fi
	if has across; then
		echo "across-none $(load_across)" >>"$TMP/results"
		echo "across-tdtrace $(under "$B/tdtrace --software -I 1000" counting load_across)" >>"$TMP/results"
		echo "across-tdtrace-per-cgroup $(under "$B/tdtrace --software --per-cgroup -I 1000" counting load_across)" >>"$TMP/results"
		echo "across-perf-stat-a $(under "perf stat -a -e cpu-clock -o /dev/null sleep 100000" "" load_across)" >>"$TMP/results"
		echo "across-perf-stat-for-each-cgroup $(under "perf stat -a -e cpu-clock --for-each-cgroup $NAME/a,$NAME/b -o /dev/null sleep 100000" "" load_across)" >>"$TMP/results"
	fi
	echo "versus: round $round of $ROUNDS done" >&2
done

median() {
	awk -v c="$1" '$1 == c { print $2 }' "$TMP/results" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "nan" }'
}

# Added ns per switch over $2 (us/op): (median - base) * 1000 / 2.
added() {
	awk -v m="$1" -v n="$2" 'BEGIN { printf "%+.0f", (m - n) * 500 }'
}

row() {
	m=$(median "$1")
	echo "| $1 | $m | $(added "$m" "$2") |"
}

none=$(median none)
echo "| configuration | us/op median | added ns/switch |"
echo "| --- | --- | --- |"
if has per-cgroup || has process; then
	echo "| none | $none | +0 |"
	for n in $NS; do
		has per-cgroup || break
		row "perf-stat-for-each-cgroup-$n" "$none"
		row "tdtrace-per-cgroup-$n" "$none"
	done
	if has process; then
		row perf-stat-process "$none"
		row tdtrace-process "$none"
	fi
fi
if has across; then
	across=$(median across-none)
	for c in across-none across-tdtrace across-tdtrace-per-cgroup across-perf-stat-a \
		across-perf-stat-for-each-cgroup; do
		row "$c" "$across"
	done
fi
echo
# The ratio users ask about: what perf adds per switch, over what tdtrace adds.
pairs=""
has per-cgroup && pairs=$(for n in $NS; do echo "perf-stat-for-each-cgroup-$n:tdtrace-per-cgroup-$n"; done)
has process && pairs="$pairs perf-stat-process:tdtrace-process"
has across && pairs="$pairs across-perf-stat-for-each-cgroup:across-tdtrace-per-cgroup across-perf-stat-a:across-tdtrace"
for pair in $pairs; do
	p=$(median "${pair%%:*}")
	t=$(median "${pair#*:}")
	case $pair in across-*) n=$(median across-none) ;; *) n=$none ;; esac
	awk -v p="$p" -v t="$t" -v n="$n" -v what="$pair" 'BEGIN {
		pa = (p - n) * 500; ta = (t - n) * 500
		printf "- %s: perf adds %+.0f ns per switch, tdtrace %+.0f", what, pa, ta
		if (ta > 5 && pa > 5) printf " (ratio perf/tdtrace %.2f)", pa / ta
		else printf " (one of them is within noise of zero: no ratio)"
		printf "\n" }'
done
if has across; then
	# Both tasks ping-pong alike: each cgroup should have about half the CPU time.
	echo "- across cgroups: A used $((($(usage_us "$PARENT/a") - a0) / 1000)) ms," \
		"B $((($(usage_us "$PARENT/b") - b0) / 1000)) ms (cpu.stat)"
fi
echo "- $ROUNDS interleaved rounds of taskset -c 0 perf bench sched pipe -l $LOOPS;" \
	"$(nproc) CPUs, $(uname -r)"
