#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build an execfolio kernel from Debian's kernel source tarball: KBASE=7.3
# (the default: linux-source-7.3, fs/series) or KBASE=6.12 (linux-source-6.12,
# the backport in fs/backport-6.12/), see kbase.sh.
#
#   build-kernel.sh ARCH KCONFIG OUTPUT [SERIES]
#   build-kernel.sh --patches ARCH KCONFIG OUTPUT [SERIES]
#
# ARCH is arm64 or x86_64, KCONFIG is test, release, kasan (test with
# KASAN) or pages16k (test with 16K pages, arm64), OUTPUT is where the
# boot image is copied. SERIES is what goes on top of the tarball:
# execfolio (the default: the series of KBASE), stock (nothing) or option-one
# (6.12 only: the fixed exec folio order that execfolio is compared with,
# as upstream merged it, i.e. the backport's patches up to upstream's
# commit 38b0ece6d763, or the seed's own patch given as OPTION_ONE_PATCH=FILE). The
# kernel is cached under $KERNEL_BUILD/cache/KEY,
# KEY being the sha256 of the tarball, fs/series, every patch it lists, the
# config fragments and this recipe, so an unchanged kernel is never rebuilt.
# The source tree is unpacked fresh for every new key, at a fixed path per
# ARCH and KCONFIG so that ccache hits for every unchanged file, and removed
# once the kernel is in the cache: a tree is about 2 GB and is never built
# again (the next key unpacks a new one), so keeping four of them is what
# fills a small CI disk. Its build.log is kept in the cache entry; a tree
# whose build failed is kept for inspection. KEEP_KERNEL_TREE=1 keeps it.
# Locks in $KERNEL_BUILD/locks/ make a second build of the same kernel
# wait for the first and then take it from the cache, and let one kernel
# build run at a time.
#
# With --patches it only prints the patches that SERIES applies, one path a
# line in the order applied (nothing for stock), and builds nothing.
#
# Environment: KBASE (7.3 or 6.12), KERNEL_TARBALL (default
# /usr/src/linux-source-KBASE.tar.xz), KERNEL_BUILD (default build/kernel), JOBS (default 2), NO_CACHE=1 to
# ignore the cache (still filled), KEEP_KERNEL_TREE=1 to keep the built tree.
set -eu

# Bump when the way a kernel is built changes (not its inputs).
RECIPE=1

die() {
	echo "build-kernel: $*" >&2
	exit 1
}

list_patches=
if [ "${1:-}" = --patches ]; then
	list_patches=1
	shift
fi
[ $# -eq 3 ] || [ $# -eq 4 ] ||
	die "usage: build-kernel.sh [--patches] ARCH test|release|kasan|pages16k OUTPUT [execfolio|stock|option-one]"
arch=$1
kconfig=$2
output=$3
kseries=${4:-execfolio}

here=$(cd "$(dirname "$0")/.." && pwd)	# fs/
top=$(cd "$here/.." && pwd)
. "$here/scripts/kbase.sh"
. "$here/scripts/fragments.sh"
. "$here/scripts/build-lock.sh"
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
kernel_fragments "$arch" "$kconfig" || die "$fragments_error"
for f in $fragments $series_dir/series; do
	[ -r "$f" ] || die "$f is missing"
done
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series_dir/series")
for p in $patches; do
	[ -r "$series_dir/patches/$p" ] ||
		die "$series_dir/series lists $p but $series_dir/patches/$p is missing"
done
patch_paths=
offsets_ok=
option_one_upstream=mm-filemap-allow-arch-to-request-folio-size-for-exec
case $kseries in
execfolio)
	for p in $patches; do patch_paths="$patch_paths $series_dir/patches/$p"; done
	;;
stock) ;;
option-one)
	# Linux 7.3 has the fixed exec folio order upstream: stock is option one.
	[ "$kbase" = 6.12 ] ||
		die "KSERIES=option-one applies to KBASE=6.12 only (7.3 has it upstream: use KSERIES=stock)"
	option_one=${OPTION_ONE_PATCH:-}
	if [ -z "$option_one" ]; then
		# Option one as upstream merged it: the backport's patches up to
		# and including "mm/filemap: allow arch to request folio size
		# for exec memory", the ones before it being its prerequisites.
		for p in $patches; do
			patch_paths="$patch_paths $series_dir/patches/$p"
			case $p in *-$option_one_upstream.patch) option_one=$p && break ;; esac
		done
		[ -n "$option_one" ] ||
			die "$series_dir/series has no patch *-$option_one_upstream.patch (upstream's option one): give one with OPTION_ONE_PATCH=FILE"
	else
		[ -r "$option_one" ] ||
			die "OPTION_ONE_PATCH=$option_one: cannot read it (give a patch file, or leave it unset for option one as upstream merged it)"
		patch_paths=$option_one
		# The seed was written against another tree: its hunks land at
		# offsets (never with fuzz).  Our own series must apply exactly.
		offsets_ok=--no-backup-if-mismatch
	fi
	;;
*) die "unknown kernel series '$kseries': use execfolio, stock or option-one" ;;
esac
if [ -n "$list_patches" ]; then
	for p in $patch_paths; do echo "$p"; done
	exit 0
fi
[ -r "$tarball" ] || die "$tarball not found: $kbase_hint"
command -v "${cross}gcc" >/dev/null ||
	die "${cross}gcc not found: run 'make deps'"

# The cache key: every input that changes the resulting kernel.
key=$({
	echo "recipe $RECIPE $arch $kconfig"
	[ "$kseries" = execfolio ] || echo "series $kseries"
	sha256sum <"$tarball"
	[ "$kseries" = execfolio ] && cat "$series_dir/series"
	for p in $patch_paths; do cat "$p"; done
	for f in $fragments; do cat "$f"; done
} | sha256sum | cut -c1-16)

name=$arch-$kconfig
[ "$kseries" = execfolio ] || name=$name-$kseries
[ "$kbase" = 7.3 ] || name=$kbase-$name
cache=$kbuild/cache/$name-$key
mkdir -p "$(dirname "$output")"

# Another make kernel of the same kernel (make check builds its kernels
# ahead, tests/vm/README.md) is waited for, then found in the cache.
take_lock 8 "$kbuild/locks/$name-$key.lock" build-kernel "another build of the $name kernel $key"
if [ -s "$cache/$target" ] && [ "${NO_CACHE:-0}" != 1 ]; then
	cp "$cache/$target" "$output"
	cp "$cache/config" "$output.config"
	echo "build-kernel: $name kernel $key is cached: $output"
	exit 0
fi

take_build_lock "$kbuild" build-kernel

# Fresh source tree: unpack, apply the series, refusing fuzz and rejects.
src=$kbuild/$name
echo "build-kernel: unpacking $(basename "$tarball") into $src"
rm -rf "$src"
mkdir -p "$src"
tar -xJf "$tarball" -C "$src" --strip-components=1
for p in $patch_paths; do
	echo "build-kernel: applying $(basename "$p")"
	patch -d "$src" -p1 --fuzz=0 -N -s $offsets_ok <"$p" ||
		die "$p does not apply cleanly to $(basename "$tarball")"
	if find "$src" -name '*.rej' -o -name '*.orig' | grep -q .; then
		die "$p left .rej/.orig files: it does not apply cleanly"
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
echo "build-kernel: building $name kernel $key (make -j$jobs $target)"
kmake -j"$jobs" "$target" >"$src/build.log" 2>&1 || {
	tail -40 "$src/build.log" >&2
	die "kernel build failed: see $src/build.log"
}
echo "build-kernel: built in $(($(date +%s) - start))s"

# Filled beside it and renamed into place: a build stopped while copying
# (make check stops the builds ahead when its tiers end) leaves no
# half-copied kernel that a later make kernel would take.
rm -rf "$cache" "$cache.tmp"
mkdir -p "$cache.tmp"
cp "$src/$image" "$cache.tmp/$target"
cp "$src/.config" "$cache.tmp/config"
cp "$src/build.log" "$cache.tmp/build.log"
mv "$cache.tmp" "$cache"
cp "$cache/$target" "$output"
cp "$cache/config" "$output.config"
[ "${KEEP_KERNEL_TREE:-0}" = 1 ] || rm -rf "$src"
echo "build-kernel: $output"
