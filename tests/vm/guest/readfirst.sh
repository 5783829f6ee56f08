#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The policy is a minimum whoever reads the file first (DESIGN.md section
# 2.6): the 5 MB bigprog on the suite disk, under the 64k mount default,
# with its page cache filled before it runs by
#   - read() of the whole file (cat: a checksum, a backup),
#   - a PROT_READ mapping touched whole (a debugger, an ldd-like reader),
#   - posix_fadvise(POSIX_FADV_WILLNEED) (a preloader),
#   - read() of its first page only (warm cache: the file was looked at),
# each at read_ahead_kb 128 and at 8192 (7.3's default for the guest's
# virtio disk), runs from that cache at >= 98% cont-aligned share.
# Then the costs the policy must not add:
#   - 256 random 4K pread()s of a 64 MiB file tagged 2m read at most twice
#     the bytes of the same reads of an untagged copy;
#   - chmod +x of a 256 MiB dirty file under the mount default writes
#     nothing back and keeps its pages cached (the change is pending);
#   - a preload (WILLNEED) of an 8 MiB 64k-tagged file already cached
#     allocates no more than that of its untagged copy and reports no
#     fallback (cached pages are skipped by lookup, not by allocating a
#     folio of every order and failing to insert it); with 64 pages of it
#     cached by random reads, it caches the rest, reads no more than the
#     file from the disk and the file reads back the same;
#   - a first 4K read of the 2m-tagged file at read_ahead_kb 128 reads
#     one 2M folio (the policy rounds the window up to whole folios);
#   - 32 random 8K, then 64K, reads of the 2m-tagged file after
#     POSIX_FADV_RANDOM read no more than their bytes (and metadata);
#   - in a memory cgroup held at its limit by anonymous memory, reads of
#     the 2m-tagged file and a run of a tagged program complete, right,
#     with no OOM kill, and the preferred folios that could not be charged
#     are counted as fallbacks; so do appends to files tagged 32k and 2m
#     (the write path's folios).
. /tests/lib/tap.sh
. /tests/lib/measure.sh
. /tests/lib/inject.sh
. /tests/lib/khugepaged.sh
khugepaged_asleep
ra=/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb
ra_default=$(cat $ra)

check "mount -o exec_folio_size=64k" mount -o exec_folio_size=64k "$TEST_DISK" /mnt

# Fill the cache with METHOD, then run bigprog from it: NAME METHOD...
run_after() {
	name=$1
	shift
	drop_caches
	"$@" >/dev/null 2>&1
	if KEEP_CACHE=1 run_bigprog /mnt/bigprog /tmp/first.json; then
		report_run "$name" /tmp/first.json "$delta"
		check "$name: cont-aligned share at least 98%" \
			test "$(share_permille /tmp/first.json)" -ge 980
	else
		not_ok "$name: cont-aligned share at least 98% (did not run)"
	fi
}

for kb in 128 8192; do
	echo $kb >$ra
	run_after "read() first, read_ahead_kb $kb" cat /mnt/bigprog
	run_after "PROT_READ mapping first, read_ahead_kb $kb" vmhelper mmapsum /mnt/bigprog
	run_after "WILLNEED first, read_ahead_kb $kb" vmhelper willneed /mnt/bigprog
	run_after "first page read() first, read_ahead_kb $kb" \
		dd if=/mnt/bigprog of=/dev/null bs=4k count=1
done
echo $ra_default >$ra

# Random reads: a lone small read stays small with a 2m policy.
check "a 64 MiB data file" dd if=/dev/urandom of=/mnt/rand.2m bs=1M count=64
check "its untagged copy" cp /mnt/rand.2m /mnt/rand.plain
check "tag it 2m" test "$(vmhelper setxattr /mnt/rand.2m 2m)" = ok
random_read() { # FILE: bytes read from the disk by the random reads
	counters_start
	vmhelper randread "$1" 256 42 >/dev/null || echo "randread $1 failed" >&2
	set -- $(counters_delta)
	echo "$1"
}
for kb in 128 8192; do
	echo $kb >$ra
	plain=$(random_read /mnt/rand.plain)
	tagged=$(random_read /mnt/rand.2m)
	diag "256 random 4K reads, read_ahead_kb $kb: untagged $plain bytes, 2m-tagged $tagged bytes"
	check "random reads of the 2m-tagged file, read_ahead_kb $kb: at most twice the untagged bytes" \
		test "$tagged" -gt 0 -a "$tagged" -le $((2 * plain))
done
echo $ra_default >$ra
# A file opened for random access (POSIX_FADV_RANDOM) gets no readahead:
# 32 random reads of 8K, then of 64K, of the 2m-tagged file read their
# own bytes (and the file's metadata), not whole 2M folios.
fadv_random_read() { # FILE SIZE: bytes read by 32 random reads of SIZE
	counters_start
	vmhelper randread "$1" 32 42 "$2" random >/dev/null ||
		echo "randread $1 $2 random failed" >&2
	set -- $(counters_delta)
	echo "$1"
}
for size in 8192 65536; do
	tagged=$(fadv_random_read /mnt/rand.2m $size)
	diag "POSIX_FADV_RANDOM, 32 random reads of $size bytes of the 2m-tagged file: $tagged bytes read"
	check "POSIX_FADV_RANDOM, random reads of $size bytes of the 2m-tagged file: no more than the reads and 64K of metadata" \
		test "$tagged" -gt 0 -a "$tagged" -le $((32 * size + 65536))
done

# A policy larger than the readahead window (DESIGN.md section 2.6): at
# read_ahead_kb 128 a first 4K read of the 2m-tagged file reads one whole
# 2M folio, of its untagged copy no more than the window.
first_read() { # FILE: bytes read by a 4K read at offset 0
	counters_start
	dd if="$1" of=/dev/null bs=4k count=1 2>/dev/null
	set -- $(counters_delta)
	echo "$1"
}
echo 128 >$ra
tagged=$(first_read /mnt/rand.2m)
plain=$(first_read /mnt/rand.plain)
echo $ra_default >$ra
diag "a first 4K read at read_ahead_kb 128: 2m-tagged $tagged bytes, untagged $plain bytes"
check "a first 4K read of the 2m-tagged file at read_ahead_kb 128 reads one 2M folio" \
	test "$tagged" -ge 2097152 -a "$tagged" -le $((2097152 + 65536))
check "the same read of the untagged copy reads no more than the window" \
	test "$plain" -gt 0 -a "$plain" -le $((131072 + 65536))

# A preload over cached pages.  WILLNEED reads at most the readahead
# window, so the file fits in the 8192 KB one.
echo 8192 >$ra
check "an 8 MiB data file and its copy, the file tagged 64k" \
	sh -c "dd if=/dev/urandom of=/mnt/pre.64k bs=1M count=8 2>/dev/null &&
		cp /mnt/pre.64k /mnt/pre.plain &&
		test \"\$(vmhelper setxattr /mnt/pre.64k 64k)\" = ok"
pgallocs() { awk '$1 ~ /^pgalloc_/ { n += $2 } END { print n }' /proc/vmstat; }
willneed_pgallocs() { # FILE: pages allocated by a preload of FILE
	p0=$(pgallocs)
	vmhelper willneed "$1" >/dev/null || echo "willneed $1 failed" >&2
	echo $(($(pgallocs) - p0))
}
drop_caches
cat /mnt/pre.64k /mnt/pre.plain >/dev/null
fallback_logs >/dev/null
plain=$(willneed_pgallocs /mnt/pre.plain)
tagged=$(willneed_pgallocs /mnt/pre.64k)
events=$(fallback_logs)
diag "WILLNEED of a cached 8 MiB file: $plain pages allocated untagged, $tagged 64k-tagged"
check "WILLNEED of the cached 64k-tagged file allocates at most 128 pages more than untagged" \
	test "$tagged" -le $((plain + 128))
check_eq "WILLNEED of the cached 64k-tagged file reports no fallback" "$events" 0
sum=$(vmhelper sum /mnt/pre.64k)
drop_caches
vmhelper randread /mnt/pre.64k 64 7 >/dev/null
before=$(vmhelper cached /mnt/pre.64k)
fallback_logs >/dev/null
KEEP_CACHE=1 counters_start
vmhelper willneed /mnt/pre.64k >/dev/null
after=$(vmhelper cached /mnt/pre.64k)
# Reading the file waits for the preload's reads, which the disk's
# counters count as they complete, and reads whatever it left out.
sum_after=$(vmhelper sum /mnt/pre.64k)
set -- $(counters_delta)
events=$(fallback_logs)
diag "WILLNEED after 64 random reads: $before bytes cached before, $after after;" \
	"with the read after it $1 bytes read, $events fallbacks"
check_eq "WILLNEED after 64 random reads caches the whole file" "$after" 8388608
check "WILLNEED after 64 random reads and a read of the file read no more than the rest of it" \
	test "$1" -gt 0 -a "$1" -le $((8388608 - before))
check_eq "the file reads back the same" "$sum_after" "${sum:-(no checksum before)}"
echo $ra_default >$ra
rm -f /mnt/pre.64k /mnt/pre.plain

# A policy change does not evict: chmod +x on a large dirty file.
sysctl_save=$(for k in dirty_ratio dirty_background_ratio dirty_expire_centisecs \
	dirty_writeback_centisecs; do echo "$k=$(cat /proc/sys/vm/$k)"; done)
echo 90 >/proc/sys/vm/dirty_ratio
echo 80 >/proc/sys/vm/dirty_background_ratio
echo 360000 >/proc/sys/vm/dirty_expire_centisecs
echo 0 >/proc/sys/vm/dirty_writeback_centisecs
dirty_kb() { awk '$1 == "Dirty:" { print $2 }' /proc/meminfo; }
sync
rm -f /mnt/big.dirty
check "256 MiB written, not synced" \
	dd if=/dev/zero of=/mnt/big.dirty bs=1M count=256
chmod 0644 /mnt/big.dirty
dirty_before=$(dirty_kb)
cached_before=$(cached_bytes)
written_before=$(awk '{ print $7 }' "/sys/block/${TEST_DISK##*/}/stat")
chmod +x /mnt/big.dirty
dirty_after=$(dirty_kb)
cached_after=$(cached_bytes)
written_after=$(awk '{ print $7 }' "/sys/block/${TEST_DISK##*/}/stat")
diag "chmod +x: Dirty ${dirty_before} -> ${dirty_after} kB," \
	"Cached $cached_before -> $cached_after bytes," \
	"sectors written $written_before -> $written_after"
check "chmod +x: the dirty pages stay dirty (nothing written back)" \
	test "$dirty_after" -ge $((dirty_before - 8192)) -a "$dirty_before" -ge 200000
check "chmod +x: the pages stay cached" \
	test "$cached_after" -ge $((cached_before - 8388608))
check_eq "chmod +x: the mount default applies to new folios, pending" \
	"$(vmhelper state /mnt/big.dirty)" \
	"size=65536 source=mount order=4 folio=65536 pending=1 deferred=0"
for kv in $sysctl_save; do echo "${kv#*=}" >"/proc/sys/vm/${kv%%=*}"; done
rm -f /mnt/big.dirty
sync

# A memory cgroup held at its limit by anonymous memory (no swap).
cg=/sys/fs/cgroup
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
check "memory controller available" grep -qw memory $cg/cgroup.controllers
echo +memory >$cg/cgroup.subtree_control
mkdir -p $cg/limited
drop_caches
sh -c "echo \$\$ >$cg/limited/cgroup.procs && exec vmhelper hog 64" >/tmp/hog.out 2>&1 &
hog=$!
check "hog of 64 MiB ready in the cgroup" wait_for /tmp/hog.out '^hog ready' 600
# 3 MiB above what it holds now: room for small folios, none for a 2M one
# once the cgroup's own page cache is counted.
echo $(($(cat $cg/limited/memory.current) + 3145728)) >$cg/limited/memory.max
before=$(fallbacks)
sh -c "echo \$\$ >$cg/limited/cgroup.procs && exec vmhelper sum /mnt/rand.2m" \
	>/tmp/cg-sum.out 2>&1
plain_sum=$(vmhelper sum /mnt/rand.plain)
check_eq "cgroup at its limit: read() of the 2m-tagged file returns its bytes" \
	"$(cat /tmp/cg-sum.out)" "${plain_sum:-(no checksum of the untagged copy)}"
sh -c "echo \$\$ >$cg/limited/cgroup.procs && exec /mnt/bigprog" >/tmp/cg-prog.out 2>&1
check "cgroup at its limit: the tagged program runs to completion" \
	grep -q '^bigprog ' /tmp/cg-prog.out
after=$(fallbacks)
oom=$(awk '$1 == "oom_kill" { print $2 }' $cg/limited/memory.events)
diag "cgroup: memory.events: $(tr '\n' ' ' <$cg/limited/memory.events)"
diag "thp_file_pref_fallback: $before -> $after"
check_eq "cgroup at its limit: no OOM kill" "$oom" 0
check "cgroup at its limit: the preferred folios not charged are counted" \
	test "${after:-0}" -gt "${before:-0}"
# Appends by a process of the cgroup, with room for 1 MiB of page cache
# beside the rest of what it holds: the folios a write of a tagged file asks
# for beyond its own size are charged without hard reclaim, smaller ones
# are used where they cannot be, counted, and nothing is OOM-killed.
file=$(awk '$1 == "file" { print $2 }' $cg/limited/memory.stat)
echo $(($(cat $cg/limited/memory.current) - file + 1048576)) >$cg/limited/memory.max
head -c 4194304 /mnt/rand.plain >/tmp/append.want
for size in 32k 2m; do
	: >/mnt/append.$size
	vmhelper setxattr /mnt/append.$size $size >/dev/null
	oom0=$(awk '$1 == "oom_kill" { print $2 }' $cg/limited/memory.events)
	before=$(fallbacks)
	sh -c "echo \$\$ >$cg/limited/cgroup.procs &&
		exec vmhelper append /mnt/rand.plain /mnt/append.$size 4194304" \
		>/tmp/cg-append.out 2>&1
	after=$(fallbacks)
	oom1=$(awk '$1 == "oom_kill" { print $2 }' $cg/limited/memory.events)
	diag "append to the $size-tagged file: $(cat /tmp/cg-append.out)," \
		"thp_file_pref_fallback $before -> $after, oom_kill $oom0 -> $oom1"
	check "cgroup at its limit: 4 MiB appended to the $size-tagged file, as written" \
		cmp /tmp/append.want /mnt/append.$size
	check_eq "cgroup at its limit: no OOM kill appending to the $size-tagged file" \
		"$oom1" "${oom0:-(memory.events not read)}"
	if [ $size = 2m ]; then
		check "cgroup at its limit: the 2m-tagged file's write folios not charged are counted" \
			test "${after:-0}" -gt "${before:-0}"
	fi
	rm -f /mnt/append.$size
done
rm -f /tmp/append.want
kill $hog
wait $hog 2>/dev/null
rmdir $cg/limited
rm -f /mnt/rand.2m /mnt/rand.plain

check "umount" umount /mnt
done_testing
