#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The policy on a kernel with 16K pages (vm-pages16k: arm64,
# KCONFIG=pages16k).  Sizes are bytes, so they are other page counts here:
# 64k is order 2 (four pages), 2m is order 7, 128 pages, which is what one
# contiguous-bit block maps with 16K pages (one TLB entry; a PMD maps 32M).
# bigprog (5 MB of text, all of it executed) copied to the smoke disk and
# tagged 64k and 2m: the kernel reports those orders, and the program's
# text is in folios of those sizes, none of them PMD-mapped.
. /tests/lib/tap.sh
. /tests/lib/measure.sh
. /tests/lib/khugepaged.sh
khugepaged_asleep

page=$(awk '$1 == "KernelPageSize:" { print $2 * 1024; exit }' /proc/self/smaps)
check_eq "the kernel's page size is 16K" "$page" 16384
check "mount the smoke disk" mount "$TEST_DISK" /mnt

# A tagged copy of bigprog: NAME SIZE.
tagged_copy() {
	cp /bin/bigprog "/mnt/$1" && chmod 0755 "/mnt/$1" &&
		vmhelper setxattr "/mnt/$1" "$2" >/dev/null
}
tagged_copy bp64 64k
tagged_copy bp2m 2m
# Each copy is read back from the disk, not from the cache cp filled.
sync
umount /mnt
mount "$TEST_DISK" /mnt

check_eq "64k: order 2, a 64K folio" \
	"$(vmhelper state /mnt/bp64 | cut -d' ' -f1-4)" \
	"size=65536 source=xattr order=2 folio=65536"
check_eq "2m: order 7, a 2M folio" \
	"$(vmhelper state /mnt/bp2m | cut -d' ' -f1-4)" \
	"size=2097152 source=xattr order=7 folio=2097152"

# Per size: the program runs, then the share of its resident text in
# folios of the policy's size or more (permille) and what is PMD-mapped.
for size in 64k 2m; do
	case $size in
	64k) bytes=65536 file=/mnt/bp64 min=950 ;;
	2m) bytes=2097152 file=/mnt/bp2m min=500 ;;
	esac
	if run_bigprog "$file" "/tmp/$size.json"; then
		ok "$size: bigprog executed all its text"
	else
		not_ok "$size: bigprog executed all its text"
	fi
	report_run "bigprog, $size, 16K pages" /tmp/$size.json "$delta"
	text=$(json_u64 /tmp/$size.json text_bytes)
	big=$(folio_bytes_from /tmp/$size.json $bytes)
	share=$((text ? big * 1000 / text : 0))
	check "$size: $(percent $share) of the text in folios of $size or more (at least $(percent $min))" \
		test $share -ge $min
	check_eq "$size: nothing PMD-mapped (a PMD is 32M here)" \
		"$(json_u64 /tmp/$size.json pmd_mapped_bytes)" 0
done
check "umount" umount /mnt
done_testing
