#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-kernels.sh OUTDIR NAME[@CONFIG]=KERNEL...
#
# The seed's workloads on each arm64 KERNEL (bench/guest/bench-workloads.sh
# from the disk of bench/disks/kernels.sh), BENCH_ROUNDS rounds (default 2),
# the kernels interleaved within each round (round r boots them in the
# given order rotated r-1 times).  NAME@CONFIG boots KERNEL for that one
# configuration of the guest script (mount, tagged): each configuration
# gets a fresh guest, as a kernel without the mount option does, since
# whatever runs second in a TCG guest runs up to twice as slow.  Each
# boot's results go to OUTDIR/rROUND-NAME[@CONFIG]/; bench/bench-report.py
# turns them into tables and plots.  BENCH_AB_REQUESTS,
# BENCH_REDIS_REQUESTS, BENCH_CC_JOBS, BENCH_WORKLOADS and BENCH_FILES
# reach the guest on the kernel command line.
set -eu
out=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
rounds=${BENCH_ROUNDS:-2}
work=$build/bench/vm-kernels
mkdir -p "$out" "$work"

for k; do
	[ -f "${k#*=}" ] || {
		echo "bench-kernels: no kernel ${k#*=} for ${k%%=*}" >&2
		exit 1
	}
done
for p in execfolio benchhelper; do
	[ -x "$build/arm64/bin/$p" ] || {
		echo "bench-kernels: $build/arm64/bin/$p is missing: run make bench-guest ARCH=arm64" >&2
		exit 1
	}
done

# The VM harness of the tests (tests/vm/harness/): the disk, the
# initramfs, the boots.
harness=$top/tests/vm/harness
"$harness/mkdisk.sh" "$top/bench/disks/kernels.sh" arm64 "$build/bench/arm64-disk.img"
"$harness/mkinitramfs.sh" -p benchhelper arm64 "$work/bench-initramfs.gz" \
	"$top/bench/guest/bench-workloads.sh"

# The kernel command line splits at blanks: the guest reads commas.
params=
for v in BENCH_AB_REQUESTS BENCH_REDIS_REQUESTS BENCH_CC_JOBS \
	BENCH_WORKLOADS BENCH_FILES; do
	eval "val=\${$v:-}"
	[ -z "$val" ] || params="$params $v=$(echo "$val" | tr ' ' ,)"
done

{
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo)"
	echo "cpu $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "qemu $(qemu-system-aarch64 --version | head -n 1)"
	echo "rounds $rounds"
	echo "params$params"
	for k; do echo "kernel ${k%%=*} ${k#*=} $(sha256sum "${k#*=}" | cut -c1-12)"; done
} >"$out/run-info"

r=1
while [ "$r" -le "$rounds" ]; do
	for k; do
		name=${k%%=*}
		run=$out/r$r-$name
		echo "bench-kernels: round $r/$rounds, $name ($(date -u +%H:%M:%S))"
		cp --sparse=always "$build/bench/arm64-disk.img" "$run.disk.img"
		config=
		case $name in *@*) config=" BENCH_CONFIGS=${name#*@}" ;; esac
		VM_TIMEOUT=${VM_TIMEOUT:-2400} VM_APPEND="$params$config" \
			"$harness/run-vm.sh" arm64 "${k#*=}" \
			"$work/bench-initramfs.gz" "$run.disk.img" "$run"
		rm -f "$run.disk.img"
		echo "bench-kernels: $name took $(cat "$run/seconds") s," \
			"$(grep -c '^ok' "$run/bench-workloads.sh.tap" 2>/dev/null || true) ok," \
			"$(grep -c '^not ok' "$run/bench-workloads.sh.tap" 2>/dev/null || true) not ok"
	done
	# Rotate the order so that no kernel always goes first.
	first=$1
	shift
	set -- "$@" "$first"
	r=$((r + 1))
done
