#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs.execfolio fails clearly and leaves no image that looks good: bad
# options and operands (found before anything is read), an existing IMAGE,
# missing xfsprogs, unreadable source files, a too small --size, options
# for mkfs.xfs that need a larger image, a full file system under IMAGE,
# symlinks xfsprogs 6.1 cannot carry, files larger than an allocation
# group; what a killed run leaves is removed by the next; and it builds the
# names it once refused.
. "$TOP/tests/tap.sh"

MKFS=$BIN/mkfs.execfolio
[ -x "$MKFS" ] || skip_all "$MKFS not built"
command -v mkfs.xfs > /dev/null || [ -x /usr/sbin/mkfs.xfs ] || skip_all "xfsprogs not installed"
[ "$(id -u)" = 0 ] || skip_all "needs root to run parts as another user"
command -v setpriv > /dev/null || skip_all "setpriv not installed"

W=$(mktemp -d /tmp/mkfs-errors.XXXXXX)
chmod 755 "$W"
trap 'mountpoint -q "$W/full" && umount "$W/full"; rm -rf "$W"' EXIT

S=$W/src
mkdir -p "$S"
cp /bin/true "$S/true"

# no_image DESC: nothing named img* is left in $W/out.
mkdir "$W/out"
no_image() {
	check_eq "$1: no image or temporary file left" "$(ls -A "$W/out")" ""
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
		"$(echo "$err" | grep -vc '^Try ') $(echo "$err" | grep -c '^Try ')" "1 1"
done
# Empty operands and an IMAGE that names a directory: usage errors, found
# before anything is read (no xfsprogs are needed to say so).
check_fails_saying "empty IMAGE: a usage error before anything is read" 2 \
	"IMAGE is empty" env XFSPROGS_PATH=/nonexistent "$MKFS" "$S" ""
check_fails_saying "empty SOURCE_DIR: a usage error" 2 \
	"SOURCE_DIR is empty" env XFSPROGS_PATH=/nonexistent "$MKFS" "" "$W/out/img"
check_fails_saying "IMAGE ending in /: a usage error" 2 \
	"ends in '/'" env XFSPROGS_PATH=/nonexistent "$MKFS" "$S" "$W/out/"
# IMAGE in a directory that is not there: said before the tree is read.
check_fails_saying "IMAGE in a missing directory: said before xfsprogs are looked for" 1 \
	"cannot create IMAGE $W/out/none/img in $W/out/none: No such file" \
	env XFSPROGS_PATH=/nonexistent "$MKFS" "$S" "$W/out/none/img"
no_image "usage errors"

echo precious > "$W/out/img"
check_fails "IMAGE exists without --force" 1 "$MKFS" "$S" "$W/out/img"
check_eq "the existing IMAGE is untouched" "$(cat "$W/out/img")" precious
rm "$W/out/img"

check_fails "xfsprogs missing" 1 env XFSPROGS_PATH=/nonexistent "$MKFS" "$S" "$W/out/img"
no_image "xfsprogs missing"

# Interrupted builds: SIGINT and SIGTERM while mkfs.xfs runs, replacing an
# IMAGE with --force. The work directory (in $TMPDIR), the temporary image
# and mkfs.xfs are gone, IMAGE is as it was, and the exit status says so.
# A stand-in mkfs.xfs (first in XFSPROGS_PATH) builds forever, so that the
# signal always finds the build running; the real one does the rest (-V,
# the geometry dry run).
I=$W/intr
mkdir -p "$I/src" "$I/tmp" "$I/bin"
head -c 300000 /dev/urandom > "$I/src/big"
real_mkfs_xfs=$(PATH=$PATH:/usr/sbin:/sbin command -v mkfs.xfs)
cat > "$I/bin/mkfs.xfs" << STANDIN
#!/bin/sh
case " \$* " in
*" -p "*) while :; do sleep 1; done ;;
esac
exec $real_mkfs_xfs "\$@"
STANDIN
chmod +x "$I/bin/mkfs.xfs"
echo precious > "$W/out/img"
for sig in INT TERM; do
	TMPDIR=$I/tmp XFSPROGS_PATH=$I/bin:/usr/sbin:/sbin \
		"$MKFS" --force "$I/src" "$W/out/img" 2> /dev/null &
	pid=$!
	# Wait for mkfs.xfs to build (at most 3 minutes: a loaded machine);
	# not its short-lived -V, which would race with the signal.
	i=0
	while [ $i -lt 1800 ] && ! pgrep -P $pid -f 'mkfs\.xfs .*-p ' > /dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	child=$(pgrep -P $pid -f 'mkfs\.xfs .*-p ')
	kill -$sig $pid
	wait $pid
	rc=$?
	if [ -n "$child" ] && [ $rc -ne 0 ]; then
		ok "SIG$sig during mkfs.xfs: non-zero exit status ($rc)"
	else
		not_ok "SIG$sig during mkfs.xfs: non-zero exit status"
		diag "mkfs.xfs pid '$child', exit status $rc"
	fi
	check_eq "SIG$sig: no work directory left" "$(ls -A "$I/tmp")" ""
	check_eq "SIG$sig: no temporary image left, IMAGE untouched" \
		"$(ls -A "$W/out" | tr '\n' ' ')$(cat "$W/out/img")" "img precious"
	check "SIG$sig: mkfs.xfs stopped too" sh -c "! kill -0 $child 2> /dev/null"
done
rm -f "$W/out/img"

# SIGKILL cannot be caught: the hidden image and the work directory stay.
# The next run removes them, and says so; but not those of a run still
# going (each run locks its own), however many runs start meanwhile.
# wait_building PID: until PID's stand-in mkfs.xfs builds; prints its pid.
wait_building() {
	i=0
	while [ $i -lt 1800 ] && ! pgrep -P "$1" -f 'mkfs\.xfs .*-p ' > /dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	pgrep -P "$1" -f 'mkfs\.xfs .*-p '
}
TMPDIR=$I/tmp XFSPROGS_PATH=$I/bin:/usr/sbin:/sbin \
	"$MKFS" "$I/src" "$W/out/a.img" 2> /dev/null &
pid=$!
child=$(wait_building $pid)
kill -KILL $pid
wait $pid
kill $child 2> /dev/null
killed_image=$(ls -A "$W/out")
killed_workdir=$(ls -A "$I/tmp")
check_eq "SIGKILL: the hidden image and the work directory are left" \
	"$(ls -A "$W/out" | wc -l) $(ls -A "$I/tmp" | wc -l)" "1 1"
TMPDIR=$I/tmp XFSPROGS_PATH=$I/bin:/usr/sbin:/sbin \
	"$MKFS" "$I/src" "$W/out/b.img" 2> "$I/b.err" &
running=$!
child=$(wait_building $running)
check "the next run removes the hidden image the killed run left" \
	test ! -e "$W/out/$killed_image"
check "... and its work directory" test ! -e "$I/tmp/$killed_workdir"
check_eq "... and names both" \
	"$(grep -c "^mkfs.execfolio: removed .*, left behind by a run that was killed" "$I/b.err")" 2
running_image=$(ls -A "$W/out")
running_workdir=$(ls -A "$I/tmp")
check "a build next to a run still going" \
	env TMPDIR="$I/tmp" "$MKFS" "$I/src" "$W/out/c.img"
check_eq "... leaves its hidden image and work directory alone" \
	"$(ls -A "$W/out" | grep -v '^c\.img$') $(ls -A "$I/tmp")" \
	"$running_image $running_workdir"
kill -TERM $running
wait $running
check_eq "the run still going, stopped: nothing left" \
	"$(ls -A "$W/out") $(ls -A "$I/tmp")" "c.img "
rm -rf "$I" "$W/out/c.img"

# A tree larger than the image: about 400 MB of data in a 300m image, in
# files an allocation group (75 MB) takes.
B=$W/big
mkdir -p "$B"
for i in 1 2 3 4 5 6 7 8; do
	head -c 50000000 /dev/zero > "$B/f$i"
done
err=$("$MKFS" --size 300m "$B" "$W/out/img" 2>&1)
check_eq "tree larger than --size: exit status 1" $? 1
case $err in
*"does not fit in 300 MiB: give a larger --size"*) ok "tree larger than --size: the message asks for a larger --size" ;;
*) not_ok "tree larger than --size: the message asks for a larger --size"; diag "$err" ;;
esac
rm -rf "$B"
no_image "too small"

# The file system under IMAGE full while mkfs.xfs writes the image: said,
# not taken for a tree larger than the image. A tmpfs of 60m fills while
# mkfs.xfs zeroes the log (ENOSPC), one of 150m while it writes the data
# (a short write, EIO).
mkdir -p "$W/full" "$W/data"
head -c 100000000 /dev/zero > "$W/data/zeros"
for room in 60m 150m; do
	mount -t tmpfs -o size=$room tmpfs "$W/full"
	err=$("$MKFS" "$W/data" "$W/full/img" 2>&1)
	check_eq "$room free under IMAGE: exit status 1" $? 1
	case $err in
	*"the file system that holds IMAGE $W/full/img is full"*) ok "$room free under IMAGE: said to be full" ;;
	*) not_ok "$room free under IMAGE: said to be full"; diag "$err" ;;
	esac
	case $err in
	*--size*) not_ok "$room free under IMAGE: no word of --size"; diag "$err" ;;
	*) ok "$room free under IMAGE: no word of --size" ;;
	esac
	check_eq "$room free under IMAGE: nothing left there" "$(ls -A "$W/full")" ""
	umount "$W/full"
done
rm -rf "$W/data"

# Options for mkfs.xfs that need a larger image: 16 allocation groups, each
# holding a log of at least 64 MB. The default size grows to hold them; an
# explicit --size too small says so, without mkfs.xfs's usage text.
check "-d agcount=16 with the default size: built" \
	"$MKFS" "$S" "$W/out/img" -- -d agcount=16
check_eq "... with 16 allocation groups" \
	"$(xfs_db -c 'sb 0' -c 'print agcount' "$W/out/img")" "agcount = 16"
rm -f "$W/out/img"
check "dry run: -d agcount=16 with the default size passes" \
	"$MKFS" -n "$S" "$W/out/img" -- -d agcount=16
err=$("$MKFS" --size 1g "$S" "$W/out/img" -- -d agcount=16 2>&1)
check_eq "-d agcount=16 in --size 1g: exit status 1" $? 1
case $err in
*"Log size must be at least 64MB"*"need an image larger than --size (1024 MiB): give a larger --size"*) ok "-d agcount=16 in --size 1g: mkfs.xfs's reason, and a larger --size asked for" ;;
*) not_ok "-d agcount=16 in --size 1g: mkfs.xfs's reason, and a larger --size asked for"; diag "$err" ;;
esac
case $err in
*"Usage: "*) not_ok "-d agcount=16 in --size 1g: no usage text of mkfs.xfs"; diag "$err" ;;
*) ok "-d agcount=16 in --size 1g: no usage text of mkfs.xfs" ;;
esac
no_image "options that need a larger image"

# mkfs.xfs refusing an option after --: its message, and no word of --size.
err=$("$MKFS" "$S" "$W/out/img" -- -b size=999 2>&1)
check_eq "bad mkfs.xfs option: exit status 1" $? 1
case $err in
*"Invalid value 999"*) ok "bad mkfs.xfs option: mkfs.xfs's message is shown" ;;
*) not_ok "bad mkfs.xfs option: mkfs.xfs's message is shown"; diag "$err" ;;
esac
case $err in
*--size*) not_ok "bad mkfs.xfs option: no hint about --size"; diag "$err" ;;
*) ok "bad mkfs.xfs option: no hint about --size" ;;
esac
no_image "bad mkfs.xfs option"

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

# One-byte names of blanks with hashes side by side (tab 9, vertical tab
# 11, form feed 12, carriage return 13): no one-byte placeholder has the
# hash of the vertical tab or of the form feed, or one next to it. They
# were refused in a directory too large for the inode; they build there
# as in a short-form directory, the hash index given their hashes
# (mkfs_names.sh builds such names in every form of directory and mounts
# the images), and xfs_db lists them.
N=$W/names
mkdir -p "$N/small" "$N/large"
for n in "$(printf '\t')" "$(printf '\v')" "$(printf '\f')" "$(printf '\r')"; do
	: > "$N/small/$n"
	: > "$N/large/$n"
done
check "blank one-byte names side by side in a short-form directory build" \
	"$MKFS" "$N/small" "$W/out/img"
rm -f "$W/out/img"
i=0
while [ $i -lt 300 ]; do
	: > "$N/large/file-$i"
	i=$((i + 1))
done
check "... in a directory of 304 entries too, xfs_repair -n passing" \
	"$MKFS" --check "$N/large" "$W/out/img"
if command -v python3 > /dev/null; then
	xfs_db -r "$W/out/img" -c "path /" -c ls > "$W/ls" 2>&1
	check "... and xfs_db lists the 304 names" \
		python3 "$TOP/tests/mkfs/names_tree.py" ls "$W/ls" "$N/large"
else
	skip "python3 not installed"
fi
rm -f "$W/out/img" "$W/ls"

# A symlink target longer than the inode: mkfs.xfs 6.1 writes it wrongly.
# 336 bytes fit in a 512-byte inode, 337 do not: a larger inode is chosen,
# unless MKFS_XFS_OPTIONS give the inode size. XFS keeps 1023 bytes at most.
L=$W/long
mkdir -p "$L"
ln -s "/$(head -c 335 /dev/zero | tr '\0' x)" "$L/fits"
check "symlink target of 336 bytes: built" "$MKFS" "$L" "$W/out/img"
check_eq "symlink target of 336 bytes: 512-byte inodes" \
	"$(xfs_db -c 'sb 0' -c 'print inodesize' "$W/out/img")" "inodesize = 512"
rm -f "$W/out/img"
ln -s "/$(head -c 336 /dev/zero | tr '\0' x)" "$L/long"
check_fails "symlink target of 337 bytes with -i size=512: refused" 1 \
	"$MKFS" "$L" "$W/out/img" -- -i size=512
no_image "symlink target too long"
check "symlink target of 337 bytes: built" "$MKFS" "$L" "$W/out/img"
check_eq "symlink target of 337 bytes: 1024-byte inodes chosen" \
	"$(xfs_db -c 'sb 0' -c 'print inodesize' "$W/out/img")" "inodesize = 1024"
rm -f "$W/out/img"
ln -s "/$(head -c 1022 /dev/zero | tr '\0' x)" "$L/longest"
check "symlink target of 1023 bytes: built" "$MKFS" --check "$L" "$W/out/img"
check_eq "symlink target of 1023 bytes: 2048-byte inodes chosen" \
	"$(xfs_db -c 'sb 0' -c 'print inodesize' "$W/out/img")" "inodesize = 2048"
rm -f "$W/out/img"
ln -s "/$(head -c 1023 /dev/zero | tr '\0' x)" "$L/too-long"
err=$("$MKFS" "$L" "$W/out/img" 2>&1)
check_eq "symlink target of 1024 bytes: exit status 1" $? 1
case $err in
*"too-long: symlink target of 1024 bytes cannot be stored: XFS keeps targets of up to 1023 bytes"*) ok "symlink target of 1024 bytes: named, with the limit" ;;
*) not_ok "symlink target of 1024 bytes: named, with the limit"; diag "$err" ;;
esac
no_image "symlink target of 1024 bytes"
rm "$L/too-long" "$L/longest"

# A file larger than an allocation group: mkfs.xfs 6.1 would write it over
# the next group's headers. An explicit --size that leaves no room refuses
# it; the default size makes room (mkfs.sh checks the image).
G=$W/large
mkdir -p "$G"
truncate -s 200m "$G/big file"
err=$("$MKFS" --size 300m "$G" "$W/out/img" 2>&1)
check_eq "a 200m file in --size 300m: exit status 1" $? 1
case $err in
*"big file: file of 209715200 bytes is larger than an allocation group of the image can take"*) ok "a 200m file in --size 300m: named" ;;
*) not_ok "a 200m file in --size 300m: named"; diag "$err" ;;
esac
no_image "file larger than an allocation group"
check_fails "dry run: a 200m file in --size 300m" 1 "$MKFS" -n --size 300m "$G" "$W/out/img"

# Device numbers beyond what XFS keeps (the kernel reads 9 bits of major
# back): refused, naming each file and the limit; nothing truncated.
V=$W/dev
mkdir -p "$V"
mknod "$V/b600" b 600 7
mknod "$V/c1000" c 1000 5
mknod "$V/ok" c 1 3
err=$("$MKFS" "$V" "$W/out/img" 2>&1)
check_eq "device numbers too large: exit status 1" $? 1
case $err in
*"b600: device number 600:7 cannot be stored: XFS keeps majors up to 511 and minors up to 262143"*"c1000: device number 1000:5"*) ok "each device is named with the limit" ;;
*) not_ok "each device is named with the limit"; diag "$err" ;;
esac
no_image "device numbers too large"
rm "$V/b600" "$V/c1000"
mknod "$V/c-minor" c 1 262144
check_fails "a minor of 262144: refused" 1 "$MKFS" "$V" "$W/out/img"
no_image "minor too large"

# The dry run refuses every tree above that the build refuses, and passes
# the ones it builds.
check_fails "dry run: device number too large" 1 "$MKFS" -n "$V" "$W/out/img"
check_fails "dry run: symlink target too long for -i size=512" 1 \
	"$MKFS" -n "$L" "$W/out/img" -- -i size=512
check "dry run: the same target with the inode size left to it passes" \
	"$MKFS" -n "$L" "$W/out/img"
check_fails "dry run: unreadable source file (as nobody)" 1 \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$MKFS" -n "$U" "$W/out/img"
check_fails "dry run: a bad mkfs.xfs option" 1 "$MKFS" -n "$S" "$W/out/img" -- -b size=999
check "dry run: blank one-byte names in a directory of 304 entries pass" \
	"$MKFS" -n "$N/large" "$W/out/img"
check "dry run: blank one-byte names in a short-form directory pass" \
	"$MKFS" -n "$N/small" "$W/out/img"
no_image "dry runs"

done_testing
