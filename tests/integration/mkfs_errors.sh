#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs.execfolio fails clearly and leaves no image that looks good: bad
# options, an existing IMAGE, missing xfsprogs, unreadable source files, a
# too small --size, names and symlinks xfsprogs 6.1 cannot carry.
. "$TOP/tests/lib.sh"

MKFS=$BIN/mkfs.execfolio
[ -x "$MKFS" ] || skip_all "$MKFS not built"
command -v mkfs.xfs > /dev/null || [ -x /usr/sbin/mkfs.xfs ] || skip_all "xfsprogs not installed"
[ "$(id -u)" = 0 ] || skip_all "needs root to run parts as another user"
command -v setpriv > /dev/null || skip_all "setpriv not installed"

W=$(mktemp -d /tmp/mkfs-errors.XXXXXX)
chmod 755 "$W"
trap 'rm -rf "$W"' EXIT
plan 25

S=$W/src
mkdir -p "$S"
cp /bin/true "$S/true"

# no_image DESC: nothing named img* is left in $W/out.
mkdir "$W/out"
no_image() {
	check_eq "$1: no image or temporary file left" "" "$(ls -A "$W/out")"
}

check_fails "no arguments" 2 "$MKFS"
check_fails "unknown option" 2 "$MKFS" --bogus "$S" "$W/out/img"
check_fails "--exec-folio-size 3k" 2 "$MKFS" --exec-folio-size 3k "$S" "$W/out/img"
check_fails "--rule without =" 2 "$MKFS" --rule 'true' "$S" "$W/out/img"
check_fails "--rule with a bad size" 2 "$MKFS" --rule 'true=4m' "$S" "$W/out/img"
check_fails "--size below 300m" 2 "$MKFS" --size 100m "$S" "$W/out/img"
check_fails "--size garbage" 2 "$MKFS" --size 1x "$S" "$W/out/img"
check_fails "SOURCE_DIR missing" 1 "$MKFS" "$W/nonexistent" "$W/out/img"
# One line says what is wrong, one points to --help: nothing twice.
for opt in "--rule true" "--rule true=4m" "--size 100m" "--size 1x"; do
	# shellcheck disable=SC2086
	err=$("$MKFS" $opt "$S" "$W/out/img" 2>&1 >/dev/null)
	check_eq "$opt: one error line and the --help hint" \
		"1 1" "$(echo "$err" | grep -vc '^Try ') $(echo "$err" | grep -c '^Try ')"
done
no_image "usage errors"

echo precious > "$W/out/img"
check_fails "IMAGE exists without --force" 1 "$MKFS" "$S" "$W/out/img"
check_eq "the existing IMAGE is untouched" precious "$(cat "$W/out/img")"
rm "$W/out/img"

check_fails "xfsprogs missing" 1 env XFSPROGS_PATH=/nonexistent "$MKFS" "$S" "$W/out/img"
no_image "xfsprogs missing"

# A tree larger than the image: about 400 MB of data in a 300m image.
B=$W/big
mkdir -p "$B"
for i in 1 2 3 4; do
	head -c 100000000 /dev/zero > "$B/f$i"
done
check_fails "tree larger than --size" 1 "$MKFS" --size 300m "$B" "$W/out/img"
rm -rf "$B"
no_image "too small"

# An unreadable file, built by an unprivileged user.
U=$W/user
mkdir -p "$U/d"
echo secret > "$U/d/secret"
chmod 000 "$U/d/secret"
chown -R 65534:65534 "$U" "$W/out"
check_fails "unreadable source file (as nobody)" 1 \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$MKFS" "$U" "$W/out/img"
err=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$MKFS" "$U" "$W/out/img" 2>&1)
case $err in
*d/secret*) ok "the message names the unreadable file" ;;
*) not_ok "the message names the unreadable file"; diag "$err" ;;
esac
no_image "unreadable file"

# A 3-byte name with a blank in a directory too large for short form.
N=$W/names
mkdir -p "$N"
i=0
while [ $i -lt 300 ]; do
	: > "$N/file-$i"
	i=$((i + 1))
done
: > "$N/a b"
check_fails "short unexpressible name in a large directory" 1 "$MKFS" "$N" "$W/out/img"
no_image "unexpressible name"

# A symlink target longer than the inode: mkfs.xfs 6.1 writes it wrongly.
L=$W/long
mkdir -p "$L"
ln -s "/$(head -c 600 /dev/zero | tr '\0' x)" "$L/long"
check_fails "symlink target too long for xfsprogs 6.1" 1 "$MKFS" "$L" "$W/out/img"

tap_done
