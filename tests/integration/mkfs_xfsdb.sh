#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs.execfolio and xfs_db, through a wrapper found by XFSPROGS_PATH that
# counts the runs and may edit what the real xfs_db prints: one run per
# batch of fix-ups, five at most however large the tree (mkfs/fixup.c);
# and an answer changed, short of a line or cut short fails the build,
# saying what is wrong, with no image left.
. "$TOP/tests/tap.sh"

MKFS=$BIN/mkfs.execfolio
[ -x "$MKFS" ] || skip_all "$MKFS not built"
[ "$(id -u)" = 0 ] || skip_all "needs root for device nodes and trusted xattrs"
command -v setfattr > /dev/null || skip_all "setfattr (package attr) not installed"
real_mkfs=$(PATH=$PATH:/usr/sbin:/sbin command -v mkfs.xfs) || skip_all "xfsprogs not installed"
real_db=$(PATH=$PATH:/usr/sbin:/sbin command -v xfs_db) || skip_all "xfsprogs not installed"
real_repair=$(PATH=$PATH:/usr/sbin:/sbin command -v xfs_repair) || skip_all "xfsprogs not installed"

W=$(mktemp -d /tmp/mkfs-xfsdb.XXXXXX)
trap 'rm -rf "$W"' EXIT

X=$W/xfsprogs
mkdir -p "$X" "$W/out"
ln -s "$real_mkfs" "$X/mkfs.xfs"
ln -s "$real_repair" "$X/xfs_repair"
cat > "$X/xfs_db" << EOF
#!/bin/sh
echo run >> "$W/runs"
echo "TZ=\${TZ-unset}" >> "$W/tz"
"$real_db" "\$@" | sed -e "\${XFS_DB_EDIT:-}"
EOF
chmod 755 "$X/xfs_db"

# build SRC [XFS_DB_EDIT]: mkfs.execfolio through the wrapper into
# $W/out/img; $err has its stderr, $runs the number of xfs_db runs.
build() {
	rm -f "$W/runs" "$W/out/img"
	err=$(XFS_DB_EDIT=${2:-} XFSPROGS_PATH=$X "$MKFS" "$1" "$W/out/img" 2>&1)
	rc=$?
	runs=$(cat "$W/runs" 2> /dev/null | wc -l)
}

# ---- batches: three for plain files; a fourth for the xattrs of a
# directory, a fifth for what lands in leaf and directory blocks.
P=$W/plain
mkdir -p "$P/sub"
echo a > "$P/a"
ln -s a "$P/sl"
mknod "$P/cdev" c 10 200
setfattr -n user.small -v s "$P/a"
build "$P"
check_eq "plain tree: built" "$rc" 0
check_eq "plain tree: three xfs_db runs" "$runs" 3
# Timestamps printed in UTC: localtime() does not look at /etc/localtime
# again for each of the two every entry gets.
check_eq "xfs_db runs with TZ=UTC0" "$(sort -u "$W/tz")" "TZ=UTC0"

F=$W/full
mkdir -p "$F/dir" "$F/block"
setfattr -n user.d -v d "$F/dir"
echo m > "$F/many"
# 42 entries: too many for the inode, a directory block.
i=0
while [ $i -lt 40 ]; do
	[ $i -lt 20 ] && setfattr -n "user.attr$i" -v "value-$i-$(printf '%080d' $i)" "$F/many"
	: > "$F/block/f$i"
	i=$((i + 1))
done
: > "$F/block/a b"
build "$F"
check_eq "directory xattrs, a leaf block, a renamed block entry: built" "$rc" 0
check_eq "... in five xfs_db runs" "$runs" 5

# The same with 100 times as many files: still five.
i=0
while [ $i -lt 100 ]; do
	cp -a "$F/block" "$F/block$i"
	i=$((i + 1))
done
build "$F"
check_eq "100 times as many files: built" "$rc" 0
check_eq "... still in five xfs_db runs" "$runs" 5
rm -rf "$F"/block?*

# Blank one-byte names in a block directory: no placeholder has the hash
# of the vertical tab or of the form feed, or one next to it, so the hash
# index of the directory is rewritten, entries moving along it.
H=$W/hashes
mkdir -p "$H/d"
for n in "$(printf '\t')" "$(printf '\v')" "$(printf '\f')" "$(printf '\r')"; do
	: > "$H/d/$n"
done
i=0
while [ $i -lt 40 ]; do
	: > "$H/d/f$i"
	i=$((i + 1))
done
build "$H"
check_eq "names whose entries move in the hash index: built" "$rc" 0

# ---- answers not understood: DESC EDIT MESSAGE, about $EDITED (or $P)
edited() {
	build "${EDITED:-$P}" "$2"
	check_eq "$1: exit status 1" "$rc" 1
	case $err in
	*"$3"*) ok "$1: the error names it" ;;
	*)
		not_ok "$1: the error names it"
		diag "expected: $3"
		diag "got: $err"
		;;
	esac
	check_eq "$1: no image or temporary file left" "$(ls -A "$W/out")" ""
}

edited "a device number that is no number" \
	's/^u3\.dev = .*/u3.dev = 0xzz/' \
	"xfs_db on the new image, at cdev: u3.dev = 0xzz"
edited "a fork format cut short" \
	's/^\(core\.format = \).*/\1/' \
	"xfs_db on the new image, at .: core.format ="
edited "a negative xattr slot" \
	's/^a\.sfattr\.list\[0\]/a.sfattr.list[-1]/' \
	"xfs_db on the new image, at a: a.sfattr.list[-1].namelen = "
edited "the superblock's inode size left out" \
	'/^inodesize = /d' \
	"xfs_db did not print the geometry and features of the new image's superblock"
edited "the answer cut after the second file" \
	'/^@@n 2/,$d' \
	"xfs_db's answer on the new image ends before the end of its commands"
EDITED=$H
edited "a hash in the index that is no number" \
	's/^bleaf\[0\]\.hashval = .*/bleaf[0].hashval = 0xzz/' \
	"xfs_db on the new image, at d: bleaf[0].hashval = 0xzz"
edited "the index with none of the addresses of the entries" \
	's/^\(bleaf\[[0-9]*\]\.address = \).*/\10x1/' \
	"d/\\t: its entry cannot be found in the hash index of its directory"
edited "a write into the index that reads back otherwise" \
	'/^Allowing write of corrupted data with good CRC$/{n;s/ = .*/ = 0x7/;}' \
	"of directory block 0 reads back as 0x7, not"

done_testing
