#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# faults-disk.sh BIN_DIR IMAGE: the XFS disk of the vm-faults tier.  It is
# the smoke test's disk (mkdisk.sh) with, written through a loop mount of
# the host's own kernel (which knows nothing of the policy, so it stores
# any value as given):
#   bigprog.tagged, stepper.tagged  bigprog and faults-stepper, xattr 64k
#   stepper.none                    faults-stepper, xattr none (reference)
#   data.tagged                     24 MiB of random data, mode 0644, 64k
#   mal.3k, mal.long, mal.bin,      bigtext with a malformed xattr written
#   mal.leaf                        offline: "3k"; 300 bytes; "64k\0"; and
#                                   "0x10000" in a leaf-form attribute fork
#   SHA256SUMS                      of all of the above
# Needs root and a loop device.
set -eu
bin=$1
image=$2
here=$(cd "$(dirname "$0")" && pwd)

for p in bigprog faults-stepper bigtext; do
	[ -x "$bin/$p" ] || {
		echo "faults-disk: $bin/$p is missing: run make vm-faults-guest ARCH=<arch>" >&2
		exit 1
	}
done
"$here/mkdisk.sh" "$bin" "$image"

mnt=$(mktemp -d /tmp/execfolio-faultsdisk.XXXXXX)
cleanup() {
	mountpoint -q "$mnt" && umount "$mnt"
	rmdir "$mnt"
}
trap cleanup EXIT
mount -o loop "$image" "$mnt"

tag() { # FILE VALUE (setfattr syntax: 0x... is hex, "..." a string)
	setfattr -n trusted.exec_folio_size -v "$2" "$1"
}
install -m 0755 "$bin/bigprog" "$mnt/bigprog.tagged"
tag "$mnt/bigprog.tagged" 64k
install -m 0755 "$bin/faults-stepper" "$mnt/stepper.tagged"
tag "$mnt/stepper.tagged" 64k
install -m 0755 "$bin/faults-stepper" "$mnt/stepper.none"
tag "$mnt/stepper.none" none
head -c 25165824 /dev/urandom >"$mnt/data.tagged"
chmod 0644 "$mnt/data.tagged"
tag "$mnt/data.tagged" 64k

for f in mal.3k mal.long mal.bin mal.leaf; do
	install -m 0755 "$bin/bigtext" "$mnt/$f"
done
tag "$mnt/mal.3k" 3k
tag "$mnt/mal.long" "\"$(printf '%0300d' 64)\""
tag "$mnt/mal.bin" 0x36346b00
i=0
while [ $i -lt 24 ]; do
	setfattr -n "user.filler$i" -v "$(printf '%0200d' $i)" "$mnt/mal.leaf"
	i=$((i + 1))
done
tag "$mnt/mal.leaf" '"0x10000"'
# The host kernel must have stored the values as given.
[ "$(getfattr --absolute-names --only-values -n trusted.exec_folio_size "$mnt/mal.leaf")" = 0x10000 ] || {
	echo "faults-disk: the host did not store trusted.exec_folio_size=0x10000 as given" >&2
	exit 1
}
(cd "$mnt" && sha256sum bigprog.tagged stepper.tagged stepper.none data.tagged \
	mal.3k mal.long mal.bin mal.leaf bigtext >SHA256SUMS)
