#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest test: a collapse of a file range that extends past EOF reads
# nothing (DESIGN.md section 6.4, the khugepaged patch).  Only shmem fills
# holes, so such a collapse can only fail at EOF; without the fix it read
# the file up to its end first and left what it read cached.  A 3M file
# on the test disk, its pages dropped: MADV_COLLAPSE of the 2M block that
# holds its end, mapped read-only with none of it touched, fails with
# EINVAL and leaves none of the file cached (without the fix: its last
# 1M).  On 6.12, where XFS files collapse only with
# CONFIG_READ_ONLY_THP_FOR_FS (the test kernels have none), the collapse
# is refused before it reads anything either way.
. /tests/lib/tap.sh
. /tests/lib/counters.sh
. /tests/lib/khugepaged.sh
khugepaged_asleep

check "mount" mount "$TEST_DISK" /mnt
file=/mnt/collapse.dat
check "write a 3M file" sh -c "head -c 3145728 /dev/urandom >$file"
drop_caches
check_eq "none of it cached once its pages are dropped" \
	"$(vmhelper cached $file)" 0
check_eq "MADV_COLLAPSE of its block past EOF fails with EINVAL" \
	"$(vmhelper collapse $file)" EINVAL
cached=$(vmhelper cached $file)
diag "cached after the collapse: $cached bytes"
check_eq "the collapse read none of the file" "$cached" 0
rm -f $file
check "umount" umount /mnt
done_testing
