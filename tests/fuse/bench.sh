#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench.sh EXECFOLIOFS PASSTHROUGH_LL FSBENCH OUT.md
#
# execfoliofs against libfuse's passthrough_ll example (built from Debian's
# libfuse3-dev on this machine) and against the backing XFS directly: cold
# sequential and random reads, create/stat/unlink rates, and stat() rates
# from 1 and 2 threads with the entry/attribute cache off (every stat is a
# lookup in the daemon's inode table). Interleaved rounds, medians; writes
# a BENCHMARKS.md section to OUT.md.
set -u
EFS=$1
PLL=$2
FSBENCH=$3
OUT=$4
ROUNDS=${ROUNDS:-3}
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib.sh"

why=$(xfs_unavailable)
[ -n "$why" ] && { echo "bench-fuse: $why" >&2; exit 1; }
xfs_scratch_mount || { echo "bench-fuse: cannot mount XFS" >&2; exit 1; }
D=$SCRATCH_MNT
W=$SCRATCH_DIR
PIDS=
cleanup() {
	for m in "$W"/m-*; do
		mountpoint -q "$m" && fusermount3 -u "$m"
	done
	sleep 0.5
	scratch_cleanup
}
trap cleanup EXIT

mountfs() { # NAME TIMEOUT
	mkdir -p "$W/m-$1"
	case $1 in
	efs*) "$EFS" -o timeout="$2" "$D" "$W/m-$1" ;;
	# The kernel options execfoliofs sets as root, for the same requests.
	pll*) "$PLL" -o source="$D",timeout="$2",default_permissions,allow_other "$W/m-$1" ;;
	esac
	while ! mountpoint -q "$W/m-$1"; do sleep 0.05; done
}
dir() { # direct|efs|pll [lookup]
	case $1 in
	direct) echo "$D" ;;
	*) echo "$W/m-$1$2" ;;
	esac
}
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

dd if=/dev/zero of="$D/big" bs=1M count=128 status=none
mkdir "$D/lk"
i=0
while [ $i -lt 5000 ]; do : > "$D/lk/f$i"; i=$((i + 1)); done
mountfs efs 1
mountfs pll 1
mountfs efs0 0
mountfs pll0 0

R=$W/results
mkdir "$R"
r=1
while [ $r -le "$ROUNDS" ]; do
	for fs in direct efs pll; do
		X=$(dir $fs "")
		drop
		"$FSBENCH" seqread "$X/big" >> "$R/seq-$fs"
		drop
		"$FSBENCH" randread "$X/big" 20000 >> "$R/rand-$fs"
		mkdir "$X/meta-$fs-$r"
		"$FSBENCH" meta "$X/meta-$fs-$r" 5000 > "$R/meta"
		awk '{ print $1 }' "$R/meta" >> "$R/create-$fs"
		awk '{ print $2 }' "$R/meta" >> "$R/stat-$fs"
		awk '{ print $3 }' "$R/meta" >> "$R/unlink-$fs"
		rmdir "$X/meta-$fs-$r"
		L=$(dir $fs 0)
		for t in 1 2; do
			"$FSBENCH" lookup "$L/lk" 5000 $t 3 >> "$R/lookup$t-$fs"
		done
	done
	r=$((r + 1))
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
# ratios A/B per round (same round: same load), as "median (min-max)"
ratios() {
	paste "$R/$1" "$R/$2" | awk '{ printf "%.2f\n", $2 ? $1 / $2 : 0 }' |
		sort -n | awk '{ v[NR] = $1 } END { printf "%s (%s-%s)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
row() { # LABEL FIGURE
	d=$(median < "$R/$2-direct")
	e=$(median < "$R/$2-efs")
	p=$(median < "$R/$2-pll")
	echo "| $1 | $d | $e | $p | $(ratios "$2-efs" "$2-pll") | $(ratios "$2-efs" "$2-direct") |"
}
{
	echo "## execfoliofs vs passthrough_ll and XFS"
	echo
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1),"
	echo "$(nproc) CPUs, $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo),"
	echo "kernel $(uname -r), libfuse $(pkg-config --modversion fuse3),"
	echo "backing files on an XFS loop mount (image in /tmp). passthrough_ll is"
	echo "libfuse's example from Debian's libfuse3-dev, built here with the"
	echo "project's CFLAGS; both daemons with their defaults (multi-threaded,"
	echo "1 s cache timeout) and the kernel options execfoliofs sets as root"
	echo "(default_permissions, allow_other: with default_permissions the kernel"
	echo "refreshes stale attributes of each directory it walks), the lookup rows"
	echo "on second mounts with timeout=0 so"
	echo "that every stat() is a lookup and a getattr in the daemon. Medians of"
	echo "$ROUNDS interleaved rounds (ratios: median of the per-round ratios, with"
	echo "their range); caches dropped before each read figure. Load average"
	echo "during the run: $(cut -d' ' -f1-3 /proc/loadavg) (other builds were running)."
	echo "Reproduce with \`make bench-fuse\` (tests/fuse/bench.sh, tests/fuse/fsbench.c)."
	echo
	echo "| figure | XFS direct | execfoliofs | passthrough_ll | execfoliofs / passthrough_ll | execfoliofs / XFS |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: |"
	row "sequential read, MB/s (128 MiB, cold)" seq
	row "random 4K read, reads/s (20000, cold)" rand
	row "create, files/s (5000)" create
	row "stat, files/s (5000, cached entries)" stat
	row "unlink, files/s (5000)" unlink
	row "stat, 1 thread, timeout=0, stats/s" lookup1
	row "stat, 2 threads, timeout=0, stats/s" lookup2
	e1=$(median < "$R/lookup1-efs")
	e2=$(median < "$R/lookup2-efs")
	p1=$(median < "$R/lookup1-pll")
	p2=$(median < "$R/lookup2-pll")
	echo
	echo "Lookup scaling from 1 to 2 threads: execfoliofs $(ratio "$e2" "$e1")x,"
	echo "passthrough_ll $(ratio "$p2" "$p1")x (medians of the rates; passthrough_ll keeps its"
	echo "inodes in a list under one mutex, execfoliofs in the RCU hash table)."
} > "$OUT"
cat "$OUT"
