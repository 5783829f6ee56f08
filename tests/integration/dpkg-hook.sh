#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The package hook on a dpkg database of its own: the pre step reads the
# .deb files apt passes it and records the attributes of those packages'
# files; after a (simulated) upgrade replaced them, the post step puts back
# exactly those values, tags new files only where a rule says so, leaves
# other packages alone, prints one line at most, and reports bad rules.
. "$TOP/tests/tap.sh"
. "$TOP/tests/xfs-scratch.sh"

why=$(xfs_unavailable)
[ -z "$why" ] || skip_all "$why"
for c in getfattr setfattr dpkg-deb dpkg-query jq; do
	command -v $c > /dev/null || skip_all "$c not installed"
done
xfs_scratch_mount || skip_all "cannot mount an XFS loop device"


M=$SCRATCH_MNT
H=$SCRATCH_DIR/hook
mkdir -p "$H/admin/info" "$H/state" "$M/usr/lib" "$M/usr/bin" "$M/usr/share/foo"
# The database layout with architecture-qualified file lists.
echo 1 > "$H/admin/info/format"
: > "$H/admin/status"
libc=$(ldd /bin/true | awk '/libc.so/ { print $3 }')
arch=$(dpkg --print-architecture)
export EXECFOLIO="$BIN/execfolio" EXECFOLIO_CONF="$H/reapply.conf" \
	EXECFOLIO_STATE_DIR="$H/state" DPKG_ADMINDIR="$H/admin"
HOOK=$TOP/dist/dpkg-reapply

raw() { getfattr --absolute-names --only-values -n trusted.exec_folio_size "$1" 2> /dev/null; }
has() { getfattr --absolute-names -n trusted.exec_folio_size "$1" > /dev/null 2>&1; }

# package NAME ARCH FILE...: NAME installed in the database with these
# files, and $H/NAME.deb, the archive apt would unpack over it.
package() {
	name=$1 pkg_arch=$2 list=$name ma=no
	shift 2
	[ "$pkg_arch" = all ] || list=$name:$pkg_arch ma=same
	fields="Architecture: $pkg_arch
Multi-Arch: $ma
Maintainer: t <t@example.org>
Description: t"
	printf 'Package: %s\nStatus: install ok installed\nVersion: 1\n%s\n\n' \
		"$name" "$fields" >> "$H/admin/status"
	printf '%s\n' "$@" > "$H/admin/info/$list.list"
	mkdir -p "$H/src/$name/DEBIAN"
	printf 'Package: %s\nVersion: 2\n%s\n' "$name" "$fields" \
		> "$H/src/$name/DEBIAN/control"
	dpkg-deb -Znone -b "$H/src/$name" "$H/$name.deb" > /dev/null
}

# What dpkg does to a file it unpacks: a new file in its place.
replace() {
	for f in "$@"; do
		cp "${src:-$libc}" "$f.dpkg-new" && mv "$f.dpkg-new" "$f"
	done
}

cat > "$EXECFOLIO_CONF" << CONF
# test rules
$M/usr/lib/*.so* 64k
$M/usr/lib/special.so 16k   # later rules win
$M/usr/bin/* auto
CONF

# libfoo (upgraded): libraries the administrator tagged (2m, an explicit
# none, and 65536 written with setfattr), a program the auto rule covers,
# and a data file no rule names. libmulti (upgraded): architecture
# qualified, tagged 16k. other (not upgraded): a library the rules cover.
L=$M/usr/lib
for f in libfoo.so.1 special.so libodd.so.1 libmulti.so.1 libother.so.1; do
	cp "$libc" "$L/$f"
done
cp /bin/ls "$M/usr/bin/foo"
echo data > "$M/usr/share/foo/data"
package libfoo all "$M/usr" "$L" "$L/libfoo.so.1" "$L/special.so" \
	"$L/libodd.so.1" "$M/usr/bin/foo" "$M/usr/share/foo/data"
package libmulti "$arch" "$L/libmulti.so.1"
package other all "$L/libother.so.1"
"$BIN/execfolio" set 2m "$L/libfoo.so.1" 2> /dev/null
"$BIN/execfolio" set none "$L/special.so" 2> /dev/null
setfattr -n trusted.exec_folio_size -v 65536 "$L/libodd.so.1"
"$BIN/execfolio" set 16k "$L/libmulti.so.1" 2> /dev/null

check "pre step, given the two .deb files" sh -c \
	"printf '%s\n' '$H/libfoo.deb' '$H/libmulti.deb' | '$HOOK' pre"
# The upgrade: dpkg writes every file anew, and libfoo gains a library.
replace "$L/libfoo.so.1" "$L/special.so" "$L/libodd.so.1" "$L/libmulti.so.1"
src=/bin/ls replace "$M/usr/bin/foo"
cp "$libc" "$L/libnew.so.1"
echo "$L/libnew.so.1" >> "$H/admin/info/libfoo.list"
if has "$L/libfoo.so.1"; then not_ok "the upgrade dropped the attributes"; else ok "the upgrade dropped the attributes"; fi

out=$("$HOOK" post 2>&1)
rc=$?
check_eq "post step exits 0" "$rc" 0
check_eq "the administrator's 2m is put back, not the rule's 64k" \
	"$(raw "$L/libfoo.so.1")" "2m"
check_eq "an explicit none is put back" "$(raw "$L/special.so")" "none"
check_eq "a value written with setfattr is put back byte for byte" \
	"$(raw "$L/libodd.so.1")" "65536"
check_eq "an architecture-qualified package's file is put back" \
	"$(raw "$L/libmulti.so.1")" "16k"
check_eq "a new library is tagged by its rule" "$(raw "$L/libnew.so.1")" "64k"
want=$("$BIN/execfolio" scan --json "$M/usr/bin/foo" | jq -r '.[0].recommended')
got=$(raw "$M/usr/bin/foo"); [ -n "$got" ] || got=none
check_eq "an auto rule applies the recommendation ($want)" "$got" "$want"
if has "$M/usr/share/foo/data"; then not_ok "a file no rule names stays untagged"; else ok "a file no rule names stays untagged"; fi
if has "$L/libother.so.1"; then not_ok "a package not unpacked is left alone"; else ok "a package not unpacked is left alone"; fi
# Where the file system ignores the policy (XFS without the series), the
# line says so, instead of a warning per file.
ignored=
"$BIN/execfolio" get -v "$L/libfoo.so.1" 2> /dev/null | grep -q ' applied_by=none' &&
	ignored="; 6 on file systems that do not apply it (xfs)"
check_eq "one line of output, and no warning per file" \
	"$(printf '%s\n' "$out" | wc -l) $(echo "$out" | grep -c "put back on 4 file(s), set by rules on 2$ignored;")" "1 1"
diag "$out"
check_eq "last-run names what was put back and what was set" \
	"$(grep -c '^restored ' "$H/state/last-run") $(grep -c '^set ' "$H/state/last-run")" "4 2"

# A run in which dpkg replaced nothing that had an attribute or that a
# rule names says nothing.
printf '%s\n' "$H/libfoo.deb" | "$HOOK" pre
out=$("$HOOK" post 2>&1)
check_eq "a run that changes nothing prints nothing, exits 0" "$? $out" "0 "

# Merged /usr: dpkg lists $M/bin/tool and $M/lib/libbar.so.1 (symlinked
# directories) for files the rules name under $M/usr; a file listed under
# both names is tagged once.
ln -s usr/bin "$M/bin"
ln -s usr/lib "$M/lib"
cp /bin/ls "$M/usr/bin/tool"
cp "$libc" "$L/libbar.so.1"
cp /bin/ls "$M/usr/bin/both"
cp /bin/ls "$M/usr/bin/kept"
want=$("$BIN/execfolio" scan --json "$M/usr/bin/tool" | jq -r '.[0].recommended')
package merged all "$M/bin" "$M/bin/tool" "$M/lib/libbar.so.1" "$M/bin/both" \
	"$M/usr/bin/both" "$M/bin/kept"
"$BIN/execfolio" set 2m "$M/usr/bin/kept" 2> /dev/null
printf '%s\n' "$H/merged.deb" | "$HOOK" pre
src=/bin/ls replace "$M/usr/bin/kept"
"$HOOK" post > /dev/null 2>&1
got=$(raw "$M/usr/bin/tool"); [ -n "$got" ] || got=none
check_eq "merged /usr: a /usr/bin/* auto rule tags the file dpkg lists as /bin/tool ($want)" \
	"$got" "$want"
check_eq "merged /usr: a /usr/lib/*.so* rule tags /lib/libbar.so.1" \
	"$(raw "$L/libbar.so.1")" "64k"
check_eq "... set on the resolved path, listed once in last-run" \
	"$(grep -c " $L/libbar.so.1\$" "$H/state/last-run")" 1
check_eq "a file listed under two names is set once" \
	"$(grep -c " $M/usr/bin/both\$" "$H/state/last-run")" 1
check_eq "merged /usr: the value of the file listed as /bin/kept is put back" \
	"$(raw "$M/usr/bin/kept")" "2m"

# The record of a run whose post step never ran (apt stopped) is kept:
# the next run still puts those values back.
"$BIN/execfolio" set 2m "$L/libfoo.so.1" 2> /dev/null
printf '%s\n' "$H/libfoo.deb" | "$HOOK" pre
replace "$L/libfoo.so.1"
printf '%s\n' "$H/libfoo.deb" | "$HOOK" pre
replace "$L/libfoo.so.1"
"$HOOK" post > /dev/null 2>&1
check_eq "a record whose post step never ran is put back by the next" \
	"$(raw "$L/libfoo.so.1")" "2m"

# Bad rules are reported; the recorded values are put back all the same.
echo "usr/lib/* 64k" > "$EXECFOLIO_CONF"
printf '%s\n' "$H/libfoo.deb" | "$HOOK" pre
replace "$L/libfoo.so.1"
check_fails_saying "a relative pattern is reported" 1 "must be an absolute path" \
	"$HOOK" post
check_eq "... and the administrator's value put back all the same" \
	"$(raw "$L/libfoo.so.1")" "2m"
check_fails_saying "post without pre is reported" 1 "the pre step did not run" \
	"$HOOK" post
# apt writes its list into a pipe: pre reads all of it, even when it
# cannot record anything.
{ seq 200000; echo $? > "$H/writer"; } |
	EXECFOLIO_STATE_DIR=/proc/none "$HOOK" pre 2> /dev/null
check_eq "pre reads apt's whole list, even when it fails" "$(cat "$H/writer")" 0

done_testing
