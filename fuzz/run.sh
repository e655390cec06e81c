#!/bin/sh
# Run libFuzzer targets one after another, each for FUZZ_SECONDS (default 60)
# on its seed corpus fuzz/corpus/<name> (build/fuzz/fuzz_<name>), with
# fuzz/<name>.dict if there is one. New inputs go to a temporary directory,
# never into the repository. A crash, an assertion, a sanitizer report, a
# leak or a timeout fails the target; its input is kept in
# $FUZZ_ARTIFACTS (default build/fuzz/artifacts) to reproduce with
# `build/fuzz/fuzz_<name> FILE`.
#
# Prints a line per target, then "fuzz: N passed, N failed, 0 skipped".
# RUN_TALLY, as in tests/run.sh: a file to append "fuzz passed failed 0" to.
set -u

seconds=${FUZZ_SECONDS:-60}
artifacts=${FUZZ_ARTIFACTS:-build/fuzz/artifacts}
passed=0 failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$artifacts"

for t in "$@"; do
	name=${t##*/fuzz_}
	seeds=fuzz/corpus/$name
	dict=
	[ -f "fuzz/$name.dict" ] && dict=-dict=fuzz/$name.dict
	mkdir -p "$work/$name"
	echo "=== $t: $seconds s on $seeds" >&2
	# shellcheck disable=SC2086 # $dict is empty or one word
	"$t" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 $dict \
		-artifact_prefix="$artifacts/$name-" "$work/$name" "$seeds" >"$work/log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
	secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log")
	found=$(find "$work/$name" -type f | wc -l)
	if [ "$rc" = 0 ]; then
		echo "fuzz_$name: ${runs:-?} runs in $seconds s (${secs:-?}/s), $(ls "$seeds" | wc -l) seeds + $found new inputs, no crash"
		passed=$((passed + 1))
	else
		# The report is at the end of libFuzzer's log; its progress lines are not.
		grep -v '^#[0-9]' "$work/log" | tail -n 60 >&2
		echo "fuzz_$name: FAILED (exit $rc) after ${runs:-?} runs; input in $artifacts/"
		failed=$((failed + 1))
	fi
done

[ -n "${RUN_TALLY:-}" ] && echo "fuzz $passed $failed 0" >>"$RUN_TALLY"
echo "fuzz: $passed passed, $failed failed, 0 skipped"
[ "$failed" = 0 ]
