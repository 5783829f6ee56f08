#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build.sh TARBALL SHA256 ARCH OUTDIR
#
# Build fstests for the guest architecture ARCH from the upstream snapshot
# TARBALL, which must have the sha256 SHA256: unpack into OUTDIR/src,
# generate configure (autoconf, libtool) and cross-compile with the
# Debian cross compiler against the Debian -dev packages of ARCH.  The
# multiarch ones are installed by make deps; xfslibs-dev is not
# co-installable (it depends on xfsprogs of its own architecture, which
# would replace the host's), so it and xfsprogs (its libhandle) are
# downloaded and unpacked into OUTDIR/xfsdev instead.  OUTDIR/src/.built
# is written last.
set -eu
me=fstests-build
[ $# -eq 4 ] || { echo "usage: $0 TARBALL SHA256 ARCH OUTDIR" >&2; exit 2; }
tarball=$1
sha=$2
arch=$3
out=$4
top=$(cd "$(dirname "$0")/.." && pwd)

case $arch in
arm64) triplet=aarch64-linux-gnu ;;
*)
	echo "$me: ARCH '$arch' is not supported yet (arm64 is)" >&2
	exit 2
	;;
esac
[ -f "$tarball" ] || {
	echo "$me: $tarball not found: set FSTESTS_TARBALL to the fstests snapshot" >&2
	exit 1
}
have=$(sha256sum "$tarball" | cut -d' ' -f1)
[ "$have" = "$sha" ] || {
	echo "$me: $tarball has sha256 $have, expected $sha: not the snapshot this tree was written for" >&2
	exit 1
}
command -v "$triplet-gcc" >/dev/null || {
	echo "$me: $triplet-gcc not found: run make deps" >&2
	exit 1
}
# The multiarch -dev packages of ARCH: their libraries tell them apart
# from the host's (the headers are shared).
for l in acl attr aio uring uuid cap; do
	[ -e "/usr/lib/$triplet/lib$l.so" ] || {
		echo "$me: /usr/lib/$triplet/lib$l.so is missing: run make deps (the $arch -dev packages)" >&2
		exit 1
	}
done

# xfslibs-dev and xfsprogs of ARCH, unpacked, not installed.
debs=$top/build/debs/$arch
xfsdev=$out/xfsdev
mkdir -p "$debs"
for p in xfslibs-dev xfsprogs; do
	ls "$debs/${p}_"*"_$arch.deb" >/dev/null 2>&1 && continue
	chown _apt "$debs" 2>/dev/null || true
	(cd "$debs" && apt-get download -q "$p:$arch") || {
		echo "$me: cannot download $p:$arch (needs 'dpkg --add-architecture $arch' and apt-get update)" >&2
		exit 1
	}
done
rm -rf "$xfsdev"
for p in xfslibs-dev xfsprogs; do
	dpkg -x "$(ls "$debs/${p}_"*"_$arch.deb" | tail -n 1)" "$xfsdev"
done

src=$out/src
rm -rf "$src" "$out/unpack"
mkdir -p "$out/unpack"
tar -C "$out/unpack" -xzf "$tarball"
mv "$out/unpack/fstests" "$src"
rmdir "$out/unpack"

cd "$src"
log=$out/build.log
echo "$me: configure and make, log in $log"
{
	make configure &&
		./configure --host="$triplet" \
			PKG_CONFIG_LIBDIR="/usr/lib/$triplet/pkgconfig:/usr/share/pkgconfig" \
			CPPFLAGS="-isystem $xfsdev/usr/include" \
			LDFLAGS="-L$xfsdev/lib/$triplet" &&
		make -j"$(nproc)"
} >"$log" 2>&1 || {
	tail -n 20 "$log" >&2
	echo "$me: build failed, see $log" >&2
	exit 1
}
# What configure found decides which tests can run: say it.
for v in HAVE_AIO HAVE_URING HAVE_LIBCAP HAVE_FIEMAP; do
	grep -q "^$v = true" include/builddefs ||
		echo "$me: warning: configure did not find $v (tests needing it will not run)" >&2
done
machine=$(case $arch in arm64) echo AArch64 ;; esac)
for p in ltp/fsx ltp/fsstress src/xfsctl; do
	readelf -h "$p" 2>/dev/null | grep -q "Machine:.*$machine" || {
		echo "$me: $p is not an $arch program" >&2
		exit 1
	}
done
touch .built
echo "$me: fstests built for $arch in $src"
