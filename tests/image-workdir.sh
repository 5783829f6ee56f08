# SPDX-License-Identifier: GPL-2.0-or-later
#
# A work directory with a mount point for the host tests that build
# filesystem images, torn down on exit.

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
