#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fstests.sh: the one guest test of make check-fstests, run by the VM
# harness's /init (busybox, in the initramfs).  The Debian root with
# fstests is the further disk "root"; the disk "test" is fstests'
# TEST_DEV, "scratch" its SCRATCH_DEV; the results directory goes, as a
# tar archive, to the disk "fsresults".  It mounts the root, enters it
# with chroot (proc, sys and dev bound in) and runs
# /opt/fstests/execfolio/run-check there.  FSTESTS_SECTION,
# FSTESTS_LIST and FSTESTS_TESTS (kernel parameters, run.sh) say what.
# Prints TAP: one line, whether ./check ran to its end and reported.
set -u
. /tests/lib/tap.sh
disk() { # NAME: the device of further disk NAME
	for d in $EXTRA_DISKS; do
		case $d in "$1"=*) echo "${d#*=}" ;; esac
	done
}
root=$(disk root)
scratch=$(disk scratch)
archive=$(disk fsresults)
fail() {
	not_ok "fstests: $*"
	done_testing
}
[ -n "$root" ] && [ -n "$scratch" ] && [ -n "$archive" ] && [ -n "$TEST_DISK" ] ||
	fail "disks test, root, scratch and fsresults needed, have test=$TEST_DISK$EXTRA_DISKS"

# What udev would make in /dev, which bash's process substitution and
# fstests use.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
for n in 0:stdin 1:stdout 2:stderr; do
	[ -e "/dev/${n#*:}" ] || ln -s "/proc/self/fd/${n%%:*}" "/dev/${n#*:}"
done
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm

mnt=/mnt/root
mkdir -p "$mnt"
mount -t xfs "$root" "$mnt" || fail "cannot mount the root disk $root"
for d in proc sys dev; do
	mount -o rbind "/$d" "$mnt/$d" || fail "cannot bind /$d into the root"
done
mount -t tmpfs tmpfs "$mnt/tmp" && mount -t tmpfs tmpfs "$mnt/run" ||
	fail "cannot mount tmpfs in the root"

chroot "$mnt" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	/opt/fstests/execfolio/run-check "$TEST_DISK" "$scratch" "$archive" \
	"${FSTESTS_SECTION:-xfs}" "${FSTESTS_LIST:-main}" "${FSTESTS_TESTS:-}"
status=$?
# 0: every test passed or was not run; 1: some failed; else no report.
case $status in
0 | 1) ok "fstests section ${FSTESTS_SECTION:-xfs} ran (check exit $status)" ;;
*) not_ok "fstests section ${FSTESTS_SECTION:-xfs}: run-check exit $status" ;;
esac
umount "$mnt/tmp" "$mnt/run" 2>/dev/null
umount -l "$mnt/dev" "$mnt/sys" "$mnt/proc" 2>/dev/null
umount "$mnt" || echo "# fstests: cannot unmount the root disk"
done_testing
