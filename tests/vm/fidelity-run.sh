#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fidelity-run.sh OUTDIR [patched|stock]...
#
# The boots of the fidelity test (tests/vm/guest/fidelity.sh), arm64: the
# disk of fidelity-disk.sh (with the sqlite3 tree of
# build/vm/arm64/sqlite-tree), an initramfs with fidelity.sh
# (mkinitramfs.sh), then the patched test kernel build/arm64/Image into
# OUTDIR/patched and the stock one build/arm64/test-stock/Image into
# OUTDIR/stock (both by default), each under run-vm.sh with a copy of the
# disk.  The guest programs must be built (make ARCH=arm64).  Exits
# non-zero when a run could not be set up; fidelity-compare.sh and the TAP
# in OUTDIR/*/ say how the tests went.
set -eu
out=$1
shift
[ $# -gt 0 ] || set -- patched stock
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$here/../.." && pwd)/build
bin=$build/arm64/bin
work=$build/vm/arm64
mkdir -p "$work" "$out"

"$here/fidelity-disk.sh" "$bin" "$work/fidelity-disk.img" "$work/sqlite-tree"
"$here/mkinitramfs.sh" arm64 "$bin" "$build/vm" "$out/initramfs.gz" fidelity.sh
# The kernel base (KBASE, 7.3 by default): 6.12 kernels are in build/arm64/6.12/.
kdir=$build/arm64
[ "${KBASE:-7.3}" != 6.12 ] || kdir=$build/arm64/6.12
for run; do
	case $run in
	patched) kernel=$kdir/Image ;;
	stock) kernel=$kdir/test-stock/Image ;;
	*)
		echo "fidelity-run: unknown run '$run' (patched or stock)" >&2
		exit 2
		;;
	esac
	[ -f "$kernel" ] || {
		echo "fidelity-run: no kernel $kernel: run make kernel ARCH=arm64 KCONFIG=test$([ $run = stock ] && echo " KSERIES=stock")" >&2
		exit 1
	}
	# The guest writes to the disk only through its own mounts: give
	# each boot a copy.
	cp --sparse=always "$work/fidelity-disk.img" "$out/$run.disk.img"
	VM_TIMEOUT=${VM_TIMEOUT:-1200} "$here/run-vm.sh" arm64 "$kernel" \
		"$out/initramfs.gz" "$out/$run.disk.img" "$out/$run"
	rm -f "$out/$run.disk.img"
done
