#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkinitramfs.sh [-p PROGRAM]... ARCH OUTPUT TEST...
#
# Build the test initramfs for ARCH: Debian's busybox-static of that
# architecture, the static guest programs of build/ARCH/bin (execfolio,
# vmhelper and vmvectors always, and each PROGRAM), init (here) as /init,
# the shell test libraries in /tests/lib (tests/tap.sh and every file of
# tests/vm/lib/), the shared policy vectors in /tests, and the in-guest
# TESTs, listed in /tests/list in that order: a bare name is a script of
# tests/vm/guest/, anything else a path (a caller's own script).  The busybox
# of another architecture is fetched once with apt-get download into
# build/vm/ (needs 'dpkg --add-architecture arm64').
set -eu
programs=
while getopts p: opt; do
	case $opt in
	p) programs="$programs $OPTARG" ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || {
	echo "mkinitramfs: usage: mkinitramfs.sh [-p PROGRAM]... ARCH OUTPUT TEST..." >&2
	exit 2
}
arch=$1
output=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
vm=$(cd "$here/.." && pwd)
build=$(cd "$vm/../.." && pwd)/build
bin=$build/$arch/bin
work=$build/vm

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

for p in execfolio vmhelper vmvectors $programs; do
	[ -x "$bin/$p" ] || {
		echo "mkinitramfs: $bin/$p is missing: run make vm-guest $bin/$p ARCH=$arch" >&2
		exit 1
	}
done

mkdir -p "$(dirname "$output")"
root=$output.root
rm -rf "$root"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/tests/lib" "$root/dev" "$root/proc" "$root/sys" \
	"$root/tmp" "$root/mnt"
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
for p in execfolio vmhelper vmvectors $programs; do
	cp "$bin/$p" "$root/bin/"
done
cp "$vm/../vectors/policy.vec" "$root/tests/policy.vec"
cp "$vm/../tap.sh" "$vm"/lib/*.sh "$root/tests/lib/"
install -m 0755 "$here/init" "$root/init"
: >"$root/tests/list"
for t in "$@"; do
	case $t in
	*/*) ;;
	*) t=$vm/guest/$t ;;
	esac
	install -m 0755 "$t" "$root/tests/${t##*/}"
	echo "${t##*/}" >>"$root/tests/list"
done
(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$output"
