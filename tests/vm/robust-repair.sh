#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# robust-repair.sh IMAGE: TAP check that the XFS disk a vm-robust boot
# left behind is consistent: xfs_repair -n (no modification) finds nothing
# to repair, and the guest unmounted it cleanly (a dirty log also fails).
image=$1
echo "1..1"
if [ ! -f "$image" ]; then
	echo "not ok 1 - no disk $image: the run did not happen"
	exit 1
fi
if out=$(xfs_repair -n -f "$image" 2>&1); then
	echo "ok 1 - xfs_repair -n: $image is clean"
else
	echo "not ok 1 - xfs_repair -n finds damage (or a dirty log) in $image"
	echo "$out" | tail -40 | sed -e 's/^/# /'
	exit 1
fi
