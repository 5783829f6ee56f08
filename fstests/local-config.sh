#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# local-config.sh: print fstests' local.config for the guest, one config
# section per configuration of the series (FSTESTS_CONFIG= of make
# check-fstests).  The devices come from the environment run-check sets
# (fstests evaluates the values), the test device is made again for each
# section (its block size and options differ), and soak tests are bounded.
set -eu

# NAME|MKFS_OPTIONS|mount options (TEST and SCRATCH alike)
sections='xfs||
xfs-64k||exec_folio_size=64k
xfs-2m||exec_folio_size=2m
xfs-all||exec_folio_size=64k,exec_folio_scope=all
xfs-16k-64k|-b size=16384|exec_folio_size=64k'

echo "$sections" | while IFS='|' read -r name mkfs mount; do
	cat <<EOF2
[$name]
FSTYP=xfs
TEST_DEV=\$FSTESTS_TEST_DEV
TEST_DIR=/mnt/test
SCRATCH_DEV=\$FSTESTS_SCRATCH_DEV
SCRATCH_MNT=/mnt/scratch
RECREATE_TEST_DEV=true
SOAK_DURATION=60
MKFS_OPTIONS="$mkfs"
EOF2
	if [ -n "$mount" ]; then
		echo "MOUNT_OPTIONS=\"-o $mount\""
		echo "TEST_FS_MOUNT_OPTS=\"-o $mount\""
	fi
	echo
done
