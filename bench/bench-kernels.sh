#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-kernels.sh OUTDIR NAME[@CONFIG]=KERNEL...
#
# The seed's workloads on each arm64 KERNEL (bench/guest/bench-workloads.sh
# from the disk of bench/disks/kernels.sh), BENCH_ROUNDS rounds (default 2),
# the kernels interleaved within each round (round r boots them in the
# given order rotated r-1 times).  NAME@CONFIG boots KERNEL for that one
# configuration of the guest script (mount, tagged, inplace): each
# configuration gets a fresh guest, as a kernel without the mount option
# does, since whatever runs second in a TCG guest runs up to twice as
# slow.  Each boot's results go to OUTDIR/rROUND-NAME[@CONFIG]/;
# bench/bench-report.py turns them into tables and plots.  BENCH_AB_REQUESTS,
# BENCH_REDIS_REQUESTS, BENCH_CC_JOBS, BENCH_WORKLOADS, BENCH_FILES and
# BENCH_TRACE (tracepoints over the cold starts, see the guest script;
# the results disk is then 64 MiB) reach the guest on the kernel command
# line.
#
# Each boot runs once per disk setting: BENCH_RA (default "device 128"),
# the read_ahead_kb values ("device": the one the kernel gives the
# guest's disk), times BENCH_DELAYS (default "0 5"), the milliseconds
# every request waits on the way to the disk (device-mapper's delay
# target; "none": the disk itself, for kernels without it).  Results of
# a setting go to OUTDIR/rROUND-NAME[@CONFIG]+ra-RA+delay-MS/ (no commas:
# QEMU would read them as its option separator).
#
# BENCH_ICOUNT (default 1) boots every guest with one CPU under QEMU's
# -icount shift=0, as bench-costs.sh does: the guest clock then advances
# one nanosecond per instruction executed, and in real time only while
# the CPU idles (waiting for the disk or a timer), so a cold-start time
# is the instructions executed plus the waits, free of the host's load
# and of what TCG's emulation costs (the boot script's time spread by
# 20-50% between rounds of a 2-CPU guest, by 1% under -icount).  The
# throughput figures then describe one CPU.  BENCH_ICOUNT=0: two CPUs on
# TCG's own clock, as the runs before 2026-12-06 21:00 UTC.
set -eu
out=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
rounds=${BENCH_ROUNDS:-2}
work=$build/bench/vm-kernels
mkdir -p "$out" "$work"

bench=bench-kernels
# shellcheck source=bench/benchlib.sh
. "$top/bench/benchlib.sh"
bench_need_kernels "$@"
ra_settings=${BENCH_RA:-device 128}
delays=${BENCH_DELAYS:-0 5}
case ${BENCH_ICOUNT:-1} in
0) clock="2 CPUs, TCG's own clock" ;;
1)
	clock="1 CPU, -icount shift=0"
	VM_SMP=1
	VM_QEMU_ARGS="${VM_QEMU_ARGS:-} -icount shift=0"
	export VM_SMP VM_QEMU_ARGS
	;;
*)
	echo "bench-kernels: BENCH_ICOUNT: '$BENCH_ICOUNT' is neither 0 nor 1" >&2
	exit 1
	;;
esac
# shellcheck disable=SC2086 # the settings are words
bench_check_ra $ra_settings
for d in $delays; do
	case $d in
	none | [0-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;;
	*)
		echo "bench-kernels: BENCH_DELAYS: '$d' is neither 'none' nor milliseconds (0-999)" >&2
		exit 1
		;;
	esac
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
bench_disk_dir "$build/bench/arm64-disk.img" "$out"

# init_on_free=1: the guest zeroes the pages it frees.  A disk read into
# a page that held translated code makes QEMU discard that code before it
# tells the guest the read is done, up to 20 ms on QEMU 10 (300 ms on
# 7.2), which -icount counts as the disk's latency; zeroed at free, the
# page's code is discarded on the guest's CPU instead, where -icount
# counts instructions only (BENCHMARKS.md, 2026-12-07).  Both kernels
# pay the zeroing alike.
zero_freed=init_on_free=1
# The kernel command line splits at blanks: the guest reads commas.
params=
for v in BENCH_AB_REQUESTS BENCH_REDIS_REQUESTS BENCH_CC_JOBS \
	BENCH_WORKLOADS BENCH_FILES BENCH_TRACE; do
	eval "val=\${$v:-}"
	[ -z "$val" ] || params="$params $v=$(echo "$val" | tr ' ' ,)"
done

{
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo)"
	echo "cpu $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "qemu $("$harness/run-vm.sh" --qemu-version arm64)"
	echo "rounds $rounds"
	echo "clock $clock"
	echo "params$params"
	echo "cmdline $zero_freed"
	bench_kernel_lines "$@"
	echo "disks $bench_disks_note"
} >"$out/run-info"

echo "settings ra $ra_settings; delay $delays" >>"$out/run-info"

r=1
while [ "$r" -le "$rounds" ]; do
	for k; do
		name=${k%%=*}
		config=
		case $name in *@*) config=" BENCH_CONFIGS=${name#*@}" ;; esac
		for ra in $ra_settings; do
			for d in $delays; do
				run=$out/r$r-$name+ra-$ra+delay-$d
				disk=
				[ "$ra" = device ] || disk=" BENCH_RA_KB=$ra"
				[ "$d" = none ] || disk="$disk BENCH_DELAY_MS=$d"
				echo "bench-kernels: round $r/$rounds, $name, ra $ra, delay $d ($(date -u +%H:%M:%S))"
				VM_TIMEOUT=${VM_TIMEOUT:-2400} VM_APPEND="$zero_freed$params$config$disk" \
					VM_RESULTS_MB=${BENCH_TRACE:+64} \
					bench_boot "$build/bench/arm64-disk.img" "$run" \
					bench-workloads.sh arm64 "${k#*=}" "$work/bench-initramfs.gz"
			done
		done
	done
	# Rotate the order so that no kernel always goes first.
	first=$1
	shift
	set -- "$@" "$first"
	r=$((r + 1))
done
