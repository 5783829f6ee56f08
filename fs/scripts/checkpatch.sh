#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run scripts/checkpatch.pl --strict on every patch of fs/series, from a
# tree with the series applied (checkpatch reads the patched files to know
# which names already exist).  Fails on any error, warning or check.
#
# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is ignored: it fires
# for every new file, and fs/xfs/ is covered by the XFS entry's F: line.
# CAMELCASE is ignored: mount option tokens are named Opt_* in XFS and
# every other fs_parser user, and checkpatch flags each new one.
# UNKNOWN_COMMIT_ID is ignored: checkpatch looks a Fixes: id up with git,
# and Debian's tarball has no history, so every id is "unknown" there
# (the commit patch 1's Fixes: names, 43e027e41423 of 6.11, is in both
# tarballs).
# KBASE=6.12 checks the backport (fs/backport-6.12/), whose upstream
# commits carried as they are ("commit SHA1 upstream." under the subject,
# as stable backports say) are upstream's text and code: they are listed,
# not checked.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$here/scripts/kbase.sh"
src=${KERNEL_BUILD:-$top/build/kernel}/checkpatch-$kbase
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series_dir/series")

key=$(cat "$series_dir/series" $(for p in $patches; do echo "$series_dir/patches/$p"; done) |
	sha256sum | cut -c1-16)
if [ "$(cat "$src/.execfolio-series" 2>/dev/null)" != "$key" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
	for p in $patches; do
		patch -d "$src" -p1 --fuzz=0 -N -s <"$series_dir/patches/$p" || {
			echo "checkpatch: $series_dir/patches/$p does not apply" >&2
			exit 1
		}
	done
	echo "$key" >"$src/.execfolio-series"
fi

bad=0
for p in $patches; do
	if sed -n '1,/^---$/p' "$series_dir/patches/$p" |
		grep -Eq '^commit [0-9a-f]{40} upstream\.$'; then
		echo "checkpatch: $p: upstream commit, not checked"
		continue
	fi
	if out=$(cd "$src" && perl scripts/checkpatch.pl --strict --quiet \
		--ignore FILE_PATH_CHANGES,CAMELCASE,UNKNOWN_COMMIT_ID "$series_dir/patches/$p" 2>&1); then
		echo "checkpatch: $p: clean"
	else
		echo "checkpatch: $p:"
		echo "$out"
		bad=1
	fi
done
exit $bad
