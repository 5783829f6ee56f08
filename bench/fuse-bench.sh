#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fuse-bench.sh EXECFOLIOFS PASSTHROUGH_LL FSBENCH OUT.md
#
# execfoliofs against libfuse's passthrough_ll example (built from Debian's
# libfuse3-dev on this machine) and against the backing XFS directly: cold
# sequential and random reads, random reads with the backing file cached
# (the cost of the FUSE round trip alone), create/stat/unlink rates, and
# stat() rates from 1 and 2 threads with the entry/attribute cache off
# (every stat is a lookup in the daemon's inode table). Writes a
# BENCHMARKS.md section to OUT.md.
#
# The machine is shared and its load changes by the second, so each figure
# is taken for the file systems back to back within a round, in an order
# that rotates from round to round (each goes first, and each precedes the
# other, equally often), and a ratio is the median of the per-round ratios.
# The read figures are short and noisy (a cold 4K read is mostly the loop
# device's I/O): READ_ROUNDS rounds of them, ROUNDS of the others.
# BENCH_RAW=DIR keeps the per-round figures.
set -u
EFS=$1
PLL=$2
FSBENCH=$3
OUT=$4
ROUNDS=${ROUNDS:-6}
READ_ROUNDS=${READ_ROUNDS:-18}
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/tests/xfs-scratch.sh"

why=$(xfs_unavailable)
[ -n "$why" ] && { echo "bench-fuse: $why" >&2; exit 1; }
xfs_scratch_mount || { echo "bench-fuse: cannot mount XFS" >&2; exit 1; }
D=$SCRATCH_MNT
W=$SCRATCH_DIR
# Private copies: a rebuild in the shared tree during the run would
# otherwise make a program vanish or fail to execute between rounds.
mkdir "$W/bin" && cp "$EFS" "$PLL" "$FSBENCH" "$W/bin/" || exit 1
EFS=$W/bin/$(basename "$EFS")
PLL=$W/bin/$(basename "$PLL")
FSBENCH=$W/bin/$(basename "$FSBENCH")
PIDS=
cleanup() {
	# one file per figure and file system, a line per round
	[ -n "${BENCH_RAW:-}" ] && [ -d "$W/results" ] &&
		mkdir -p "$BENCH_RAW" && cp "$W"/results/* "$BENCH_RAW"/
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
# median of the numbers on stdin (of the two middle ones for an even count)
median() {
	sort -n | awk '{ v[NR] = $1 }
		END { m = int((NR + 1) / 2); print NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2 }'
}

dd if=/dev/zero of="$D/big" bs=1M count=128 status=none
mkdir "$D/lk"
i=0
while [ $i -lt 5000 ]; do : > "$D/lk/f$i"; i=$((i + 1)); done
mountfs efs 1
mountfs pll 1
mountfs efs0 0
mountfs pll0 0

# order ROUND: the file systems in the order of that round (6 orders)
order() {
	case $(($1 % 6)) in
	1) echo direct efs pll ;;
	2) echo pll efs direct ;;
	3) echo efs pll direct ;;
	4) echo direct pll efs ;;
	5) echo pll direct efs ;;
	0) echo efs direct pll ;;
	esac
}

R=$W/results
mkdir "$R"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
r=1
while [ $r -le "$READ_ROUNDS" ]; do
	for fs in $(order $r); do
		drop
		"$FSBENCH" seqread "$(dir $fs "")/big" >> "$R/seq-$fs"
	done
	for fs in $(order $r); do
		drop
		"$FSBENCH" randread "$(dir $fs "")/big" 20000 >> "$R/rand-$fs"
	done
	# The backing file cached, the mount's pages dropped: every read
	# is a round trip through the daemon and a page-cache copy.
	cat "$D/big" > /dev/null
	for fs in $(order $r); do
		[ $fs = direct ] && continue
		"$FSBENCH" randread "$(dir $fs "")/big" 20000 uncache \
			>> "$R/randc-$fs"
	done
	r=$((r + 1))
done
r=1
while [ $r -le "$ROUNDS" ]; do
	for fs in $(order $r); do
		X=$(dir $fs "")
		mkdir "$X/meta-$fs-$r"
		"$FSBENCH" meta "$X/meta-$fs-$r" 5000 > "$R/meta"
		awk '{ print $1 }' "$R/meta" >> "$R/create-$fs"
		awk '{ print $2 }' "$R/meta" >> "$R/stat-$fs"
		awk '{ print $3 }' "$R/meta" >> "$R/unlink-$fs"
		rmdir "$X/meta-$fs-$r"
	done
	for fs in $(order $r); do
		L=$(dir $fs 0)
		for t in 1 2; do
			"$FSBENCH" lookup "$L/lk" 5000 $t 3 >> "$R/lookup$t-$fs"
		done
	done
	r=$((r + 1))
done
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
# ratios A/B per round (same round: same load), as "median (min-max)"
ratios() {
	[ -s "$R/$2" ] || { printf -- "-"; return; }
	paste "$R/$1" "$R/$2" | awk '{ printf "%.2f\n", $2 ? $1 / $2 : 0 }' |
		sort -n | awk '{ v[NR] = $1 } END {
			m = int((NR + 1) / 2)
			printf "%.2f (%s-%s)", NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2, v[1], v[NR] }'
}
# rounds in which A was at least as fast as B, as "K/N"
ahead() {
	paste "$R/$1" "$R/$2" |
		awk '$1 >= $2 { k++ } END { printf "%d/%d", k, NR }'
}
# Two-sided exact sign test of "neither is faster" over the rounds: the
# probability of a split at least as lopsided as the one seen, were each
# round a coin toss. A small p with execfoliofs ahead in fewer than half
# the rounds would mean it is slower; a large p, that the rounds cannot
# tell the two apart.
sign_p() {
	paste "$R/$1" "$R/$2" | awk '
		$1 > $2 { a++ } $1 < $2 { b++ }
		END {
			n = a + b; k = a < b ? a : b; c = 1; s = 0
			for (i = 0; i <= k; i++) {
				s += c; c = c * (n - i) / (i + 1)
			}
			p = n ? 2 * s / 2 ^ n : 1
			if (p < 0.001)
				printf "<0.001"
			else
				printf "%.2g", (p > 1 ? 1 : p)
		}'
}
row() { # LABEL FIGURE
	d=-
	[ -s "$R/$2-direct" ] && d=$(median < "$R/$2-direct")
	e=$(median < "$R/$2-efs")
	p=$(median < "$R/$2-pll")
	echo "| $1 | $d | $e | $p | $(ratios "$2-efs" "$2-pll") | $(ahead "$2-efs" "$2-pll") | $(sign_p "$2-efs" "$2-pll") | $(ratios "$2-efs" "$2-direct") |"
}
{
	echo "## execfoliofs vs passthrough_ll and XFS"
	echo
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1),"
	echo "$(nproc) CPUs, $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo),"
	echo "kernel $(uname -r), libfuse $(pkg-config --modversion fuse3),"
	echo "backing files on an XFS loop mount (image in /tmp). passthrough_ll is"
	echo "libfuse's example from Debian's libfuse3-dev, built here with -O2 -g"
	echo "like execfoliofs; both daemons with their defaults (multi-threaded,"
	echo "1 s cache timeout) and the kernel options execfoliofs sets as root"
	echo "(default_permissions, allow_other: with default_permissions the kernel"
	echo "refreshes stale attributes of each directory it walks), the lookup rows"
	echo "on second mounts with timeout=0 so"
	echo "that every stat() is a lookup and a getattr in the daemon. Each figure"
	echo "is taken for the three back to back within a round, in an order that"
	echo "rotates over the rounds (each first, and each before the other, equally"
	echo "often); values are medians, ratios the median of the per-round ratios"
	echo "with their range, and \"rounds ahead\" counts the rounds in which"
	echo "execfoliofs was at least as fast as passthrough_ll, \"sign test p\" how"
	echo "likely a split of the rounds at least that uneven is when neither"
	echo "daemon is faster (two-sided exact sign test; ties left out). Read figures:"
	echo "$READ_ROUNDS rounds, caches dropped before each cold read; the others:"
	echo "$ROUNDS rounds. Load average at the start $LOAD_START, at the end $LOAD_END."
	echo "Reproduce with \`make bench-fuse\` (bench/fuse-bench.sh, bench/fsbench.c)."
	echo
	echo "| figure | XFS direct | execfoliofs | passthrough_ll | execfoliofs / passthrough_ll | rounds ahead | sign test p | execfoliofs / XFS |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	row "sequential read, MB/s (128 MiB, cold)" seq
	row "random 4K read, reads/s (20000, cold)" rand
	row "random 4K read, reads/s (20000, backing file cached)" randc
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
