#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make deb-check: build the Debian package from this tree, unpack it into an
# empty directory tree, and check what is in it and that it runs. Slow (a
# whole build, then lintian), so not part of make test.
#
# The tree (tracked and untracked files, not what .gitignore leaves out) is
# copied to a directory under /tmp and built there with
# `dpkg-buildpackage -us -uc -b`, which writes the .deb files next to the
# source, so nothing lands in the checkout. KEEP_DEB_WORK=1 keeps that
# directory (its path is printed).
#
# Prints cmocka's summary lines, so that tests/run.sh counts it. Skips,
# saying why, without dpkg-dev, debhelper or lintian.
set -u

here=$(cd "$(dirname "$0")/../.." && pwd)
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

finish() {
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
}

for tool in dpkg-buildpackage dh lintian; do
	if ! command -v $tool >/dev/null; then
		echo "test_deb: no $tool: install dpkg-dev, debhelper and lintian"
		echo "[  PASSED  ] 0 test(s)."
		echo "[  SKIPPED ] 1 test(s), listed below:"
		echo "[  SKIPPED ] test_deb"
		exit 0
	fi
done

work=$(mktemp -d /tmp/tdtrace-deb.XXXXXX)
if [ "${KEEP_DEB_WORK:-0}" = 1 ]; then
	echo "test_deb: work directory $work kept"
else
	trap 'rm -rf "$work"' EXIT
fi

# Copy the tree with tar, which keeps the sysfs fixtures' symbolic links.
before=$(git -C "$here" status --porcelain --ignored 2>/dev/null)
mkdir "$work/src"
if ! (cd "$here" && git ls-files -z --cached --others --exclude-standard |
	tar --null -T - -cf - | tar -xf - -C "$work/src"); then
	fail copy "cannot copy the tree to $work/src"
	finish
fi

version=$(cd "$work/src" && dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
deb=$work/tdtrace_${version}_$arch.deb
echo "test_deb: building tdtrace $version in $work/src" >&2
if (cd "$work/src" && nice dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1 &&
	[ -s "$deb" ]; then
	ok build
else
	tail -n 30 "$work/build.log"
	fail build "dpkg-buildpackage failed, or no $deb (log above)"
	finish
fi
ls -l "$work"/*.deb

# The checkout is as it was: the build ran in the copy.
after=$(git -C "$here" status --porcelain --ignored 2>/dev/null)
if [ "$before" = "$after" ]; then
	ok checkout_untouched
else
	fail checkout_untouched "git status changed during the build"
fi

# The control fields debian/control asks for, and shlibs' libraries.
field() { dpkg-deb -f "$deb" "$1"; }
if [ "$(field Package)" = tdtrace ] && [ "$(field Architecture)" = amd64 ] &&
	field Depends | grep -q 'libbpf1' && field Depends | grep -q 'libjansson4' &&
	field Depends | grep -qw 'python3' &&
	[ "$(field Recommends)" = python3-matplotlib ]; then
	ok control_fields
else
	fail control_fields "$(dpkg-deb -f "$deb" Package Architecture Depends Recommends)"
fi

# Unpacked into an empty tree: every file where it belongs, nothing else.
root=$work/root
mkdir "$root" && dpkg -x "$deb" "$root"
want="./usr/bin/tdtrace-plot
./usr/include/tdtrace/region.h
./usr/lib/systemd/system/tdtrace-exporter.service
./usr/sbin/tdtrace
./usr/share/bash-completion/completions/tdtrace
./usr/share/doc/tdtrace/changelog.gz
./usr/share/doc/tdtrace/copyright
./usr/share/man/man1/tdtrace-plot.1.gz
./usr/share/man/man8/tdtrace.8.gz
./usr/share/tdtrace/tdtrace.rules.yml"
got=$(cd "$root" && find . -type f -o -type l | sort)
if [ "$got" = "$want" ]; then
	ok file_list
else
	fail file_list "files are:
$got
want:
$want"
fi

if [ -x "$root/usr/sbin/tdtrace" ] && [ -x "$root/usr/bin/tdtrace-plot" ] &&
	[ "$(head -n1 "$root/usr/bin/tdtrace-plot")" = "#!/usr/bin/python3" ]; then
	ok executables
else
	fail executables "tdtrace or tdtrace-plot not executable, or not #!/usr/bin/python3"
fi

# The man pages: gzip'd by dh_compress, and clean for mandoc.
for page in man8/tdtrace.8 man1/tdtrace-plot.1; do
	name=man_$(basename "$page" | tr . _)
	gz=$root/usr/share/man/$page.gz
	if ! gzip -t "$gz" 2>/dev/null; then
		fail "$name" "$gz is not gzip"
	elif command -v mandoc >/dev/null && ! zcat "$gz" | mandoc -Tlint -W warning; then
		fail "$name" "mandoc -Tlint found problems (above)"
	else
		ok "$name"
	fi
done

# The completion registers a function for tdtrace.
if bash -c ". '$root/usr/share/bash-completion/completions/tdtrace' && complete -p tdtrace" \
	2>/dev/null | grep -q -- '-F .* tdtrace$'; then
	ok completion
else
	fail completion "sourcing it does not register a completion for tdtrace"
fi

# The unpacked binary runs, with its libraries from the system, and is the
# version debian/changelog says (0.1, or 0.1-1 with a Debian revision).
out=$("$root/usr/sbin/tdtrace" --version 2>&1)
rc=$?
if [ $rc = 0 ] && [ "$out" = "tdtrace ${version%-*}" ]; then
	ok version
else
	fail version "--version exited $rc with '$out', want 'tdtrace ${version%-*}'"
fi

# --probe: exit 0 (it prints and exits, TopDown or not), and a PMU line
# (counted, or left out and why) exactly when sysfs has a core PMU (cpu, or
# cpu_core and cpu_atom on a hybrid); "core PMU: none: <why>" otherwise.
out=$("$root/usr/sbin/tdtrace" --probe 2>&1)
rc=$?
echo "$out" | sed 's/^/test_deb: --probe: /'
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	pmu_ok=$(echo "$out" | grep -E '^(PMU|left out): +')
else
	pmu_ok=$(echo "$out" | grep -E '^core PMU: +none: ')
fi
if [ $rc != 0 ]; then
	fail probe "--probe exited $rc, want 0"
elif [ -z "$pmu_ok" ] || ! echo "$out" | grep -q '^verdict: '; then
	fail probe "--probe's core PMU line does not match sysfs, or no verdict"
else
	ok probe
fi

# lintian: no errors (warnings are printed, and allowed).
lintian --fail-on error "$deb" >"$work/lintian.log" 2>&1
rc=$?
grep -v 'running with root privileges is not recommended' "$work/lintian.log" |
	sed 's/^/test_deb: lintian: /'
if [ $rc = 0 ] && ! grep -q '^E: ' "$work/lintian.log"; then
	ok lintian
else
	fail lintian "lintian exited $rc, or printed errors (above)"
fi

finish
