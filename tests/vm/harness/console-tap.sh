#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# console-tap.sh OUTDIR: TAP checks of a run-vm.sh run as a whole: the
# guest finished before the timeout and wrote all its results, and the
# kernel log has no warning, BUG, oops or lockdep report.
out=$1
. "$(dirname "$0")/../../tap.sh"
status=$(cat "$out/qemu-status" 2>/dev/null || echo none)
if [ "$status" = 0 ]; then
	ok "the guest powered off after $(cat "$out/seconds")s"
else
	not_ok "QEMU exit status $status (124: timeout) after $(cat "$out/seconds" 2>/dev/null)s"
fi
if [ -f "$out/complete" ]; then
	ok "the guest wrote all its results"
else
	not_ok "the guest did not finish its tests: see $out/console.log"
fi
splats='WARNING:|BUG:|Oops|Kernel panic|kernel BUG|Unable to handle kernel|general protection fault|possible recursive locking|possible circular locking|inconsistent lock state|lock held when returning|suspicious RCU usage|INFO: task .* blocked|UBSAN:|Call [Tt]race:'
if grep -Eq "$splats" "$out/console.log"; then
	not_ok "the kernel log has a warning or splat"
	diag "$(grep -En -B2 -A20 "$splats" "$out/console.log" | head -60)"
else
	ok "no kernel warning, BUG, oops or lockdep report"
fi
done_testing
