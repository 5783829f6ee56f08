# SPDX-License-Identifier: GPL-2.0-or-later
#
# An XFS scratch filesystem on a loop device for the host tests, torn down
# on exit.  Source after tests/tap.sh.

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
