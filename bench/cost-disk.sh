#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cost-disk.sh TREE IMAGE
#
# The XFS disk of the cost benchmarks (bench/bench-costs.sh), made rootless
# with mkfs.execfolio:
#   inodes/   BENCH_INODES (100000) small executable files (mode 0755, a
#             two-line script each) in directories of 1000, no xattr:
#             what the mount default resolves a policy for at every iget
#   small/P/  for P in none, 16k, 64k and 2m, the same executables with
#             the xattr P: every ELF program of TREE's bin/ and usr/bin/
#             (most under 64K) and a few larger (nginx, redis-server,
#             ld.bfd)
# Kept and reused while its inputs are unchanged (IMAGE.key).
set -eu
tree=$1
image=$2
top=$(cd "$(dirname "$0")/.." && pwd)
mkfs=$top/build/bin/mkfs.execfolio
inodes=${BENCH_INODES:-100000}

[ -x "$mkfs" ] || {
	echo "cost-disk: $mkfs is missing: run make" >&2
	exit 1
}
[ -x "$tree/usr/sbin/nginx" ] || {
	echo "cost-disk: $tree has no usr/sbin/nginx: make it with make bench-tree" >&2
	exit 1
}

# The executables of the tree: ELF regular files, not links.
programs() {
	find "$tree/bin" "$tree/usr/bin" -type f -perm -u+x | sort | while read -r f; do
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] && echo "$f"
	done
	echo "$tree/usr/sbin/nginx"
	echo "$tree/usr/bin/redis-server"
}

key=$({
	echo "$inodes"
	cat "$mkfs" "$0" | sha256sum
	programs | xargs cat | sha256sum
} | sha256sum | cut -d' ' -f1)
if [ -f "$image" ] && [ "$(cat "$image.key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi

stage=$image.root
rm -rf "$stage" "$image" "$image.key"
mkdir -p "$stage/inodes"
for d in $(seq 0 $(((inodes - 1) / 1000))); do
	mkdir -p "$stage/inodes/d$d"
done
# One file per name, written by awk (a shell loop of 100000 is slow).
awk -v n="$inodes" -v s="$stage/inodes" 'BEGIN {
	for (i = 0; i < n; i++) {
		f = sprintf("%s/d%d/f%d", s, int(i / 1000), i)
		printf "#!/bin/sh\necho %d\n", i > f
		close(f)
	} }'
find "$stage/inodes" -type f -exec chmod 0755 {} +

set --
for p in none 16k 64k 2m; do
	mkdir -p "$stage/small/$p"
	programs | while read -r f; do
		cp "$f" "$stage/small/$p/"
	done
	# ld.bfd is a link in TREE: copy its target under that name.
	cp -L "$tree/usr/bin/ld.bfd" "$stage/small/$p/ld.bfd" 2>/dev/null || true
	set -- "$@" --rule "small/$p/*=$p"
done
"$mkfs" "$@" --size 2g --report "$image.report" "$stage" "$image"
rm -rf "$stage"
echo "$key" >"$image.key"
