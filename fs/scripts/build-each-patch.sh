#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build-each-patch.sh ARCH [FIRST]: build the kernel after each patch of
# fs/series in turn (test config), so that every patch is known to compile
# on its own.  One tree, built incrementally: after the first patch only
# what the next patch touches is rebuilt, and ccache serves the rest.
# FIRST (make check-patches FIRST_PATCH=N; 1 by default) starts at that
# patch: the patches before it are applied without a build, for a change
# to a later patch, which cannot break the ones before it.  Each patch
# that changes a header most of the kernel includes rebuilds most of it,
# so starting later saves those builds.  Part of make check-full, not of
# make check.
set -eu
arch=${1:-arm64}
first=${2:-1}
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$here/scripts/kbase.sh"
. "$here/scripts/fragments.sh"
. "$here/scripts/build-lock.sh"
src=${KERNEL_BUILD:-$top/build/kernel}/$kbase-$arch-each
jobs=${JOBS:-2}
case $arch in
arm64) cross=aarch64-linux-gnu- target=Image ;;
x86_64) cross= target=bzImage ;;
*) echo "build-each-patch: unknown ARCH '$arch'" >&2; exit 1 ;;
esac
kernel_fragments "$arch" test || {
	echo "build-each-patch: $fragments_error" >&2
	exit 1
}
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series_dir/series")
count=$(echo "$patches" | wc -l)
case $first in
'' | *[!0-9]* | 0*)
	echo "build-each-patch: FIRST_PATCH '$first' is not a patch number of the series (1-$count)" >&2
	exit 1
	;;
esac
[ "$first" -le "$count" ] || {
	echo "build-each-patch: FIRST_PATCH $first: the series has $count patches" >&2
	exit 1
}

take_build_lock "${KERNEL_BUILD:-$top/build/kernel}" build-each-patch

rm -rf "$src"
mkdir -p "$src"
tar -xJf "$tarball" -C "$src" --strip-components=1
(cd "$src" && ARCH=$arch CROSS_COMPILE=$cross CC="ccache ${cross}gcc" \
	scripts/kconfig/merge_config.sh -n $fragments >/dev/null 2>&1)
"$here/scripts/check-config.sh" "$src/.config" $fragments

export KBUILD_BUILD_TIMESTAMP="1970-01-01"
export KBUILD_BUILD_USER=execfolio KBUILD_BUILD_HOST=execfolio
export CCACHE_BASEDIR="$src"
n=0
for p in $patches; do
	n=$((n + 1))
	patch -d "$src" -p1 --fuzz=0 -N -s <"$series_dir/patches/$p"
	if [ "$n" -lt "$first" ]; then
		echo "build-each-patch: $arch: $p applied, not built (FIRST_PATCH $first)"
		continue
	fi
	start=$(date +%s)
	if make -C "$src" -s -j"$jobs" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" HOSTCC="ccache gcc" "$target" \
		>"$src/build-$p.log" 2>&1; then
		echo "build-each-patch: $arch: $p builds ($(($(date +%s) - start))s)"
	else
		tail -30 "$src/build-$p.log" >&2
		echo "build-each-patch: $arch: the kernel does not build after $p" >&2
		exit 1
	fi
	if grep -q "warning:" "$src/build-$p.log"; then
		grep "warning:" "$src/build-$p.log" >&2
		echo "build-each-patch: $arch: $p adds compiler warnings" >&2
		exit 1
	fi
done
# Every patch built: the tree (about 2 GB) has done its job.
[ "${KEEP_KERNEL_TREE:-0}" = 1 ] || rm -rf "$src"
