#!/bin/sh
# `make run`: tdtrace system-wide for a few seconds, with a little CPU load to
# show. Falls back to --software, saying so, where there is no TopDown PMU.
set -u
bin=${1:-build/tdtrace}
secs=${TDTRACE_DEMO_SECONDS:-5}

# A spinning shell so the table has something besides the idle machine.
timeout "$secs" sh -c 'while :; do :; done' &
load=$!

"$bin" -d "$secs" -n 8
rc=$?
if [ "$rc" = 2 ]; then
	echo "demo: this machine has no TopDown PMU (see above): running tdtrace --software instead" >&2
	"$bin" --software -d "$secs" -n 8
	rc=$?
fi
kill "$load" 2>/dev/null
wait "$load" 2>/dev/null
exit "$rc"
