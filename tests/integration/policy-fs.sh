#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfolio set/get on file systems that store the attribute but do not
# apply the policy (tmpfs, and ext4 on a loop device): set stores it and
# warns once per file system, get says that no policy is in effect and why.
. "$TOP/tests/tap.sh"

EF=$BIN/execfolio
[ "$(id -u)" = 0 ] || skip_all "needs root for trusted.* xattrs and mounts"
command -v getfattr > /dev/null || skip_all "getfattr (package attr) not installed"
command -v jq > /dev/null || skip_all "jq not installed (make deps installs it)"
command -v mkfs.ext4 > /dev/null || skip_all "mkfs.ext4 (e2fsprogs) not installed"
[ -e /dev/loop-control ] || skip_all "no loop devices"

W=$(mktemp -d /tmp/execfolio-policy-fs.XXXXXX)
cleanup() {
	for m in "$W/tmpfs" "$W/ext4" "$W/parent/m1" "$W/parent/m2"; do
		mountpoint -q "$m" && umount "$m"
	done
	rm -rf "$W"
}
trap cleanup EXIT
mkdir "$W/tmpfs" "$W/ext4"
mount -t tmpfs -o size=16m execfolio-test "$W/tmpfs" ||
	skip_all "cannot mount a tmpfs"
truncate -s 64M "$W/ext4.img"
mkfs.ext4 -q -F "$W/ext4.img" && mount -o loop "$W/ext4.img" "$W/ext4" ||
	skip_all "cannot mount an ext4 loop device"


as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
raw() { getfattr --absolute-names --only-values -n trusted.exec_folio_size "$1" 2> /dev/null; }

for fs in tmpfs ext4; do
	D=$W/$fs
	cp /bin/true "$D/a"
	cp /bin/true "$D/b"

	err=$("$EF" set 64k "$D/a" "$D/b" 2>&1 > /dev/null)
	check_eq "$fs: set exits 0 and stores the attribute" \
		"$? $(raw "$D/a") $(raw "$D/b")" "0 64k 64k"
	check_eq "$fs: set warns once for the file system" \
		"$(echo "$err" | grep -c warning)" 1
	case $err in
	"execfolio: set: $D/a: warning: $fs ($D) does not apply exec folio policies"*"changes nothing on this system")
		ok "$fs: the warning names the file, the file system and the consequence" ;;
	*) not_ok "$fs: the warning names the file, the file system and the consequence"; diag "$err" ;;
	esac

	out=$("$EF" get "$D/a" "$D/b" 2> "$W/err")
	check_eq "$fs: get: PATH 0 none, nothing in effect" \
		"$out" "$(printf '%s\n' "$D/a 0 none" "$D/b 0 none")"
	check_eq "$fs: get notes why, once for the file system" \
		"$(cat "$W/err")" \
		"execfolio: get: $D/a: note: $fs ($D) does not apply exec folio policies: only XFS on a kernel with the execfolio series does; no policy is in effect (0 none)"
	check_eq "$fs: get -v: the stored value, applied by nobody, why" \
		"$("$EF" get -v "$D/a" 2> /dev/null)" \
		"$D/a 0 none stored=64k mount_default=- mount_scope=- fs=$fs applied_by=none why=filesystem"
	check_eq "$fs: get --json: size, source, applied_by, not_applied, why, stored" \
		"$("$EF" get --json "$D/a" 2> /dev/null | jq -r --arg fs "$fs" '.[0] |
			"\(.size) \(.source) \(.applied_by) \(.not_applied) \(.why | startswith($fs + " (")) \(.stored)"')" \
		"none none none filesystem true 64k"

	# A file without the attribute reads the same: nothing is in effect.
	"$EF" clear "$D/b"
	check_eq "$fs: untagged file: 0 none" "$("$EF" get "$D/b" 2> /dev/null)" "$D/b 0 none"

	# Dry runs and clear do not warn: nothing was stored.
	check_eq "$fs: set -n does not warn" "$("$EF" set -n 16k "$D/b" 2>&1 > /dev/null)" ""
	check_eq "$fs: clear does not warn" "$("$EF" clear "$D/a" 2>&1)" ""

	# Without CAP_SYS_ADMIN the attribute is hidden, but nothing applies
	# it here whatever it holds: the answer is known all the same.
	"$EF" set 64k "$D/a" 2> /dev/null
	chmod 0755 "$W" "$D"
	out=$(as_nobody "$EF" get -v "$D/a" 2> "$W/err"); rc=$?
	check_eq "$fs: unprivileged get: 0 none, exit 0, the stored value unknown" \
		"$rc $out" "0 $D/a 0 none stored=? mount_default=- mount_scope=- fs=$fs applied_by=none why=filesystem"
	case $(cat "$W/err") in
	*CAP_SYS_ADMIN*) not_ok "$fs: ... and no word of CAP_SYS_ADMIN, the note instead"; diag "$(cat "$W/err")" ;;
	*"does not apply exec folio policies"*) ok "$fs: ... and no word of CAP_SYS_ADMIN, the note instead" ;;
	*) not_ok "$fs: ... and no word of CAP_SYS_ADMIN, the note instead"; diag "$(cat "$W/err")" ;;
	esac

	# --if-unset: a malformed value is no policy; it is replaced, and said.
	setfattr -n trusted.exec_folio_size -v 48k "$D/a"
	err=$("$EF" set --if-unset 2m "$D/a" 2>&1 > /dev/null); rc=$?
	check_eq "$fs: set --if-unset replaces a malformed value, exit 0" "$rc $(raw "$D/a")" "0 2m"
	case $err in
	*"$D/a: warning: the stored trusted.exec_folio_size is malformed"*"replacing it"*) ok "$fs: ... and says so" ;;
	*) not_ok "$fs: ... and says so"; diag "$err" ;;
	esac
done

# ---- without CAP_SYS_ADMIN a missing path or a directory is said first
D=$W/tmpfs
err=$(as_nobody "$EF" get "$D/missing" 2>&1); rc=$?
check_eq "unprivileged get of a missing path: no such file, exit 1" \
	"$rc $err" "1 execfolio: get: $D/missing: No such file or directory"
err=$(as_nobody "$EF" get "$D" 2>&1); rc=$?
check_eq "unprivileged get of a directory: is a directory, exit 1" \
	"$rc $err" "1 execfolio: get: $D: is a directory (use -r to recurse)"

# ---- a newline in a name: one line per file, escaped as \n (and \ as \\)
nl=$(printf 'x\ny')
cp /bin/true "$D/$nl"
cp /bin/true "$D/back\\slash"
out=$("$EF" get "$D/$nl" "$D/back\\slash" 2> /dev/null)
check_eq "get: a newline and a backslash in a name are escaped" "$out" \
	"$(printf '%s\n' "$D/x\\ny 0 none" "$D/back\\\\slash 0 none")"

# ---- -r on a directory whose children are all mount points
mkdir -p "$W/parent/m1" "$W/parent/m2"
mount -t tmpfs -o size=1m execfolio-test "$W/parent/m1" &&
	mount -t tmpfs -o size=1m execfolio-test "$W/parent/m2"
cp /bin/true "$W/parent/m1/f"
for cmd in "set -r 64k" "get -r" "scan -r"; do
	out=$("$EF" $cmd "$W/parent" 2> "$W/err"); rc=$?
	check_eq "$cmd over mount points only: nothing done, exit 0" "$rc $out" "0 "
	check_eq "... and each mount point skipped is named, and why" \
		"$(sed -e 's/^execfolio: [a-z]*: //' "$W/err" | sort)" \
		"$(printf '%s\n' "$W/parent/m1: note: a mount point, skipped (-r does not cross into other file systems; name it to visit it)" \
			"$W/parent/m2: note: a mount point, skipped (-r does not cross into other file systems; name it to visit it)")"
done

done_testing
