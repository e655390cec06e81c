#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make hwcheck's own test, without hardware: tests/hw/hwcheck.py runs
# against the Sapphire Rapids fixture (--probe --sysfs-root) and a fake
# perf that prints, as perf stat -j does, raw counts and the metric values
# perf computes from them (worked out by hand below). The formula check
# must pass when the values are perf's and fail when one is off; the live
# check needs the counters and is left out (HWCHECK_LIVE=0). Prints a
# cmocka-style summary for tests/run.sh.
set -u
OUTPUT=${OUTPUT:-build}
tmp=$(mktemp -d /tmp/tdtrace-hwcheck.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=""

ok() {
	echo "[       OK ] $1"
	passed=$((passed + 1))
}

fail() {
	echo "[  FAILED  ] $1: $2"
	failed="$failed $1"
}

# fake_perf FILE BACKEND [EXTRA [DROPPED]]: a perf whose stat -j prints Sapphire
# Rapids counts slots 1000, retiring 400, bad-spec 50, fe 300, be 250,
# UOP_DROPPING 20 (DROPPED), and perf's metrics from them: frontend
# 300/1000 - 20/1000 = 28 %, backend 25 % (BACKEND, to make it wrong),
# retiring 40 %, bad speculation max(1 - (.28 + .25 + .40), 0) = 7 %.
# EXTRA: more lines of output. Asked for -M TopdownL2 alone, it names two
# level-2 metrics (what hwcheck's watchdog case looks up).
fake_perf() {
	cat >"$1" <<EOS
#!/bin/sh
[ "\$1" = --version ] && { echo "perf version 6.99 (fake)"; exit 0; }
if [ "\$4" = TopdownL2 ]; then
	cat >&2 <<'EOJ'
{"counter-value" : "30.000000", "unit" : "", "event" : "topdown-br-mispredict", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "3.000000", "metric-unit" : "%  tma_branch_mispredicts"}
{"counter-value" : "30.000000", "unit" : "", "event" : "topdown-heavy-ops", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "3.000000", "metric-unit" : "%  tma_heavy_operations"}
EOJ
	exit 0
fi
cat >&2 <<'EOJ'
{"counter-value" : "1000.000000", "unit" : "", "event" : "TOPDOWN.SLOTS", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "28.000000", "metric-unit" : "%  tma_frontend_bound"}
{"counter-value" : "400.000000", "unit" : "", "event" : "topdown-retiring", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "40.000000", "metric-unit" : "%  tma_retiring"}
{"counter-value" : "50.000000", "unit" : "", "event" : "topdown-bad-spec", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "7.000000", "metric-unit" : "%  tma_bad_speculation"}
{"counter-value" : "300.000000", "unit" : "", "event" : "cpu/topdown-fe-bound/", "event-runtime" : 100, "pcnt-running" : 100.00}
{"counter-value" : "250.000000", "unit" : "", "event" : "topdown-be-bound", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "$2", "metric-unit" : "%  tma_backend_bound"}
{"counter-value" : "${4:-20}.000000", "unit" : "", "event" : "INT_MISC.UOP_DROPPING", "event-runtime" : 100, "pcnt-running" : 100.00}
${3:-}
EOJ
exit 0
EOS
	chmod +x "$1"
}

run() {
	OUTPUT=$OUTPUT HWCHECK_PERF=$1 HWCHECK_LIVE=0 HWCHECK_SECONDS=0.01 \
		HWCHECK_PROBE_ARGS="--sysfs-root tests/fixtures/sysfs/sapphirerapids" \
		python3 tests/hw/hwcheck.py >"$tmp/out" 2>&1
}

if [ ! -x "$OUTPUT/tdtrace" ] || [ ! -x "$OUTPUT/hw-workload" ]; then
	echo "test_hwcheck: build $OUTPUT/tdtrace and $OUTPUT/hw-workload first (make hwcheck builds both)"
	echo "[  PASSED  ] 0 test(s)."
	echo "[  SKIPPED ] 1 test(s), listed below:"
	echo "[  SKIPPED ] test_hwcheck"
	exit 0
fi

fake_perf "$tmp/perf" 25.000000
if run "$tmp/perf" && grep -q 'formula tma_backend_bound .*perf   25.000  tdtrace   25.000  ok' "$tmp/out" &&
	[ "$(grep -c 'formula .* ok$' "$tmp/out")" -ge 16 ]; then
	ok formulas_agree
else
	fail formulas_agree "$(cat "$tmp/out")"
fi

fake_perf "$tmp/perf" 26.000000
if ! run "$tmp/perf" && grep -q 'formula tma_backend_bound .* FAIL' "$tmp/out" &&
	grep -q 'hwcheck: FAILED' "$tmp/out"; then
	ok formula_mismatch_fails
else
	fail formula_mismatch_fails "$(cat "$tmp/out")"
fi

# Level 2 decoded (topdown-heavy-ops is there) but topdown-br-mispredict
# missing: tdtrace leaves tma_branch_mispredicts null where perf has 5 %.
# A null must fail, not be skipped.
fake_perf "$tmp/perf" 25.000000 \
	'{"counter-value" : "30.000000", "unit" : "", "event" : "topdown-heavy-ops", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "5.000000", "metric-unit" : "%  tma_branch_mispredicts"}'
if ! run "$tmp/perf" && grep -q 'formula tma_branch_mispredicts .* null  FAIL' "$tmp/out" &&
	grep -q 'formula tma_backend_bound .* ok$' "$tmp/out" && grep -q 'hwcheck: FAILED' "$tmp/out"; then
	ok null_fails
else
	fail null_fails "$(cat "$tmp/out")"
fi

# arm64, the neoverse-n2-v2 fixture (N2 r0p2, caps/slots 5): hwcheck hands
# tdtrace report the slots per cycle and cpuid --probe found. CPU_CYCLES
# 1000, slots 5000; before r0p3 one STALL_SLOT per cycle comes off:
# frontend (1500 - 1000)/5000 - 10/1000 = 9 %, bad speculation
# 0.1 * (1 - 1500/5000) + 4 * 10/1000 = 11 %, retiring 0.9 * 0.7 = 63 %,
# backend 1000/5000 - 3 * 10/1000 = 17 % (perf's neoverse-n2-v2 text).
cat >"$tmp/perf-n2" <<'EOS'
#!/bin/sh
[ "$1" = --version ] && { echo "perf version 6.99 (fake)"; exit 0; }
cat >&2 <<'EOJ'
{"counter-value" : "1000.000000", "unit" : "", "event" : "CPU_CYCLES", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "9.000000", "metric-unit" : "percent of slots  frontend_bound"}
{"counter-value" : "1500.000000", "unit" : "", "event" : "STALL_SLOT_FRONTEND", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "11.000000", "metric-unit" : "percent of slots  bad_speculation"}
{"counter-value" : "1000.000000", "unit" : "", "event" : "STALL_SLOT_BACKEND", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "17.000000", "metric-unit" : "percent of slots  backend_bound"}
{"counter-value" : "2500.000000", "unit" : "", "event" : "STALL_SLOT", "event-runtime" : 100, "pcnt-running" : 100.00, "metric-value" : "63.000000", "metric-unit" : "percent of slots  retiring"}
{"counter-value" : "1800.000000", "unit" : "", "event" : "OP_RETIRED", "event-runtime" : 100, "pcnt-running" : 100.00}
{"counter-value" : "2000.000000", "unit" : "", "event" : "armv8_pmuv3_0/OP_SPEC/", "event-runtime" : 100, "pcnt-running" : 100.00}
{"counter-value" : "10.000000", "unit" : "", "event" : "BR_MIS_PRED", "event-runtime" : 100, "pcnt-running" : 100.00}
EOJ
exit 0
EOS
chmod +x "$tmp/perf-n2"
if OUTPUT=$OUTPUT HWCHECK_PERF=$tmp/perf-n2 HWCHECK_LIVE=0 HWCHECK_SECONDS=0.01 \
	HWCHECK_PROBE_ARGS="--sysfs-root tests/fixtures/sysfs/neoverse-n2-v2" \
	python3 tests/hw/hwcheck.py >"$tmp/out" 2>&1 &&
	[ "$(grep -c 'formula \(frontend_bound\|bad_speculation\|retiring\|backend_bound\) .* ok$' "$tmp/out")" -ge 4 ]; then
	ok arm64_formulas_agree
else
	fail arm64_formulas_agree "$(cat "$tmp/out")"
fi

# The region case (7) here, where libtdregion has no PMU: a perf that runs
# the program and prints perf's level 1. libtdregion's CPU-time-only result
# must fail the case, never pass it (hwcheck runs it only on TopDown hardware).
cat >"$tmp/perf-run" <<'EOS'
#!/bin/sh
while [ "$1" != -- ]; do shift; done
shift
"$@" || exit
echo '{"counter-value" : "1000.000000", "event" : "TOPDOWN.SLOTS", "metric-value" : "40.000000", "metric-unit" : "%  tma_retiring"}' >&2
EOS
chmod +x "$tmp/perf-run"
if [ -x "$OUTPUT/hw-region" ]; then
	out_dir=$(cd "$OUTPUT" && pwd)
	if ! (cd tests/hw && PYTHONDONTWRITEBYTECODE=1 OUTPUT=$out_dir HWCHECK_PERF=$tmp/perf-run HWCHECK_SECONDS=0.01 \
		python3 -c 'import sys, hwcheck; sys.exit(hwcheck.case_region({"perf_groups": "TopdownL1"}))') \
		>"$tmp/out" 2>&1 && grep -q 'region alu: FAIL: no TopDown from libtdregion' "$tmp/out"; then
		ok region_without_topdown_fails
	else
		fail region_without_topdown_fails "$(cat "$tmp/out")"
	fi
else
	echo "test_hwcheck: region_without_topdown_fails skipped: build $OUTPUT/hw-region first"
fi

# The live cases against a fake tdtrace (HWCHECK_TDTRACE) and a fake
# /proc (HWCHECK_PROC): fake_tdtrace FILE ROW [SAID] prints, for
# hw-workload, an interval line and a summary line whose metrics are ROW
# (JSON members), and SAID on stderr; it notes the watchdog it started
# with in FILE.seen, then says it counts, as tdtrace does.
fake_tdtrace() {
	cat >"$1" <<EOS
#!/bin/sh
cat "$tmp/proc/sys/kernel/nmi_watchdog" >"$1.seen"
echo "tdtrace: counting TopDown L2 (fake); Ctrl-C to stop" >&2
for phase in interval summary; do
	echo '{"schema":2,"type":"process","phase":"'\$phase'","comm":"hw-workload","valid":true,$2}'
done
[ -n "${3:-}" ] && echo "${3:-}" >&2
exit 0
EOS
	chmod +x "$1"
}

mkdir -p "$tmp/proc/sys/kernel"
echo 1 >"$tmp/proc/sys/kernel/nmi_watchdog"
live_case() { # CASE TDTRACE PERF
	OUTPUT=$OUTPUT HWCHECK_PERF=$3 HWCHECK_LIVE=0 HWCHECK_SECONDS=0.01 HWCHECK_CASES=$1 \
		HWCHECK_TDTRACE=$2 HWCHECK_PROC=$tmp/proc \
		HWCHECK_PROBE_ARGS="--sysfs-root tests/fixtures/sysfs/sapphirerapids" \
		python3 tests/hw/hwcheck.py >"$tmp/out" 2>&1
}

fake_perf "$tmp/perf" 25.000000
# Haswell and Broadwell: level 2 regrouped is not exact, the run switches to level 1.
said='tdtrace: the NMI watchdog was turned on during the run: counting cpu: level 1 in 3 groups of 9 counters instead of level 2 in 5 groups of 21 from the next interval; what is no longer counted is null from then on, in the intervals and the summary'
fake_tdtrace "$tmp/td" '"tma_frontend_bound":28,"tma_branch_mispredicts":null,"tma_heavy_operations":null' "$said"
# Started with the watchdog off (the fake saw 0), and 1 again after.
if live_case case_watchdog_during "$tmp/td" "$tmp/perf" &&
	grep -q 'said once: ok' "$tmp/out" && grep -q 'level 2 null (2 metrics): ok' "$tmp/out" &&
	[ "$(cat "$tmp/td.seen")" = 0 ] && [ "$(cat "$tmp/proc/sys/kernel/nmi_watchdog")" = 1 ]; then
	ok watchdog_on_during_run
else
	fail watchdog_on_during_run "saw $(cat "$tmp/td.seen"), after $(cat "$tmp/proc/sys/kernel/nmi_watchdog"): $(cat "$tmp/out")"
fi

# Level 2 with a number after the switch: its counts do not cover the run.
fake_tdtrace "$tmp/td" '"tma_frontend_bound":28,"tma_branch_mispredicts":5,"tma_heavy_operations":null' "$said"
if ! live_case case_watchdog_during "$tmp/td" "$tmp/perf" &&
	grep -q 'level 2 null (2 metrics): FAIL' "$tmp/out" && grep -q 'hwcheck: FAILED' "$tmp/out"; then
	ok watchdog_level2_number_fails
else
	fail watchdog_level2_number_fails "$(cat "$tmp/out")"
fi

# A switch that regroups every event (Skylake-class's before group 4 held
# its heavy-operations events): level 2 still counted, a number.
said5='tdtrace: the NMI watchdog was turned on during the run: counting cpu: level 2 in 5 groups of 17 counters instead of level 2 in 4 groups of 17 from the next interval; every event is still counted, regrouped'
fake_tdtrace "$tmp/td" '"tma_frontend_bound":28,"tma_branch_mispredicts":5,"tma_heavy_operations":6' "$said5"
if live_case case_watchdog_during "$tmp/td" "$tmp/perf" &&
	grep -q 'level 2 counted (2 metrics): ok' "$tmp/out"; then
	ok watchdog_level2_kept
else
	fail watchdog_level2_kept "$(cat "$tmp/out")"
fi

# ... and level 2 null after that switch: what it counted was lost.
fake_tdtrace "$tmp/td" '"tma_frontend_bound":28,"tma_branch_mispredicts":null,"tma_heavy_operations":6' "$said5"
if ! live_case case_watchdog_during "$tmp/td" "$tmp/perf" &&
	grep -q 'level 2 counted (2 metrics): FAIL' "$tmp/out" && grep -q 'hwcheck: FAILED' "$tmp/out"; then
	ok watchdog_level2_kept_null_fails
else
	fail watchdog_level2_kept_null_fails "$(cat "$tmp/out")"
fi

# Not said: the switch went unnoticed.
fake_tdtrace "$tmp/td" '"tma_frontend_bound":28'
if ! live_case case_watchdog_during "$tmp/td" "$tmp/perf" && grep -q 'said once: FAIL' "$tmp/out"; then
	ok watchdog_unsaid_fails
else
	fail watchdog_unsaid_fails "$(cat "$tmp/out")"
fi

# The drop load per process: within 1 point of perf passes, 2 points off fails.
fake_tdtrace "$tmp/td" '"tma_frontend_bound":28.5,"tma_backend_bound":25,"tma_retiring":40,"tma_bad_speculation":7.4'
if live_case case_dropping "$tmp/td" "$tmp/perf" &&
	grep -q 'perf counted INT_MISC.UOP_DROPPING 20' "$tmp/out" &&
	[ "$(grep -c 'dropping .* ok$' "$tmp/out")" = 4 ]; then
	ok dropping_agrees
else
	fail dropping_agrees "$(cat "$tmp/out")"
fi

fake_tdtrace "$tmp/td" '"tma_frontend_bound":30,"tma_backend_bound":25,"tma_retiring":40,"tma_bad_speculation":7'
if ! live_case case_dropping "$tmp/td" "$tmp/perf" &&
	grep -q 'dropping .*tma_frontend_bound .* FAIL' "$tmp/out"; then
	ok dropping_off_fails
else
	fail dropping_off_fails "$(cat "$tmp/out")"
fi

# No uop dropped: the load proved nothing, a failure (not a pass).
fake_perf "$tmp/perf" 25.000000 "" 0
fake_tdtrace "$tmp/td" '"tma_frontend_bound":28,"tma_backend_bound":25,"tma_retiring":40,"tma_bad_speculation":7'
if ! live_case case_dropping "$tmp/td" "$tmp/perf" && grep -q 'the load dropped no uops' "$tmp/out"; then
	ok dropping_none_fails
else
	fail dropping_none_fails "$(cat "$tmp/out")"
fi

n=$(echo "$failed" | wc -w)
echo "[  PASSED  ] $passed test(s)."
if [ "$n" != 0 ]; then
	echo "[  FAILED  ] $n test(s), listed below:"
	for t in $failed; do
		echo "[  FAILED  ] $t"
	done
	exit 1
fi
exit 0
