# SPDX-License-Identifier: GPL-2.0-or-later
#
# An empty XFS with 64K blocks (a recipe of tests/vm/harness/mkdisk.sh),
# a further disk of vm-smoke: guest/vectors.sh checks on it the policy
# vectors written for 64K blocks, the largest block size XFS takes on 4K
# pages.
disk_inputs() { echo "block size 65536"; }
disk_stage() {
	disk_size=320m
	disk_block_size=65536
}
