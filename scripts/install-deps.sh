#!/bin/sh
# Install the Debian 12 packages tdtrace needs to build and test, only those
# missing. Needs root (apt-get). Safe to run again.
set -eu

# mandoc lints the man page; prometheus gives promtool and a real server
# for the exporter's tests.
# valgrind and libclang-rt-14-dev (clang's ASan, UBSan and libFuzzer runtimes,
# only recommended by clang) are for make sanitize, valgrind and fuzz;
# python3-matplotlib is for tools/tdtrace-plot and its test.
# podman (with runc and uidmap), busybox-static and mmdebstrap run real containers
# for the Kubernetes tests: containers with the CRI runtimes' annotations,
# and tdtrace's own image built from a Debian root file system made here;
# python3-yaml checks the manifests in deploy/. systemtap-sdt-dev gives <sys/sdt.h>,
# which include/tdtrace/region.h's USDT markers compile to.
PKGS="make gcc clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev pkg-config \
libcmocka-dev libjansson-dev linux-perf procps valgrind libclang-rt-14-dev \
mandoc prometheus python3-matplotlib libmicrohttpd-dev \
podman runc uidmap busybox-static mmdebstrap python3-yaml systemtap-sdt-dev"

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
# prometheus is wanted for its binaries (promtool, and a server the exporter
# tests start on loopback themselves): keep its service from being started
# by the install, as Debian's policy-rc.d convention allows.
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
	chmod 755 /usr/sbin/policy-rc.d
	trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
