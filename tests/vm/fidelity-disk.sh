#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fidelity-disk.sh BIN_DIR IMAGE SQLITE_TREE
#
# The XFS disk of the fidelity test (tests/vm/guest/fidelity.sh), arm64,
# made rootless with mkfs.execfolio: fidelity/plain (Debian's sqlite3 and
# its libraries, no xattrs), fidelity/tagged (the same tree, executables
# and shared libraries tagged 64k), fidelity/workload.sql and the guest's
# execfoliofs.  Kept and reused while its inputs are unchanged (their hash
# is in IMAGE.key), as suite-disk.sh does.
set -eu
bin=$1
image=$2
tree=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/disk-cache.sh"
mkfs=$here/../../build/bin/mkfs.execfolio

for f in "$bin/execfoliofs" "$mkfs"; do
	[ -x "$f" ] || {
		echo "fidelity-disk: $f is missing: run make ARCH=arm64 and make" >&2
		exit 1
	}
done
[ -x "$tree/usr/bin/sqlite3" ] || {
	echo "fidelity-disk: $tree has no usr/bin/sqlite3: make it with tests/workloads/debian-tree.sh arm64 $tree sqlite3" >&2
	exit 1
}

key=$({
	sha256sum "$bin/execfoliofs" "$mkfs" "$0" "$here/fidelity-workload.sql"
	disk_cache_tree "$tree"
} | disk_cache_key)
disk_cache_current "$image" "$key" && exit 0

disk_cache_stage "$image"
mkdir -p "$stage/fidelity"
cp -a "$tree" "$stage/fidelity/plain"
cp -a "$tree" "$stage/fidelity/tagged"
install -m 0644 "$here/fidelity-workload.sql" "$stage/fidelity/workload.sql"
install -m 0755 "$bin/execfoliofs" "$stage/fidelity/execfoliofs"
"$mkfs" --rule 'fidelity/tagged/usr/bin/*=64k' \
	--rule 'fidelity/tagged/*.so*=64k' \
	--size 1g --report "$image.report" "$stage" "$image"
disk_cache_finish "$image" "$key"
