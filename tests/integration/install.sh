#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make install into a DESTDIR: every program, page and the apt hook land
# where the documentation says, apt can parse the hook, and its rules tag
# nothing until the administrator writes one. make install keeps rules the
# administrator edited; make uninstall removes every file install wrote
# but a configuration file the administrator changed, and says so.
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
check_eq "the installed rules file has no active rule" \
	"$(sed 's/#.*//' "$dest/etc/execfolio/reapply.conf" | grep -c '[^[:space:]]')" 0

# The administrator's rules survive make install (the apt hook, which
# names the installed paths, is written anew) ...
conf=$dest/etc/execfolio/reapply.conf
apt_hook=$dest/etc/apt/apt.conf.d/99execfolio
echo '/usr/bin/* 64k' >> "$conf"
out=$(make -C "$TOP" --no-print-directory install DESTDIR="$dest" PREFIX=/usr 2>&1)
check_eq "make install again keeps the edited rules, and says so" \
	"$(tail -1 "$conf") $(echo "$out" | grep -c "keeping $conf")" "/usr/bin/* 64k 1"
# ... and make uninstall keeps them and an edited hook, removing the rest.
echo '// edited' >> "$apt_hook"
out=$(make -C "$TOP" --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr 2>&1)
check_eq "make uninstall exits 0" "$?" 0
check_eq "... and leaves the two edited configuration files alone" \
	"$(cd "$dest" && find . -type f -o -type l | sort | tr '\n' ' ')" \
	"./etc/apt/apt.conf.d/99execfolio ./etc/execfolio/reapply.conf "
check_eq "... saying so for each" "$(echo "$out" | grep -c 'uninstall: keeping')" 2
check_eq "... and removes its own directories" \
	"$(ls -d "$dest/usr/libexec/execfolio" 2>&1 | grep -c 'No such file')" 1

# Unedited, the configuration files go too, with the execfolio directories.
rm "$conf" "$apt_hook"
make -C "$TOP" --no-print-directory install DESTDIR="$dest" PREFIX=/usr > /dev/null 2>&1
mkdir -p "$dest/var/lib/execfolio"
touch "$dest/var/lib/execfolio/last-run"
make -C "$TOP" --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr > /dev/null 2>&1
check_eq "make uninstall of an unedited install leaves no file" \
	"$(cd "$dest" && find . -type f -o -type l)" ""
check_eq "... nor the execfolio directories or the hook's state" \
	"$(cd "$dest" && find . -name '*execfolio*')" ""

done_testing
