#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-x86.sh OUTDIR NAME=KERNEL...
#
# x86_64 (bench/guest/bench-pmd.sh): bigprog (the suite's 5 MB program,
# 2M-aligned segments) and Debian's amd64 redis-server with untagged
# libraries; on a kernel with the series under the 64k mount default and
# tagged 2m, on one without it (stock) mounted without options.
# BENCH_ROUNDS rounds (default 2), each booting every KERNEL (the order
# rotating from round to round) once per read_ahead_kb of BENCH_RA
# (default "device 128"; "device": the one the kernel gives the disk), on
# the disk of bench/disks/x86.sh, through the VM harness of the tests
# (tests/vm/harness/); results in OUTDIR/rROUND-NAME+ra-RA/ for
# bench/bench-report.py --x86.
set -eu
out=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
work=$build/bench/vm-x86
image=$build/bench/x86-disk.img
rounds=${BENCH_ROUNDS:-2}
ra_settings=${BENCH_RA:-device 128}
mkdir -p "$out" "$work"

bench=bench-x86
# shellcheck source=bench/benchlib.sh
. "$top/bench/benchlib.sh"
bench_need_kernels "$@"
# shellcheck disable=SC2086 # the settings are words
bench_check_ra $ra_settings
harness=$top/tests/vm/harness
"$harness/mkdisk.sh" "$top/bench/disks/x86.sh" x86_64 "$image"
"$harness/mkinitramfs.sh" x86_64 "$work/initramfs.gz" "$top/bench/guest/bench-pmd.sh"
bench_disk_dir "$image" "$out"
{
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo)"
	echo "cpu $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "qemu $("$harness/run-vm.sh" --qemu-version x86_64)"
	echo "rounds $rounds"
	echo "params${BENCH_REDIS_REQUESTS:+ BENCH_REDIS_REQUESTS=$BENCH_REDIS_REQUESTS}"
	bench_kernel_lines "$@"
	echo "disks $bench_disks_note"
	echo "settings ra $ra_settings"
} >"$out/run-info"
r=1
while [ "$r" -le "$rounds" ]; do
	for k; do
		name=${k%%=*}
		for ra in $ra_settings; do
			run=$out/r$r-$name+ra-$ra
			append=${BENCH_REDIS_REQUESTS:+BENCH_REDIS_REQUESTS=$BENCH_REDIS_REQUESTS}
			[ "$ra" = device ] || append="$append BENCH_RA_KB=$ra"
			echo "bench-x86: round $r/$rounds, $name, ra $ra ($(date -u +%H:%M:%S))"
			VM_TIMEOUT=${VM_TIMEOUT:-1800} VM_APPEND="$append" \
				bench_boot "$image" "$run" bench-pmd.sh x86_64 "${k#*=}" \
				"$work/initramfs.gz"
		done
	done
	# Rotate the order so that no kernel always goes first.
	first=$1
	shift
	set -- "$@" "$first"
	r=$((r + 1))
done
