#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What each kernel series of fs/scripts/build-kernel.sh puts on the tarball
# (--patches, no build): the series of the kernel base in its order,
# nothing for stock, option one on 6.12 as the backport's patches up to
# upstream's commit or the patch given, and a clear error for every
# combination that cannot be built.
. "$(dirname "$0")/../tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Patches of a series file, as the paths build-kernel.sh applies.
series_paths() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e "s|^|$1/patches/|" "$1/series"
}

# patches FSDIR KBASE [SERIES]: what build-kernel.sh of FSDIR applies,
# which it must tell without the tarball.
patches() {
	KBASE=$2 KERNEL_TARBALL=$work/no-tarball.tar.xz \
		"$1/scripts/build-kernel.sh" --patches arm64 release \
		"$work/Image" ${3:-}
}

check_eq "7.3, execfolio: fs/series in its order" \
	"$(patches "$top/fs" 7.3)" "$(series_paths "$top/fs")"
check_eq "6.12, execfolio: the backport's series in its order" \
	"$(patches "$top/fs" 6.12 execfolio)" "$(series_paths "$top/fs/backport-6.12")"
check_eq "stock: no patch" "$(patches "$top/fs" 7.3 stock)" ""

one=$(patches "$top/fs" 6.12 option-one)
last=$(printf '%s\n' "$one" | tail -n 1)
n=$(printf '%s\n' "$one" | wc -l)
check_eq "6.12, option one: the backport's first patches, in order" \
	"$one" "$(series_paths "$top/fs/backport-6.12" | head -n "$n")"
check "6.12, option one: the last one is upstream's exec folio order" \
	grep -q '^commit 38b0ece6d76374b989928021b5d310be11b99b5c upstream' "$last"
check "6.12, option one: nothing of the execfolio series" \
	sh -c '[ $# -gt 0 ] && ! grep -l "exec_folio_size\|folio_pref_order" "$@"' sh $one

echo 'a patch' >"$work/seed.patch"
check_eq "6.12, option one: OPTION_ONE_PATCH replaces it" \
	"$(OPTION_ONE_PATCH=$work/seed.patch patches "$top/fs" 6.12 option-one)" \
	"$work/seed.patch"
check_fails_saying "6.12, option one: an unreadable OPTION_ONE_PATCH is refused" 1 \
	"OPTION_ONE_PATCH=$work/missing.patch: cannot read it" \
	env OPTION_ONE_PATCH="$work/missing.patch" \
	KBASE=6.12 "$top/fs/scripts/build-kernel.sh" --patches arm64 release \
	"$work/Image" option-one
check_fails_saying "7.3, option one: refused (stock 7.3 has it)" 1 \
	"applies to KBASE=6.12 only" patches "$top/fs" 7.3 option-one
check_fails_saying "an unknown series is refused" 1 \
	"unknown kernel series 'bogus'" \
	patches "$top/fs" 7.3 bogus

# A copy of fs/ whose backport lacks upstream's option one, and whose
# series lists a patch that is not there.
mkdir "$work/fs" &&
	cp -r "$top/fs/scripts" "$top/fs/config" "$top/fs/backport-6.12" \
		"$work/fs/" &&
	sed -i '/-mm-filemap-allow-arch-to-request-folio-size-for-exec\.patch$/d' \
		"$work/fs/backport-6.12/series" || {
	echo "Bail out! cannot make a copy of fs/ in $work"
	exit 1
}
check_fails_saying "6.12, option one: refused when the backport lacks it" 1 \
	"has no patch \*-mm-filemap-allow-arch-to-request-folio-size-for-exec" \
	patches "$work/fs" 6.12 option-one
echo 0099-missing.patch >>"$work/fs/backport-6.12/series"
check_fails_saying "a series listing a missing patch is refused" 1 \
	"lists 0099-missing.patch but" patches "$work/fs" 6.12 stock
done_testing
