#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfoliofs under load: fsx (tests/tools/fsx.c, the VM tier's) with its
# random reads, writes, truncates, hole punches, zeroing, allocation,
# mmap, O_DIRECT reads and cache drops against a model (several seeds, 1M
# files), and many threads creating, renaming, linking, listing and
# unlinking at once; the daemon must still unmount cleanly with no inode
# left behind.
. "$TOP/tests/tap.sh"
. "$TOP/tests/fuse/lib.sh"

why=$(efs_unavailable)
[ -n "$why" ] && skip_all "$why"
efs_setup

efs_mount "$B" "$M"
# Without O_DIRECT writes: the daemon opens the backing file with the
# caller's O_DIRECT and writes each request from an unaligned buffer,
# which the backing file system refuses (EINVAL).
for seed in 1 2 3 4; do
	out=$("$HELPERS/fsx" -s "$seed" -n 2500 -l 1048576 -c 100 -x diowrite \
		"$M/fsx-$seed")
	if [ $? = 0 ]; then ok "fsx seed $seed: no mismatch"; else not_ok "fsx seed $seed"; fi
	diag "$out"
done
check "fsx file matches the backing file" cmp "$M/fsx-1" "$B/fsx-1"

mkdir "$M/stress"
out=$("$HELPERS/stress" "$M/stress" 8 1500)
if [ $? = 0 ]; then ok "8 threads of create/rename/link/unlink: no error"; else not_ok "8 threads of create/rename/link/unlink"; fi
diag "$out"
rm -rf "$M/stress" "$M"/fsx-*
sync
echo 2 > /proc/sys/vm/drop_caches
n=0
while [ "$(efs_inodes "$M")" != 0 ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
check_eq "all inodes forgotten after the stress" "$(efs_inodes "$M")" "0"
efs_umount "$M"
check_eq "unmount after the stress: exit 0" "$EFS_STATUS" "0"
done_testing
