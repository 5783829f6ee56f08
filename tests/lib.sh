# SPDX-License-Identifier: GPL-2.0-or-later
#
# TAP helpers for shell tests. Source it, call plan N (or skip_all WHY),
# then ok/not_ok/check/skip per test. Provides an XFS scratch filesystem on
# a loop device (xfs_scratch_mount), and a work directory with a mount
# point for images (image_workdir), each torn down on exit.

TAP_N=0
TAP_FAILED=0

plan() { echo "1..$1"; }

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $*"
}

not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $*"
}

skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N # SKIP $*"
}

# printf, not echo: dash's echo would expand the backslashes of escapes.
diag() { printf '%s\n' "$*" | sed -e 's/^/# /'; }

# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then
		ok "$_desc"
	else
		not_ok "$_desc"
		diag "command: $*"
		diag "$_out"
	fi
}

# check_eq DESCRIPTION GOT WANT: what the code under test gave, then what
# it should have (the order of tests/vm/harness/vmlib.sh). WANT may be empty.
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "got:  $2"
		diag "want: $3"
	fi
}

# check_fails DESCRIPTION EXPECTED_STATUS COMMAND...: the command must exit
# with that status and say something on stderr.
check_fails() {
	_desc=$1
	_want=$2
	shift 2
	check_fails_saying "$_desc" "$_want" '' "$@"
}

# check_fails_saying DESCRIPTION EXPECTED_STATUS PATTERN COMMAND...: the
# same, and what it says on stderr matches PATTERN (grep), when not empty.
check_fails_saying() {
	_desc=$1
	_want=$2
	_say=$3
	shift 3
	_err=$("$@" 2>&1 >/dev/null)
	_rc=$?
	if [ "$_rc" = "$_want" ] && [ -n "$_err" ] &&
		{ [ -z "$_say" ] || printf '%s\n' "$_err" | grep -q -- "$_say"; }; then
		ok "$_desc"
		diag "stderr: $_err"
	else
		not_ok "$_desc"
		diag "command: $*"
		diag "exit status $_rc (expected $_want), stderr: $_err"
		[ -z "$_say" ] || diag "expected a message with: $_say"
	fi
}

tap_done() {
	[ "$TAP_FAILED" = 0 ]
}

# ---- XFS scratch filesystem on a loop device ------------------------------

SCRATCH_IMG=
SCRATCH_MNT=
SCRATCH_DIR=

scratch_cleanup() {
	if [ -n "$SCRATCH_MNT" ] && mountpoint -q "$SCRATCH_MNT"; then
		umount "$SCRATCH_MNT" 2>/dev/null || umount -l "$SCRATCH_MNT"
	fi
	[ -n "$SCRATCH_DIR" ] && rm -rf "$SCRATCH_DIR"
}

# The reason an XFS loop mount cannot be made here, or nothing.
xfs_unavailable() {
	[ "$(id -u)" = 0 ] || { echo "needs root to mount a loop device"; return; }
	command -v mkfs.xfs >/dev/null || { echo "mkfs.xfs not installed"; return; }
	[ -e /dev/loop-control ] || { echo "no loop devices"; return; }
	grep -qw xfs /proc/filesystems || modprobe xfs 2>/dev/null ||
		{ echo "kernel has no XFS"; return; }
}

# xfs_scratch_mount [MOUNT_OPTIONS]: sets SCRATCH_MNT, cleaned up on exit.
xfs_scratch_mount() {
	SCRATCH_DIR=$(mktemp -d /tmp/execfolio-test.XXXXXX) || return 1
	SCRATCH_IMG=$SCRATCH_DIR/xfs.img
	SCRATCH_MNT=$SCRATCH_DIR/mnt
	mkdir "$SCRATCH_MNT"
	trap scratch_cleanup EXIT
	truncate -s 320M "$SCRATCH_IMG" &&
		mkfs.xfs -q "$SCRATCH_IMG" &&
		mount -o loop${1:+,$1} "$SCRATCH_IMG" "$SCRATCH_MNT"
}

# image_workdir NAME: sets W, a new directory /tmp/NAME.XXXXXX that every
# user may read (unprivileged builds of images read and write below it),
# and MNT, a mount point in it; on exit whatever is mounted on MNT is
# unmounted and W removed.
image_workdir() {
	W=$(mktemp -d "/tmp/$1.XXXXXX") || return 1
	chmod 755 "$W"
	MNT=$W/mnt
	mkdir "$MNT"
	trap image_workdir_cleanup EXIT
}

image_workdir_cleanup() {
	mountpoint -q "$MNT" && umount "$MNT"
	rm -rf "$W"
}
