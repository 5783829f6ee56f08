# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest disk and page-cache counters (/tests/lib/counters.sh): bytes
# read from the test disk ($TEST_DISK) and page-cache growth over a run.

# Read requests, the milliseconds they took and the bytes they read on the
# test disk since boot, from one reading of /sys/block/X/stat: requests
# over milliseconds is the mean latency a read saw.
disk_reads() {
	set -- $(cat "/sys/block/${TEST_DISK##*/}/stat")
	echo "$1 $4 $(($3 * 512))"
}

# Bytes read from the test disk since boot.
disk_read_bytes() {
	set -- $(disk_reads)
	echo "$3"
}

# Page-cache bytes (Cached in /proc/meminfo).
cached_bytes() { awk '$1 == "Cached:" { print $2 * 1024 }' /proc/meminfo; }

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# Start the counters of a run: caches dropped (unless KEEP_CACHE=1, for a
# run from what is cached already), disk and cache figures kept.
counters_start() {
	[ "${KEEP_CACHE:-0}" = 1 ] || drop_caches
	read0=$(disk_read_bytes)
	cache0=$(cached_bytes)
}

# "READ CACHED": bytes read from the disk and page-cache growth since
# counters_start.
counters_delta() {
	echo "$(($(disk_read_bytes) - read0)) $(($(cached_bytes) - cache0))"
}
