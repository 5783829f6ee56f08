# SPDX-License-Identifier: GPL-2.0-or-later
#
# Helpers for the execfoliofs integration tests (tests/integration/fuse*.sh).
# Source after tests/tap.sh. Needs BIN (execfoliofs) and HELPERS (the
# programs built from tests/fuse/*.c).

EFS=$BIN/execfoliofs
HELPERS=${HELPERS:-$TOP/build/obj/tests/fuse}
EFS_DIR=
EFS_PID=

# The reason execfoliofs cannot be mounted here, or nothing.
efs_unavailable() {
	[ "$(id -u)" = 0 ] || { echo "needs root"; return; }
	[ -c /dev/fuse ] || { echo "no /dev/fuse"; return; }
	command -v fusermount3 >/dev/null || { echo "fusermount3 not installed"; return; }
	[ -x "$EFS" ] || { echo "$EFS not built"; return; }
	[ -x "$HELPERS/touch" ] || { echo "test helpers not built in $HELPERS"; return; }
}

efs_cleanup() {
	for m in "$EFS_DIR"/mnt*; do
		mountpoint -q "$m" 2>/dev/null &&
			{ fusermount3 -u "$m" 2>/dev/null || umount -l "$m"; }
	done
	[ -n "$EFS_PID" ] && kill "$EFS_PID" 2>/dev/null
	[ -n "$EFS_DIR" ] && rm -rf "$EFS_DIR"
}

# efs_setup: a scratch directory with backing/ and mnt/, removed on exit.
efs_setup() {
	EFS_DIR=$(mktemp -d /tmp/execfoliofs-test.XXXXXX) || exit 1
	chmod 755 "$EFS_DIR" # other users' tests go through it
	mkdir "$EFS_DIR/backing" "$EFS_DIR/mnt"
	B=$EFS_DIR/backing
	M=$EFS_DIR/mnt
	trap efs_cleanup EXIT
}

# efs_mount BACKING MNT [OPTIONS...]: run the daemon in the foreground in
# the background (EFS_PID) and wait until the mount is there.
efs_mount() {
	_b=$1
	_m=$2
	shift 2
	"$EFS" -f "$@" "$_b" "$_m" 2>"$EFS_DIR/daemon.err" &
	EFS_PID=$!
	_i=0
	while ! mountpoint -q "$_m"; do
		_i=$((_i + 1))
		if [ $_i -gt 100 ] || ! kill -0 "$EFS_PID" 2>/dev/null; then
			diag "execfoliofs did not mount: $(cat "$EFS_DIR/daemon.err")"
			return 1
		fi
		sleep 0.05
	done
}

# wait_exited PID: wait (at most 10 s) until the child PID has exited,
# without reaping it (ps lists it as a zombie); 1 if it still runs.
wait_exited() {
	_i=0
	while [ $_i -lt 200 ]; do
		case $(ps -o stat= -p "$1" 2>/dev/null) in
		Z* | "") return 0 ;;
		esac
		_i=$((_i + 1))
		sleep 0.05
	done
	return 1
}

# efs_wait_exit: wait (at most 10 s) for the daemon to exit and set
# EFS_STATUS to its exit status, or to "still running". Not in a subshell:
# only this shell can reap it.
efs_wait_exit() {
	if ! wait_exited "$EFS_PID"; then
		EFS_STATUS="still running"
		return
	fi
	wait "$EFS_PID"
	EFS_STATUS=$?
	EFS_PID=
}

# efs_umount MNT: fusermount3 -u, then wait for the daemon (EFS_STATUS).
efs_umount() {
	EFS_STATUS="fusermount3 -u failed"
	fusermount3 -u "$1" && efs_wait_exit
}

# The daemon's inode count (root excluded), from the virtual xattr.
efs_inodes() {
	getfattr --only-values -n trusted.execfoliofs.stats "$1" 2>/dev/null |
		sed -n 's/^inodes=\([0-9]*\).*/\1/p'
}
