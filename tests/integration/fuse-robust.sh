#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfoliofs failing well: bad invocations refused before mounting (usage
# errors, a bad exec_folio_size among them, 2; a missing or non-directory
# mount point is a failed mount, 1), nothing made by a refused one, exit 0
# on SIGTERM, a killed daemon leaves a mount that fails with ENOTCONN and
# can be unmounted, and inodes are forgotten (no leak over many cycles).
. "$TOP/tests/tap.sh"
. "$TOP/tests/fuse/lib.sh"

why=$(efs_unavailable)
[ -n "$why" ] && skip_all "$why"
efs_setup

check_fails "no arguments: usage error" 2 "$EFS"
check_fails "unknown option: usage error" 2 "$EFS" -f -o no_such_option "$B" "$M"
check_fails "bad exec_folio_size: usage error" 2 "$EFS" -f -o exec_folio_size=48k "$B" "$M"
check_fails "bad exec_folio_size and a missing backing directory: usage error first" 2 \
	"$EFS" -f -o exec_folio_size=48k "$EFS_DIR/missing" "$M"
check_fails "unknown option and a missing backing directory: usage error first" 2 \
	"$EFS" -f -o no_such_option "$EFS_DIR/missing" "$M"
check_fails "unknown option with a trace: usage error" 2 \
	"$EFS" -f -o trace="$EFS_DIR/refused.trace",no_such_option "$B" "$M"
check "... and no trace file made" test ! -e "$EFS_DIR/refused.trace"
# A trace file that cannot be created is blamed, not the mount point.
for spelling in "--trace" "-o trace="; do
	case $spelling in
	--trace) set -- --trace "$EFS_DIR/nodir/t" ;;
	*) set -- -o trace="$EFS_DIR/nodir/t" ;;
	esac
	err=$("$EFS" -f "$@" "$B" "$M" 2>&1); rc=$?
	case "$rc:$err" in
	"1:execfoliofs: cannot create trace file $EFS_DIR/nodir/t: No such file or directory")
		ok "$spelling FILE in a missing directory: exit 1, the trace file named" ;;
	*) not_ok "$spelling FILE in a missing directory: exit 1, the trace file named"; diag "$rc $err" ;;
	esac
done
check_fails_saying "--trace without a FILE: usage error" 2 "'--trace' needs a FILE" \
	"$EFS" -f "$B" "$M" --trace
check_fails "missing backing directory: refused" 1 "$EFS" -f "$EFS_DIR/missing" "$M"
: > "$EFS_DIR/plainfile"
check_fails "backing path not a directory: refused" 1 "$EFS" -f "$EFS_DIR/plainfile" "$M"
check_fails "missing mount point: refused, exit 1" 1 "$EFS" -f "$B" "$EFS_DIR/missing"
check_fails "mount point not a directory: refused, exit 1" 1 "$EFS" -f "$B" "$EFS_DIR/plainfile"
check "nothing was mounted by the refused invocations" sh -c "! mountpoint -q '$M'"

# SIGTERM: exit 0 and the mount is gone.
efs_mount "$B" "$M" && ls "$M" >/dev/null
kill -TERM "$EFS_PID"
efs_wait_exit
check_eq "SIGTERM: the daemon exits 0" "$EFS_STATUS" "0"
check "SIGTERM: the mount is gone" sh -c "! mountpoint -q '$M'"

# kill -9: ENOTCONN, then the mount can be removed.
efs_mount "$B" "$M" && echo data > "$M/f"
kill -KILL "$EFS_PID"
efs_wait_exit
err=$(stat "$M/f" 2>&1)
case $err in
*"Transport endpoint is not connected"*) ok "after kill -9, access fails with ENOTCONN" ;;
*) not_ok "after kill -9, access fails with ENOTCONN"; diag "$err" ;;
esac
check "after kill -9, fusermount3 -u removes the mount" fusermount3 -u "$M"
check "the mount point is usable again" sh -c "! mountpoint -q '$M' && test -d '$M'"

# Leak: inodes come and go; the count returns to where it started.
efs_mount "$B" "$M"
sync
echo 2 > /proc/sys/vm/drop_caches
base=$(efs_inodes "$M")
i=0
while [ $i -lt 2000 ]; do
	echo $i > "$M/cycle-$i"
	cat "$M/cycle-$i" >/dev/null
	mkdir "$M/dir-$i"
	rm "$M/cycle-$i"
	rmdir "$M/dir-$i"
	i=$((i + 1))
done
# Forgets arrive asynchronously.
n=0
while [ "$(efs_inodes "$M")" != "$base" ] && [ $n -lt 50 ]; do
	sleep 0.1
	n=$((n + 1))
done
check_eq "2000 create/read/mkdir/unlink/rmdir cycles: inode count back to $base" \
	"$(efs_inodes "$M")" "$base"

mkdir "$B/tree"
i=0
while [ $i -lt 2000 ]; do : > "$B/tree/f$i"; i=$((i + 1)); done
ls -l "$M/tree" >/dev/null
i=0
while [ $i -lt 500 ]; do stat "$M/tree/f$i" >/dev/null; i=$((i + 1)); done
grown=$(efs_inodes "$M")
check "lookups of 2000 files instantiate inodes ($base -> $grown)" test "$grown" -ge $((base + 2000))
sync
echo 2 > /proc/sys/vm/drop_caches
n=0
while [ "$(efs_inodes "$M")" != "$base" ] && [ $n -lt 50 ]; do
	sleep 0.1
	n=$((n + 1))
done
check_eq "after the kernel drops them, forget brings the count back to $base" \
	"$(efs_inodes "$M")" "$base"
check_eq "no open files left" \
	"$(getfattr --only-values -n trusted.execfoliofs.stats "$M" 2>/dev/null | sed 's/.*open=//')" \
	"0"
fds=$(ls /proc/"$EFS_PID"/fd | wc -l)
check "descriptors follow the inode count (fds $fds, inodes $base)" test "$fds" -le $((base + 32))
efs_umount "$M"
check_eq "fusermount3 -u after the leak test: exit 0" "$EFS_STATUS" "0"
done_testing
