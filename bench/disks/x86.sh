# SPDX-License-Identifier: GPL-2.0-or-later
#
# The disk of the x86_64 benchmark (bench/bench-x86.sh), a recipe of
# tests/vm/harness/mkdisk.sh: bigprog (the VM suite's 5 MB program,
# 2M-aligned segments, no xattr), bigprog.2m (xattr 2m), and Debian's
# amd64 redis-server and redis-tools (build/vm/x86_64/redis-tree, the harness's) as
# redis/plain (no xattrs) and redis/tagged (shared libraries tagged 2m).
tree=$build/vm/x86_64/redis-tree

disk_inputs() {
	disk_need "$bin/bigprog" "run make vm-guest $bin/bigprog ARCH=$arch"
	disk_need "$tree/usr/bin/redis-server" "run make $tree.stamp"
	sha256sum "$bin/bigprog" | cut -d' ' -f1
	disk_tree "$tree"
}

disk_stage() {
	mkdir -p "$stage/redis"
	install -m 0755 "$bin/bigprog" "$stage/bigprog"
	install -m 0755 "$bin/bigprog" "$stage/bigprog.2m"
	cp -a "$tree" "$stage/redis/plain"
	cp -a "$tree" "$stage/redis/tagged"
	disk_rule 'bigprog.2m=2m'
	disk_rule 'redis/tagged/*.so=2m'
	disk_rule 'redis/tagged/*.so.[0-9]*=2m'
}
