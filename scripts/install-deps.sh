#!/bin/sh
# Install the Debian 12 packages tdtrace needs to build and test, only those
# missing. Needs root (apt-get). Safe to run again.
set -eu

# valgrind and libclang-rt-14-dev (clang's ASan, UBSan and libFuzzer runtimes,
# only recommended by clang) are for make sanitize, valgrind and fuzz;
# python3-matplotlib is for tools/tdtrace-plot and its test.
PKGS="make gcc clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev pkg-config \
libcmocka-dev libjansson-dev linux-perf procps valgrind libclang-rt-14-dev \
mandoc python3-matplotlib"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing; run as root or install them" >&2
	exit 1
fi
echo "install-deps: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
