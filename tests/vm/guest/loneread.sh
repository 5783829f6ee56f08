#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest test: a lone read(2) of a file with a policy, one that follows
# nothing cached (DESIGN.md section 6.2, patch 2).  A 4M file tagged 64k,
# its cache dropped before each read, at read_ahead_kb 8192 and 128: a
# read of 1M at 2M and one of 64K at 2M+64K read just those bytes, none
# in single-page folios (upstream reads such a read page by page); a read
# of 128K at 2M+32K, not aligned to the folios, reads those bytes and
# none beyond; a read of 8K at 2M+8K stays 8K of single pages.  The same
# reads of an untagged copy are reported for comparison.
. /tests/vmlib.sh
echo "1..22"

check "mount" mount "$TEST_DISK" /mnt
file=/mnt/loneread.dat
check "write a 4M file" sh -c "head -c 4194304 /dev/urandom >$file"
check "copy it untagged" cp $file /mnt/loneread.plain
check_eq "tag it 64k" "$(vmhelper setxattr $file 64k)" ok
ra_file=/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb
ra_before=$(cat $ra_file)

lone_read() { # OFFSET LENGTH WANT
	drop_caches
	diag "untagged, $1 +$2: $(vmhelper readfolios /mnt/loneread.plain $1 $2)"
	drop_caches
	# Pages still in a CPU's LRU batch after the writes escape the drop.
	before=$(vmhelper cached $file)
	[ "$before" = 0 ] || diag "$before bytes of the file cached before"
	check_eq "read_ahead_kb $ra: a read of $2 bytes at $1 leaves $3" \
		"$(vmhelper readfolios $file $1 $2)" "$3"
	check_eq "read_ahead_kb $ra: nothing else of the file read" \
		"$(vmhelper cached $file)" "$((before + $2))"
}

for ra in 8192 128; do
	echo $ra >$ra_file
	lone_read 2097152 1048576 "cached=1048576 small=0"
	lone_read 2162688 65536 "cached=65536 small=0"
	lone_read 2129920 131072 "cached=131072 small=0"
	lone_read 2105344 8192 "cached=8192 small=8192"
done
echo $ra_before >$ra_file
check "the policy still reads as 64k" \
	sh -c "vmhelper state $file | grep -q '^size=65536 source=xattr'"
rm -f $file /mnt/loneread.plain
check "umount" umount /mnt
[ $failed = 0 ]
