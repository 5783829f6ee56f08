# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the fs/ scripts after setting $here (fs/): what the kernel base
# KBASE means.  7.3 (the default) is Debian's linux-source-7.3 with the
# series of fs/series and fs/patches/; 6.12 is Debian's linux-source-6.12
# with the backport in fs/backport-6.12/.  Sets kbase, series_dir (holding
# series and patches/) and tarball (KERNEL_TARBALL overrides it).

kbase=${KBASE:-7.3}
case $kbase in
7.3)
	series_dir=$here
	kbase_tarball=/usr/src/linux-source-7.3.tar.xz
	kbase_hint="run 'make deps': it fetches linux-source-7.3 from Debian's trixie-backports"
	;;
6.12)
	series_dir=$here/backport-6.12
	kbase_tarball=/usr/src/linux-source-6.12.tar.xz
	kbase_hint="run 'make deps' (or apt-get install linux-source-6.12)"
	;;
*)
	echo "unknown KBASE '$kbase': use 7.3 or 6.12" >&2
	exit 2
	;;
esac
tarball=${KERNEL_TARBALL:-$kbase_tarball}
