#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkdisk.sh RECIPE ARCH IMAGE
#
# The one way the VM tiers, the demo and the benchmarks make an XFS disk.
# RECIPE (tests/vm/disks/RECIPE.sh for a bare name, else the path of a
# caller's own recipe) fills a staging tree; mkfs.execfolio makes IMAGE
# from it rootless; the recipe may then check IMAGE and write to it
# through a loop mount (as root: the host's kernel knows nothing of the
# policy and stores any xattr value as given).
#
# IMAGE is kept and reused while its inputs are unchanged: the hash of
# ARCH, the recipe, this script, mkfs.execfolio and whatever the recipe
# names as its inputs is in IMAGE.key, written last, so that an image
# whose build failed half way is never taken as current.  Each boot
# should run on a copy (cp --sparse=always): the guests write to it.
#
# A recipe is sourced with $arch, $bin (build/ARCH/bin, the guest
# programs), $top and $build set, and defines
#   disk_inputs    print what the image is made from, for the key: file
#                  hashes (sha256sum FILE...), trees (disk_tree DIR),
#                  parameters
#   disk_stage     fill the directory $stage; add mkfs.execfolio rules
#                  (disk_rule PATTERN=SIZE); set disk_size (default 1g:
#                  room to spare in every allocation group, the file is
#                  sparse), disk_strict=1 for --strict and
#                  disk_block_size (default mkfs.xfs's, 4096) for
#                  another block size
# and, if it needs them,
#   disk_check     IMAGE: check what mkfs.execfolio made
#   disk_loop      MNT: write to IMAGE, mounted at MNT (needs root)
# Recipes check their inputs with disk_need FILE HINT.
set -eu
[ $# -eq 3 ] || {
	echo "mkdisk: usage: mkdisk.sh RECIPE ARCH IMAGE" >&2
	exit 2
}
recipe=$1
arch=$2
image=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=$top/build
# shellcheck disable=SC2034 # for the recipes
bin=$build/$arch/bin
mkfs=$build/bin/mkfs.execfolio
case $recipe in
*/*) ;;
*) recipe=$top/tests/vm/disks/$recipe.sh ;;
esac
name=$(basename "$recipe" .sh)

die() {
	echo "mkdisk: $name: $*" >&2
	exit 1
}

# FILE must exist (and be executable if it is a program); HINT says how
# to make it.
disk_need() { # FILE HINT
	[ -e "$1" ] || die "$1 is missing: $2"
}

# A listing of the tree DIR for the key: every path with its size, mtime
# and mode, so that a changed, added or removed file changes the key.
disk_tree() { # DIR
	(cd "$1" && find . -printf '%p %s %T@ %m\n' | sort)
}

rules=
disk_rule() { # PATTERN=SIZE
	rules="$rules
$1"
}

[ -r "$recipe" ] || die "no recipe $recipe"
disk_need "$mkfs" "run make"
disk_size=1g
disk_strict=
disk_block_size=
disk_check() { :; }
unset -f disk_loop 2>/dev/null || true
# shellcheck source=/dev/null
. "$recipe"

key=$({
	echo "$arch"
	sha256sum "$recipe" "$0" "$mkfs" | cut -d' ' -f1
	disk_inputs
} | sha256sum | cut -d' ' -f1)
if [ -f "$image" ] && [ "$(cat "$image.key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi

stage=$image.root
mnt=
cleanup() {
	status=$?
	[ "$status" = 0 ] || echo "mkdisk: $name: $image not made (exit status $status)" >&2
	if [ -n "$mnt" ]; then
		! mountpoint -q "$mnt" || umount "$mnt"
		rmdir "$mnt"
	fi
	rm -rf "$stage"
}
trap cleanup EXIT
rm -rf "$stage" "$image" "$image.key"
mkdir -p "$(dirname "$image")" "$stage"
disk_stage

# The rules, one per line, as arguments: no word splitting or globbing
# inside a pattern.
set -f
IFS='
'
# shellcheck disable=SC2086
set -- $rules
unset IFS
set +f
n=$#
for r; do set -- "$@" --rule "$r"; done
shift "$n"
"$mkfs" ${disk_strict:+--strict} "$@" --size "$disk_size" \
	--report "$image.report" "$stage" "$image" \
	${disk_block_size:+-- -b size=$disk_block_size}
disk_check "$image"
if command -v disk_loop >/dev/null; then
	mnt=$(mktemp -d /tmp/execfolio-mkdisk.XXXXXX)
	mount -o loop "$image" "$mnt"
	disk_loop "$mnt"
	umount "$mnt"
	rmdir "$mnt"
	mnt=
fi
echo "$key" >"$image.key"
