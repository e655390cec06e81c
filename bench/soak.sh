#!/bin/sh
# make soak: tdtrace left running under a mixed load, the way it would run
# in production, then checked: RSS flat, no interval dropped, every line's
# counts conserved, and the load's cgroups against the kernel's cpu.stat.
# Spinners in three cgroups (one nested), a fork+exec storm and a
# context-switch storm (perf bench sched pipe), with --json -o FILE.
# Intervals are checked for gaps and length; the summary's cgroup rows are
# compared with cpu.stat read while the load is frozen (cgroup.freeze).
#
#   SOAK_SECONDS=600 bench/soak.sh      (needs root; prints a table, exits 1 on a failed check)
set -u

RUN=${SOAK_SECONDS:-600}
B=${OUTPUT:-build}
OUT=${SOAK_DIR:-$(mktemp -d)}
CG_MOUNT=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
NAME="tdtrace-soak-$$"
CG="$CG_MOUNT/$NAME"
pids=""

cleanup() {
	# cgroup.kill takes the load's children too (perf bench forks its own).
	[ -e "$CG/cgroup.kill" ] && echo 1 >"$CG/cgroup.kill"
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	for d in "$CG/spin/nested" "$CG/spin" "$CG/forks" "$CG/pipe" "$CG/other" "$CG"; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
}
trap cleanup EXIT INT TERM

if [ "$(id -u)" != 0 ]; then
	echo "soak: needs root (BPF, perf events, cgroups)" >&2
	exit 1
fi
if [ -z "$CG_MOUNT" ]; then
	echo "soak: no cgroup v2 mount" >&2
	exit 1
fi

# Start "$@" inside cgroup $1 (relative to $CG) in the background.
start_in() {
	dir="$CG/$1"
	shift
	sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$dir" "$@" &
	pids="$pids $!"
}

usage_usec() {
	awk '/^usage_usec/ { print $2 }' "$CG/$1/cpu.stat"
}

mkdir -p "$CG/spin/nested" "$CG/forks" "$CG/pipe" "$CG/other"
# Spinners: one in spin, one in spin/nested, one in other. Fork storm: a
# shell that runs /bin/true in a loop. Switch storm: two tasks ping-ponging.
start_in spin sh -c 'while :; do :; done'
start_in spin/nested sh -c 'while :; do :; done'
start_in other sh -c 'while :; do :; done'
start_in forks sh -c 'while :; do /bin/true; done'
start_in pipe perf bench sched pipe -l 2000000000

# The load is frozen while cpu.stat is read and while tdtrace starts and
# stops: tdtrace's run then holds exactly the load's CPU time in between.
freeze() {
	echo "$1" >"$CG/cgroup.freeze"
	for _ in $(seq 100); do
		grep -q "^frozen $1" "$CG/cgroup.events" && return
		sleep 0.05
	done
}
freeze 1
u0_spin=$(usage_usec spin)
u0_forks=$(usage_usec forks)
u0_pipe=$(usage_usec pipe)
"$B/tdtrace" --software --json -I 1000 -o "$OUT/soak.jsonl" 2>"$OUT/stderr" &
td=$!
for _ in $(seq 200); do
	grep -q counting "$OUT/stderr" && break
	sleep 0.05
done
freeze 0
# RSS every 10 s, from 10 s in (start-up allocations are not growth).
: >"$OUT/rss"
for _ in $(seq $((RUN / 10))); do
	sleep 10
	awk '/^VmRSS/ { print $2 }' "/proc/$td/status" 2>/dev/null >>"$OUT/rss"
done
sleep $((RUN % 10))
freeze 1
u1_spin=$(usage_usec spin)
u1_forks=$(usage_usec forks)
u1_pipe=$(usage_usec pipe)
kill -INT "$td"
wait "$td"
rc=$?
sys="$OUT/system.jsonl"
grep '"type":"system","phase":"interval"' "$OUT/soak.jsonl" >"$sys"
intervals=$(wc -l <"$sys")
gaps=$(sed 's/.*"interval":\([0-9]*\),.*/\1/' "$sys" | awk '$1 != NR { n++ } END { print n + 0 }')
late=$(sed 's/.*"duration_s":\([0-9.e+-]*\),.*/\1/' "$sys" | awk '$1 > 1.5 || $1 < 0.5 { n++ } END { print n + 0 }')
unconserved=$(grep -c '"conserved":false' "$OUT/soak.jsonl")
drops=$(sed 's/.*"task_drops":\([0-9]*\),.*/\1/' "$sys" | awk '{ s += $1 } END { print s + 0 }')
summary=$(grep -c '"type":"system","phase":"summary".*"conserved":true' "$OUT/soak.jsonl")
# RSS flat: the largest sample of the second half against the first half's.
rss=$(awk '{ v[NR] = $1 } END {
	h = int(NR / 2); a = 0; b = 0
	for (i = 1; i <= h; i++) if (v[i] > a) a = v[i]
	for (i = h + 1; i <= NR; i++) if (v[i] > b) b = v[i]
	printf "%d %d %d", a, b, NR }' "$OUT/rss")
set -- $rss
rss_first=$1 rss_second=$2 rss_samples=$3

# The summary's cgroup rows (whole subtree) against cpu.stat over the run.
row_ns() {
	grep '"type":"cgroup","phase":"summary"' "$OUT/soak.jsonl" |
		grep "\"cgroup\":\"/$NAME/$1\"" | sed 's/.*"cpu_ns":\([0-9.e+]*\),.*/\1/' | head -n1
}
err_pct() {
	awk -v row="$1" -v u0="$2" -v u1="$3" 'BEGIN {
		k = (u1 - u0) * 1000; if (row == "" || k <= 0) { print "n/a"; exit }
		printf "%+.3f%%", (row - k) / k * 100 }'
}

fail=0
check() { # check NAME OK(0/1) FIGURE
	printf '| %s | %s | %s |\n' "$1" "$3" "$([ "$2" = 1 ] && echo met || echo FAILED)"
	[ "$2" = 1 ] || fail=1
}
echo "| check | figure | result |"
echo "| --- | --- | --- |"
check "tdtrace exit status" "$([ $rc = 0 ] && echo 1 || echo 0)" "$rc"
check "intervals written (of $RUN s)" "$([ "$intervals" -ge $((RUN - 1)) ] && echo 1 || echo 0)" "$intervals"
check "interval numbers missing or out of order" "$([ "$gaps" = 0 ] && echo 1 || echo 0)" "$gaps"
check "intervals shorter than 0.5 s or longer than 1.5 s" "$([ "$late" = 0 ] && echo 1 || echo 0)" "$late"
check "lines with conserved:false" "$([ "$unconserved" = 0 ] && echo 1 || echo 0)" "$unconserved"
check "summary conserved" "$([ "$summary" = 1 ] && echo 1 || echo 0)" "$summary"
check "slices dropped (map full)" "$([ "$drops" = 0 ] && echo 1 || echo 0)" "$drops"
check "peak RSS, first half -> second half (KiB, $rss_samples samples)" \
	"$([ "$rss_second" -le $((rss_first + rss_first / 10)) ] && echo 1 || echo 0)" \
	"$rss_first -> $rss_second"
echo
echo "| cgroup (summary row vs cpu.stat usage_usec) | error |"
echo "| --- | --- |"
echo "| spin (+ spin/nested) | $(err_pct "$(row_ns spin)" "$u0_spin" "$u1_spin") |"
echo "| forks (fork+exec storm) | $(err_pct "$(row_ns forks)" "$u0_forks" "$u1_forks") |"
echo "| pipe (switch storm) | $(err_pct "$(row_ns pipe)" "$u0_pipe" "$u1_pipe") |"
echo
echo "soak: output in $OUT (soak.jsonl, stderr, rss)" >&2
exit $fail
