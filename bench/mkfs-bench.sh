#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs-bench.sh MKFS_EXECFOLIO OUT_DIR [REPS]
#
# Time to build an XFS image of a 10,000-file, 1 GB tree: mkfs.execfolio
# with the policy on every executable (a third of the files) and its
# xattr fix-ups, against plain `mkfs.xfs -p` with a protofile for the same
# tree, interleaved, REPS times each, same image size, page cache warm for
# both. Writes OUT_DIR/mkfs.md, the mkfs section of BENCHMARKS.md.
set -eu
MKFS=$1
OUT=$2
REPS=${3:-5}
PATH=$PATH:/usr/sbin:/sbin
W=${BENCH_TMP:-/var/tmp}/mkfs-bench
mkdir -p "$OUT" "$W"
SRC=$W/tree

# 100 directories x 100 files of 0..200 KiB (about 1 GB), every third
# executable; made once and reused.
if [ ! -f "$W/tree.done" ]; then
	rm -rf "$SRC"
	python3 - "$SRC" << 'EOF'
import os, random, sys
top = sys.argv[1]
rng = random.Random(42)
blob = rng.randbytes(256 << 10)
total = 0
for d in range(100):
    dp = os.path.join(top, "d%03d" % d)
    os.makedirs(dp)
    for f in range(100):
        size = rng.randrange(0, 200 << 10)
        p = os.path.join(dp, "file%03d" % f)
        with open(p, "wb") as fh:
            off = rng.randrange(len(blob) - size + 1)
            fh.write(blob[off:off + size])
        os.chmod(p, 0o755 if f % 3 == 0 else 0o644)
        total += size
print("tree: %d bytes" % total)
EOF
	touch "$W/tree.done"
fi

# The protofile plain mkfs.xfs gets: the same entries, modes and owners.
python3 - "$SRC" "$W/proto" << 'EOF'
import os, sys
src, out = sys.argv[1], sys.argv[2]
with open(out, "w") as f:
    f.write("bench\n0 0\nd--755 0 0\n")
    for d in sorted(os.listdir(src)):
        f.write("%s d--755 0 0\n" % d)
        for n in sorted(os.listdir(os.path.join(src, d))):
            p = os.path.join(src, d, n)
            mode = os.stat(p).st_mode & 0o777
            f.write("%s ---%03o 0 0 %s\n" % (n, mode, p))
        f.write("$\n")
    f.write("$\n")
EOF

SIZE=2g
nfiles=$(find "$SRC" -type f | wc -l)
nexec=$(find "$SRC" -type f -perm -u+x | wc -l)
bytes=$(du -sb --apparent-size "$SRC" | cut -f1)
cat "$SRC"/*/* > /dev/null

now() { date +%s.%N; }
plain=""
tool=""
i=1
while [ "$i" -le "$REPS" ]; do
	rm -f "$W/plain.img" "$W/tool.img"
	truncate -s $SIZE "$W/plain.img"
	t0=$(now)
	mkfs.xfs -q -p "$W/proto" "$W/plain.img"
	t1=$(now)
	"$MKFS" --size $SIZE --exec-folio-size 64k "$SRC" "$W/tool.img"
	t2=$(now)
	plain="$plain $(echo "$t1 - $t0" | bc)"
	tool="$tool $(echo "$t2 - $t1" | bc)"
	i=$((i + 1))
done
xfs_repair -n "$W/tool.img" > /dev/null 2>&1 && repair=passes || repair=FAILS
tagged=$(xfs_db -c "path /d000/file000" -c "print a.sfattr.list[0].value" "$W/tool.img")

median() { echo "$@" | tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
mp=$(median $plain)
mt=$(median $tool)
ratio=$(echo "scale=2; $mt / $mp" | bc)

cat > "$OUT/mkfs.md" << EOF
## mkfs.execfolio: image build time

$(date -u +%Y-%m-%d), $(uname -m), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo), $(mkfs.xfs -V), kernel $(uname -r),
image files on $(df --output=fstype "$W" | tail -1). Tree: $nfiles files in 100 directories, $bytes bytes, every
third file executable (mode 755), page cache warm. Run by \`make bench-mkfs\`
(bench/mkfs-bench.sh), $REPS repetitions, the two commands interleaved:

- plain: \`mkfs.xfs -q -p PROTOFILE IMAGE\` (a $SIZE file, the protofile
  written beforehand, not timed)
- mkfs.execfolio: \`mkfs.execfolio --size $SIZE --exec-folio-size 64k TREE IMAGE\`
  (reads the tree, writes the protofile, runs mkfs.xfs, then sets the
  policy on the $nexec executables and every timestamp with
  xfs_db; the image $repair \`xfs_repair -n\`; $tagged)

| | median s | runs (s) |
| --- | --- | --- |
| plain mkfs.xfs -p | $mp | $plain |
| mkfs.execfolio | $mt | $tool |

mkfs.execfolio / plain: **${ratio}x** (the requirement: at most 1.5x).
EOF
cat "$OUT/mkfs.md"
