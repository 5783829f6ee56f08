#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make install into a DESTDIR: every program, page and the apt hook land
# where the documentation says, and apt can parse the hook.
. "$TOP/tests/tap.sh"

dest=$(mktemp -d /tmp/execfolio-install.XXXXXX)
trap 'rm -rf "$dest"' EXIT

check "make install" make -C "$TOP" --no-print-directory install \
	DESTDIR="$dest" PREFIX=/usr
missing=
for f in usr/bin/execfolio usr/sbin/mkfs.execfolio usr/sbin/execfoliofs \
	usr/share/man/man1/execfolio.1 usr/share/man/man8/mkfs.execfolio.8 \
	usr/share/man/man8/execfoliofs.8 usr/libexec/execfolio/dpkg-reapply \
	etc/execfolio/reapply.conf etc/apt/apt.conf.d/99execfolio; do
	[ -f "$dest/$f" ] || missing="$missing $f"
done
check_eq "every file installed" "$missing" ""
check "installed execfolio runs" "$dest/usr/bin/execfolio" --version
hook=$(apt-config -c "$dest/etc/apt/apt.conf.d/99execfolio" dump 2>&1 |
	grep -c "dpkg-reapply \(pre\|post\)")
check_eq "apt parses both hook lines" "$hook" 2
case $(cat "$dest/etc/apt/apt.conf.d/99execfolio") in
*"/usr/libexec/execfolio/dpkg-reapply post"*) ok "hook names the installed script" ;;
*) not_ok "hook names the installed script" ;;
esac
case $(cat "$dest/etc/apt/apt.conf.d/99execfolio") in
*"EXECFOLIO=/usr/bin/execfolio EXECFOLIO_CONF=/etc/execfolio/reapply.conf /usr/libexec"*) ok "hook names the installed execfolio and rules" ;;
*) not_ok "hook names the installed execfolio and rules" ;;
esac
check "man pages format without warnings" sh -c \
	"for p in $dest/usr/share/man/man*/*; do MANWIDTH=80 man --warnings -l \"\$p\" 2>&1 >/dev/null | grep . && exit 1; done; exit 0"

done_testing
