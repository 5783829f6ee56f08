#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build-ahead.sh LOG COMMAND...
#
# Runs COMMAND (make check's tiers) while `make vm-check-kernels` builds
# the kernels of its VM tiers in the background, in the order the tiers
# boot them and at a lower priority, its output in LOG.  A kernel build
# takes both cores but a guest under TCG mostly one, so one kernel's
# guests run while the next kernel builds, and the tiers on this machine
# run while the first one builds (DESIGN.md section 10.1).
#
# Nothing depends on it: a tier still makes its kernel itself, and
# build-kernel.sh's locks make it wait for a build of the same kernel in
# progress and then take it from the cache.  A build that fails here is
# made again, and reported, by the tier that boots the kernel.  The
# builds are stopped when COMMAND ends or is interrupted.  Exits with
# COMMAND's status.
set -u
if [ $# -lt 2 ]; then
	echo "build-ahead: usage: build-ahead.sh LOG COMMAND..." >&2
	exit 2
fi
log=$1
shift
mkdir -p "$(dirname "$log")"

# A session of its own, so that its whole process group (make, the
# kernel's make, the compilers) can be stopped at once.
# Its status goes to LOG.status when it ends.
rm -f "$log.status"
setsid sh -c 'nice -n 10 "$1" --no-print-directory vm-check-kernels; echo $? >"$2.status"' \
	build-ahead "${MAKE:-make}" "$log" >"$log" 2>&1 </dev/null &
builder=$!
stop_builder() {
	kill -TERM "-$builder" 2>/dev/null
}
trap stop_builder EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$@"
status=$?
if [ ! -s "$log.status" ]; then
	echo "build-ahead: the tiers are done, the kernels ahead are not: stopping them (see $log)"
elif [ "$(cat "$log.status")" != 0 ]; then
	echo "build-ahead: building the kernels ahead failed (see $log); the tiers made their kernels themselves"
fi
exit $status
