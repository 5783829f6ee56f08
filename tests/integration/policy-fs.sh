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
	for m in "$W/tmpfs" "$W/ext4"; do
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
		"execfolio: get: $D/a: note: $fs ($D) does not apply exec folio policies: only XFS on a kernel with the execfolio series and execfoliofs do; no policy is in effect (0 none)"
	check_eq "$fs: get -v: the stored value, applied by nobody, why" \
		"$("$EF" get -v "$D/a" 2> /dev/null)" \
		"$D/a 0 none stored=64k mount_default=- fs=$fs applied_by=none why=filesystem"
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
done

done_testing
