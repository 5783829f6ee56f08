#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkdisk.sh BIN_DIR IMAGE: make the XFS test disk of the VM smoke test from
# the guest programs in BIN_DIR (see guest/smoke.sh for what it holds).
# Needs root and a loop device: the xattrs are set through a loop mount.
set -eu
bin=$1
image=$2
mnt=$(mktemp -d /tmp/execfolio-vmdisk.XXXXXX)
cleanup() {
	mountpoint -q "$mnt" && umount "$mnt"
	rmdir "$mnt"
}
trap cleanup EXIT

[ -x "$bin/bigtext" ] || {
	echo "mkdisk: $bin/bigtext is missing: run make ARCH=<arch> first" >&2
	exit 1
}
rm -f "$image"
truncate -s 320M "$image"
mkfs.xfs -q -f "$image"
mount -o loop "$image" "$mnt"

install -m 0755 "$bin/bigtext" "$mnt/bigtext"
install -m 0755 "$bin/bigtext" "$mnt/bigtext.none"
install -m 0755 "$bin/bigtext" "$mnt/bigtext.fi"
setfattr -n trusted.exec_folio_size -v none "$mnt/bigtext.none"

# Enough user xattrs that the attribute fork leaves the inode (leaf form).
install -m 0644 "$bin/bigtext" "$mnt/bigtext.leaf"
i=0
while [ $i -lt 24 ]; do
	setfattr -n "user.filler$i" -v "$(printf '%0200d' $i)" "$mnt/bigtext.leaf"
	i=$((i + 1))
done
setfattr -n trusted.exec_folio_size -v 64k "$mnt/bigtext.leaf"

head -c 262144 /dev/urandom >"$mnt/plain"
chmod 0644 "$mnt/plain"

leaf_ino=$(stat -c %i "$mnt/bigtext.leaf")
umount "$mnt"
# bigtext.leaf is only worth testing if its attribute fork is not local.
aformat=$(xfs_db -r -c "inode $leaf_ino" -c "p core.aformat" "$image")
case $aformat in
*local*)
	echo "mkdisk: bigtext.leaf has a local attribute fork ($aformat)" >&2
	exit 1
	;;
esac
