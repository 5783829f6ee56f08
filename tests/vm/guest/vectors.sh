#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The shared policy vectors against the kernel (see guest/vmvectors.c):
# on the test disk and the tier's further disks (EXTRA_DISKS, NAME=DEVICE
# each: empty XFS of other block sizes).
devices=
for d in $EXTRA_DISKS; do devices="$devices ${d#*=}"; done
# shellcheck disable=SC2086 # the devices are words
exec vmvectors /tests/policy.vec /mnt "$TEST_DISK" $devices
