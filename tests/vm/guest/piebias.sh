#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The load address of a position-independent program is aligned for its
# folios only where its text fills one: pieaddr (a static PIE with about
# 500K of text) keeps the randomization of the bits below 2M under a 2m
# mount default, and is loaded 64K-aligned under a 64k one.
. /tests/lib/tap.sh

RUNS=8

# The load addresses of RUNS runs of PROGRAM modulo SIZE, one a line.
load_offsets() { # PROGRAM SIZE
	i=0
	while [ $i -lt $RUNS ]; do
		addr=$("$1") || return 1
		echo $((addr % $2))
		i=$((i + 1))
	done
}

check "mount -o exec_folio_size=2m" mount -o exec_folio_size=2m "$TEST_DISK" /mnt
cp /bin/pieaddr /mnt/pieaddr.2m
chmod 0755 /mnt/pieaddr.2m
check_eq "pieaddr under the 2m default: the mount's policy" \
	"$(vmhelper state /mnt/pieaddr.2m)" \
	"size=2097152 source=mount order=9 folio=2097152 pending=0 deferred=0"
offsets=$(load_offsets /mnt/pieaddr.2m 2097152 | sort -u)
diag "pieaddr under 2m, $RUNS runs, load address modulo 2M:" $offsets
check "its text cannot fill a 2M folio: its load address keeps the bits below 2M random" \
	test "$(echo "$offsets" | wc -l)" -ge 2

check "remount with exec_folio_size=64k" mount -o remount,exec_folio_size=64k /mnt
cp /bin/pieaddr /mnt/pieaddr.64k
chmod 0755 /mnt/pieaddr.64k
offsets=$(load_offsets /mnt/pieaddr.64k 65536 | sort -u)
diag "pieaddr under 64k, $RUNS runs, load address modulo 64K:" $offsets
check_eq "its text fills 64K folios: loaded 64K-aligned in every run" "$offsets" 0
rm -f /mnt/pieaddr.2m /mnt/pieaddr.64k
check "umount" umount /mnt
done_testing
