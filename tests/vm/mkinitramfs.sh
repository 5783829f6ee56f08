#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkinitramfs.sh ARCH BIN_DIR WORK_DIR OUTPUT TEST...
#
# Build the test initramfs for ARCH: Debian's busybox-static of that
# architecture, the static guest programs execfolio and vmhelper from
# BIN_DIR (execfolio, vmhelper, vmvectors), guest/init as /init, the shared
# policy vectors as /tests/policy.vec and the in-guest TESTs (from guest/)
# listed in /tests/list in that order.  The arm64 busybox is fetched once with
# apt-get download into WORK_DIR (needs 'dpkg --add-architecture arm64').
set -eu
arch=$1
bin=$2
work=$3
output=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)

case $arch in
arm64) debarch=arm64 ;;
x86_64) debarch=amd64 ;;
*)
	echo "mkinitramfs: unknown ARCH '$arch'" >&2
	exit 1
	;;
esac

mkdir -p "$work"
busybox=$work/busybox-$debarch/bin/busybox
if [ ! -x "$busybox" ]; then
	if [ "$debarch" = "$(dpkg --print-architecture)" ] && [ -x /bin/busybox ] &&
		dpkg -s busybox-static >/dev/null 2>&1; then
		mkdir -p "$(dirname "$busybox")"
		cp /bin/busybox "$busybox"
	else
		if ! dpkg --print-foreign-architectures | grep -qx "$debarch"; then
			dpkg --add-architecture "$debarch"
			apt-get update -qq
		fi
		(cd "$work" && apt-get download -qq "busybox-static:$debarch") || {
			echo "mkinitramfs: cannot download busybox-static:$debarch" >&2
			exit 1
		}
		dpkg -x "$work"/busybox-static_*_"$debarch".deb "$work/busybox-$debarch"
	fi
fi

for p in execfolio vmhelper vmvectors; do
	[ -x "$bin/$p" ] || {
		echo "mkinitramfs: $bin/$p is missing: run make ARCH=$arch" >&2
		exit 1
	}
done

root=$work/initramfs-$arch
rm -rf "$root"
mkdir -p "$root/bin" "$root/tests" "$root/dev" "$root/proc" "$root/sys" \
	"$root/tmp" "$root/mnt"
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$bin/execfolio" "$bin/vmhelper" "$bin/vmvectors" "$root/bin/"
# The benchmarks' helper, when built (make bench-guest ARCH=...).
[ ! -x "$bin/benchhelper" ] || cp "$bin/benchhelper" "$root/bin/"
cp "$here/../vectors/policy.vec" "$root/tests/policy.vec"
cp "$here/guest/vmlib.sh" "$root/tests/vmlib.sh"
install -m 0755 "$here/guest/init" "$root/init"
: >"$root/tests/list"
for t in "$@"; do
	install -m 0755 "$here/guest/$t" "$root/tests/$t"
	echo "$t" >>"$root/tests/list"
done
(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$output"
