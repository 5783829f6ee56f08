#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkdisk.sh BIN_DIR IMAGE: make the XFS test disk of the VM smoke test from
# the guest programs in BIN_DIR (see guest/smoke.sh for what it holds),
# rootless, with mkfs.execfolio from a staging tree next to IMAGE; then, as
# root through a loop mount, the files of the policy vectors whose xattr is
# malformed (vecstage: mkfs.execfolio cannot store an empty value, the
# host's kernel stores any value as given).
set -eu
bin=$1
image=$2
here=$(cd "$(dirname "$0")" && pwd)
mkfs=$here/../../build/bin/mkfs.execfolio
vecstage=$here/../../build/obj/tests/vm/vecstage

for f in "$bin/bigtext" "$mkfs" "$vecstage"; do
	[ -x "$f" ] || {
		echo "mkdisk: $f is missing: run make, make $vecstage and make vm-guest ARCH=<arch> first" >&2
		exit 1
	}
done
stage=$image.root
rm -rf "$stage" "$image"
mkdir -p "$stage"
trap 'rm -rf "$stage"' EXIT

install -m 0755 "$bin/bigtext" "$stage/bigtext"
install -m 0755 "$bin/bigtext" "$stage/bigtext.none"
install -m 0755 "$bin/bigtext" "$stage/bigtext.fi"

# Enough user xattrs that the attribute fork leaves the inode (leaf form).
install -m 0644 "$bin/bigtext" "$stage/bigtext.leaf"
i=0
while [ $i -lt 8 ]; do
	setfattr -n "user.filler$i" -v "$(printf '%0200d' $i)" "$stage/bigtext.leaf"
	i=$((i + 1))
done

head -c 262144 /dev/urandom >"$stage/plain"
chmod 0644 "$stage/plain"

"$mkfs" --strict --size 320m --rule 'bigtext.none=none' \
	--rule 'bigtext.leaf=64k' "$stage" "$image"

# bigtext.leaf is only worth testing if its attribute fork is not local.
aformat=$(xfs_db -r -c "path /bigtext.leaf" -c "print core.aformat" "$image")
case $aformat in
*local* | "")
	echo "mkdisk: bigtext.leaf has a local attribute fork ($aformat)" >&2
	exit 1
	;;
esac

mnt=$(mktemp -d /tmp/execfolio-mkdisk.XXXXXX)
trap 'mountpoint -q "$mnt" && umount "$mnt"; rmdir "$mnt"; rm -rf "$stage"' EXIT
mount -o loop "$image" "$mnt"
"$vecstage" "$here/../vectors/policy.vec" "$mnt"
umount "$mnt"
