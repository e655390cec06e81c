#!/bin/sh
# Run cmocka test binaries one after another and print one closing line,
# "N passed, N failed, N skipped", summed from each binary's own summary.
# A binary that crashes or exits non-zero without a summary counts as failed.
# Exit status: 0 only if nothing failed.
#
# Set by make sanitize, valgrind and check (all optional):
#   RUN_LABEL    one word put before the closing line, e.g. "asan:"
#   RUN_WRAPPER  command run in front of each binary, e.g. valgrind and its flags
#   RUN_REPORTS  directory where sanitizers write their reports (log_path): a
#                report that appears while a binary runs fails that binary,
#                even if the binary itself passed (a leak in a child, say)
#   RUN_TALLY    file to append "label passed failed skipped" to
#
# tests/run.sh --total FILE prints each line of a tally, then the sum as the
# closing line, and fails if anything failed or nothing ran.
set -u

if [ "${1:-}" = --total ]; then
	[ -s "${2:-}" ] || {
		echo "run.sh: empty tally ${2:-}: nothing ran"
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	}
	awk '{ printf "  %-10s %d passed, %d failed, %d skipped\n", $1, $2, $3, $4;
	       p += $2; f += $3; s += $4 }
	     END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit f != 0 }' "$2"
	exit
fi

passed=0 failed=0 skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in "$@"; do
	echo "=== $t" >&2
	# shellcheck disable=SC2086 # the wrapper is a command and its flags
	${RUN_WRAPPER:-} "$t" >"$log" 2>&1
	rc=$?
	cat "$log"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' "$log" | tail -n1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$log" | tail -n1)
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s), listed below:/\1/p' "$log" | tail -n1)
	if [ -z "$p" ] && [ -z "$f" ]; then
		echo "run.sh: $t exited $rc without a cmocka summary: counted as 1 failure" >&2
		f=1
	elif [ "$rc" != 0 ] && [ "${f:-0}" = 0 ]; then
		echo "run.sh: $t exited $rc: counted as 1 failure" >&2
		f=1
	fi
	if [ -n "${RUN_REPORTS:-}" ] && [ -n "$(ls -A "$RUN_REPORTS")" ]; then
		for r in "$RUN_REPORTS"/*; do
			echo "run.sh: sanitizer report $r:" >&2
			cat "$r" >&2
			rm -f "$r"
		done
		if [ "${f:-0}" = 0 ]; then
			echo "run.sh: $t: sanitizer reports above: counted as 1 failure" >&2
			f=1
		fi
	fi
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	skipped=$((skipped + ${s:-0}))
done

if [ -n "${RUN_TALLY:-}" ]; then
	label=${RUN_LABEL:-tests:}
	echo "${label%:} $passed $failed $skipped" >>"$RUN_TALLY"
fi
echo "${RUN_LABEL:+$RUN_LABEL }$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
