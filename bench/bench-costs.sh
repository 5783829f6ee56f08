#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-costs.sh OUTDIR NAME=KERNEL...
#
# The costs of the policy, on each arm64 KERNEL (the series, and stock
# 7.3 to compare with): one boot each under QEMU with -icount shift=0
# (each guest instruction advances the guest clock by one nanosecond, so
# CPU times are instruction counts) and one CPU, running
# bench/guest/bench-costs.sh on the disk of bench/disks/costs.sh,
# through the VM harness of the tests (tests/vm/harness/).  Results in
# OUTDIR/NAME/ for bench/bench-report.py.  BENCH_COST_ROUNDS and
# BENCH_INODES reach the guest.
set -eu
out=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
work=$build/bench/vm-costs
mkdir -p "$work" "$out"
bench=bench-costs
# shellcheck source=bench/benchlib.sh
. "$top/bench/benchlib.sh"
bench_need_kernels "$@"
[ -x "$build/arm64/bin/benchhelper" ] || {
	echo "bench-costs: $build/arm64/bin/benchhelper is missing: run make bench-guest ARCH=arm64" >&2
	exit 1
}

harness=$top/tests/vm/harness
"$harness/mkdisk.sh" "$top/bench/disks/costs.sh" arm64 "$build/bench/cost-disk.img"
"$harness/mkinitramfs.sh" -p benchhelper arm64 "$work/cost-initramfs.gz" \
	"$top/bench/guest/bench-costs.sh"
bench_disk_dir "$build/bench/cost-disk.img" "$out"
append=${BENCH_COST_ROUNDS:+BENCH_COST_ROUNDS=$BENCH_COST_ROUNDS}
append="$append${BENCH_INODES:+ BENCH_INODES=$BENCH_INODES}"
{
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "qemu $("$harness/run-vm.sh" --qemu-version arm64), -icount shift=0, 1 CPU"
	bench_kernel_lines "$@"
	echo "disks $bench_disks_note"
} >"$out/run-info"
for k; do
	run=$out/${k%%=*}
	echo "bench-costs: booting ${k%%=*} with -icount shift=0 ($(date -u +%H:%M:%S))"
	VM_TIMEOUT=${VM_TIMEOUT:-2400} VM_SMP=1 VM_QEMU_ARGS="-icount shift=0" \
		VM_APPEND="$append" \
		bench_boot "$build/bench/cost-disk.img" "$run" bench-costs.sh arm64 \
		"${k#*=}" "$work/cost-initramfs.gz"
done
