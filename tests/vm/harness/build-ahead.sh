#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build-ahead.sh LOG COMMAND...
#
# Runs COMMAND (make check's tiers) while `make vm-check-kernels` builds
# the kernels of its VM tiers in the background, in the order the tiers
# boot them, its output in LOG.  A kernel build takes both cores but a
# guest under TCG one to one and a half, so one kernel's guests run while
# the next kernel builds, and the tiers on this machine run while the
# first one builds (DESIGN.md section 10.1).  The builds run under
# SCHED_IDLE, on what the tiers leave idle: at nice 10 they still took
# enough time slices from a 2-CPU guest (preempting a vCPU that holds a
# lock the other spins on) that redis-benchmark in the arm64 guest ran
# at a tenth of its speed, and vm-suite's redis.sh took 580 s instead of
# 86; under SCHED_IDLE with both cores kept busy beside it, 83 s.
#
# Nothing depends on it: a tier still makes its kernel itself, and
# build-kernel.sh's locks make it wait for a build of the same kernel in
# progress and then take it from the cache.  A build that fails here is
# made again, and reported, by the tier that boots the kernel.  The
# builds are stopped when COMMAND ends or is interrupted, and, by a
# watchdog of their own, when this script is killed.
# With NO_CACHE=1 every make kernel builds anew, so nothing is built
# ahead.  Exits with COMMAND's status.
set -u
if [ $# -lt 2 ]; then
	echo "build-ahead: usage: build-ahead.sh LOG COMMAND..." >&2
	exit 2
fi
log=$1
shift
if [ "${NO_CACHE:-0}" = 1 ]; then
	exec "$@"
fi
mkdir -p "$(dirname "$log")"

# A session of its own, so that its whole process group (make, the
# kernel's make, the compilers) can be stopped at once: as a background
# job of this non-interactive shell it leads no process group, so setsid
# does not fork and $! is the group's id.  Its watchdog stops the group
# once this script is gone.  Its status goes to LOG.status when it ends.
rm -f "$log.status"
setsid sh -c '
	parent=$1 make=$2 log=$3
	(while kill -0 "$parent" 2>/dev/null; do sleep 5; done; kill -TERM 0) &
	watchdog=$!
	chrt --idle 0 "$make" --no-print-directory vm-check-kernels
	echo $? >"$log.status"
	kill "$watchdog"
' build-ahead $$ "${MAKE:-make}" "$log" >"$log" 2>&1 </dev/null &
builder=$!

stop() {
	kill -TERM "-$builder" 2>/dev/null
}
# The tiers stay in the foreground, in the process group of make check:
# an interrupt (^C) or a signal to that group reaches them directly; the
# traps then stop the builds.
trap stop EXIT
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
