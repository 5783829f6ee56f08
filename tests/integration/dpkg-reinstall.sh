#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The package hook through apt and dpkg themselves: `make install` into a
# temporary prefix, its apt.conf.d file given to apt-get -c, and
# `apt-get install --reinstall gzip`. dpkg drops the attribute of the files
# it replaces; the hook puts the administrator's value back on
# /usr/bin/gzip, tags nothing with the installed rules, and with a rule the
# administrator wrote tags the file, although Debian 12's dpkg lists it as
# /bin/gzip (merged /usr). The system is left as found: gzip at the same
# version, no attribute it did not have, no hook or state outside the
# temporary prefix.
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
zcat=$(realpath "$(dpkg-query -L gzip | grep -m1 '/bin/zcat$')")
cache=/var/cache/apt/archives/gzip_$(dpkg-query -W -f '${Version}_${Architecture}' gzip | sed 's/:/%3a/').deb
[ -e "$cache" ] && had_deb=yes || had_deb=no

T=$(mktemp -d /tmp/execfolio-reinstall.XXXXXX)
chmod 755 "$T"
attr=trusted.exec_folio_size
getfattr --absolute-names -d -m "^trusted\.exec_folio_size\$" "$real" "$zcat" \
	> "$T/before" 2> /dev/null
restore() {
	setfattr -x $attr "$real" 2> /dev/null
	setfattr -x $attr "$zcat" 2> /dev/null
	setfattr --restore="$T/before"
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

# Without the hook a reinstall drops the attribute: that is what it fixes.
"$EF" set 2m "$real" 2> /dev/null
setfattr -x $attr "$zcat" 2> /dev/null
if apt_get install --reinstall gzip > "$T/plain.log" 2>&1; then
	check_eq "without the hook, a reinstall drops the attribute of $real" "$(raw "$real")" ""
else
	not_ok "without the hook, a reinstall drops the attribute of $real"
	diag "$(tail -5 "$T/plain.log")"
fi

# With it (and its state kept in $T, not /var/lib/execfolio).
export EXECFOLIO_STATE_DIR="$T/state"
# reinstall LOG: apt-get install --reinstall gzip with the hook; its exit
# status, then the lines the hook printed (every one names execfolio).
reinstall() {
	apt_get -c "$hook" install --reinstall gzip > "$T/$1" 2>&1
	echo $?
	grep -i execfolio "$T/$1"
}

# The installed rules tag nothing: an untagged file stays untagged.
check_eq "with the installed rules, a reinstall exits 0, the hook silent" \
	"$(reinstall default.log)" 0
check_eq "... and $real, which had no attribute, still has none" \
	"$(raw "$real")" ""

# The administrator's value comes back, whatever a rule says; a rule the
# administrator wrote tags the file dpkg lists as /bin/zcat (merged /usr).
"$EF" set 64k "$real" 2> /dev/null
printf '%s\n' '/usr/bin/gzip auto' '/usr/bin/zcat 2m' \
	>> "$T/etc/execfolio/reapply.conf"
out=$(reinstall rules.log)
check_eq "a reinstall puts the administrator's 64k back on $real" \
	"$(raw "$real")" "64k"
check_eq "... and the rule /usr/bin/zcat 2m tags $zcat" "$(raw "$zcat")" "2m"
check_eq "... by its resolved path, as last-run shows" \
	"$(grep -c "^set \"2m\" $zcat\$" "$T/state/last-run")" 1
check_eq "... in one line of output, and exits 0" \
	"$(printf '%s\n' "$out" | sed 1d | wc -l) $(printf '%s\n' "$out" | head -1)" "1 0"
case $out in
*"policy put back on 1 file(s), set by rules on 1"*) ok "... which says what was done" ;;
*) not_ok "... which says what was done"; diag "$out" ;;
esac
check_eq "the hook ran with the installed execfolio and rules, state in $T" \
	"$([ -f "$T/state/last-run" ] && [ ! -e "$T/state/packages" ] && echo yes)" "yes"
case $(cat "$hook") in
*"EXECFOLIO=$T/prefix/bin/execfolio EXECFOLIO_CONF=$T/etc/execfolio/reapply.conf $T/prefix/libexec/execfolio/dpkg-reapply post"*)
	ok "the apt hook names the installed execfolio, rules and script" ;;
*) not_ok "the apt hook names the installed execfolio, rules and script"; diag "$(cat "$hook")" ;;
esac
# Removed (not purged), the package leaves its configuration: the hook
# lines then do nothing, and apt still runs.
mv "$T/prefix/libexec/execfolio/dpkg-reapply" "$T/dpkg-reapply.removed"
check "with the script gone, apt-get install --reinstall gzip still works" \
	apt_get -c "$hook" install --reinstall gzip
check "gzip still works" sh -c 'echo hello | gzip | gzip -d | grep -qx hello'

done_testing
