#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfoliofs mounted the way users mount it: an fstab line and
# `mount -t fuse.execfoliofs`, after `make install`. mount(8) runs
# mount.fuse3 with PATH removed from the environment, and mount.fuse3 runs
# the program through /bin/sh, so this checks that the installed program is
# found there, that it accepts what mount.fuse3 passes, that the policy
# option takes effect, the suid/nodev defaults of both ways to mount, and
# the daemon's exit status.
#
# `make install` goes to a DESTDIR, bind-mounted on /usr/local in a private
# mount namespace: the real /usr/local is neither used nor changed.
. "$TOP/tests/tap.sh"
. "$TOP/tests/fuse/lib.sh"

why=$(efs_unavailable)
[ -z "$why" ] && ! unshare -m true 2>/dev/null && why="cannot make a mount namespace (unshare -m)"
[ -z "$why" ] && [ ! -x "$HELPERS/reap" ] && why="$HELPERS/reap not built"
[ -n "$why" ] && skip_all "$why"
if [ -z "${EXECFOLIO_MOUNT_NS:-}" ]; then
	EXECFOLIO_MOUNT_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
efs_setup
umask 022

root=$EFS_DIR/root
check "make install PREFIX=/usr/local into a DESTDIR" \
	make -C "$TOP" --no-print-directory install DESTDIR="$root" \
	PREFIX=/usr/local
check "the DESTDIR's /usr/local bind-mounted on /usr/local (this namespace only)" \
	mount --bind "$root/usr/local" /usr/local
# What mount.fuse3's /bin/sh finds with mount(8)'s environment (no PATH).
check_eq "the shell mount.fuse3 runs finds execfoliofs without a PATH" \
	"$(env -i /bin/sh -c 'command -v execfoliofs')" /usr/local/sbin/execfoliofs

echo "hello through fstab" > "$B/hello"
cp /usr/bin/id "$B/id"
chown 0:0 "$B/id"
chmod 4755 "$B/id"

# mount_reaped ARGS...: mount(8) under the reap helper, in the background,
# so that the daemon it leaves behind is reaped here; waits for the mount.
mount_reaped() {
	"$HELPERS/reap" mount "$@" > "$EFS_DIR/reaped" 2> "$EFS_DIR/mount.err" &
	REAP_PID=$!
	_i=0
	while ! mountpoint -q "$M" && [ $_i -lt 100 ]; do
		kill -0 "$REAP_PID" 2>/dev/null || break
		_i=$((_i + 1))
		sleep 0.05
	done
	mountpoint -q "$M" || diag "not mounted: $(cat "$EFS_DIR/mount.err")"
}

# daemon_wait: after the unmount, wait (at most 10 s) for the reap helper
# and set DAEMON_STATUS to the daemon's exit status, or to why there is
# none. Not in a subshell: only this shell can reap the helper.
daemon_wait() {
	if ! wait_exited "$REAP_PID"; then
		DAEMON_STATUS="still running: $(cat "$EFS_DIR/reaped")"
		return
	fi
	wait "$REAP_PID"
	DAEMON_STATUS=$(sed -n 's/^execfoliofs //p' "$EFS_DIR/reaped")
}

mount_opts() { awk -v m="$M" '$2 == m { print $3, $4 }' /proc/mounts; }

has_opt() {
	case ",$(mount_opts | cut -d' ' -f2)," in
	*",$1,"*) echo yes ;;
	*) echo no ;;
	esac
}

id_as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$M/id" -u 2>&1
}

# --- fstab --------------------------------------------------------------------
printf '%s %s fuse.execfoliofs rw,relatime,nofail,exec_folio_size=64k 0 0\n' \
	"$B" "$M" > "$EFS_DIR/fstab"
mount_reaped -T "$EFS_DIR/fstab" "$M"
check_eq "fstab line: mount exits 0" "$(head -n 1 "$EFS_DIR/reaped")" "mount 0"
check_eq "fstab line: mounted as fuse.execfoliofs" \
	"$(mount_opts | cut -d' ' -f1)" "fuse.execfoliofs"
check_eq "fstab line: a file reads through the mount" \
	"$(cat "$M/hello" 2>&1)" "hello through fstab"
check_eq "fstab line: exec_folio_size=64k is the executables' policy" \
	"$(getfattr --absolute-names --only-values -n trusted.execfoliofs.policy "$M/id" 2>&1)" \
	"64k mount"
check_eq "fstab line: files without an execute bit keep none" \
	"$(getfattr --absolute-names --only-values -n trusted.execfoliofs.policy "$M/hello" 2>&1)" \
	"none none"
check_eq "mount(8): suid by default (mount.fuse3 adds it)" "$(has_opt nosuid)" no
check_eq "mount(8): dev by default (mount.fuse3 adds it)" "$(has_opt nodev)" no
check_eq "mount(8): a setuid-root program runs as root for another user" \
	"$(id_as_nobody)" 0
check "umount(8) removes the fstab mount" umount "$M"
daemon_wait
check_eq "fstab line: the daemon exits 0 after umount" "$DAEMON_STATUS" 0

# --- mount -t fuse.execfoliofs -o nosuid,nodev -----------------------------------
mount_reaped -t fuse.execfoliofs -o nosuid,nodev,exec_folio_size=2m "$B" "$M"
check_eq "mount -t: mount exits 0" "$(head -n 1 "$EFS_DIR/reaped")" "mount 0"
check_eq "mount -t: the policy option takes effect" \
	"$(getfattr --absolute-names --only-values -n trusted.execfoliofs.policy "$M/id" 2>&1)" \
	"2m mount"
check_eq "mount -t -o nosuid,nodev: both flags on the mount" \
	"$(has_opt nosuid) $(has_opt nodev)" "yes yes"
check_eq "nosuid: the setuid program runs as the caller" "$(id_as_nobody)" 65534
check "fusermount3 -u removes it" fusermount3 -u "$M"
daemon_wait
check_eq "mount -t: the daemon exits 0 after fusermount3 -u" "$DAEMON_STATUS" 0

# --- errors through mount(8): the daemon's exit status is mount's -------------
check_fails "mount -t with a bad exec_folio_size: exit 2" 2 \
	mount -t fuse.execfoliofs -o exec_folio_size=48k "$B" "$M"
check_fails "mount -t on a missing mount point: exit 1" 1 \
	mount -t fuse.execfoliofs "$B" "$EFS_DIR/missing"
check_fails "mount -t with an option libfuse does not know: exit 2" 2 \
	mount -t fuse.execfoliofs -o no_such_option "$B" "$M"
check_fails "mount -t with a missing backing directory: exit 1" 1 \
	mount -t fuse.execfoliofs "$EFS_DIR/missing" "$M"
check "nothing was mounted by the refused mounts" sh -c "! mountpoint -q '$M'"

# --- execfoliofs run directly: FUSE's own defaults --------------------------------
efs_mount "$B" "$M"
check_eq "execfoliofs directly: nosuid,nodev by default" \
	"$(has_opt nosuid) $(has_opt nodev)" "yes yes"
check_eq "execfoliofs directly: the setuid program runs as the caller" \
	"$(id_as_nobody)" 65534
efs_umount "$M"
check_eq "execfoliofs directly: exit 0" "$EFS_STATUS" 0
efs_mount "$B" "$M" -o suid,dev
check_eq "execfoliofs -o suid,dev: neither flag on the mount" \
	"$(has_opt nosuid) $(has_opt nodev)" "no no"
check_eq "execfoliofs -o suid: the setuid program runs as root" "$(id_as_nobody)" 0
efs_umount "$M"
check_eq "execfoliofs -o suid,dev: exit 0" "$EFS_STATUS" 0

done_testing
