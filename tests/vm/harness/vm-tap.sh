#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# vm-tap.sh OUTDIR TEST: print the TAP an in-guest TEST reported in a run
# of run-vm.sh, and exit with its exit status, so that tap-run and
# tap-summary judge it (a missing or short plan fails).  A test that did not
# report (the guest crashed or timed out before) is one failure.
out=$1
test=$2
tap=$out/$test.tap
if [ ! -f "$tap" ]; then
	echo "1..1"
	echo "not ok 1 - $test did not report: see $out/console.log"
	exit 1
fi
status=$(sed -n 's/^### exit //p' "$tap")
sed -e '/^### exit /d' "$tap"
exit "${status:-1}"
