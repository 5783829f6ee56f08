#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make deb: the package builds, lintian finds nothing (overrides aside), its
# dependencies are computed, apt installs it on this machine, each tool it
# holds works from where it installed them, and a purge leaves nothing of
# it behind, configuration files and the apt hook's state included. While
# installed, its apt hook leaves a package reinstall's files as they were.
. "$TOP/tests/tap.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root to install the package"
for tool in dh lintian apt-get dpkg-deb getfattr setfattr; do
	command -v $tool >/dev/null ||
		skip_all "$tool not installed: run 'make deps' as root"
done
status=$(dpkg-query -W -f '${Status}' execfolio 2>/dev/null)
case $status in
*" not-installed" | "") ;;
*) skip_all "an execfolio package is already installed ($status); not touching it" ;;
esac

# A `make install` into /etc would be taken over, then purged, by the package.
for f in /etc/apt/apt.conf.d/99execfolio /etc/execfolio; do
	[ -e "$f" ] && skip_all "$f exists (make install?); not replacing it"
done


work=$(mktemp -d /tmp/execfolio-deb.XXXXXX)
chmod 755 "$work"
installed=
gzip= gzip_attr=
cleanup() {
	# gzip's attribute as the test found it.
	if [ -n "$gzip_attr" ]; then
		setfattr -n trusted.exec_folio_size -v "$gzip_attr" "$gzip"
	elif [ -n "$gzip" ]; then
		setfattr -x trusted.exec_folio_size "$gzip" 2>/dev/null
	fi
	mountpoint -q "$work/mnt" 2>/dev/null && fusermount3 -u "$work/mnt"
	# A failed test must not leave the package installed.
	[ -n "$installed" ] && dpkg --purge execfolio >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
# Another apt run on the machine holds the lock for a while at most.
APT="apt-get -y -q -o DPkg::Lock::Timeout=120"
export DEBIAN_FRONTEND=noninteractive

# --- build and inspect ----------------------------------------------------------
check_fails "make deb refuses a VERSION that debian/changelog does not have" 2 \
	make -C "$TOP" --no-print-directory deb VERSION=0.0.1
check "make deb" make -C "$TOP" --no-print-directory deb
set -- "$TOP"/build/execfolio_*_"$(dpkg --print-architecture)".deb
deb=$1
check_eq "one package, named execfolio_VERSION_ARCH.deb" \
	"$# $([ -f "$deb" ] && echo yes)" "1 yes"
lint=$(lintian -I -E --pedantic "$deb" 2>/dev/null)
lint_status=$?
check_eq "lintian -I -E --pedantic: no tag" \
	"$lint_status $lint" "0 "
depends=$(dpkg-deb -f "$deb" Depends)
missing=
for dep in 'libfuse3-3 (>= ' 'liburcu8 (>= ' 'libc6 (>= ' attr fuse3 xfsprogs; do
	case ", $depends," in
	*", $dep"*) ;;
	*) missing="$missing $dep" ;;
	esac
done
check_eq "Depends: shared libraries (computed), attr, fuse3 and xfsprogs" "$missing" ""
diag "Depends: $depends"
check_eq "the apt hook and its rules are conffiles" \
	"$(dpkg-deb -I "$deb" conffiles | sort | tr '\n' ' ' | sed 's/ $//')" \
	"/etc/apt/apt.conf.d/99execfolio /etc/execfolio/reapply.conf"
rules=$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./etc/execfolio/reapply.conf |
	sed 's/#.*//' | grep -c '[^[:space:]]')
description=$(dpkg-deb -f "$deb" Description | tr -s ' \n' '  ')
case $description in
*"records the attributes"*"puts the same values back"*"ships with none"*)
	check_eq "the description says what the hook does; the shipped rules tag nothing" \
		"$rules" 0 ;;
*) not_ok "the description says what the hook does; the shipped rules tag nothing"
	diag "$description" ;;
esac

# --- install and use --------------------------------------------------------------
installed=1
check "apt-get install ./$(basename "$deb")" sh -c "cd '$(dirname "$deb")' && $APT install './$(basename "$deb")'"
dpkg -L execfolio | sort > "$work/files"
conffiles=$(dpkg-query -W -f '${Conffiles}\n' execfolio | awk 'NF { print $1 }')
missing=
for f in /usr/bin/execfolio /usr/sbin/mkfs.execfolio /usr/sbin/execfoliofs \
	/usr/libexec/execfolio/dpkg-reapply /usr/share/man/man8/execfoliofs.8.gz; do
	grep -qx "$f" "$work/files" || missing="$missing $f"
done
check_eq "dpkg -L lists the programs, the hook and the man pages" "$missing" ""
warned=
for page in $(grep '^/usr/share/man/.*\.gz$' "$work/files"); do
	MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null | grep -q . &&
		warned="$warned $page"
done
check_eq "the three man pages are installed and format without warnings" \
	"$(grep -c '^/usr/share/man/.*\.gz$' "$work/files") $warned" "3 "
hook=$(apt-config dump 2>&1 | grep -c '/usr/libexec/execfolio/dpkg-reapply \(pre\|post\)')
check_eq "apt reads the installed hook (pre and post)" "$hook" 2

check_eq "execfolio scan /bin/true" \
	"$(/usr/bin/execfolio scan /bin/true 2>&1 | awk 'NR == 2 { print $1 }')" "executable"
mkdir -p "$work/tree/bin" "$work/img"
cp /bin/true "$work/tree/bin/true"
check "mkfs.execfolio of a small tree" /usr/sbin/mkfs.execfolio \
	--exec-folio-size 64k "$work/tree" "$work/img/tree.xfs"
check "xfs_repair -n accepts the image" xfs_repair -n "$work/img/tree.xfs"

if [ -c /dev/fuse ]; then
	mkdir "$work/backing" "$work/mnt"
	echo "through the package" > "$work/backing/file"
	cp /bin/true "$work/backing/true"
	check "execfoliofs mounts a directory" /usr/sbin/execfoliofs \
		-o exec_folio_size=64k "$work/backing" "$work/mnt"
	check_eq "a file reads through the mount" \
		"$(cat "$work/mnt/file" 2>&1)" "through the package"
	check_eq "the mount's policy applies to an executable" \
		"$(getfattr --absolute-names --only-values \
			-n trusted.execfoliofs.policy "$work/mnt/true" 2>&1)" \
		"64k mount"
	check "fusermount3 -u" fusermount3 -u "$work/mnt"
else
	skip "execfoliofs mounts a directory: no /dev/fuse"
	skip "a file reads through the mount: no /dev/fuse"
	skip "the mount's policy applies to an executable: no /dev/fuse"
	skip "fusermount3 -u: no /dev/fuse"
fi

# The installed hook on a reinstall: gzip's files come back as they were,
# untagged (the shipped rules tag nothing), and the hook says nothing.
gzip=$(realpath "$(dpkg-query -L gzip | grep -m1 '/bin/gzip$')")
gzip_attr=$(getfattr --absolute-names --only-values -n trusted.exec_folio_size "$gzip" 2>/dev/null)
setfattr -x trusted.exec_folio_size "$gzip" 2>/dev/null
$APT install --reinstall gzip > "$work/reinstall.log" 2>&1
rc=$?
check_eq "apt-get install --reinstall gzip: exit 0, nothing from the hook" \
	"$rc $(grep -ci execfolio "$work/reinstall.log")" "0 0"
check_eq "... and $gzip, untagged before, is untagged" \
	"$(getfattr --absolute-names --only-values -n trusted.exec_folio_size "$gzip" 2>/dev/null)" ""
check "the hook keeps its state in /var/lib/execfolio" test -d /var/lib/execfolio

# --- purge ---------------------------------------------------------------------
check "apt-get purge execfolio" $APT purge execfolio
installed=
check_eq "dpkg no longer knows the package" \
	"$(dpkg-query -W -f '${Status}' execfolio 2>/dev/null | grep -v not-installed)" ""
# Directories other packages share (/usr/bin, ...) stay; the package's own
# directories go, and so does every file, configuration files included.
left=
while IFS= read -r path; do
	[ -e "$path" ] || [ -L "$path" ] || continue
	case $path in
	*execfolio*) left="$left $path" ;;
	*) [ -d "$path" ] || left="$left $path" ;;
	esac
done < "$work/files"
check_eq "every file and directory of the package is gone" "$left" ""
left=
for f in $conffiles; do [ -e "$f" ] && left="$left $f"; done
check_eq "the configuration files are gone" "$left" ""
check_eq "two configuration files were checked" "$(echo "$conffiles" | wc -w)" 2
check "the hook's state is gone" test ! -e /var/lib/execfolio
check_eq "... and $gzip is as untagged as before" \
	"$(getfattr --absolute-names --only-values -n trusted.exec_folio_size "$gzip" 2>/dev/null)" ""

done_testing
