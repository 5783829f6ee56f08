#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfolio stat against the kernel's tools/mm/thpmaps, side by side in one
# run on an XFS loop mount (needs root):
#  1. agreement per folio size on a process whose text spans several sizes;
#  2. speed on a process with 128 MiB of mapped text, runs interleaved.
# Writes OUTDIR/stat.md (the BENCHMARKS.md section) and the raw outputs.
#
#   bench-stat.sh EXECFOLIO TEXT_HOLDER OUTDIR [RUNS]

set -eu
execfolio=$1
holder=$2
out=$3
runs=${4:-10}
top=$(cd "$(dirname "$0")/.." && pwd)
py=/usr/bin/python3

. "$top/tests/xfs-scratch.sh"

why=$(xfs_unavailable)
[ -z "$why" ] || { echo "bench-stat: $why" >&2; exit 1; }
$py -c 'import numpy' 2>/dev/null ||
	{ echo "bench-stat: thpmaps needs python3-numpy (make deps)" >&2; exit 1; }
thpmaps=$("$top/tests/tools/get-thpmaps" "$(dirname "$out")")
mkdir -p "$out"

pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	scratch_cleanup
}
xfs_scratch_mount
trap cleanup EXIT

# Start the text holder on FILES; sets $holder_pid once its text is mapped.
hold() {
	fifo=$SCRATCH_DIR/ready.$$
	rm -f "$fifo"
	mkfifo "$fifo"
	"$holder" "$@" > "$fifo" &
	holder_pid=$!
	pids="$pids $holder_pid"
	read -r _ _ < "$fifo"
	rm -f "$fifo"
}

# A file of random bytes, dropped from the page cache after writing.
make_file() {
	head -c "$2" /dev/urandom > "$1"
	dd if="$1" iflag=nocache count=0 status=none
}

# Figure 1: one file read sequentially before it is mapped (readahead's
# growing folios), one mapped cold and touched every third page.
make_file "$SCRATCH_MNT/seq.bin" 48M
make_file "$SCRATCH_MNT/cold.bin" 16M
cat "$SCRATCH_MNT/seq.bin" > /dev/null
hold "$SCRATCH_MNT/seq.bin"
pid_seq=$holder_pid
hold -s 3 "$SCRATCH_MNT/cold.bin"
pid_cold=$holder_pid
"$execfolio" stat --json "$pid_seq" "$pid_cold" > "$out/agree-stat.json"
"$top/tests/tools/thpmaps-exec" "$thpmaps" "$pid_seq" "$pid_cold" > "$out/agree-thpmaps.json"
"$execfolio" stat "$pid_seq" "$pid_cold" > "$out/agree-stat.txt"
agree_status=0
"$top/tests/tools/compare-folios" "$out/agree-stat.json" "$out/agree-thpmaps.json" \
	> "$out/agree.md" || agree_status=$?

# Figure 2: 128 MiB of text, read sequentially first, every page touched.
make_file "$SCRATCH_MNT/big.bin" 128M
cat "$SCRATCH_MNT/big.bin" > /dev/null
hold "$SCRATCH_MNT/big.bin"
pid_big=$holder_pid
"$execfolio" stat "$pid_big" > "$out/speed-stat.txt"

$py - "$runs" "$pid_big" "$execfolio" "$thpmaps" > "$out/speed.md" <<'PYEOF'
import os, statistics, subprocess, sys, time

runs, pid, execfolio, thpmaps = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
cmds = {
    'stat': [execfolio, 'stat', '--json', pid],
    'thpmaps': ['/usr/bin/python3', thpmaps, '--pid', pid, '--cont', '64K', '--rollup'],
}

def run(cmd):
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if status:
        sys.exit(f'{cmd} failed: {status}')
    return wall, ru.ru_utime + ru.ru_stime

res = {k: [] for k in cmds}
for i in range(runs):
    # Interleaved, and the first tool alternates.
    for k in (('stat', 'thpmaps') if i % 2 == 0 else ('thpmaps', 'stat')):
        res[k].append(run(cmds[k]))

def ms(v): return f'{v * 1000:.1f}'
print('| | wall median (ms) | wall min-max (ms) | CPU median (ms) |')
print('| --- | ---: | ---: | ---: |')
for k in cmds:
    w = [r[0] for r in res[k]]; c = [r[1] for r in res[k]]
    print(f'| {k} | {ms(statistics.median(w))} | {ms(min(w))}-{ms(max(w))} | {ms(statistics.median(c))} |')
ratios = [t[0] / s[0] for s, t in zip(res['stat'], res['thpmaps'])]
cratio = [t[1] / max(s[1], 1e-4) for s, t in zip(res['stat'], res['thpmaps'])]
print()
print(f'thpmaps / stat wall-clock ratio over {runs} interleaved pairs: '
      f'median {statistics.median(ratios):.1f}x, '
      f'min {min(ratios):.1f}x, max {max(ratios):.1f}x; '
      f'CPU-time ratio median {statistics.median(cratio):.1f}x.')
PYEOF

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
mem=$(awk '/MemTotal/ {printf "%d MiB", $2 / 1024}' /proc/meminfo)
{
	echo "## execfolio stat vs thpmaps"
	echo
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $cpu, $(nproc) CPUs, $mem,"
	echo "kernel $(uname -r), page size $(getconf PAGESIZE), files on an XFS loop"
	echo "mount; thpmaps from Debian's linux-source-6.12 run with $py (numpy"
	echo "$($py -c 'import numpy; print(numpy.__version__)')). Reproduce with \`make bench-stat\`"
	echo "(bench/bench-stat.sh); the load of the machine during the run is in the"
	echo "spread."
	echo
	echo "### Agreement per folio size"
	echo
	echo "Two text-holder processes (tests/tools/text-holder.c maps each file"
	echo "PROT_READ|PROT_EXEC and touches its pages): a 48 MiB file read"
	echo "sequentially (\`cat\`) before it is mapped, and a 16 MiB file mapped cold"
	echo "with every third page touched. Commands:"
	echo "\`execfolio stat --json PID1 PID2\` and"
	echo "\`tests/tools/thpmaps-exec thpmaps PID1 PID2\` (runs \`thpmaps --pid PID1 --pid PID2"
	echo "--cont 64K --inc-empty\` and sums its file-* rows over the executable file"
	echo "mappings; thpmaps prints no 8kB row)."
	echo
	cat "$out/agree.md"
	echo
	if [ "$agree_status" = 0 ]; then
		echo "Every row agrees within 1%."
	else
		echo "**Some rows differ by more than 1%.**"
	fi
	echo
	echo '```'
	cat "$out/agree-stat.txt"
	echo '```'
	echo
	echo "### Speed on 128 MiB of text"
	echo
	echo "One text-holder process mapping a 128 MiB file read sequentially first;"
	echo "\`execfolio stat --json PID\` against"
	echo "\`$py thpmaps --pid PID --cont 64K --rollup\`, $runs runs each,"
	echo "interleaved (the first of each pair alternating), wall-clock per run."
	echo
	cat "$out/speed.md"
	echo
	echo '```'
	cat "$out/speed-stat.txt"
	echo '```'
} > "$out/stat.md"
cat "$out/stat.md"
exit "$agree_status"
