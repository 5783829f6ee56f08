# SPDX-License-Identifier: GPL-2.0-or-later
#
# An empty XFS with 16K blocks (a recipe of tests/vm/harness/mkdisk.sh),
# a further disk of vm-smoke and vm-pages16k: guest/vectors.sh checks on
# it the policy vectors written for 16K blocks (a large block size on 4K
# pages, the page size on 16K pages).
disk_inputs() { echo "block size 16384"; }
disk_stage() {
	disk_size=320m
	disk_block_size=16384
}
