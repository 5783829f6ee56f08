#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Privilege, as TAP (vm-faults tier): an unprivileged user (uid 1000, no
# supplementary groups, through vmhelper as-user) can neither set nor
# remove trusted.exec_folio_size, on its own files or on others' (EPERM),
# cannot use XFS_IOC_GET_EXEC_FOLIO (EPERM) nor remount with another
# default, and nothing about another user's file (policy, mode, owner,
# times, contents) changes through any of it.
. /tests/lib/tap.sh
mnt=/mnt
dir=$mnt/privilege
user() { vmhelper as-user 1000 1000 "$@"; }
expect() { # DESCRIPTION WANT COMMAND...
	d=$1
	want=$2
	shift 2
	got=$("$@" 2>&1)
	if [ "$got" = "$want" ]; then ok "$d"; else
		not_ok "$d"
		diag "got '$got', want '$want'"
	fi
}
# Everything about FILE that a change through the xattr could touch.
snapshot() { # FILE
	echo "$(stat -c '%a %u %g %s %Y %Z' "$1") $(vmhelper state "$1")" \
		"$(sha256sum <"$1")"
}
check "mount -o exec_folio_size=64k" mount -o exec_folio_size=64k "$TEST_DISK" $mnt
mkdir -p $dir
chmod 0777 $dir
# Another user's files: root's, tagged and untagged, readable by all.
cp $mnt/bigtext $dir/root.tagged
cp $mnt/bigtext $dir/root.plain
chmod 0755 $dir/root.tagged $dir/root.plain
vmhelper setxattr $dir/root.tagged 16k >/dev/null
# The user's own files: one it creates, one given to it with a policy.
user sh -c "cp $mnt/bigtext $dir/user.own && chmod 0755 $dir/user.own"
check "the user created its own file" test "$(stat -c %u $dir/user.own)" = 1000
cp $mnt/bigtext $dir/user.tagged
chown 1000:1000 $dir/user.tagged
vmhelper setxattr $dir/user.tagged 32k >/dev/null
before_root=$(snapshot $dir/root.tagged)
before_plain=$(snapshot $dir/root.plain)
before_user=$(snapshot $dir/user.tagged)

for f in user.own user.tagged root.tagged root.plain; do
	expect "uid 1000: setxattr on $f: EPERM" EPERM user vmhelper setxattr $dir/$f 2m
done
for f in user.tagged root.tagged; do
	expect "uid 1000: removexattr on $f: EPERM" EPERM user vmhelper rmxattr $dir/$f
done
expect "uid 1000: setxattr of a malformed value: EPERM (no parsing first)" \
	EPERM user vmhelper setxattr $dir/user.own 3k
for f in user.tagged root.tagged; do
	expect "uid 1000: XFS_IOC_GET_EXEC_FOLIO on $f: EPERM" EPERM \
		user vmhelper state $dir/$f
done
expect "uid 1000: remount with exec_folio_size=2m: EPERM" EPERM \
	user vmhelper mount "$TEST_DISK" $mnt remount 2m
if user execfolio set 2m $dir/user.own >/tmp/priv.out 2>&1; then
	not_ok "uid 1000: execfolio set fails"
else
	ok "uid 1000: execfolio set fails"
fi
sed -e 's/^/# execfolio set: /' /tmp/priv.out
if user execfolio clear $dir/root.tagged >/tmp/priv.out 2>&1; then
	not_ok "uid 1000: execfolio clear on root's file fails"
else
	ok "uid 1000: execfolio clear on root's file fails"
fi
sed -e 's/^/# execfolio clear: /' /tmp/priv.out
# Ordinary rights still work and still do only what they always did.
check "uid 1000 cannot chmod root's file" \
	sh -c "! vmhelper as-user 1000 1000 chmod 0644 $dir/root.plain"
check "uid 1000 runs root's tagged program" user $dir/root.tagged

expect "root.tagged: unchanged (mode, owner, times, policy, data)" \
	"$before_root" snapshot $dir/root.tagged
expect "root.plain: unchanged" "$before_plain" snapshot $dir/root.plain
expect "user.tagged: unchanged" "$before_user" snapshot $dir/user.tagged
# The files were written before their policy changed: the folios cached
# under the old policy stay and the change stays pending.
pend=1
expect "root.tagged: still 16k from the xattr" \
	"size=16384 source=xattr order=2 folio=16384 pending=$pend deferred=0" \
	vmhelper state $dir/root.tagged
expect "user.tagged: still 32k from the xattr" \
	"size=32768 source=xattr order=3 folio=32768 pending=$pend deferred=0" \
	vmhelper state $dir/user.tagged
# The user's chmod of its own file is what the mount default follows.
user chmod 0644 $dir/user.own
expect "uid 1000's chmod -x of its own file: the mount default no longer applies" \
	"size=0 source=none order=0 folio=4096 pending=$pend deferred=0" \
	vmhelper state $dir/user.own
check "/proc/mounts still shows exec_folio_size=64k" \
	grep -q "$mnt xfs .*exec_folio_size=64k" /proc/mounts
check "umount" umount $mnt
done_testing
