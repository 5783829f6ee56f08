# SPDX-License-Identifier: GPL-2.0-or-later
#
# The disk of vm-suite and of the demo (a recipe of
# tests/vm/harness/mkdisk.sh).  arm64: bigprog (no xattr: the 64k mount
# default applies), bigprog.none (xattr none), redis/tagged (Debian's
# arm64 redis-server and redis-tools, build/vm/arm64/redis-tree, with its
# executables and shared libraries tagged 64k) and redis/plain (no
# xattrs).  x86_64: bigprog.2m (xattr 2m), bigprog (no xattr) and
# redis/plain (Debian's amd64 redis-server and redis-tools,
# build/vm/x86_64/redis-tree, no xattrs).
tree=$build/vm/$arch/redis-tree

disk_inputs() {
	disk_need "$bin/bigprog" "run make vm-guest $bin/bigprog ARCH=$arch"
	sha256sum "$bin/bigprog" | cut -d' ' -f1
	disk_need "$tree/usr/bin/redis-server" "run make $tree.stamp"
	disk_tree "$tree"
}

disk_stage() {
	case $arch in
	arm64)
		install -m 0755 "$bin/bigprog" "$stage/bigprog"
		install -m 0755 "$bin/bigprog" "$stage/bigprog.none"
		disk_rule 'bigprog.none=none'
		mkdir -p "$stage/redis"
		cp -a "$tree" "$stage/redis/tagged"
		cp -a "$tree" "$stage/redis/plain"
		disk_rule 'redis/tagged/usr/bin/*=64k'
		disk_rule 'redis/tagged/*.so*=64k'
		;;
	x86_64)
		install -m 0755 "$bin/bigprog" "$stage/bigprog.2m"
		install -m 0755 "$bin/bigprog" "$stage/bigprog"
		disk_rule 'bigprog.2m=2m'
		mkdir -p "$stage/redis"
		cp -a "$tree" "$stage/redis/plain"
		;;
	*) die "unknown ARCH '$arch'" ;;
	esac
}
