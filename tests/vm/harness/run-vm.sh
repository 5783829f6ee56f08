#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-vm.sh ARCH KERNEL INITRAMFS DISK OUTDIR [NAME=IMAGE]...
#
# Boot KERNEL under QEMU (TCG) with INITRAMFS, the XFS test DISK, a
# results disk of VM_RESULTS_MB MiB (default 1) and any further disks
# IMAGE, wait for the guest to power off (VM_TIMEOUT seconds, default
# 900), then split what the guest wrote to the results disk into
# OUTDIR/<test>.tap and keep the console in OUTDIR/console.log.  The TAP
# is checked by vm-tap.sh and console-tap.sh.  Exits non-zero only when
# QEMU cannot be started.  VM_SMP (default 2) sets the CPUs, VM_QEMU_ARGS
# adds QEMU options (e.g. -icount shift=0), VM_APPEND kernel parameters
# (NAME=VALUE ones reach the guest's tests as environment variables).
# VM_QEMU_ROOT runs the QEMU unpacked there from Debian's packages (the
# benchmarks' newer QEMU, make bench-qemu) instead of the system's;
# run-vm.sh --qemu-version ARCH prints which QEMU that is.
# The guest tells the disks by their virtio serial (harness/init): "test",
# "results", and NAME for each further disk.
set -u

# The QEMU for ARCH, its machine, console and disk device.
select_qemu() { # ARCH
	case $1 in
	arm64)
		qemu=qemu-system-aarch64
		machine="-M virt -cpu max"
		console=ttyAMA0
		blk=virtio-blk-device
		;;
	x86_64)
		qemu=qemu-system-x86_64
		machine="-M pc -cpu max"
		console=ttyS0
		blk=virtio-blk-pci
		;;
	*)
		echo "run-vm: unknown ARCH '$1'" >&2
		exit 2
		;;
	esac
	case ${VM_QEMU_ROOT:-} in
	*[,[:space:]]*)
		echo "run-vm: VM_QEMU_ROOT '$VM_QEMU_ROOT': no commas or spaces in its path" >&2
		exit 2
		;;
	esac
	if [ -n "${VM_QEMU_ROOT:-}" ]; then
		# Its modules and firmware from its own tree, then the system's
		# (firmware of other packages, e.g. SeaBIOS, is linked from there).
		[ -x "$VM_QEMU_ROOT/usr/bin/$qemu" ] || {
			echo "run-vm: VM_QEMU_ROOT $VM_QEMU_ROOT has no usr/bin/$qemu: run make bench-qemu" >&2
			exit 2
		}
		QEMU_MODULE_DIR=$(echo "$VM_QEMU_ROOT"/usr/lib/*/qemu)
		export QEMU_MODULE_DIR
		machine="$machine -L $VM_QEMU_ROOT/usr/share/qemu -L /usr/share/qemu"
		qemu=$VM_QEMU_ROOT/usr/bin/$qemu
	fi
	command -v "$qemu" >/dev/null || {
		echo "run-vm: $qemu not found: run make deps" >&2
		exit 2
	}
}

# run-vm.sh --qemu-version ARCH: the first line of the version of the QEMU
# it would boot, for the benchmarks' run-info.
if [ "${1:-}" = --qemu-version ]; then
	select_qemu "${2:-}"
	"$qemu" --version | head -n 1
	exit 0
fi

arch=$1
kernel=$2
initramfs=$3
disk=$4
out=$5
shift 5
timeout=${VM_TIMEOUT:-900}
# NAME becomes a QEMU id and the disk's serial (at most 20 bytes); IMAGE
# goes into a -drive option, where a comma would start another.
for d; do
	case $d in
	test=* | results=*)
		echo "run-vm: '${d%%=*}' is the name of the test or results disk" >&2
		exit 2
		;;
	[a-z]*=?*) ;;
	*)
		echo "run-vm: '$d' is not NAME=IMAGE" >&2
		exit 2
		;;
	esac
	name=${d%%=*}
	case $name in
	*[!a-z0-9_-]*)
		echo "run-vm: disk name '$name': only a-z, 0-9, _ and - please" >&2
		exit 2
		;;
	esac
	if [ ${#name} -gt 20 ]; then
		echo "run-vm: disk name '$name' is longer than a virtio serial (20)" >&2
		exit 2
	fi
	case ${d#*=} in
	*[,[:space:]]*)
		echo "run-vm: disk image '${d#*=}': no commas or spaces in its path" >&2
		exit 2
		;;
	esac
done

select_qemu "$arch"
results_mb=${VM_RESULTS_MB:-1}
case $results_mb in
[1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;;
*)
	echo "run-vm: VM_RESULTS_MB '$results_mb': use 1 to 999 (MiB)" >&2
	exit 2
	;;
esac

append="console=$console loglevel=5 panic=-1 oops=panic ${VM_APPEND:-}"
extra=
for d; do
	extra="$extra -drive file=${d#*=},format=raw,if=none,id=${d%%=*}"
	extra="$extra -device $blk,drive=${d%%=*},serial=${d%%=*}"
done

# Every setting checked: OUTDIR is replaced only now.
rm -rf "$out"
mkdir -p "$out"
results=$out/results.img
truncate -s "${results_mb}M" "$results"

start=$(date +%s)
# shellcheck disable=SC2086
timeout -k 10 "$timeout" $qemu $machine ${VM_QEMU_ARGS:-} -m 1G -smp "${VM_SMP:-2}" -nographic -no-reboot \
	-kernel "$kernel" -initrd "$initramfs" -append "$append" \
	-drive "file=$disk,format=raw,if=none,id=test" -device "$blk,drive=test,serial=test" \
	-drive "file=$results,format=raw,if=none,id=results" \
	-device "$blk,drive=results,serial=results" $extra \
	</dev/null >"$out/console.log" 2>&1
echo $? >"$out/qemu-status"
echo $(($(date +%s) - start)) >"$out/seconds"

# Split the results: "### test NAME" ... "### exit N" per test.
tr -d '\000' <"$results" | awk -v out="$out" '
	/^### test / { name = $3; file = out "/" name ".tap"; printf "" > file; next }
	/^### end/ { print "end" > (out "/complete"); next }
	file != "" { print > file }
'
exit 0
