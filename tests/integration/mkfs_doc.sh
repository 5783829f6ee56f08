#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The man page of mkfs.execfolio documents every option --help lists, and
# --version, and renders without warnings in 80 columns, examples included.
. "$TOP/tests/tap.sh"

MKFS=$BIN/mkfs.execfolio
PAGE=$TOP/man/mkfs.execfolio.8
[ -x "$MKFS" ] || skip_all "$MKFS not built"
command -v man > /dev/null || skip_all "man (package man-db) not installed"

W=$(mktemp -d /tmp/mkfs-doc.XXXXXX)
trap 'rm -rf "$W"' EXIT

MANWIDTH=80 man --warnings -l "$PAGE" > "$W/page" 2> "$W/warnings"
check_eq "the page renders without warnings" "$(cat "$W/warnings")" ""
check_eq "no line of the page is wider than 80 columns" \
	"$(expand "$W/page" | awk 'length > 80')" ""
"$MKFS" --help > "$W/help"
missing=
for opt in $(grep -o -- '--[a-z][a-z-]*' "$W/help" | sort -u); do
	grep -Eq -- "^ *(-[a-z], )?$opt( |\$)" "$W/page" || missing="$missing $opt"
done
check_eq "every option --help lists has its entry in the page" "$missing" ""
check "--help lists --version" grep -q -- '--version' "$W/help"
check "the page has an entry for --version" grep -q '^ *--version$' "$W/page"

done_testing
