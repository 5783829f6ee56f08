#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The x86_64 benchmark's guest side (bench/bench-x86.sh).  On a kernel
# without the series, configuration "default": the disk mounted without
# options, redis/plain (Debian's amd64 redis-server, no xattrs) and
# bigprog (no xattr).  On the series, configuration "64k": the same files
# under the 64k mount default alone, and "2m": mounted with
# exec_folio_size=2m, redis/tagged (shared libraries tagged 2m) and
# bigprog.2m (xattr 2m), text mapped by PMDs.  BENCH_RA_KB (kernel
# command line) sets the disk's read_ahead_kb.  Each run reports "# bench CONFIG WORKLOAD VIEW
# KEY VALUE" lines as bench-workloads.sh does, with the FilePmdMapped
# kB of the process's executable mappings (smaps) as "run file_pmd_kb".
# TCG has no TLB counters: PMD-mapped bytes are the iTLB-relevant figure.
. /tests/lib/tap.sh
. /tests/lib/redis.sh
REDIS_REQUESTS=${BENCH_REDIS_REQUESTS:-1000}
export REDIS_REQUESTS

emit() { echo "# bench $cfg $wl $*"; }

emit_stat() { # VIEW TABLE JSON
	awk -v p="# bench $cfg $wl $1" '/ kB / { print p, $1, $2 }' "$2"
	for k in text_bytes partial_bytes cont_aligned_64k_bytes \
		cont_eligible_64k_bytes pmd_mapped_bytes; do
		emit "$1" "$k" "$(json_u64 "$3" "$k")"
	done
	emit "$1" share_permille "$(share_permille "$3")"
}

emit_delta() { # "READ CACHED"
	set -- $1
	emit run read_bytes "$1"
	emit run cache_growth_bytes "$2"
}

if [ -n "${BENCH_RA_KB:-}" ]; then
	check "read_ahead_kb $BENCH_RA_KB on $TEST_DISK" sh -c \
		"echo $BENCH_RA_KB >/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb"
fi
diag "disk $TEST_DISK, read_ahead_kb $(cat "/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb")"
configs=default
if mount -o exec_folio_size=64k "$TEST_DISK" /mnt 2>/dev/null; then
	umount /mnt
	configs="64k 2m"
fi
for cfg in $configs; do
	case $cfg in
	2m)
		check "$cfg: mount -o exec_folio_size=2m" mount -o exec_folio_size=2m "$TEST_DISK" /mnt
		prog=/mnt/bigprog.2m
		tree=/mnt/redis/tagged
		;;
	64k)
		check "$cfg: mount -o exec_folio_size=64k,exec_folio_scope=all" \
			mount -o exec_folio_size=64k,exec_folio_scope=all "$TEST_DISK" /mnt
		prog=/mnt/bigprog
		tree=/mnt/redis/plain
		;;
	*)
		check "$cfg: mount" mount "$TEST_DISK" /mnt
		prog=/mnt/bigprog
		tree=/mnt/redis/plain
		;;
	esac

	wl=bigprog
	if run_bigprog "$prog" /tmp/live.json >/tmp/diag.out; then
		emit_delta "$delta"
		emit run file_pmd_kb "$(awk '$1 == "FilePmdMapped:" { s += $2 } END { print s + 0 }' /tmp/bigprog.smaps)"
		emit_stat live /tmp/live.txt /tmp/live.json
		ok "$cfg bigprog: executed all its text"
	else
		not_ok "$cfg bigprog: executed all its text"
	fi

	wl=redis
	if run_redis "$tree" /tmp/live.json >/tmp/diag.out; then
		emit_delta "$delta"
		emit run file_pmd_kb "$(sed -n 's/.*, pmd \([0-9]*\) kB$/\1/p' /tmp/diag.out |
			awk '{ s += $1 } END { print s + 0 }')"
		emit run requests_per_s "$(awk '{ s += $2; n++ }
			END { if (n) printf "%.2f", s / n }' /tmp/redis-bench.out)"
		emit_stat live /tmp/live.txt /tmp/live.json
		ok "$cfg redis: redis-server served redis-benchmark"
	else
		not_ok "$cfg redis: redis-server served redis-benchmark"
	fi
	check "$cfg: umount" umount /mnt
done
done_testing
