#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# root.sh ARCH FSTESTS_SRC MKFS IMAGE
#
# The guest's root disk: the Debian tree of ARCH (the packages of
# fstests/packages, unpacked by tests/workloads/debian-tree.sh next to
# IMAGE and reused while that list is unchanged), fstests built for ARCH
# (FSTESTS_SRC, build.sh) in /opt/fstests with local.config
# (local-config.sh), and the lists, exclusion files and run-check in
# /opt/fstests/execfolio; made into the XFS image IMAGE by MKFS
# (mkfs.execfolio, without root), 2G: room for the results.
set -eu
me=fstests-root
[ $# -eq 4 ] || { echo "usage: $0 ARCH FSTESTS_SRC MKFS IMAGE" >&2; exit 2; }
arch=$1
src=$2
mkfs=$3
image=$4
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
dir=$(dirname "$image")
[ -f "$src/.built" ] || { echo "$me: $src is not built: run make fstests" >&2; exit 1; }
[ -x "$mkfs" ] || { echo "$me: $mkfs not found: run make" >&2; exit 1; }

packages=$(sed -e 's/#.*//' "$here/packages" | tr -s ' \n' ' ')
tree=$dir/root-tree
key=$(echo "$packages" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$tree.key" 2>/dev/null)" != "$key" ]; then
	rm -rf "$tree" "$tree.key"
	# shellcheck disable=SC2086
	sh "$top/tests/workloads/debian-tree.sh" "$arch" "$tree" $packages
	echo "$key" >"$tree.key"
fi

# fstests and what make check-fstests adds to it, in a copy of the tree.
stage=$dir/root-stage
rm -rf "$stage"
cp -a "$tree" "$stage"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/opt" "$stage/mnt/test" "$stage/mnt/scratch" "$stage/root" \
	"$stage/var/tmp"
cp -a "$src" "$stage/opt/fstests"
find "$stage/opt/fstests" -name '*.o' -delete
"$here/local-config.sh" >"$stage/opt/fstests/local.config"
mkdir -p "$stage/opt/fstests/execfolio"
cp -r "$here/lists" "$here/exclude" "$stage/opt/fstests/execfolio/"
install -m 0755 "$here/guest/run-check" "$stage/opt/fstests/execfolio/run-check"
# fstests asks for these names (common/config); no maintainer script
# made them.
cat >>"$stage/etc/passwd" <<'EOF2'
fsgqa:x:1000:1000::/tmp:/bin/bash
fsgqa2:x:1001:1001::/tmp:/bin/bash
123456-fsgqa:x:1002:1002::/tmp:/bin/bash
EOF2
cat >>"$stage/etc/group" <<'EOF2'
fsgqa:x:1000:
fsgqa2:x:1001:
123456-fsgqa:x:1002:
EOF2
ln -sf ../proc/self/mounts "$stage/etc/mtab"
# The commands update-alternatives would have made.
ln -sf gawk "$stage/usr/bin/awk"
ln -sf gawk "$stage/usr/bin/nawk"
ln -sf which.debianutils "$stage/usr/bin/which"
[ -e "$stage/bin/sh" ] || ln -s dash "$stage/bin/sh"
# pam-auth-update (libpam-runtime's maintainer script) writes these: root
# may su to fsgqa without a password, as on any Debian system.
for f in auth account password session; do
	echo "$f required pam_unix.so" >"$stage/etc/pam.d/common-$f"
done
echo "session required pam_unix.so" >"$stage/etc/pam.d/common-session-noninteractive"

"$mkfs" --force --size 2g --report "$image.report" "$stage" "$image.tmp" >/dev/null || {
	rm -f "$image.tmp"
	echo "$me: $mkfs could not make the root image" >&2
	exit 1
}
mv "$image.tmp" "$image"
echo "$me: $image ($(du -sh "$stage" | cut -f1) of files)"
