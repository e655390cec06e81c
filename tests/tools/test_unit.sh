#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# systemd/tdtrace-exporter.service passes systemd-analyze verify (its
# ExecStart pointed at this build's binary, since none is installed here;
# man pages not looked up), and keeps its least-privilege settings.
# Skips without systemd-analyze. cmocka-style summary for tests/run.sh.
set -u
OUTPUT=${OUTPUT:-build}
unit=systemd/tdtrace-exporter.service
tmp=$(mktemp -d /tmp/tdtrace-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=""

if ! command -v systemd-analyze >/dev/null || [ ! -x "$OUTPUT/tdtrace" ]; then
	echo "test_unit: needs systemd-analyze (Debian: systemd) and $OUTPUT/tdtrace"
	echo "[  PASSED  ] 0 test(s)."
	echo "[  SKIPPED ] 1 test(s), listed below:"
	echo "[  SKIPPED ] test_unit"
	exit 0
fi

sed "s|/usr/sbin/tdtrace|$(pwd)/$OUTPUT/tdtrace|" "$unit" >"$tmp/tdtrace-exporter.service"
if out=$(systemd-analyze verify --man=no "$tmp/tdtrace-exporter.service" 2>&1) && [ -z "$out" ]; then
	echo "[       OK ] verify"
	passed=$((passed + 1))
else
	echo "[  FAILED  ] verify: $out"
	failed="$failed verify"
fi

missing=""
for want in 'CapabilityBoundingSet=CAP_BPF CAP_PERFMON' NoNewPrivileges=yes ProtectSystem=strict \
	Restart=on-failure EnvironmentFile=-/etc/default/tdtrace-exporter 'listen 127.0.0.1:'; do
	grep -q -- "$want" "$unit" || missing="$missing [$want]"
done
if [ -z "$missing" ] && ! grep -Eq '^(Capability|Ambient).*CAP_SYS_ADMIN' "$unit"; then
	echo "[       OK ] least_privilege"
	passed=$((passed + 1))
else
	echo "[  FAILED  ] least_privilege: missing$missing, or CAP_SYS_ADMIN given"
	failed="$failed least_privilege"
fi

n=$(echo "$failed" | wc -w)
echo "[  PASSED  ] $passed test(s)."
if [ "$n" != 0 ]; then
	echo "[  FAILED  ] $n test(s), listed below:"
	for t in $failed; do echo "[  FAILED  ] $t"; done
	exit 1
fi
exit 0
