#!/bin/sh
# make bench, scale part (issue 25): tdtrace with a crowd of 100,000 threads
# (build/crowd: PROCESSES processes over CGROUPS cgroups, 64 KiB stacks), of
# which 1%, 10% and 100% run in each interval (each busy thread wakes once a
# PERIOD_MS, the others sleep for the whole run). For each fraction and each
# mode (table; --json to a file; --json to /dev/null; the exporter, --listen;
# table-t: a table with -t, an entry per thread)
# it reports tdtrace's CPU per 1 s interval over SECONDS_RUN after a warm-up,
# its peak RSS and own heap, the kernel memory of its BPF maps (memlock, as
# bpftool map show gives it, summed over the maps tdtrace holds), the
# slices dropped for a full map, and the exporter's scrape time and size,
# then again with EXPORTER_CGROUPS cgroups (a crowd of as many processes).
# Raises pid_max, threads-max, vm.max_map_count and the process limit for the
# run and puts them back on exit. Needs root. Prints markdown tables.
#
#   TASKS=100000 PROCESSES=1000 CGROUPS=1000 BUSY="10 100 1000" \
#   SECONDS_RUN=10 WARMUP_SECONDS=5 ROUNDS=1 EXPORTER_CGROUPS=10000 \
#   MODES="table json-file json-null exporter table-t" MAX_TASKS= bench/scale.sh
# BUSY is in threads per thousand. MAX_TASKS, when set, is passed to every
# run as --max-tasks (tdtrace sizes the map itself otherwise; --probe says how).
# tdtrace and curl run SCHED_FIFO at RT_PRIO (default 1; empty: as they
# are): thousands of runnable threads, the crowd's at 100% or another load's,
# would otherwise starve the measured process, which then skips intervals
# and looks cheaper than it is. Its CPU time is the same either way.
set -u
TASKS=${TASKS:-100000}
PROCESSES=${PROCESSES:-1000}
CGROUPS=${CGROUPS:-1000}
BUSY=${BUSY:-10 100 1000}
RUN=${SECONDS_RUN:-10}
WARMUP=${WARMUP_SECONDS:-5}
ROUNDS=${ROUNDS:-1}
PERIOD=${PERIOD_MS:-1000}
EXPORTER_CGROUPS=${EXPORTER_CGROUPS:-10000}
MODES=${MODES:-table json-file json-null exporter table-t}
MAX_TASKS=${MAX_TASKS:-}
SCRAPES=${SCRAPES:-5}
RT_PRIO=${RT_PRIO-1}
RT=""
[ -n "$RT_PRIO" ] && RT="chrt -f $RT_PRIO"
# This script too, or a crowd at 100% busy starves it for minutes; the
# crowd itself is started back in the normal class.
if [ -n "$RT" ] && [ -z "${SCALE_RT:-}" ]; then
	SCALE_RT=1 exec $RT "$0" "$@"
fi
CROWD_CLASS=""
[ -n "$RT" ] && CROWD_CLASS="chrt -o 0"
B=${OUTPUT:-build}
PORT=$((20000 + $$ % 20000))
TMP=$(mktemp -d)
CG_MOUNT=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
DIR="$CG_MOUNT/tdtrace-scale-$$"
crowd=""
td=""
saved=""

# Every sysctl raised for the run, with its old value, to put back.
raise() {
	old=$(cat "/proc/sys/$1")
	[ "$old" -ge "$2" ] && return 0
	saved="$saved $1=$old"
	echo "$2" >"/proc/sys/$1"
}

stop_crowd() {
	[ -z "$crowd" ] && return 0
	kill "$crowd" 2>/dev/null
	# cgroup.kill ends the threads at once, even those the crowd's own
	# end would take minutes to reach on a saturated machine.
	for c in "$DIR"/c*/cgroup.kill; do
		[ -e "$c" ] && echo 1 >"$c"
	done
	wait "$crowd" 2>/dev/null
	crowd=""
}

cleanup() {
	[ -n "$td" ] && kill -KILL "$td" 2>/dev/null && wait "$td" 2>/dev/null
	stop_crowd
	rmdir "$DIR" 2>/dev/null
	for s in $saved; do
		echo "${s#*=}" >"/proc/sys/${s%%=*}"
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$(id -u)" != 0 ]; then
	echo "scale: needs root (BPF, sysctls, cgroups)" >&2
	exit 1
fi

# Room for the crowd: pids and threads twice over (with what already runs),
# and two mappings a thread (stack and guard) in one process.
raise kernel/pid_max 4194304
raise kernel/threads-max $((TASKS * 2 + 100000))
raise vm/max_map_count $((TASKS * 2 / PROCESSES + 65530))
# dash calls the process limit -p, bash -u (root is not held to it anyway).
# shellcheck disable=SC3045
ulimit -p unlimited 2>/dev/null || ulimit -u unlimited 2>/dev/null

# Start a crowd of $1 processes over $2 cgroups, busy $3 per thousand.
start_crowd() {
	mkdir -p "$DIR"
	echo "$3" >"$TMP/busy"
	: >"$TMP/crowd"
	$CROWD_CLASS "$B/crowd" "$DIR" "$TASKS" "$1" "$2" "$3" "$PERIOD" "$TMP/busy" 2>"$TMP/crowd" &
	crowd=$!
	# Bounded: 100,000 threads start in well under a minute here.
	for _ in $(seq 3000); do
		grep -q -e ready -e failed "$TMP/crowd" && break
		kill -0 "$crowd" 2>/dev/null || break
		sleep 0.1
	done
	cat "$TMP/crowd" >&2
	if ! grep -q ready "$TMP/crowd"; then
		echo "scale: the crowd of $TASKS threads is not ready; not measured" >&2
		exit 1
	fi
}

# Change the busy fraction of the running crowd.
set_busy() {
	echo "$1" >"$TMP/busy"
	kill -USR1 "$crowd"
	sleep $((PERIOD / 1000 + 1))
}

# Kernel memory of tdtrace's maps: the memlock of each map it holds an fd
# of, by map id (bpftool map show's figure; its fdinfo has the same).
# Prints "total_bytes largest_bytes".
map_memlock() {
	for f in /proc/"$1"/fdinfo/*; do
		awk '/^map_id:/ { id = $2 } /^memlock:/ { m = $2 }
			END { if (id != "") print id, m }' "$f" 2>/dev/null
	done | sort -u -n >"$TMP/maps"
	if command -v bpftool >/dev/null; then
		bpftool map show 2>/dev/null | awk -v ids="$TMP/maps" '
			BEGIN { while ((getline l < ids) > 0) { split(l, a, " "); want[a[1]] = 1 } }
			/^[0-9]+:/ { id = $1 + 0 }
			/memlock/ { for (i = 1; i <= NF; i++) if ($i == "memlock") m = $(i + 1) + 0
				if (id in want) print id, m }' >"$TMP/maps.bpftool"
		[ -s "$TMP/maps.bpftool" ] && mv "$TMP/maps.bpftool" "$TMP/maps"
	fi
	awk '{ t += $2; if ($2 > l) l = $2 } END { print t + 0, l + 0 }' "$TMP/maps"
}

# Scrape the exporter SCRAPES times: prints "median_s median_bytes cgroups overflow".
scrape() {
	: >"$TMP/scrapes"
	for _ in $(seq "$SCRAPES"); do
		$RT curl -s -m 30 -o "$TMP/metrics" -w '%{time_total} %{size_download}\n' \
			"http://127.0.0.1:$PORT/metrics" >>"$TMP/scrapes"
	done
	# Series of every cgroup the machine has, and of the crowd's.
	cgs=$(grep -c '^tdtrace_cpu_seconds_total{' "$TMP/metrics")
	cgs="$cgs/$(grep -c "^tdtrace_cpu_seconds_total{cgroup=\"${DIR#"$CG_MOUNT"}/" "$TMP/metrics")"
	over=$(awk '/^tdtrace_overflow_slices_total/ { s += $NF } END { print s + 0 }' "$TMP/metrics")
	sort -n "$TMP/scrapes" | awk -v c="$cgs" -v o="$over" '{ t[NR] = $1; b[NR] = $2 }
		END { m = int((NR + 1) / 2); print t[m], b[m], c, o }'
}

# One tdtrace run in mode $1. Appends "cpu_ticks rss_kib anon_kib memlock
# largest drops scrape_s scrape_bytes scrape_cgroups" ("-" where not known).
measure() {
	set -- "$1" --software -I 1000 -d $((WARMUP + RUN + 120))
	[ -n "$MAX_TASKS" ] && set -- "$@" --max-tasks "$MAX_TASKS"
	out=/dev/null
	case $1 in
	json-file)
		set -- "$@" --json -o "$TMP/out"
		out=""
		;;
	json-null) set -- "$@" --json ;;
	exporter) set -- "$@" --listen "127.0.0.1:$PORT" ;;
	# A row, and an entry, per thread: the entry map holds every busy thread.
	table-t) set -- "$@" -t ;;
	esac
	mode=$1
	shift
	rm -f "$TMP/out"
	: >"$TMP/err"
	if [ -n "$out" ]; then
		$RT "$B/tdtrace" "$@" >"$out" 2>"$TMP/err" &
	else
		$RT "$B/tdtrace" "$@" 2>"$TMP/err" &
	fi
	td=$!
	for _ in $(seq 1200); do
		grep -q counting "$TMP/err" && break
		kill -0 "$td" 2>/dev/null || break
		sleep 0.05
	done
	if ! grep -q counting "$TMP/err"; then
		cat "$TMP/err" >&2
		echo "scale: tdtrace ($mode) did not start" >&2
		kill -KILL "$td" 2>/dev/null
		wait "$td" 2>/dev/null
		td=""
		echo "- - - - - - - - -"
		return
	fi
	sleep "$WARMUP"
	cpu0=$(awk '{ print $14 + $15 }' "/proc/$td/stat")
	sleep "$RUN"
	cpu1=$(awk '{ print $14 + $15 }' "/proc/$td/stat")
	mem=$(map_memlock "$td")
	s="- - - -"
	[ "$mode" = exporter ] && s=$(scrape)
	rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$td/status")
	anon=$(awk '/^RssAnon/ { print $2 }' "/proc/$td/status")
	kill -INT "$td"
	# Bounded: the summary is written at exit.
	for _ in $(seq 600); do
		kill -0 "$td" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$td" 2>/dev/null
	wait "$td" 2>/dev/null
	td=""
	drops=-
	if [ "$mode" = json-file ]; then
		drops=$(grep '"type":"system","phase":"summary"' "$TMP/out" |
			sed -n 's/.*"task_drops":\([0-9]*\).*/\1/p')
		# Process rows in the third interval: how many were charged.
		rows=$(grep '"phase":"interval","interval":3,' "$TMP/out" | grep -c '"type":"process"')
		echo "$rows" >"$TMP/rows"
		rm -f "$TMP/out"
	fi
	[ "$mode" = exporter ] && drops=$(echo "$s" | awk '{ print $4 }')
	echo "$((cpu1 - cpu0)) $rss $anon $mem ${drops:-?} $(echo "$s" | awk '{ print $1, $2, $3 }')"
}

ticks=$(getconf CLK_TCK)
: >"$TMP/results"

# Measure every fraction and mode ROUNDS times, interleaved; $1 names the crowd.
measure_all() {
	for r in $(seq "$ROUNDS"); do
		for f in $BUSY; do
			set_busy "$f"
			for m in $2; do
				rows=-
				res=$(measure "$m")
				[ "$m" = json-file ] && rows=$(cat "$TMP/rows")
				echo "$1 $f $m $r $res $rows" >>"$TMP/results"
				echo "scale: $1 busy $f/1000 $m round $r: $res" >&2
			done
		done
	done
}

start_crowd "$PROCESSES" "$CGROUPS" "$(echo "$BUSY" | awk '{ print $1 }')"
map=$("$B/tdtrace" --probe --software ${MAX_TASKS:+--max-tasks "$MAX_TASKS"} 2>/dev/null | sed -n 's/^ *map: *//p')
measure_all "$CGROUPS" "$MODES"
stop_crowd
if [ "$EXPORTER_CGROUPS" -gt 0 ] && echo "$MODES" | grep -q exporter; then
	start_crowd "$EXPORTER_CGROUPS" "$EXPORTER_CGROUPS" "$(echo "$BUSY" | awk '{ print $1 }')"
	measure_all "$EXPORTER_CGROUPS" exporter
	stop_crowd
fi

echo
echo "Crowd: $TASKS threads in $PROCESSES processes over $CGROUPS cgroups" \
	"(and $EXPORTER_CGROUPS processes and cgroups for the exporter), busy ones wake every $PERIOD ms;" \
	"tdtrace --software -I 1000${MAX_TASKS:+ --max-tasks $MAX_TASKS}${RT:+ under $RT}, CPU over $RUN s after $WARMUP s," \
	"median of $ROUNDS (range), the largest RSS. Entry map: $map."
echo
echo "| cgroups | busy | mode | CPU per interval | peak RSS (VmHWM) | own heap (RssAnon) | maps' memlock (largest) | dropped | process rows | scrape time | scrape size (cgroup series: all/crowd's) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
# Columns of results: crowd busy mode round cpu rss anon memlock largest drops s_time s_bytes s_cgs rows
sort -k1,1n -k2,2n -k3,3 -k5,5n "$TMP/results" | awk -v t="$ticks" -v run="$RUN" '
	function flush() {
		if (!n)
			return
		lo = cpu[1]; hi = cpu[n]; med = cpu[int((n + 1) / 2)]
		if (med == "-")
			printf "| %s | %.1f%% | %s | not measured | | | | | | | |\n", k1, k2 / 10, k3
		else
			printf "| %s | %.1f%% | %s | %.2f%% of a CPU (%.1f ms)%s | %.1f MiB | %.1f MiB | %.1f MiB (%.1f MiB) | %s | %s | %s | %s |\n",
				k1, k2 / 10, k3, med / t / run * 100, med / t / run * 1000,
				(n > 1 ? sprintf(", %.2f-%.2f%%", lo / t / run * 100, hi / t / run * 100) : ""),
				rss / 1024, anon / 1024, mem / 1048576, big / 1048576, drops, rows,
				(st == "-" ? "" : sprintf("%.1f ms", st * 1000)),
				(sb == "-" ? "" : sprintf("%.0f KiB (%s)", sb / 1024, sc))
		n = 0; rss = 0; anon = 0
	}
	{
		key = $1 " " $2 " " $3
		if (key != last) { flush(); last = key; k1 = $1; k2 = $2; k3 = $3 }
		cpu[++n] = $5; if ($6 > rss) rss = $6; if ($7 > anon) anon = $7; mem = $8; big = $9; drops = $10
		st = $11; sb = $12; sc = $13; rows = $14
	}
	END { flush() }'
