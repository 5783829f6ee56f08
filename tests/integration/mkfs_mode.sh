#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs.execfolio makes IMAGE as other tools make files: mode 0666 less the
# umask, also when --force replaces a file of another mode.
. "$TOP/tests/tap.sh"

MKFS=$BIN/mkfs.execfolio
[ -x "$MKFS" ] || skip_all "$MKFS not built"
command -v mkfs.xfs > /dev/null || [ -x /usr/sbin/mkfs.xfs ] || skip_all "xfsprogs not installed"

W=$(mktemp -d /tmp/mkfs-mode.XXXXXX)
trap 'rm -rf "$W"' EXIT

mkdir "$W/src"
echo data > "$W/src/file"
for mask in 022 002 077; do
	(umask $mask && "$MKFS" "$W/src" "$W/img-$mask" 2> "$W/err")
	check_eq "umask $mask: IMAGE made with mode $(printf '%o' $((0666 & ~0$mask)))" \
		"$(stat -c %a "$W/img-$mask" 2>&1)" "$(printf '%o' $((0666 & ~0$mask)))"
done
chmod 600 "$W/img-022"
(umask 022 && "$MKFS" --force "$W/src" "$W/img-022" 2> "$W/err")
check_eq "umask 022, --force over a file of mode 600: mode 644" \
	"$(stat -c %a "$W/img-022" 2>&1)" 644

done_testing
