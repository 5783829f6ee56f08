#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest test: a lone read(2) of a file with a policy, one that follows
# nothing cached (DESIGN.md section 6.2, patch 2).  A 4M file tagged 64k,
# its cache dropped before each read, at read_ahead_kb 8192 and 128: a
# read of 1M at 2M and one of 64K at 2M+64K read just those bytes, all
# in 64K folios (upstream reads such a read page by page); a read of
# 128K at 2M+32K, not aligned to the folios, reads those bytes and none
# beyond, a 64K folio in its middle and 32K ones at its ends; a read of
# 8K at 2M+8K stays 8K of single pages.  The same reads of an untagged
# copy are reported for comparison.  On the disk with 16K blocks (16K
# the smallest folio there), a read of 68K at 2M+4K reads the 80K of
# blocks it touches, a 64K folio and a 16K one, and marks none of them
# for async readahead: nothing more of the file is read, by the read
# itself or by touching its pages; nor does the window a fault of a
# sequential mapping reads from an unaligned page, whose last 16K block
# ends past it (before the fix that block was marked, and a fault on it
# read the next window).
. /tests/lib/tap.sh
. /tests/lib/counters.sh

# cold_read FILE FILE_CACHED DESCRIPTION WANT COMMAND...: after dropping
# the cache, COMMAND prints WANT and leaves FILE_CACHED bytes of FILE
# cached, nothing more.
cold_read() {
	f=$1
	f_cached=$2
	desc=$3
	want=$4
	shift 4
	drop_caches
	# Pages still in a CPU's LRU batch after the writes escape the drop.
	before=$(vmhelper cached $f)
	[ "$before" = 0 ] || diag "$before bytes of $f cached before"
	check_eq "read_ahead_kb $ra: $desc" "$("$@")" "$want"
	check_eq "read_ahead_kb $ra: nothing else of $f read" \
		"$(vmhelper cached $f)" "$((before + f_cached))"
}

# lone_read FILE OFFSET LENGTH WANT FILE_CACHED: one read of LENGTH bytes
# at OFFSET of FILE leaves WANT (vmhelper readfolios) and FILE_CACHED
# bytes of the file cached.
lone_read() {
	cold_read $1 $5 "a read of $3 bytes at $2 of $1 leaves $4" "$4" \
		vmhelper readfolios $1 $2 $3
}

check "mount" mount "$TEST_DISK" /mnt
file=/mnt/loneread.dat
check "write a 4M file" sh -c "head -c 4194304 /dev/urandom >$file"
check "copy it untagged" cp $file /mnt/loneread.plain
check_eq "tag it 64k" "$(vmhelper setxattr $file 64k)" ok
ra_file=/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb
ra_before=$(cat $ra_file)
diag "max_sectors_kb $(cat /sys/block/${TEST_DISK##*/}/queue/max_sectors_kb)"

for ra in 8192 128; do
	echo $ra >$ra_file
	for r in "2097152 1048576" "2162688 65536" "2129920 131072" \
		"2105344 8192"; do
		drop_caches
		diag "untagged, $r: $(vmhelper readfolios /mnt/loneread.plain $r)"
	done
	lone_read $file 2097152 1048576 \
		"cached=1048576 small=0 smallest=65536" 1048576
	lone_read $file 2162688 65536 \
		"cached=65536 small=0 smallest=65536" 65536
	lone_read $file 2129920 131072 \
		"cached=131072 small=0 smallest=32768" 131072
	lone_read $file 2105344 8192 \
		"cached=8192 small=8192 smallest=4096" 8192
done
echo $ra_before >$ra_file
check "the policy still reads as 64k" \
	sh -c "vmhelper state $file | grep -q '^size=65536 source=xattr'"
rm -f $file /mnt/loneread.plain
check "umount" umount /mnt

disk16k=
for d in $EXTRA_DISKS; do
	case $d in blocks16k=*) disk16k=${d#*=} ;; esac
done
check "mount the disk with 16K blocks" mount "$disk16k" /mnt
file=/mnt/loneread.dat
check "write a 4M file there" sh -c "head -c 4194304 /dev/urandom >$file"
check_eq "tag it 64k" "$(vmhelper setxattr $file 64k)" ok
ra_file=/sys/block/${disk16k##*/}/queue/read_ahead_kb
ra_before=$(cat $ra_file)
for ra in 8192 128; do
	echo $ra >$ra_file
	lone_read $file 2101248 69632 \
		"cached=69632 small=0 smallest=16384" 81920
done
# A fault of a sequential mapping at page 513 reads the window from there
# (ra_pages, 32 pages at 128 KB) as a lone read: to the 16K block that
# holds its last page, the blocks 512-547 (147456 bytes).  A fault on
# page 544, in that last block, maps it and reads nothing more.
ra=128
echo $ra >$ra_file
cold_read $file 147456 "faults at pages 513 and 544 of a sequential mapping" \
	ok vmhelper seqtouch $file 513 544
echo $ra_before >$ra_file
rm -f $file
check "umount the disk with 16K blocks" umount /mnt
done_testing
