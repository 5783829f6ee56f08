#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# suite-run.sh ARCH KERNEL OUTDIR TEST...
#
# One boot of the VM suite: the suite's XFS disk (suite-disk.sh; arm64
# with the redis tree of build/vm/arm64/redis-tree), an initramfs with the
# guest TESTs (mkinitramfs.sh), KERNEL under QEMU (run-vm.sh), the results
# in OUTDIR.  The guest programs must be built (make vm-suite-guest
# ARCH=...).  Exits non-zero when the run could not be set up; the TAP in
# OUTDIR says how the tests went.
set -eu
. "$(dirname "$0")/run-common.sh"
vm_run_args suite-run "$@"
shift 3
work=$build/vm/$arch
mkdir -p "$work"

tree=
[ "$arch" = arm64 ] && tree=$build/vm/arm64/redis-tree
"$here/suite-disk.sh" "$arch" "$bin" "$work/suite-disk.img" $tree
"$here/mkinitramfs.sh" "$arch" "$bin" "$build/vm" "$out.initramfs.gz" "$@"
# The disk is written by the guest's runs only through its own mounts and
# is kept between runs: give each boot a copy.
cp --sparse=always "$work/suite-disk.img" "$out.disk.img"
# The workloads take about 6 minutes of TCG on an idle 2-core machine.
VM_TIMEOUT=${VM_TIMEOUT:-1800} "$here/run-vm.sh" "$arch" "$kernel" "$out.initramfs.gz" "$out.disk.img" "$out"
rm -f "$out.disk.img"
