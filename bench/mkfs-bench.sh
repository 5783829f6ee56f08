#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs-bench.sh MKFS_EXECFOLIO OUT_DIR [REPS]
#
# Time to build an XFS image, mkfs.execfolio against plain `mkfs.xfs -p`
# with a protofile for the same tree, same image size, page cache warm,
# as an unprivileged user (nobody when run as root), on two trees:
#
#  1. 10,000 generated files, 1 GB, every third executable: mkfs.execfolio
#     --exec-folio-size 64k (the policy on every executable);
#  2. 1 GB of real files copied from /usr for this run (mkfs-usr-tree.py):
#     mkfs.execfolio --exec-folio-size 64k, and --auto (every file's ELF
#     headers analysed, the policy on the ELF programs and libraries).
#
# Each of REPS rounds runs every command once, in an order rotated from
# round to round, with the page cache synced before each; the figures are
# the medians. Writes OUT_DIR/mkfs.md, the mkfs section of BENCHMARKS.md.
# The commands and times of each configuration are in variables named
# after it (cmd_NAME, t_NAME, m_NAME), which eval reads and sets.
# shellcheck disable=SC2034,SC2154
set -eu
MKFS=$1
OUT=$2
REPS=${3:-5}
PATH=$PATH:/usr/sbin:/sbin
BENCH=$(cd "$(dirname "$0")" && pwd)
W=${BENCH_TMP:-/var/tmp}/mkfs-bench
USR_BYTES=$((1 << 30))
SIZE=2g
mkdir -p "$OUT" "$W"
SRC=$W/tree
USR=$W/usr
IMG=$W/img

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

# Everything timed runs as an unprivileged user, as users of mkfs.execfolio
# do; the /usr tree is theirs, as a copy they made would be. The program
# is copied where that user can run it.
rm -rf "$USR" "$IMG"
mkdir -p "$IMG"
trap 'rm -rf "$USR" "$IMG"' EXIT
usr_copy=$(python3 "$BENCH/mkfs-usr-tree.py" /usr "$USR" $USR_BYTES)
install -m 0755 "$MKFS" "$IMG/mkfs.execfolio"
if [ "$(id -u)" = 0 ]; then
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
	chown -R 65534:65534 "$USR" "$IMG"
else
	AS=
fi
user=$($AS id -un)
MKFS=$IMG/mkfs.execfolio

# The protofiles plain mkfs.xfs gets: the same entries, modes and owners.
python3 "$BENCH/mkfs-proto.py" "$SRC" "$W/proto"
python3 "$BENCH/mkfs-proto.py" "$USR" "$W/usr.proto"

nfiles=$(find "$SRC" -type f | wc -l)
nexec=$(find "$SRC" -type f -perm -u+x | wc -l)
bytes=$(du -sb --apparent-size "$SRC" | cut -f1)
usr_dirs=$(find "$USR" -type d | wc -l)
usr_exec=$(find "$USR" -type f -perm -u+x | wc -l)
usr_auto=$($AS "$MKFS" --dry-run --auto "$USR" "$IMG/x.img" 2> /dev/null | wc -l)
find "$SRC" "$USR" -type f -exec cat {} + > /dev/null

now() { date +%s.%N; }

# The command of each configuration, which run() looks up by name and
# gives the image.
CONFIGS="plain exec usr_plain usr_exec usr_auto"
cmd_plain="mkfs.xfs -q -p $W/proto"
cmd_exec="$MKFS --size $SIZE --exec-folio-size 64k $SRC"
cmd_usr_plain="mkfs.xfs -q -p $W/usr.proto"
cmd_usr_exec="$MKFS --size $SIZE --exec-folio-size 64k --report $IMG/usr_exec.report $USR"
cmd_usr_auto="$MKFS --size $SIZE --auto --report $IMG/usr_auto.report $USR"
ncfg=$(echo "$CONFIGS" | wc -w)

run() {
	name=$1
	img=$IMG/$name.img
	eval "cmd=\$cmd_$name"
	rm -f "$img" "$IMG/$name.report"
	case $name in
	*plain) $AS truncate -s $SIZE "$img" ;;
	esac
	sync
	t0=$(now)
	# shellcheck disable=SC2086 # the commands are word lists
	$AS $cmd "$img"
	t1=$(now)
	eval "t_$name=\"\${t_$name:-} $(echo "$t1 - $t0" | bc)\""
}

i=1
while [ "$i" -le "$REPS" ]; do
	k=0
	while [ "$k" -lt "$ncfg" ]; do
		run "$(echo "$CONFIGS" | cut -d' ' -f$(((i + k) % ncfg + 1)))"
		k=$((k + 1))
	done
	i=$((i + 1))
done

for name in exec usr_exec usr_auto; do
	if xfs_repair -n "$IMG/$name.img" > /dev/null 2>&1; then
		eval "repair_$name=passes"
	else
		eval "repair_$name=FAILS"
	fi
done
tagged=$(xfs_db -c "path /d000/file000" -c "print a.sfattr.list[0].value" "$IMG/exec.img")
usr_reports=$(wc -l < "$IMG/usr_auto.report")

median() { echo "$@" | tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ratio() { echo "scale=2; $1 / $2" | bc; }
for name in $CONFIGS; do
	eval "m_$name=\$(median \$t_$name)"
done
# The per-round ratios, for the scatter.
rounds() {
	echo "$1" | tr ' ' '\n' | grep . > "$W/a"
	echo "$2" | tr ' ' '\n' | grep . > "$W/b"
	paste -d' ' "$W/a" "$W/b" | while read -r a b; do
		printf ' %s' "$(ratio "$a" "$b")"
	done
}

cat > "$OUT/mkfs.md" << EOF
## mkfs.execfolio: image build time

$(date -u +%Y-%m-%d), $(uname -m), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo), $(mkfs.xfs -V), kernel $(uname -r),
image files on $(df --output=fstype "$W" | tail -1), every command run as $user (no root). Run by
\`make bench-mkfs\` (bench/mkfs-bench.sh), $REPS rounds, each running the commands
below once, in an order rotated from round to round, after a \`sync\`;
page cache warm. Plain mkfs.xfs gets a $SIZE file and a protofile written
beforehand (not timed); mkfs.execfolio reads the tree, writes the
protofile, runs mkfs.xfs, then sets the policy and every timestamp with
xfs_db.

Generated tree: $nfiles files in 100 directories, $bytes bytes, every third
file executable (mode 755).

- plain: \`mkfs.xfs -q -p PROTOFILE IMAGE\`
- mkfs.execfolio: \`mkfs.execfolio --size $SIZE --exec-folio-size 64k TREE IMAGE\`
  (the policy on the $nexec executables; the image $repair_exec
  \`xfs_repair -n\`; $tagged)

| | median s | runs (s) |
| --- | --- | --- |
| plain mkfs.xfs -p | $m_plain | $t_plain |
| mkfs.execfolio --exec-folio-size 64k | $m_exec | $t_exec |

mkfs.execfolio / plain: **$(ratio "$m_exec" "$m_plain")x** (per round:$(rounds "$t_exec" "$t_plain")).

Tree copied from /usr: $usr_copy, in $usr_dirs directories; $usr_exec files
executable, $usr_auto ELF programs and libraries that \`--auto\` gives a policy.

- plain: \`mkfs.xfs -q -p PROTOFILE IMAGE\`
- --exec-folio-size: \`mkfs.execfolio --size $SIZE --exec-folio-size 64k --report FILE TREE IMAGE\`
  (the image $repair_usr_exec \`xfs_repair -n\`)
- --auto: \`mkfs.execfolio --size $SIZE --auto --report FILE TREE IMAGE\`
  (the image $repair_usr_auto \`xfs_repair -n\`; $usr_reports lines in the report)

| | median s | runs (s) |
| --- | --- | --- |
| plain mkfs.xfs -p | $m_usr_plain | $t_usr_plain |
| mkfs.execfolio --exec-folio-size 64k | $m_usr_exec | $t_usr_exec |
| mkfs.execfolio --auto | $m_usr_auto | $t_usr_auto |

--exec-folio-size / plain: **$(ratio "$m_usr_exec" "$m_usr_plain")x** (per round:$(rounds "$t_usr_exec" "$t_usr_plain")).
--auto / plain: **$(ratio "$m_usr_auto" "$m_usr_plain")x** (per round:$(rounds "$t_usr_auto" "$t_usr_plain")).
The requirement: at most 1.5x.
EOF
rm -f "$W/a" "$W/b"
cat "$OUT/mkfs.md"
