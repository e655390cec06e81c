#!/bin/sh
# Run cmocka test binaries one after another and print one closing line,
# "N passed, N failed, N skipped", summed from each binary's own summary.
# A binary that crashes or exits non-zero without a summary counts as failed.
# Exit status: 0 only if nothing failed.
set -u

passed=0 failed=0 skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in "$@"; do
	echo "=== $t" >&2
	"$t" >"$log" 2>&1
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
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	skipped=$((skipped + ${s:-0}))
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
