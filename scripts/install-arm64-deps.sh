#!/bin/sh
# Install what `make arm64` and its qemu-user test need, only what is
# missing (--check: only say what is missing, exit 1 if anything is): Debian's cross compiler, qemu-user, and tdtrace's libraries for
# arm64 by multiarch (dpkg --add-architecture arm64). Needs root. Safe to
# run again. Multiarch wants the same version of a library for both
# architectures, so apt may upgrade a few amd64 libraries (libssl3,
# libgnutls30, ...) to the version the arm64 one has.
# The first install fetches about 75 packages (one minute or two on a
# Debian mirror); afterwards it only asks dpkg.
set -eu

HOST_PKGS="gcc-aarch64-linux-gnu qemu-user"
ARM64_PKGS="libc6-dev libbpf-dev libelf-dev zlib1g-dev libjansson-dev libmicrohttpd-dev"

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

missing=""
for p in $HOST_PKGS; do
	installed "$p" || missing="$missing $p"
done
for p in $ARM64_PKGS; do
	installed "$p:arm64" || missing="$missing $p:arm64"
done
[ -z "$missing" ] && exit 0
if [ "${1:-}" = --check ]; then
	echo "install-arm64-deps: missing packages:$missing" >&2
	exit 1
fi

if [ "$(id -u)" != 0 ]; then
	echo "install-arm64-deps: missing packages:$missing; run as root or install them" >&2
	exit 1
fi
echo "install-arm64-deps: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
