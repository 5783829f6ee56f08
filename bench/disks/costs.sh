# SPDX-License-Identifier: GPL-2.0-or-later
#
# The disk of the cost benchmarks (bench/bench-costs.sh), a recipe of
# tests/vm/harness/mkdisk.sh:
#   inodes/   BENCH_INODES (100000) small executable files (mode 0755, a
#             two-line script each) in directories of 1000, no xattr:
#             what the mount default resolves a policy for at every iget
#   small/P/  for P in none, 16k, 64k and 2m, the same executables with
#             the xattr P: BENCH_SMALL_PROGS (200) static arm64 programs
#             (no libc) of 2K to 62K of text, which execute all of it
#             (nops) and exit, and a few larger ones: programs of 128K,
#             512K and 1536K made the same way, and Debian's nginx and
#             redis-server from build/bench/arm64-tree
tree=$build/bench/arm64-tree
inodes=${BENCH_INODES:-100000}
small=${BENCH_SMALL_PROGS:-200}
cc=${CROSS_CC:-aarch64-linux-gnu-gcc}

disk_inputs() {
	disk_need "$tree/usr/sbin/nginx" "make the tree with make bench-tree"
	command -v "$cc" >/dev/null || die "$cc not found: run make deps"
	echo "$inodes $small $("$cc" --version | head -n 1)"
	cat "$tree/usr/sbin/nginx" "$tree/usr/bin/redis-server" | sha256sum
}

# prog OUT TEXT_BYTES: a static program that executes TEXT_BYTES of nops
# and exits; 4K segment alignment, as most small programs have.
prog() {
	printf '.text\n.globl _start\n_start:\n.rept %d\nnop\n.endr\nmov x8, #93\nmov x0, #0\nsvc #0\n' \
		$(($2 / 4)) >"$1.S"
	"$cc" -nostdlib -static -Wl,-z,max-page-size=4096 -o "$1" "$1.S"
	rm -f "$1.S"
}

disk_stage() {
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

	progs=$stage/small/none
	mkdir -p "$progs"
	i=0
	while [ $i -lt "$small" ]; do
		# Text sizes spread over 2K..62K.
		prog "$progs/p$i" $(((2 + (i * 37) % 61) * 1024))
		i=$((i + 1))
	done
	for k in 128 512 1536; do
		prog "$progs/big$k" $((k * 1024))
	done
	cp "$tree/usr/sbin/nginx" "$tree/usr/bin/redis-server" "$progs/"
	disk_rule "small/none/*=none"
	for p in 16k 64k 2m; do
		cp -a "$progs" "$stage/small/$p"
		disk_rule "small/$p/*=$p"
	done
	disk_size=2g
}
