#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build an execfolio kernel from Debian's linux-source-6.12 tarball.
#
#   build-kernel.sh ARCH KCONFIG OUTPUT
#
# ARCH is arm64 or x86_64, KCONFIG is test or release, OUTPUT is where the
# boot image is copied. The kernel is cached under $KERNEL_BUILD/cache/KEY,
# KEY being the sha256 of the tarball, fs/series, every patch it lists, the
# config fragments and this recipe, so an unchanged kernel is never rebuilt.
# The source tree is unpacked fresh for every new key, at a fixed path per
# ARCH and KCONFIG so that ccache hits for every unchanged file.
#
# Environment: KERNEL_TARBALL (default /usr/src/linux-source-6.12.tar.xz),
# KERNEL_BUILD (default build/kernel), JOBS (default 2), NO_CACHE=1 to
# ignore the cache (still filled).
set -eu

# Bump when the way a kernel is built changes (not its inputs).
RECIPE=1

die() {
	echo "build-kernel: $*" >&2
	exit 1
}

[ $# -eq 3 ] || die "usage: build-kernel.sh ARCH test|release OUTPUT"
arch=$1
kconfig=$2
output=$3

here=$(cd "$(dirname "$0")/.." && pwd)	# fs/
top=$(cd "$here/.." && pwd)
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
kbuild=${KERNEL_BUILD:-$top/build/kernel}
jobs=${JOBS:-2}

case $arch in
arm64)
	cross=aarch64-linux-gnu-
	target=Image
	image=arch/arm64/boot/Image
	;;
x86_64)
	cross=
	target=bzImage
	image=arch/x86/boot/bzImage
	;;
*)
	die "unknown ARCH '$arch': use arm64 or x86_64"
	;;
esac
case $kconfig in
test | release) ;;
*) die "unknown KCONFIG '$kconfig': use test or release" ;;
esac

[ -r "$tarball" ] ||
	die "$tarball not found: install it with 'apt-get install linux-source-6.12'"
command -v "${cross}gcc" >/dev/null ||
	die "${cross}gcc not found: run 'make deps'"

fragments="$here/config/common.config $here/config/$arch.config $here/config/$kconfig.config"
for f in $fragments $here/series; do
	[ -r "$f" ] || die "$f is missing"
done
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/series")
for p in $patches; do
	[ -r "$here/patches/$p" ] || die "fs/series lists $p but fs/patches/$p is missing"
done

# The cache key: every input that changes the resulting kernel.
key=$({
	echo "recipe $RECIPE $arch $kconfig"
	sha256sum <"$tarball"
	cat "$here/series"
	for p in $patches; do cat "$here/patches/$p"; done
	for f in $fragments; do cat "$f"; done
} | sha256sum | cut -c1-16)

cache=$kbuild/cache/$arch-$kconfig-$key
mkdir -p "$(dirname "$output")"
if [ -s "$cache/$target" ] && [ "${NO_CACHE:-0}" != 1 ]; then
	cp "$cache/$target" "$output"
	cp "$cache/config" "$output.config"
	echo "build-kernel: $arch $kconfig kernel $key is cached: $output"
	exit 0
fi

# Fresh source tree: unpack, apply the series, refusing fuzz and rejects.
src=$kbuild/$arch-$kconfig
echo "build-kernel: unpacking $(basename "$tarball") into $src"
rm -rf "$src"
mkdir -p "$src"
tar -xJf "$tarball" -C "$src" --strip-components=1
for p in $patches; do
	echo "build-kernel: applying $p"
	patch -d "$src" -p1 --fuzz=0 -N -s <"$here/patches/$p" ||
		die "fs/patches/$p does not apply cleanly to $(basename "$tarball")"
	if find "$src" -name '*.rej' -o -name '*.orig' | grep -q .; then
		die "fs/patches/$p left .rej/.orig files: it does not apply cleanly"
	fi
done

export KBUILD_BUILD_TIMESTAMP="1970-01-01"
export KBUILD_BUILD_USER=execfolio KBUILD_BUILD_HOST=execfolio
export CCACHE_BASEDIR="$src"
kmake() {
	make -C "$src" -s ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" HOSTCC="ccache gcc" "$@"
}

# allnoconfig plus the fragments, then verify every requested option.
(cd "$src" && ARCH=$arch CROSS_COMPILE=$cross CC="ccache ${cross}gcc" \
	scripts/kconfig/merge_config.sh -n $fragments >"$src/merge_config.log" 2>&1) ||
	die "merge_config.sh failed: see $src/merge_config.log"
"$here/scripts/check-config.sh" "$src/.config" $fragments

start=$(date +%s)
echo "build-kernel: building $arch $kconfig kernel $key (make -j$jobs $target)"
kmake -j"$jobs" "$target" >"$src/build.log" 2>&1 || {
	tail -40 "$src/build.log" >&2
	die "kernel build failed: see $src/build.log"
}
echo "build-kernel: built in $(($(date +%s) - start))s"

rm -rf "$cache"
mkdir -p "$cache"
cp "$src/$image" "$cache/$target"
cp "$src/.config" "$cache/config"
cp "$cache/$target" "$output"
cp "$cache/config" "$output.config"
echo "build-kernel: $output"
