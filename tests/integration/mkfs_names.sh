#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs.execfolio builds every name, however short, in every form of
# directory: names the protofile cannot carry whose hash no placeholder of
# their length has (tests/mkfs/names_tree.py: one-byte blanks side by side,
# ":" beside "9" and ";", four-byte names beginning with a vertical tab or
# a carriage return among names of hashes around theirs, a blank among every
# other one-byte name), in block, leaf and node directories, with the file
# type in directory entries (v5, and v4 with -m crc=0) and without (-m crc=0
# -n ftype=0), and in short-form directories for good measure. Each
# image passes xfs_repair -n, which checks the hash index of each directory
# against its names; v5 images, mounted through a loop device, match the
# source field by field (names looked up, stat, contents read) and `ls`
# lists the same names. This kernel mounts no v4 file system: the names of
# those are listed with xfs_db's ls, which reads the directory's entries.
. "$TOP/tests/tap.sh"
. "$TOP/tests/xfs-scratch.sh"
. "$TOP/tests/image-workdir.sh"

MKFS=$BIN/mkfs.execfolio
NAMES=$TOP/tests/mkfs/names_tree.py
CMP=$TOP/tests/mkfs/compare_tree.py

why=$(xfs_unavailable)
[ -z "$why" ] || skip_all "$why"
command -v python3 > /dev/null || skip_all "python3 not installed"
[ -x "$MKFS" ] || skip_all "$MKFS not built"

image_workdir mkfs-names

# The trees: KIND-FORM directories, each with the names of KIND and enough
# plain names for FORM with 4k directory blocks (short: a few entries,
# block: up to about 90, leaf: up to about 450); "onebyte", 253 names,
# takes a larger directory block to stay in block form. In four-node, 600
# entries or more lie between each name's hash and its placeholder's, more
# than a leaf block holds: the entry moves across leaf blocks.
DIRS4K="blanks-short:0 four-short:0 blanks-block:40 blanks-leaf:150 blanks-node:800
colon-block:40 colon-leaf:150 colon-node:800
four-block:40 four-leaf:150 four-node:2400
onebyte-leaf:0 onebyte-node:600"
DIRS16K="onebyte-block:0"
make_tree() {
	mkdir -p "$1"
	for d in $2; do
		python3 "$NAMES" make "$1/${d%%:*}" "$(echo "${d%%:*}" | cut -d- -f1)" "${d##*:}"
	done
}
make_tree "$W/src4k" "$DIRS4K"
make_tree "$W/src16k" "$DIRS16K"

# dir_form IMG DIR: short, block, leaf or node, from the inode's data fork
# and the magic number of its first block past XFS_DIR2_LEAF_OFFSET.
dir_form() {
	_fmt=$(xfs_db -r "$1" -c "path /$2" -c "print core.format" |
		sed 's/.*= \([0-9]*\).*/\1/')
	case $_fmt in
	1) echo short; return ;;
	2 | 3) ;;
	*) echo unreadable; return ;;
	esac
	_blocklog=$(xfs_db -r "$1" -c "sb 0" -c "print blocklog" | sed 's/.*= //')
	_leaf=$((34359738368 >> _blocklog))
	if ! xfs_db -r "$1" -c "path /$2" -c "bmap -d" | grep -q "offset $_leaf "; then
		echo block
		return
	fi
	case $(xfs_db -r "$1" -c "path /$2" -c "dblock $_leaf" -c print | grep -m1 'magic =') in
	*0x3df1 | *0xd2f1) echo leaf ;;
	*0x3ebe | *0xfebe) echo node ;;
	*) echo unknown ;;
	esac
}

# Per image: built, dry run passes, xfs_repair -n passes, each directory
# in its form, then the names read back (3 tests mounted, 1 through xfs_db).
# shellcheck disable=SC2086 # the mkfs.xfs options are words
check_image() {
	_name=$1 _src=$2 _dirs=$3 _opts=$4 _mount=$5
	_img=$W/$_name.img
	if "$MKFS" --report "$_img.report" "$_src" "$_img" -- $_opts 2> "$_img.err"; then
		ok "$_name: image built"
	else
		not_ok "$_name: image built"
		diag "$(head -c 2000 "$_img.err")"
	fi
	check "$_name: the dry run passes" "$MKFS" -n "$_src" "$_img" -- $_opts
	check "$_name: xfs_repair -n passes" xfs_repair -n "$_img"
	_bad=
	for _d in $_dirs; do
		_d=${_d%%:*}
		_form=$(dir_form "$_img" "$_d" 2> /dev/null)
		[ "$_form" = "${_d##*-}" ] || _bad="$_bad $_d:$_form"
	done
	check_eq "$_name: each directory is in the form it is named after" "$_bad" ""
	if [ "$_mount" = no ]; then
		_bad=
		for _d in $_dirs; do
			_d=${_d%%:*}
			xfs_db -r "$_img" -c "path /$_d" -c ls > "$W/ls" 2>&1
			python3 "$NAMES" ls "$W/ls" "$_src/$_d" > "$W/ls.diff" ||
				_bad="$_bad $_d: $(head -3 "$W/ls.diff")"
		done
		check_eq "$_name: xfs_db lists the source's names in each directory" "$_bad" ""
		return
	fi
	if ! mount -o loop,ro "$_img" "$MNT"; then
		not_ok "$_name: the image mounts"
		skip "$_name: not mounted"
		skip "$_name: not mounted"
		return
	fi
	ok "$_name: the image mounts"
	: > "$W/policies"
	check "$_name: names, contents, modes, owners and times match" \
		python3 "$CMP" "$_src" "$MNT" "$_img.report" "$W/policies"
	_bad=
	for _d in $_dirs; do
		_d=${_d%%:*}
		[ "$(ls -A --quoting-style=escape "$MNT/$_d")" = \
			"$(ls -A --quoting-style=escape "$_src/$_d")" ] || _bad="$_bad $_d"
	done
	check_eq "$_name: ls lists the source's names in each directory" "$_bad" ""
	umount "$MNT"
}

check_image v5 "$W/src4k" "$DIRS4K" "" yes
check_image "v5, 16k directory blocks" "$W/src16k" "$DIRS16K" "-n size=16384" yes
check_image "v4 with ftype" "$W/src4k" "$DIRS4K" "-m crc=0" no
check_image "v4 without ftype" "$W/src4k" "$DIRS4K" "-m crc=0 -n ftype=0" no
check_image "v4 without ftype, 16k directory blocks" "$W/src16k" "$DIRS16K" \
	"-m crc=0 -n ftype=0,size=16384" no

done_testing
