#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record_xfsdb.sh MKFS OUTDIR: record what xfs_db prints for the kinds of
# commands mkfs.execfolio's fix-up batches run, on small images MKFS
# (build/bin/mkfs.execfolio) builds, into OUTDIR/*.out; the unit test
# test_mkfs_dbparse reads them (tests/unit/data/xfsdb/). Each answer is
# listed as a batch would ask for it, with the same "@@" markers; the
# values the test expects follow from the tree made here. Run as root
# (device nodes, trusted.* xattrs) with xfsprogs installed; after a change
# of xfsprogs, record again and check the test still passes.
set -eu

MKFS=$1
OUT=$2
W=$(mktemp -d /tmp/record-xfsdb.XXXXXX)
trap 'rm -rf "$W"' EXIT

# ---- a v5 image (crc, bigtime): one of each kind of inode the batches meet
S=$W/src
mkdir -p "$S/dir" "$S/block" "$S/leaf" "$S/node"
echo hi > "$S/file"
setfattr -n user.one -v 1 "$S/file"
setfattr -n trusted.two -v two "$S/file"
setfattr -n security.three -v 3 "$S/file"
# 20 values of 88 or 89 bytes and the policy: a leaf block.
printf '\177ELF' > "$S/many"
chmod 755 "$S/many"
i=0
while [ $i -lt 20 ]; do
	setfattr -n "user.attr$i" -v "value-$i-$(printf '%080d' $i)" "$S/many"
	i=$((i + 1))
done
setfattr -n user.d -v dv "$S/dir"
echo x > "$S/dir/a b"
ln -s target "$S/sl"
mknod "$S/cdev" c 10 200
mknod "$S/bdev" b 259 7
# 42 entries: a block directory; 301: leaf form; 701: node form.
i=0
while [ $i -lt 700 ]; do
	[ $i -lt 40 ] && : > "$S/block/f$i"
	[ $i -lt 300 ] && : > "$S/leaf/f$i"
	: > "$S/node/file number $i"
	i=$((i + 1))
done
: > "$S/block/a b"
: > "$S/block/ "
: > "$S/leaf/ "
: > "$S/node/a b"
"$MKFS" --exec-folio-size 64k "$S" "$W/v5.img"

db() {
	xfs_db -x -c "source $W/cmds" "$1" > "$2"
}

cat > "$W/cmds" << 'EOF'
echo @@sb
sb 0
print blocklog dirblklog inodesize
version
EOF
db "$W/v5.img" "$OUT/sb-v5.out"

# Batch 2: by path, the inode number and where things landed.
cat > "$W/cmds" << 'EOF'
echo @@n 1
path /file
inode
print core.aformat a
echo @@n 2
path /many
inode
print core.aformat a
echo @@n 3
path /dir
inode
print core.size
print u3
bmap -d
print core.format
echo @@n 4
path /sl
inode
print core.size
print core.format
echo @@n 5
path /cdev
inode
print u3.dev
echo @@n 6
path /bdev
inode
print u3.dev
echo @@n 7
path /block
inode
print u3
bmap -d
print core.format
echo @@n 8
path /leaf
inode
print u3
bmap -d
print core.format
echo @@n 9
path /node
inode
print u3
bmap -d
print core.format
EOF
db "$W/v5.img" "$OUT/found.out"

# Batch 4: the attribute leaf block and directory blocks listed. Leaf and
# node blocks start at XFS_DIR2_LEAF_OFFSET, block 8388608 of 4k; in node
# form the first is the node block.
cat > "$W/cmds" << 'EOF'
echo @@n 2
path /many
echo @@a 2
ablock 0
print
echo @@n 7
path /block
echo @@b 7 0
dblock 0
print
echo @@n 8
path /leaf
echo @@b 8 0
dblock 0
print
echo @@b 8 8388608
dblock 8388608
print
echo @@n 9
path /node
echo @@b 9 8388608
dblock 8388608
print
echo @@b 9 8388609
dblock 8388609
print
EOF
db "$W/v5.img" "$OUT/blocks.out"

# What xfs_db prints when a command fails: fields a regular file lacks,
# a path that is not there.
cat > "$W/cmds" << 'EOF'
echo @@n 1
path /file
print u3.sfdir3.list[0].name
write u3.symlink #41
path /nothing
EOF
# xfs_db exits non-zero after them.
db "$W/v5.img" "$OUT/errors.out" || [ -s "$OUT/errors.out" ]

# ---- a v4 image (no crc, no bigtime): the data fork is named u
S4=$W/src4
mkdir -p "$S4"
mknod "$S4/cdev" c 10 200
"$MKFS" "$S4" "$W/v4.img" -- -m crc=0
cat > "$W/cmds" << 'EOF'
echo @@sb
sb 0
print blocklog dirblklog inodesize
version
echo @@n 1
path /cdev
inode
print u.dev
EOF
db "$W/v4.img" "$OUT/v4.out"
