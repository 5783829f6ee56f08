#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-x86.sh OUTDIR NAME=KERNEL
#
# The 2m policy on x86_64 (bench/guest/bench-pmd.sh): bigprog (the
# suite's 5 MB program, 2M-aligned segments) and Debian's amd64
# redis-server, untagged on a plain mount and tagged 2m, BENCH_ROUNDS
# boots (default 2) of KERNEL, on the disk of bench/disks/x86.sh, through
# the VM harness of the tests (tests/vm/harness/); results in
# OUTDIR/rROUND-NAME/ for bench/bench-report.py --x86.
set -eu
out=$1
name=${2%%=*}
kernel=${2#*=}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
work=$build/bench/vm-x86
image=$build/bench/x86-disk.img
rounds=${BENCH_ROUNDS:-2}
mkdir -p "$out" "$work"

[ -f "$kernel" ] || {
	echo "bench-x86: no kernel $kernel" >&2
	exit 1
}
harness=$top/tests/vm/harness
"$harness/mkdisk.sh" "$top/bench/disks/x86.sh" x86_64 "$image"
"$harness/mkinitramfs.sh" x86_64 "$work/initramfs.gz" "$top/bench/guest/bench-pmd.sh"
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
		"$harness/run-vm.sh" x86_64 "$kernel" "$work/initramfs.gz" \
		"$run.disk.img" "$run"
	rm -f "$run.disk.img"
	echo "bench-x86: took $(cat "$run/seconds") s," \
		"$(grep -c '^ok' "$run/bench-pmd.sh.tap" 2>/dev/null || true) ok," \
		"$(grep -c '^not ok' "$run/bench-pmd.sh.tap" 2>/dev/null || true) not ok"
	r=$((r + 1))
done
