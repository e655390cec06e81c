#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/tdtrace-plot on recorded lines: it writes a valid PNG and SVG of the
# documented size, with the panels the lines call for, and fails on bad
# input with the documented exit status (its --help: 0 written, 1 input or
# output, 2 command line, 3 no matplotlib): one line naming FILE:LINE for a
# malformed line, never a traceback. Names from the recording are drawn as
# written (no math text). tests/tools/test_plot_memory.py checks the memory
# it takes on a large recording, test_plot_reader.py its reader on a corpus
# of malformed lines.
#
# Fixtures (tests/fixtures/plot/README.md): software-run.jsonl, recorded by
# tdtrace --software on a development VM; synthetic-topdown.jsonl, made-up
# TopDown lines (no machine here has a TopDown PMU).
#
# Prints cmocka's summary lines, so that tests/run.sh counts it as it counts
# the test binaries. Skips, saying why, without python3-matplotlib.
set -u

here=$(cd "$(dirname "$0")/../.." && pwd)
PLOT=${TDTRACE_PLOT:-$here/tools/tdtrace-plot}
FIX=$here/tests/fixtures/plot
SW=$FIX/software-run.jsonl
TD=$FIX/synthetic-topdown.jsonl

passed=0
failed=""
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The interpreter tdtrace-plot runs under (its #! line), which is the one
# that needs matplotlib; not whichever python3 is first on PATH.
interp=$(sed -n '1s/^#! *//p' "$PLOT")
if ! $interp -c 'import matplotlib' 2>/dev/null; then
	echo "test_plot: $interp cannot import matplotlib: install python3-matplotlib"
	echo "[  PASSED  ] 0 test(s)."
	echo "[  SKIPPED ] 1 test(s), listed below:"
	echo "[  SKIPPED ] test_plot"
	exit 0
fi

ok() {
	echo "[       OK ] $1"
	passed=$((passed + 1))
}

fail() {
	printf '[  FAILED  ] %s: %s\n' "$1" "$2"
	failed="$failed $1"
}

# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk, or nothing if FILE is
# not a PNG. The 8-byte signature, then the first chunk: 4 bytes of length,
# "IHDR", width and height as 4-byte big-endian numbers (RFC 2083, 3.1, 4.1.1).
png_size() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] || return 0
	[ "$(od -An -c -j12 -N4 "$1" | tr -d ' \n')" = IHDR ] || return 0
	# shellcheck disable=SC2046 # eight numbers, split on purpose
	set -- $(od -An -tu1 -j16 -N8 "$1")
	echo "$((($1 << 24) + ($2 << 16) + ($3 << 8) + $4)) $((($5 << 24) + ($6 << 16) + ($7 << 8) + $8))"
}

# check_png NAME FILE WIDTH HEIGHT
check_png() {
	if [ ! -s "$2" ]; then
		fail "$1" "$2 missing or empty"
		return
	fi
	size=$(png_size "$2")
	if [ "$size" != "$3 $4" ]; then
		fail "$1" "$2: not a PNG of $3x$4 (IHDR says '${size:-no PNG}')"
		return
	fi
	ok "$1"
}

# svg_texts FILE: every text of the SVG, one a line, or exit 1 if it does
# not parse as XML with an <svg> root (tdtrace-plot keeps text as text).
svg_texts() {
	$interp - "$1" <<'EOF'
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
if root.tag != "{http://www.w3.org/2000/svg}svg":
    sys.exit(f"root element is {root.tag}, not svg")
for el in root.iter():
    if el.text and el.text.strip():
        print(el.text.strip())
EOF
}

# run NAME WANT_STATUS ARGS...: tdtrace-plot's exit status must be WANT_STATUS
# and, when it is not 0, stderr end in a line starting "tdtrace-plot: " (the
# only line with status 1; argparse's own usage errors, status 2, print the
# usage first).
run() {
	name=$1 want=$2
	shift 2
	"$PLOT" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		fail "$name" "exit status $rc, want $want; stderr: $(cat "$tmp/err")"
		return 1
	fi
	if [ "$want" != 0 ] && ! tail -n1 "$tmp/err" | grep -q '^tdtrace-plot: '; then
		fail "$name" "no 'tdtrace-plot: ' message: $(cat "$tmp/err")"
		return 1
	fi
	if [ "$want" = 1 ] && [ "$(wc -l <"$tmp/err")" != 1 ]; then
		fail "$name" "not one line: $(cat "$tmp/err")"
		return 1
	fi
	[ -s "$tmp/out" ] && { fail "$name" "wrote to stdout: $(cat "$tmp/out")"; return 1; }
	return 0
}

# Sizes from --help: 800 pixels wide, 1450 with Level 2 (650 a column and
# 150 for the legends), 320 high plus 240 per entity on TopDown runs.
# A software run, drawn per cgroup: one panel, 800 x 320.
run png_software 0 "$SW" -o "$tmp/sw.png" && check_png png_software "$tmp/sw.png" 800 320

# The same from standard input, per process.
if "$PLOT" -o "$tmp/stdin.png" --by process <"$SW" 2>"$tmp/err"; then
	check_png png_stdin "$tmp/stdin.png" 800 320
else
	fail png_stdin "exit status $?: $(cat "$tmp/err")"
fi

# TopDown with Level 2, two processes: two columns, 2 x 650 + 150 = 1450;
# the share panel and a row per entity, 320 + 2 x 240 = 800.
run png_topdown_l2 0 "$TD" -o "$tmp/td.png" --by process --top 2 &&
	check_png png_topdown_l2 "$tmp/td.png" 1450 800

# The synthetic file has 3 cgroups with work and the root; the [idle] cgroup
# is left out: 4 rows, 320 + 4 x 240 = 1280, even with --top 10.
run png_topdown_rows 0 "$TD" -o "$tmp/td10.png" --top 10 &&
	check_png png_topdown_rows "$tmp/td10.png" 1450 1280

# 3 rows, 320 + 3 x 240 = 1040 (10.4 inches once came out as 1039 pixels).
run png_topdown_3 0 "$TD" -o "$tmp/td3.png" --top 3 &&
	check_png png_topdown_3 "$tmp/td3.png" 1450 1040

# SVG: parses, <svg> root, and the panels named after the entities: Level 1
# and 2 for each of the top 2 cgroups by slots (the root "/" covers every
# other one; then db.service, 40% of the slots in 11 of 12 intervals).
if run svg_topdown 0 "$TD" -o "$tmp/td.svg" --top 2; then
	if ! svg_texts "$tmp/td.svg" >"$tmp/texts" 2>"$tmp/err"; then
		fail svg_topdown "not an SVG: $(cat "$tmp/err")"
	elif ! grep -qx '/system.slice/db.service: Level 2' "$tmp/texts" ||
		! grep -qx '/: Level 1' "$tmp/texts"; then
		fail svg_topdown "no Level 1 and 2 panels for / and db.service"
	elif grep -q 'build.scope: Level' "$tmp/texts"; then
		fail svg_topdown "a third cgroup drawn with --top 2"
	else
		ok svg_topdown
	fi
fi

# A software SVG has no Level panels, and names the run's cgroups.
if run svg_software 0 "$SW" -o "$tmp/sw.SVG"; then
	if ! svg_texts "$tmp/sw.SVG" >"$tmp/texts" 2>"$tmp/err"; then
		fail svg_software "not an SVG: $(cat "$tmp/err")"
	elif grep -q 'Level' "$tmp/texts" || ! grep -qx '/plotdemo-a' "$tmp/texts"; then
		fail svg_software "Level panels, or no /plotdemo-a line"
	else
		ok svg_software
	fi
fi

# Names from the recording are plain text: "$...$" is not math (it once
# gave a pyparsing traceback), a name starting with "_" is still in the
# legend, and a control character or a lone surrogate does not break the
# SVG's XML. A name the font lacks (CJK) gives no warning lines.
# shellcheck disable=SC2016 # the $ are the point, not to be expanded
sed -e 's/"pid":24528,"comm":"spin"/"pid":24528,"comm":"$\\\\frac{$y"/' \
	-e 's/"pid":24546,"comm":"sched-pipe"/"pid":24546,"comm":"_hidden"/' \
	-e 's/"pid":24545,"comm":"perf"/"pid":24545,"comm":"bad\\u0001ctl"/' \
	-e 's/"pid":24593,"comm":"sched-pipe"/"pid":24593,"comm":"\\ud800lone"/' \
	-e 's/"pid":24564,"comm":"perf"/"pid":24564,"comm":"\\u7f16\\u8bd1"/' \
	"$SW" >"$tmp/names.jsonl"
# shellcheck disable=SC2016
if run plain_names 0 "$tmp/names.jsonl" -o "$tmp/names.svg" --by process --top 20; then
	if ! svg_texts "$tmp/names.svg" >"$tmp/texts" 2>"$tmp/err2"; then
		fail plain_names "not an SVG: $(cat "$tmp/err2")"
	elif ! grep -qxF '$\frac{$y [24528]' "$tmp/texts" ||
		! grep -qxF '_hidden [24546]' "$tmp/texts" ||
		! grep -qxF "$(printf 'bad\357\277\275ctl [24545]')" "$tmp/texts"; then
		fail plain_names "a name not drawn as written: $(grep '\[245' "$tmp/texts" | tr '\n' ' ')"
	elif [ "$(wc -l <"$tmp/err")" != 1 ]; then
		fail plain_names "more than the summary on stderr: $(cat "$tmp/err")"
	else
		ok plain_names
	fi
fi

# The same in a panel title: a cgroup's path with a formula in it.
# shellcheck disable=SC2016
sed 's|/system.slice/db.service|/$x^2$/db.service|g' "$TD" >"$tmp/cgnames.jsonl"
# shellcheck disable=SC2016
if run plain_titles 0 "$tmp/cgnames.jsonl" -o "$tmp/cgnames.svg" --top 2; then
	if ! svg_texts "$tmp/cgnames.svg" >"$tmp/texts" 2>"$tmp/err2"; then
		fail plain_titles "not an SVG: $(cat "$tmp/err2")"
	elif ! grep -qxF '/$x^2$/db.service: Level 2' "$tmp/texts"; then
		fail plain_titles "no '/\$x^2\$/db.service: Level 2' title"
	else
		ok plain_titles
	fi
fi

# A title and a FILE name that are not UTF-8 (argv bytes, as a shell gives
# them): drawn with U+FFFD, the SVG valid, no traceback.
cp "$SW" "$tmp/run-$(printf '\377').jsonl"
if run argv_bytes 0 "$tmp/run-$(printf '\377').jsonl" -o "$tmp/bytes.svg" &&
	run argv_title 0 "$SW" -o "$tmp/title.svg" --title "x$(printf '\376')y"; then
	if ! svg_texts "$tmp/bytes.svg" >"$tmp/texts" 2>"$tmp/err2" ||
		! svg_texts "$tmp/title.svg" >>"$tmp/texts" 2>>"$tmp/err2"; then
		fail argv_names "not an SVG: $(cat "$tmp/err2")"
	elif ! grep -q "run-$(printf '\357\277\275').jsonl" "$tmp/texts" ||
		! grep -qxF "x$(printf '\357\277\275')y" "$tmp/texts"; then
		fail argv_names "no U+FFFD in the titles: $(head -3 "$tmp/texts")"
	else
		ok argv_names
	fi
fi

# Bad input: the documented status, a one-line message that says what
# went wrong, and no picture.
# bad NAME STATUS MESSAGE OUT ARGS...: tdtrace-plot ARGS exits STATUS, says
# MESSAGE (a grep pattern), and does not create OUT.
bad() {
	name=$1 want=$2 msg=$3 out=$4
	shift 4
	run "$name" "$want" "$@" || return
	if ! grep -q -- "$msg" "$tmp/err"; then
		fail "$name" "stderr does not say '$msg': $(cat "$tmp/err")"
	elif [ -e "$out" ]; then
		fail "$name" "$out was created"
	else
		ok "$name"
	fi
}

bad missing_file 1 'failed to open .*nonexistent.jsonl' "$tmp/x.png" \
	"$tmp/nonexistent.jsonl" -o "$tmp/x.png"

printf '\n{"schema":1,"type":"system","phase":"interval"}\n' >"$tmp/bad.jsonl"
bad no_usable_lines 1 'no tdtrace --json interval lines of schema 2 (found schema' \
	"$tmp/x.png" "$tmp/bad.jsonl" -o "$tmp/x.png"

: >"$tmp/empty.jsonl"
bad empty_file 1 'no tdtrace --json interval lines' "$tmp/x.svg" "$tmp/empty.jsonl" -o "$tmp/x.svg"

# Only system lines: nothing to draw per cgroup.
grep '"type":"system"' "$SW" >"$tmp/system.jsonl"
bad no_entities 1 'no cgroup lines' "$tmp/x.png" "$tmp/system.jsonl" -o "$tmp/x.png"

bad bad_suffix 2 'must end in .png or .svg' "$tmp/x.jpg" "$SW" -o "$tmp/x.jpg"
bad no_output 2 'required: -o' "$tmp/x.png" "$SW"
bad bad_top 2 '--top 0: give 1 to 20' "$tmp/x.png" "$SW" -o "$tmp/x.png" --top 0
bad bad_by 2 "invalid choice: 'pid'" "$tmp/x.png" "$SW" -o "$tmp/x.png" --by pid

# A directory that does not exist (root may write anywhere else).
bad unwritable_output 1 'failed to write .*nodir/x.png' "$tmp/nodir/x.png" \
	"$SW" -o "$tmp/nodir/x.png"

# Only the summary lines at the end: nothing to plot.
grep -v '"phase":"interval"' "$SW" >"$tmp/summary.jsonl"
bad only_summary 1 'no tdtrace --json interval lines' "$tmp/x.png" "$tmp/summary.jsonl" \
	-o "$tmp/x.png"

# A FILE that cannot be read: a directory, and reading fails (the reading
# process's own /proc/self/mem at offset 0 gives EIO; root may read any file).
bad directory_file 1 'failed to open .*: Is a directory' "$tmp/x.png" "$tmp" -o "$tmp/x.png"
bad unreadable_file 1 'failed to read /proc/self/mem: Input/output error' "$tmp/x.png" \
	/proc/self/mem -o "$tmp/x.png"

# Standard input closed: Python has no sys.stdin at all.
"$PLOT" -o "$tmp/x.png" <&- 2>"$tmp/err"
rc=$?
if [ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = \
	"tdtrace-plot: failed to read standard input: Bad file descriptor" ]; then
	ok closed_stdin
else
	fail closed_stdin "exit status $rc, want 1; stderr: $(cat "$tmp/err")"
fi

# Ctrl-C while it waits for lines that never end: it stops at once, killed
# by SIGINT as a shell expects (status 130), with nothing on stderr. Started
# from python, whose child does not inherit a background job's ignored SIGINT.
sig=$(/usr/bin/python3 - "$PLOT" "$tmp/x.png" <<'PYEOF'
import os, signal, subprocess, sys, time
w = subprocess.Popen(["sleep", "30"], stdout=subprocess.PIPE)
p = subprocess.Popen([sys.argv[1], "-o", sys.argv[2]], stdin=w.stdout,
                     stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
w.stdout.close()
time.sleep(1.5)
p.send_signal(signal.SIGINT)
try:
    p.wait(timeout=3)
    print(p.returncode, len(p.stderr.read()))
except subprocess.TimeoutExpired:
    p.kill()
    print("timeout", 0)
w.kill()
PYEOF
)
if [ "$sig" = "-2 0" ]; then
	ok sigint
else
	fail sigint "after SIGINT: returncode and stderr bytes '$sig', want '-2 0'"
fi

# OUT a directory, or a device that is full.
mkdir "$tmp/dir.png"
run output_directory 1 "$SW" -o "$tmp/dir.png" &&
	if grep -q 'failed to write .*dir.png: Is a directory' "$tmp/err"; then
		ok output_directory
	else
		fail output_directory "stderr: $(cat "$tmp/err")"
	fi
ln -s /dev/full "$tmp/full.svg"
run output_full 1 "$SW" -o "$tmp/full.svg" &&
	if grep -q 'failed to write .*full.svg: No space left on device' "$tmp/err"; then
		ok output_full
	else
		fail output_full "stderr: $(cat "$tmp/err")"
	fi

# Malformed lines: exit 1 and one line, "tdtrace-plot: FILE:LINE: what",
# never a traceback, and no picture. Each case is the software run with
# line LINE changed by a sed command (of FROM, if given).
# malformed NAME LINE MESSAGE SED_COMMAND [FROM]
malformed() {
	sed "$2$4" "${5:-$SW}" >"$tmp/$1.jsonl"
	bad "$1" 1 "^tdtrace-plot: $tmp/$1.jsonl:$2: $3" "$tmp/x.png" "$tmp/$1.jsonl" -o "$tmp/x.png"
}

deep=$(printf '%10000s' '' | tr ' ' '[')
malformed malformed_nested 3 'not JSON: nested too deep' "s/^.*/$deep/"
malformed malformed_infinity 1 'not JSON: Infinity is not a JSON number' \
	's/"elapsed_s":[0-9.]*/"elapsed_s":Infinity/'
malformed malformed_nan 5 'not JSON: NaN is not a JSON number' 's/"cpu_pct":[0-9.]*/"cpu_pct":NaN/'
digits=$(printf '%400s' '' | tr ' ' 9)
malformed malformed_bigint 4 'cpu_ns is out of range' "s/\"cpu_ns\":[0-9]*/\"cpu_ns\":$digits/"
malformed malformed_bigfloat 4 'cpu_pct is out of range' 's/"cpu_pct":[0-9.]*/"cpu_pct":1e999/'
malformed malformed_list_interval 6 'interval is a list, not an integer' \
	's/"interval":\([0-9]*\)/"interval":[\1]/'
malformed malformed_list_number 2 'cpu_pct is a list, not a number' \
	's/"cpu_pct":\([0-9.]*\)/"cpu_pct":[\1]/'
malformed malformed_object_comm 3 'comm is an object, not a string' 's/"comm":"[^"]*"/"comm":{}/'
malformed malformed_range 7 'cpu_ns is out of range' 's/"cpu_ns":[0-9]*/"cpu_ns":-5/'
malformed malformed_no_elapsed 8 'elapsed_s is missing' 's/"elapsed_s":[0-9.]*,//'
malformed malformed_not_json 9 'not JSON: Expecting' 's/^{/{{/'
malformed malformed_not_object 10 'a list, not a JSON object' 's/^.*$/[1, 2]/'
# A line of 1.1 MB, past the 1 MiB tdtrace-plot reads of a line (too
# long for a sed argument: written here, and sed leaves it as it is).
{
	sed -n 1,10p "$SW"
	printf '"%s"\n' "$(head -c 1100000 /dev/zero | tr '\0' x)"
	sed 1,11d "$SW"
} >"$tmp/long.jsonl"
malformed malformed_long_line 11 'line longer than 1048576 bytes' p "$tmp/long.jsonl"

# The man page has every option --help has (they are written by hand).
"$PLOT" --help >"$tmp/help"
missing=""
# shellcheck disable=SC2013 # options are words
for opt in $(grep -o -- '--[a-z][a-z-]*' "$tmp/help" | sort -u); do
	# roff writes a - as \-
	grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$here/tools/tdtrace-plot.1" ||
		missing="$missing $opt"
done
if [ -n "$missing" ]; then
	fail man_page_options "tools/tdtrace-plot.1 lacks$missing"
elif ! grep -q -- '--title' "$tmp/help"; then
	fail man_page_options "no --title in --help: the check reads nothing"
else
	ok man_page_options
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
