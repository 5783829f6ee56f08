#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-x86.sh OUTDIR NAME=KERNEL
#
# The 2m policy on x86_64 (tests/vm/guest/bench-pmd.sh): bigprog (the
# suite's 5 MB program, 2M-aligned segments) and Debian's amd64
# redis-server, untagged on a plain mount and tagged 2m, BENCH_ROUNDS
# boots (default 2) of KERNEL.  The disk is made here with mkfs.execfolio
# from build/bench/x86_64-tree (tests/workloads/debian-tree.sh amd64
# redis-server redis-tools); results in OUTDIR/rROUND-NAME/ for
# bench/bench-report.py --x86.
set -eu
out=$1
name=${2%%=*}
kernel=${2#*=}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
bin=$build/x86_64/bin
tree=$build/bench/x86_64-tree
work=$build/bench/vm-x86
image=$build/bench/x86-disk.img
rounds=${BENCH_ROUNDS:-2}
mkdir -p "$out" "$work"

[ -f "$kernel" ] || {
	echo "bench-x86: no kernel $kernel" >&2
	exit 1
}
for f in "$bin/bigprog" "$bin/execfolio" "$tree/usr/bin/redis-server"; do
	[ -e "$f" ] || {
		echo "bench-x86: $f is missing: run make vm-suite-guest ARCH=x86_64 and make bench-x86-tree" >&2
		exit 1
	}
done

key=$({
	cat "$bin/bigprog" "$build/bin/mkfs.execfolio" "$0" | sha256sum
	(cd "$tree" && find . -printf '%p %s %T@ %m\n' | sort)
} | sha256sum | cut -d' ' -f1)
if [ ! -f "$image" ] || [ "$(cat "$image.key" 2>/dev/null)" != "$key" ]; then
	stage=$image.root
	rm -rf "$stage" "$image"
	mkdir -p "$stage/redis"
	install -m 0755 "$bin/bigprog" "$stage/bigprog"
	install -m 0755 "$bin/bigprog" "$stage/bigprog.2m"
	cp -a "$tree" "$stage/redis/plain"
	cp -a "$tree" "$stage/redis/tagged"
	"$build/bin/mkfs.execfolio" --rule 'bigprog.2m=2m' \
		--rule 'redis/tagged/*.so=2m' --rule 'redis/tagged/*.so.[0-9]*=2m' \
		--size 1g --report "$image.report" "$stage" "$image"
	rm -rf "$stage"
	echo "$key" >"$image.key"
fi
"$top/tests/vm/mkinitramfs.sh" x86_64 "$bin" "$work" "$work/initramfs.gz" bench-pmd.sh
{
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo)"
	echo "cpu $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "qemu $(qemu-system-x86_64 --version | head -n 1)"
	echo "rounds $rounds"
	echo "params${BENCH_REDIS_REQUESTS:+ BENCH_REDIS_REQUESTS=$BENCH_REDIS_REQUESTS}"
	echo "kernel $name $kernel $(sha256sum "$kernel" | cut -c1-12)"
} >"$out/run-info"
r=1
while [ "$r" -le "$rounds" ]; do
	run=$out/r$r-$name
	echo "bench-x86: round $r/$rounds ($(date -u +%H:%M:%S))"
	cp --sparse=always "$image" "$run.disk.img"
	VM_TIMEOUT=${VM_TIMEOUT:-1800} \
		VM_APPEND="${BENCH_REDIS_REQUESTS:+BENCH_REDIS_REQUESTS=$BENCH_REDIS_REQUESTS}" \
		"$top/tests/vm/run-vm.sh" x86_64 "$kernel" "$work/initramfs.gz" \
		"$run.disk.img" "$run"
	rm -f "$run.disk.img"
	echo "bench-x86: took $(cat "$run/seconds") s," \
		"$(grep -c '^ok' "$run/bench-pmd.sh.tap" 2>/dev/null || true) ok," \
		"$(grep -c '^not ok' "$run/bench-pmd.sh.tap" 2>/dev/null || true) not ok"
	r=$((r + 1))
done
