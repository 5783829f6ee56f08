#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The guest side of make demo (tests/vm/demo.sh): the large program and
# redis-server under redis-benchmark, first from the XFS disk mounted
# without the policy (bigprog and redis/plain have no xattr), then with it
# (the 64k mount default; redis/tagged's libraries carry the xattr).  Each
# run's execfolio stat table and counters are printed between
# "=== NAME" lines for the host to put side by side; TAP around them.
. /tests/lib/tap.sh
. /tests/lib/redis.sh
. /tests/lib/khugepaged.sh
khugepaged_asleep

# NAME: print the table and "counters READ CACHED" of a run.
section() { # NAME TABLE
	echo "=== $1"
	cat "$2"
	echo "counters $delta"
}

check "mount without the policy" mount "$TEST_DISK" /mnt
run_bigprog /mnt/bigprog /tmp/bigprog-before.json &&
	section "bigprog before" /tmp/bigprog-before.txt
run_redis /mnt/redis/plain /tmp/redis-before.json &&
	section "redis before" /tmp/redis-before.txt
check "umount" umount /mnt

check "mount -o exec_folio_size=64k" mount -o exec_folio_size=64k "$TEST_DISK" /mnt
run_bigprog /mnt/bigprog /tmp/bigprog-after.json &&
	section "bigprog after" /tmp/bigprog-after.txt
run_redis /mnt/redis/tagged /tmp/redis-after.json &&
	section "redis after" /tmp/redis-after.txt
check "umount" umount /mnt

for w in bigprog redis; do
	check "$w measured before and after" \
		test -s /tmp/$w-before.txt -a -s /tmp/$w-after.txt
done
done_testing
