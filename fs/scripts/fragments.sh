# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the fs/ scripts after kbase.sh: kernel_fragments ARCH KCONFIG
# sets $fragments to the config fragments of that kernel, in merge order,
# so that build-kernel.sh and build-each-patch.sh configure the same one;
# for a KCONFIG it does not know it sets $fragments_error and returns 1.
#
#   common, ARCH, then for each part of KCONFIG (test, release, kasan =
#   test + kasan, pages16k = test + pages16k) the part and, when they
#   exist, its variants for the architecture (test-arm64, test-x86_64), the kernel base
#   (PART-6.12 or PART-7.3; none at present) and both (PART-BASE-ARCH).

kernel_fragments() {
	_arch=$1
	case $2 in
	test | release) _parts=$2 ;;
	kasan) _parts="test kasan" ;;
	pages16k)
		[ "$_arch" = arm64 ] || {
			fragments_error="KCONFIG=pages16k is for ARCH=arm64 only"
			return 1
		}
		_parts="test pages16k"
		;;
	*)
		fragments_error="unknown KCONFIG '$2': use test, release, kasan or pages16k"
		return 1
		;;
	esac
	fragments="$here/config/common.config $here/config/$_arch.config"
	for _part in $_parts; do
		fragments="$fragments $here/config/$_part.config"
		for _extra in $_part-$_arch $_part-$kbase $_part-$kbase-$_arch; do
			[ ! -r "$here/config/$_extra.config" ] ||
				fragments="$fragments $here/config/$_extra.config"
		done
	done
}
