#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# robust-repair.sh IMAGE: TAP check that the XFS disk a vm-robust boot
# left behind is consistent: xfs_repair -n (no modification) finds nothing
# to repair, and the guest unmounted it cleanly (a dirty log also fails).
image=$1
. "$(dirname "$0")/../tap.sh"
if [ ! -f "$image" ]; then
	not_ok "no disk $image: the run did not happen"
elif out=$(xfs_repair -n -f "$image" 2>&1); then
	ok "xfs_repair -n: $image is clean"
else
	not_ok "xfs_repair -n finds damage (or a dirty log) in $image"
	diag "$(echo "$out" | tail -40)"
fi
done_testing
