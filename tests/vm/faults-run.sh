#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# faults-run.sh ARCH KERNEL OUTDIR: one boot of the vm-faults tier: the
# disk of faults-disk.sh, an initramfs with guest/faults-*.sh
# (mkinitramfs.sh), KERNEL under QEMU (run-vm.sh), the results in OUTDIR.
# The guest programs must be built (make vm-faults-guest ARCH=...).  Exits
# non-zero when the run could not be set up; the TAP in OUTDIR says how
# the tests went.
set -eu
. "$(dirname "$0")/run-common.sh"
vm_run_args faults-run "$@"
work=$build/vm/$arch/faults-work

# A work directory of its own (other tiers' runs rebuild theirs), sharing
# the busybox that mkinitramfs.sh has already fetched.
mkdir -p "$work"
debarch=$arch
[ "$arch" = x86_64 ] && debarch=amd64
if [ -d "$build/vm/busybox-$debarch" ] && [ ! -e "$work/busybox-$debarch" ]; then
	ln -s "$build/vm/busybox-$debarch" "$work/busybox-$debarch"
fi
"$here/faults-disk.sh" "$bin" "$out.disk.img"
"$here/mkinitramfs.sh" "$arch" "$bin" "$work" "$out.initramfs.gz" \
	faults-badinput.sh faults-privilege.sh faults-inject.sh
VM_TIMEOUT=${VM_TIMEOUT:-1800} "$here/run-vm.sh" "$arch" "$kernel" \
	"$out.initramfs.gz" "$out.disk.img" "$out"
rm -f "$out.disk.img"
