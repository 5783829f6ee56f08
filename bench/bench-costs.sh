#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-costs.sh OUTDIR KERNEL
#
# The costs of the policy on the execfolio arm64 KERNEL: one boot under
# QEMU with -icount shift=0 (each guest instruction advances the guest
# clock by one nanosecond, so CPU times are instruction counts) and one
# CPU, running bench/guest/bench-costs.sh on the disk of
# bench/disks/costs.sh, through the VM harness of the tests
# (tests/vm/harness/).  Results in OUTDIR/ for bench/bench-report.py.
# BENCH_COST_ROUNDS reaches the guest.
set -eu
out=$1
kernel=$2
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
work=$build/bench/vm-costs
mkdir -p "$work" "$(dirname "$out")"
[ -f "$kernel" ] || {
	echo "bench-costs: no kernel $kernel" >&2
	exit 1
}
[ -x "$build/arm64/bin/benchhelper" ] || {
	echo "bench-costs: $build/arm64/bin/benchhelper is missing: run make bench-guest ARCH=arm64" >&2
	exit 1
}

harness=$top/tests/vm/harness
"$harness/mkdisk.sh" "$top/bench/disks/costs.sh" arm64 "$build/bench/cost-disk.img"
"$harness/mkinitramfs.sh" -p benchhelper arm64 "$work/cost-initramfs.gz" \
	"$top/bench/guest/bench-costs.sh"
cp --sparse=always "$build/bench/cost-disk.img" "$out.disk.img"
echo "bench-costs: booting $kernel with -icount shift=0 ($(date -u +%H:%M:%S))"
VM_TIMEOUT=${VM_TIMEOUT:-2400} VM_SMP=1 VM_QEMU_ARGS="-icount shift=0" \
	VM_APPEND="${BENCH_COST_ROUNDS:+BENCH_COST_ROUNDS=$BENCH_COST_ROUNDS}" \
	"$harness/run-vm.sh" arm64 "$kernel" "$work/cost-initramfs.gz" \
	"$out.disk.img" "$out"
rm -f "$out.disk.img"
{
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "kernel $kernel $(sha256sum "$kernel" | cut -c1-12)"
	echo "qemu $(qemu-system-aarch64 --version | head -n 1), -icount shift=0, 1 CPU"
} >"$out/run-info"
echo "bench-costs: took $(cat "$out/seconds") s," \
	"$(grep -c '^ok' "$out/bench-costs.sh.tap" 2>/dev/null || true) ok," \
	"$(grep -c '^not ok' "$out/bench-costs.sh.tap" 2>/dev/null || true) not ok"
