#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The package hook: after a (simulated) upgrade replaced a library, the post
# step re-applies the policy to it, leaves files of untouched packages and
# files that already have a policy alone, and reports bad rules.
. "$TOP/tests/tap.sh"
. "$TOP/tests/xfs-scratch.sh"

why=$(xfs_unavailable)
[ -z "$why" ] || skip_all "$why"
command -v getfattr > /dev/null || skip_all "getfattr (package attr) not installed"
xfs_scratch_mount || skip_all "cannot mount an XFS loop device"

M=$SCRATCH_MNT
H=$SCRATCH_DIR/hook
mkdir -p "$H/admin/info" "$H/state" "$M/usr/lib" "$M/usr/bin" "$M/opt"
libc=$(ldd /bin/true | awk '/libc.so/ { print $3 }')
export EXECFOLIO="$BIN/execfolio" EXECFOLIO_CONF="$H/reapply.conf" \
	EXECFOLIO_STATE_DIR="$H/state" DPKG_ADMINDIR="$H/admin"
HOOK=$TOP/dist/dpkg-reapply

raw() { getfattr --absolute-names --only-values -n trusted.exec_folio_size "$1" 2> /dev/null; }
has() { getfattr --absolute-names -n trusted.exec_folio_size "$1" > /dev/null 2>&1; }

cat > "$EXECFOLIO_CONF" << CONF
# test rules
$M/usr/lib/*.so* 64k
$M/usr/lib/special.so 16k   # later rules win
$M/usr/bin/* auto
CONF

# Two "packages": libfoo (a library and a tool) and other (untouched).
cp "$libc" "$M/usr/lib/libfoo.so.1"
cp "$libc" "$M/usr/lib/special.so"
cp /bin/true "$M/usr/bin/foo"
cp "$libc" "$M/usr/lib/libother.so.1"
printf '%s\n' "$M/usr" "$M/usr/lib" "$M/usr/lib/libfoo.so.1" \
	"$M/usr/lib/special.so" "$M/usr/bin/foo" > "$H/admin/info/libfoo.list"
echo "$M/usr/lib/libother.so.1" > "$H/admin/info/other.list"
"$BIN/execfolio" set 2m "$M/usr/lib/special.so"

check "pre step" "$HOOK" pre
sleep 1.1
# The upgrade: dpkg writes new files (no xattr) and a new file list.
cp "$libc" "$M/usr/lib/libfoo.so.1.new" && mv "$M/usr/lib/libfoo.so.1.new" "$M/usr/lib/libfoo.so.1"
touch "$H/admin/info/libfoo.list"
if has "$M/usr/lib/libfoo.so.1"; then not_ok "the upgrade dropped the xattr"; else ok "the upgrade dropped the xattr"; fi

check "post step" "$HOOK" post
check_eq "replaced library re-tagged" "$(raw "$M/usr/lib/libfoo.so.1")" "64k"
check_eq "existing policy kept" "$(raw "$M/usr/lib/special.so")" "2m"
want=$("$BIN/execfolio" scan --json "$M/usr/bin/foo" | jq -r '.[0].recommended')
got=$(raw "$M/usr/bin/foo"); [ -n "$got" ] || got=none
check_eq "auto rule applies the recommendation" "$got" "$want"
if has "$M/usr/lib/libother.so.1"; then not_ok "untouched package left alone"; else ok "untouched package left alone"; fi

# Merged /usr: dpkg lists $M/bin/tool and $M/lib/libbar.so.1 (symlinked
# directories) for files the rules name under $M/usr; a file listed under
# both names is tagged once.
ln -s usr/bin "$M/bin"
ln -s usr/lib "$M/lib"
cp /bin/ls "$M/usr/bin/tool"
cp "$libc" "$M/usr/lib/libbar.so.1"
cp /bin/ls "$M/usr/bin/both"
want=$("$BIN/execfolio" scan --json "$M/usr/bin/tool" | jq -r '.[0].recommended')
printf '%s\n' "$M/bin" "$M/bin/tool" "$M/lib/libbar.so.1" "$M/bin/both" \
	"$M/usr/bin/both" > "$H/admin/info/merged.list"
"$HOOK" pre
sleep 1.1
touch "$H/admin/info/merged.list"
out=$("$HOOK" post 2> /dev/null)
got=$(raw "$M/usr/bin/tool"); [ -n "$got" ] || got=none
check_eq "merged /usr: a /usr/bin/* auto rule tags the file dpkg lists as /bin/tool ($want)" \
	"$got" "$want"
check_eq "merged /usr: a /usr/lib/*.so* rule tags /lib/libbar.so.1" \
	"$(raw "$M/usr/lib/libbar.so.1")" "64k"
check_eq "... set on the resolved path" \
	"$(echo "$out" | grep libbar)" "$M/usr/lib/libbar.so.1: set 64k"
check_eq "a file listed under two names is set once" \
	"$(echo "$out" | grep -c "$M/usr/bin/both")" 1

# Nothing changed since: a second post does nothing.
"$BIN/execfolio" clear "$M/usr/lib/libfoo.so.1"
check "second post step" "$HOOK" post
if has "$M/usr/lib/libfoo.so.1"; then not_ok "only packages changed since pre"; else ok "only packages changed since pre"; fi

echo "usr/lib/* 64k" > "$EXECFOLIO_CONF"
"$HOOK" pre
touch "$H/admin/info/libfoo.list"
check_fails "relative pattern is reported" 1 "$HOOK" post
check_fails "post without pre is reported" 1 env EXECFOLIO_STATE_DIR="$H/nostate" "$HOOK" post

done_testing
