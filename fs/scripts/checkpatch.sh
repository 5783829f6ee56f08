#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run scripts/checkpatch.pl --strict on every patch of fs/series, from a
# tree with the series applied (checkpatch reads the patched files to know
# which names already exist).  Fails on any error, warning or check.
#
# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is ignored: it fires
# for every new file, and fs/xfs/ is covered by the XFS entry's F: line.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
src=${KERNEL_BUILD:-$top/build/kernel}/checkpatch
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/series")

key=$(cat "$here/series" $(for p in $patches; do echo "$here/patches/$p"; done) |
	sha256sum | cut -c1-16)
if [ "$(cat "$src/.execfolio-series" 2>/dev/null)" != "$key" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
	for p in $patches; do
		patch -d "$src" -p1 --fuzz=0 -N -s <"$here/patches/$p" || {
			echo "checkpatch: fs/patches/$p does not apply" >&2
			exit 1
		}
	done
	echo "$key" >"$src/.execfolio-series"
fi

bad=0
for p in $patches; do
	if out=$(cd "$src" && perl scripts/checkpatch.pl --strict --quiet \
		--ignore FILE_PATH_CHANGES "$here/patches/$p" 2>&1); then
		echo "checkpatch: $p: clean"
	else
		echo "checkpatch: $p:"
		echo "$out"
		bad=1
	fi
done
exit $bad
