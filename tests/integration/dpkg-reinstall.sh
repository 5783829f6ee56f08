#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The package hook through apt and dpkg themselves: `make install` into a
# temporary prefix, its apt.conf.d file given to apt-get -c, and
# `apt-get install --reinstall gzip`. dpkg drops the attribute of the files
# it replaces; the hook puts it back on /usr/bin/gzip, although Debian 12's
# dpkg lists the file as /bin/gzip (merged /usr) and the shipped rules say
# /usr/bin/*. The system is left as found: gzip at the same version, no
# attribute it did not have, no hook or state outside the temporary prefix.
. "$TOP/tests/tap.sh"

EF=$BIN/execfolio
[ "$(id -u)" = 0 ] || skip_all "needs root to run apt-get"
for c in apt-get dpkg-query getfattr setfattr jq; do
	command -v $c > /dev/null || skip_all "$c not installed"
done
[ "$(dpkg-query -W -f '${db:Status-Status}' gzip 2> /dev/null)" = installed ] ||
	skip_all "gzip is not installed"
listed=$(dpkg-query -L gzip | grep -m1 '/bin/gzip$')
real=$(realpath "$listed")
cache=/var/cache/apt/archives/gzip_$(dpkg-query -W -f '${Version}_${Architecture}' gzip | sed 's/:/%3a/').deb
[ -e "$cache" ] && had_deb=yes || had_deb=no

T=$(mktemp -d /tmp/execfolio-reinstall.XXXXXX)
chmod 755 "$T"
attr=trusted.exec_folio_size
before=$(getfattr --absolute-names --only-values -n $attr "$real" 2> /dev/null)
restore() {
	if [ -n "$before" ]; then
		setfattr -n $attr -v "$before" "$real"
	else
		setfattr -x $attr "$real" 2> /dev/null
	fi
	[ "$had_deb" = yes ] || rm -f "$cache"
	rm -rf "$T"
}
trap restore EXIT

apt_get() {
	DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0 \
		-o DPkg::Lock::Timeout=120 "$@"
}
apt_get install --reinstall --download-only gzip > "$T/download.log" 2>&1 ||
	skip_all "apt-get cannot fetch gzip: $(tail -1 "$T/download.log")"

diag "dpkg lists $listed, which is $real"
raw() { getfattr --absolute-names --only-values -n $attr "$1" 2> /dev/null; }

check "make install into $T" make -C "$TOP" --no-print-directory install \
	PREFIX="$T/prefix" SYSCONFDIR="$T/etc"
hook=$T/etc/apt/apt.conf.d/99execfolio
want=$("$EF" scan --json "$real" | jq -r '.[0].recommended')

# Without the hook a reinstall drops the attribute: that is what it fixes.
"$EF" set 2m "$real" 2> /dev/null
if apt_get install --reinstall gzip > "$T/plain.log" 2>&1; then
	check_eq "without the hook, a reinstall drops the attribute of $real" "$(raw "$real")" ""
else
	not_ok "without the hook, a reinstall drops the attribute of $real"
	diag "$(tail -5 "$T/plain.log")"
fi

# With it (and its state kept in $T, not /var/lib/execfolio).
export EXECFOLIO_STATE_DIR="$T/state"
apt_get -c "$hook" install --reinstall gzip > "$T/hook.log" 2>&1
rc=$?
check_eq "apt-get install --reinstall gzip with the hook exits 0" "$rc" 0
[ $rc = 0 ] || diag "$(tail -20 "$T/hook.log")"
got=$(raw "$real")
[ -n "$got" ] || got=none
check_eq "the hook tagged $real as the shipped rule (/usr/bin/* auto) says: $want" \
	"$got" "$want"
if grep -q "^$real: set $want\$" "$T/hook.log"; then
	ok "... by its resolved path, as apt's output shows"
else
	not_ok "... by its resolved path, as apt's output shows"
	diag "$(grep -i execfolio "$T/hook.log")"
fi
check_eq "the hook ran with the installed execfolio and rules, state in $T" \
	"$([ -f "$T/state/dpkg-stamp" ] && echo yes)" "yes"
case $(cat "$hook") in
*"EXECFOLIO=$T/prefix/bin/execfolio EXECFOLIO_CONF=$T/etc/execfolio/reapply.conf $T/prefix/libexec/execfolio/dpkg-reapply post"*)
	ok "the apt hook names the installed execfolio, rules and script" ;;
*) not_ok "the apt hook names the installed execfolio, rules and script"; diag "$(cat "$hook")" ;;
esac
check "gzip still works" sh -c 'echo hello | gzip | gzip -d | grep -qx hello'

done_testing
