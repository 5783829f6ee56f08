#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# suite-disk.sh ARCH BIN_DIR IMAGE [REDIS_TREE]
#
# The XFS disk of the VM suite, made rootless with mkfs.execfolio from a
# staging tree next to IMAGE.  arm64: bigprog (no xattr: the 64k mount
# default applies), bigprog.none (xattr none), and with REDIS_TREE
# redis/tagged (its executables and shared libraries tagged 64k) and
# redis/plain (no xattrs).  x86_64: bigprog.2m (xattr 2m) and bigprog (no
# xattr).  The image is kept and reused while its inputs (the programs,
# the tree, mkfs.execfolio, this script) are unchanged: their hash is in
# IMAGE.key.
set -eu
arch=$1
bin=$2
image=$3
tree=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/disk-cache.sh"
mkfs=$here/../../build/bin/mkfs.execfolio

for f in "$bin/bigprog" "$mkfs"; do
	[ -x "$f" ] || {
		echo "suite-disk: $f is missing: run make vm-suite-guest" >&2
		exit 1
	}
done
if [ -n "$tree" ] && [ ! -x "$tree/usr/bin/redis-server" ]; then
	echo "suite-disk: $tree has no usr/bin/redis-server: make the tree with tests/workloads/debian-tree.sh" >&2
	exit 1
fi

key=$({
	echo "$arch"
	sha256sum "$bin/bigprog" "$mkfs" "$0"
	[ -z "$tree" ] || disk_cache_tree "$tree"
} | disk_cache_key)
disk_cache_current "$image" "$key" && exit 0

disk_cache_stage "$image"
case $arch in
arm64)
	install -m 0755 "$bin/bigprog" "$stage/bigprog"
	install -m 0755 "$bin/bigprog" "$stage/bigprog.none"
	set -- --rule 'bigprog.none=none'
	if [ -n "$tree" ]; then
		mkdir -p "$stage/redis"
		cp -a "$tree" "$stage/redis/tagged"
		cp -a "$tree" "$stage/redis/plain"
		set -- "$@" --rule 'redis/tagged/usr/bin/*=64k' \
			--rule 'redis/tagged/*.so*=64k'
	fi
	;;
x86_64)
	install -m 0755 "$bin/bigprog" "$stage/bigprog.2m"
	install -m 0755 "$bin/bigprog" "$stage/bigprog"
	set -- --rule 'bigprog.2m=2m'
	;;
*)
	echo "suite-disk: unknown ARCH '$arch'" >&2
	exit 2
	;;
esac
# Room to spare in every allocation group (a nearly full one makes XFS
# log "ENOSPC reserving per-AG metadata pool" at mount); the file is sparse.
"$mkfs" "$@" --size 1g --report "$image.report" "$stage" "$image"
disk_cache_finish "$image" "$key"
