#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# robust-run.sh ARCH KERNEL OUTDIR TEST...
#
# One boot of the robustness tier: a fresh XFS disk OUTDIR.disk.img made
# with mkfs.execfolio (the files of guest/robust-fsx.sh and
# guest/robust-stress.sh, see below), an initramfs with the guest TESTs
# (mkinitramfs.sh) and fsx and bigtext added to its /bin, KERNEL under QEMU
# (run-vm.sh), the results in OUTDIR.  The disk is kept after the run for
# robust-repair.sh.  The guest programs must be built (make
# vm-robust-guest ARCH=...).  Exits non-zero when the run could not be set
# up; the TAP in OUTDIR says how the tests went.
set -eu
. "$(dirname "$0")/run-common.sh"
vm_run_args robust-run "$@"
shift 3
mkfs=$build/bin/mkfs.execfolio

for f in "$bin/fsx" "$bin/bigtext" "$mkfs"; do
	[ -x "$f" ] || {
		echo "robust-run: $f is missing: run make vm-robust-guest ARCH=$arch" >&2
		exit 1
	}
done

# The disk: fsx/default (mode 0755, no xattr: the 64k mount default of the
# tests applies), fsx/64k and fsx/2m (mode 0644, tagged), fsx/flip (mode
# 0755, 64k at first; the test changes it while fsx runs) and stress/prog,
# a static program with ~800K of text (mode 0755, no xattr).
stage=$out.disk.root
rm -rf "$stage" "$out.disk.img"
mkdir -p "$stage/fsx" "$stage/stress"
: >"$stage/fsx/default"
: >"$stage/fsx/64k"
: >"$stage/fsx/2m"
: >"$stage/fsx/flip"
chmod 0755 "$stage/fsx/default" "$stage/fsx/flip"
chmod 0644 "$stage/fsx/64k" "$stage/fsx/2m"
install -m 0755 "$bin/bigtext" "$stage/stress/prog"
# Room to spare in every allocation group; the file is sparse.
"$mkfs" --rule 'fsx/64k=64k' --rule 'fsx/2m=2m' --rule 'fsx/flip=64k' \
	--size 1g --strict --report "$out.disk.report" "$stage" "$out.disk.img"
rm -rf "$stage"

# mkinitramfs.sh carries the common guest programs; the kernel unpacks a
# second, concatenated archive over the first one: fsx and bigtext.
"$here/mkinitramfs.sh" "$arch" "$bin" "$build/vm" "$out.initramfs.gz" "$@"
extra=$out.initramfs.extra
rm -rf "$extra"
mkdir -p "$extra/bin"
cp "$bin/fsx" "$bin/bigtext" "$extra/bin/"
(cd "$extra" && find . | cpio -o -H newc --quiet) | gzip -1 >>"$out.initramfs.gz"
rm -rf "$extra"

# About 8 minutes of TCG per architecture on an idle 2-core machine.
VM_TIMEOUT=${VM_TIMEOUT:-1800} "$here/run-vm.sh" "$arch" "$kernel" \
	"$out.initramfs.gz" "$out.disk.img" "$out"
