#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The cost benchmarks' guest side (bench/bench-costs.sh, QEMU with
# -icount shift=0 and one CPU: one guest nanosecond is one instruction),
# on the disk of bench/disks/costs.sh.
#
# inodes: instantiating every inode of inodes/ cold (a fresh mount, caches
# dropped) with busybox find -type f -perm -u+x (an lstat of each entry),
# the XFS disk mounted without and with exec_folio_size=64k, alternately,
# BENCH_COST_ROUNDS (3) times each; benchhelper run gives the instructions
# the find executed (its CPU time) and the guest clock.
#
# create: BENCH_INODES (100000) files created in a fresh directory and
# opened again, by one process (benchhelper create) whose instructions
# benchhelper run counts, on the disk mounted without options,
# BENCH_COST_ROUNDS times: what the series costs a file system that does
# not use it (bench-costs.sh boots stock 7.3 for the comparison).
#
# On a kernel without the series (no exec_folio_size mount option) the
# mount64k rounds are left out and the small/ policies are plain files.
#
# small: the page-cache bytes of reading every file of small/P once (cat),
# and of executing each generated program of it once (they run all their
# text), for each policy P (none, 16k, 64k, 2m, the files' xattr), caches
# dropped before each.
#
# Results are TAP comments "# bench costs KIND LABEL KEY VALUE".
. /tests/lib/tap.sh
. /tests/lib/counters.sh
rounds=${BENCH_COST_ROUNDS:-3}
files=${BENCH_INODES:-100000}

emit() { echo "# bench costs $*"; }

inodes_once() { # LABEL [MOUNT_OPTIONS]
	if [ -n "${2:-}" ]; then
		mount -o "$2" "$TEST_DISK" /mnt
	else
		mount "$TEST_DISK" /mnt
	fi || {
		not_ok "inodes $1: mount"
		return
	}
	drop_caches
	if benchhelper run /tmp/find.run find /mnt/inodes -type f -perm -u+x \
		>/tmp/find.out; then
		set -- "$1" $(cat /tmp/find.run)
		emit inodes "$1" cpu_ns "$3"
		emit inodes "$1" wall_ns "$5"
		emit inodes "$1" files "$(wc -l </tmp/find.out)"
		ok "inodes $1: find over $(wc -l </tmp/find.out) files"
	else
		not_ok "inodes $1: find over the tree"
	fi
	umount /mnt
}

create_once() {
	mount "$TEST_DISK" /mnt || {
		not_ok "create: mount"
		return
	}
	rm -rf /mnt/created
	mkdir /mnt/created
	drop_caches
	if benchhelper run /tmp/create.run benchhelper create /mnt/created "$files"; then
		set -- $(cat /tmp/create.run)
		emit create none cpu_ns "$2"
		emit create none wall_ns "$4"
		emit create none files "$files"
		ok "create: $files files created and opened again"
	else
		not_ok "create: $files files created and opened again"
	fi
	rm -rf /mnt/created
	umount /mnt
}

series=0
if mount -o exec_folio_size=64k "$TEST_DISK" /mnt 2>/dev/null; then
	umount /mnt
	series=1
fi
diag "kernel $(uname -r), exec_folio_size mount option: $series"
r=1
while [ $r -le "$rounds" ]; do
	if [ $series = 0 ]; then
		inodes_once none
	elif [ $((r % 2)) = 1 ]; then
		inodes_once none
		inodes_once mount64k exec_folio_size=64k
	else
		inodes_once mount64k exec_folio_size=64k
		inodes_once none
	fi
	create_once
	r=$((r + 1))
done

check "mount for the small executables" mount "$TEST_DISK" /mnt
for p in none 16k 64k 2m; do
	d=/mnt/small/$p
	emit small "$p" files "$(ls "$d" | wc -l)"
	emit small "$p" file_bytes "$(ls -l "$d" | awk '{ s += $5 } END { print s }')"
	emit small "$p" files_under_64k "$(ls -l "$d" | awk '$5 < 65536 { n++ } END { print n + 0 }')"
	emit small "$p" state "$(vmhelper state "$d/big512" 2>&1 | tr ' ' _)"
	counters_start
	cat "$d"/* >/dev/null
	set -- $(counters_delta)
	emit small "$p" read_bytes "$1"
	emit small "$p" cache_bytes "$2"
	ok "small $p: read every file"
	# Execute the generated programs (all their text), nothing else read.
	counters_start
	runs=0
	for f in "$d"/p* "$d"/big*; do
		"$f" && runs=$((runs + 1))
	done
	set -- $(counters_delta)
	emit small "$p" exec_read_bytes "$1"
	emit small "$p" exec_cache_bytes "$2"
	emit small "$p" exec_file_bytes "$(ls -l "$d"/p* "$d"/big* | awk '{ s += $5 } END { print s }')"
	check "small $p: executed every generated program" test "$runs" = "$(ls "$d"/p* "$d"/big* | wc -l)"
done
check "umount" umount /mnt
done_testing
