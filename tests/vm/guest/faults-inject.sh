#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Allocation failure and memory pressure, as TAP (vm-faults tier).  With
# fail_page_alloc failing every allocation of order >= 4 system-wide
# (probability 100, times -1, ignore-gfp-wait N, so sleeping allocations
# fail too), on files tagged 64k (disks/faults.sh):
#  - bigprog.tagged started from a cold cache runs to completion;
#  - stepper.tagged, started before, faults in text it never touched
#    (guest/faults-stepper.c: part 2 of its functions) and computes what
#    the untagged copy computes;
#  - read() of data.tagged returns what a tmpfs copy holds, and every file
#    matches the host's SHA256SUMS;
#  - the fallback fired (thp_file_pref_fallback rose, the log says so).
# Once injection stops, newly faulted text (stepper part 3, bigprog from a
# cold cache) is in 64K folios again (execfolio stat).  Then, with a memory
# hog holding all but 128 MiB of the available memory, the program runs and
# the reads are right again.  The time under injection is reported.
# Last, real fragmentation without injection (vmhelper fragment): one
# mlocked page in every physically aligned 64K block, the other 15 free,
# the 64K blocks still free taken as anonymous 64K folios,
# vm.compact_unevictable_allowed 0 so that compaction cannot move the
# locked pages, and vm.extfrag_threshold 1000 so that it does not free the
# odd block that has none: 64K allocations fail for real.  The same checks as under
# injection, the fallback count and the time reported; no OOM kill; once
# the fragmenter exits, a cold program's text is in 64K folios again.
. /tests/lib/tap.sh
. /tests/lib/measure.sh
. /tests/lib/inject.sh
. /tests/lib/khugepaged.sh
mnt=/mnt
knobs="probability times min-order ignore-gfp-wait ignore-gfp-highmem task-filter verbose"

uptime_cs() { awk '{ split($1, t, "."); print t[1] * 100 + t[2] }' /proc/uptime; }

# Resident text bytes in folios of 64K or more, of a stat --json FILE.
big_bytes() { # FILE
	sed -e 's/.*"folio_bytes":{\([^}]*\)}.*/\1/' "$1" | tr -d '"' | tr ',' '\n' |
		awk -F: '$1 >= 65536 { s += $2 } END { print s + 0 }'
}

trap inject_off EXIT

# The stepper (faults-stepper) at PATH in 3 parts, 128 functions apart;
# its output in FILE.
stepper_start() { # PATH FILE
	: >"$2"
	"$1" 3 128 >"$2" 2>&1 &
	stepper=$!
}
stepper_part() { # FILE N: wait for part N (up to 5 minutes)
	wait_for "$1" "^part $2 " 3000
}
checksum() { sed -n "s/^part $2 //p" "$1"; } # FILE N
stepper_stop() {
	kill $stepper
	wait $stepper 2>/dev/null
}

# Wait for part N of the stepper writing to FILE and check that it computed
# what the untagged copy did.
check_stepper() { # FILE N DESCRIPTION
	stepper_part "$1" "$2"
	ref=$(checksum /tmp/stepper.ref "$2")
	check_eq "$3" "$(checksum "$1" "$2")" "${ref:-(no part $2 in the untagged run)}"
}

# The text the stepper faulted in between two stat --json files ($new) and
# how much of it is in folios of 64K or more ($new_big), as a diagnostic.
stepper_growth() { # BEFORE AFTER WHAT
	new=$(($(json_u64 "$2" text_bytes) - $(json_u64 "$1" text_bytes)))
	new_big=$(($(big_bytes "$2") - $(big_bytes "$1")))
	diag "stepper $3: text $(json_u64 "$2" text_bytes) ($new new)," \
		"in folios >= 64K $(big_bytes "$2") ($new_big new)"
}

# A cold bigprog.tagged prints what the untagged copy printed.
check_cold_bigprog() { # UNDER
	drop_caches
	check_eq "bigprog.tagged from a cold cache runs to completion $1" \
		"$($mnt/bigprog.tagged 2>&1)" "${ref_bigprog:-(the untagged copy printed nothing)}"
}

# Every file read from a cold cache matches the host's SHA256SUMS.
check_cold_sums() { # UNDER
	drop_caches
	check "every file matches SHA256SUMS $1 (cold)" \
		sh -c "cd $mnt && sha256sum -c SHA256SUMS"
}

# The fallback count rose from BEFORE to AFTER.
check_fallbacks_rose() { # BEFORE AFTER UNDER DESCRIPTION
	diag "thp_file_pref_fallback: $1 -> $2 ($(($2 - $1)) fallbacks $3)"
	check "$4" test "${2:-0}" -gt "${1:-0}"
}

# The bracketed choice of a transparent_hugepage "enabled" FILE.
thp_setting() { sed -e 's/.*\[\(.*\)\].*/\1/' "$1"; }

# Centiseconds as seconds with one decimal.
seconds() { echo "$(($1 / 100)).$(($1 % 100 / 10))"; }

# The stepper stopped, a cold bigprog.tagged has at least 90% of its text
# in folios of 64K or more.
check_cold_bigprog_folios() { # WHEN
	stepper_stop
	if run_bigprog $mnt/bigprog.tagged /tmp/bigprog.json; then
		text=$(json_u64 /tmp/bigprog.json text_bytes)
		big=$(big_bytes /tmp/bigprog.json)
	else
		text=0 big=0
	fi
	diag "bigprog.tagged $1, cold: text $text, in folios >= 64K $big ($(folio_summary /tmp/bigprog.json))"
	check "bigprog.tagged from a cold cache $1: at least 90% of its text in folios >= 64K" \
		test "$text" -gt 0 -a $((big * 10)) -ge $((text * 9))
}

# The parts of the stepper are about what each part faults in.  Linux 7.3
# gives the guest's disk an 8M readahead window, with which an exec fault
# reads far into the next part: the injection part runs with 128K, the
# window 6.12 uses, and the memory pressure parts with the disk's own.
ra_file=/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb
ra_default=$(cat $ra_file)
echo 128 >$ra_file
khugepaged_asleep
for k in $knobs; do
	check "fail_page_alloc/$k exists (CONFIG_FAIL_PAGE_ALLOC, debugfs)" test -w $fail_page_alloc/$k
done
check "mount $TEST_DISK" mount "$TEST_DISK" $mnt
check "every file matches the host's SHA256SUMS" sh -c "cd $mnt && sha256sum -c SHA256SUMS"
policy_states $mnt/bigprog.tagged $mnt/stepper.tagged $mnt/data.tagged

# References, computed from untagged copies before any injection.
cp $mnt/data.tagged /tmp/data.ref
cp $mnt/bigprog.tagged /tmp/bigprog.ref
ref_bigprog=$(/tmp/bigprog.ref)
stepper_start $mnt/stepper.none /tmp/stepper.ref
stepper_part /tmp/stepper.ref 1 && kill -USR1 $stepper &&
	stepper_part /tmp/stepper.ref 2 && kill -USR1 $stepper &&
	stepper_part /tmp/stepper.ref 3
stepper_stop
check "the untagged stepper ran its 3 parts" grep -q '^part 3 ' /tmp/stepper.ref
diag "reference: $ref_bigprog; stepper $(tr '\n' ' ' </tmp/stepper.ref)"

# The tagged stepper runs part 1 before injection.
drop_caches
stepper_start $mnt/stepper.tagged /tmp/stepper.out
check_stepper /tmp/stepper.out 1 \
	"stepper.tagged part 1 (before injection) computes as the untagged copy"
stat_json /tmp/stepper1.json $stepper

# Injection on, cold cache.
drop_caches
fallback0=$(fallbacks)
logs0=$(fallback_logs)
inject_on N
t0=$(uptime_cs)
set=""
for k in $knobs; do set="$set $k=$(cat $fail_page_alloc/$k)"; done
check_eq "fail_page_alloc set" "$set" \
	" probability=100 times=-1 min-order=4 ignore-gfp-wait=N ignore-gfp-highmem=N task-filter=N verbose=0"

check_cold_bigprog "under injection"
kill -USR1 $stepper
check_stepper /tmp/stepper.out 2 \
	"running stepper.tagged faults in new text (part 2) under injection"
check "read() of data.tagged (cold) equals the tmpfs copy under injection" \
	cmp $mnt/data.tagged /tmp/data.ref
check_cold_sums "under injection"

t1=$(uptime_cs)
inject_off
fallback1=$(fallbacks)
logs1=$(fallback_logs)
diag "time under injection: $(seconds $((t1 - t0)))s"
check_fallbacks_rose "$fallback0" "$fallback1" "under injection" \
	"the injection fired: thp_file_pref_fallback rose"
check "the fallback is reported by the tracepoint" \
	test "$logs1" -gt 0

# What part 2 faulted in under injection: new text, on small folios.
stat_json /tmp/stepper2.json $stepper
stepper_growth /tmp/stepper1.json /tmp/stepper2.json "part 2 under injection"
check "part 2 faulted in at least 1 MiB of new text, under 10% of it in folios >= 64K" \
	test $new -ge 1048576 -a $((new_big * 10)) -lt $new

# Injection off: newly faulted text is in policy-sized folios again.  The
# reads under injection cached all of stepper.tagged in small folios: drop
# what is not mapped, so that part 3 is read afresh.
drop_caches
kill -USR1 $stepper
check_stepper /tmp/stepper.out 3 \
	"stepper.tagged part 3 after injection computes as the untagged copy"
stat_json /tmp/stepper3.json $stepper
stepper_growth /tmp/stepper2.json /tmp/stepper3.json "part 3 after injection"
diag "$(grep -E '^thp_(collapse_alloc|file_mapped) ' /proc/vmstat | tr '\n' ' ')"
check "part 3 (after injection): at least 90% of its new text in folios >= 64K" \
	test $new -ge 1048576 -a $((new_big * 10)) -ge $((new * 9))
check_cold_bigprog_folios "after injection"

echo "$ra_default" >$ra_file

# Real memory pressure: a hog holds all but 128 MiB of what is available,
# in 4K pages (no anonymous THP), so that what is free is fragmented.
thp=/sys/kernel/mm/transparent_hugepage/enabled
thp_was=$(thp_setting $thp)
echo never >$thp
drop_caches
avail=$(awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo)
hog=$((avail - 128))
(echo 1000 >/proc/self/oom_score_adj && exec vmhelper hog $hog) >/tmp/hog.out 2>&1 &
hog_pid=$!
if wait_for /tmp/hog.out "hog ready" 6000; then
	ok "a hog holds $hog MiB of the $avail MiB available"
else
	not_ok "a hog holds $hog MiB of the $avail MiB available"
	diag "hog: $(cat /tmp/hog.out)"
fi
grep -E '^(MemFree|MemAvailable|Cached):' /proc/meminfo | tr -s ' ' | sed -e 's/^/# /'
fallback2=$(fallbacks)
t0=$(uptime_cs)
check_cold_bigprog "under memory pressure"
check "read() of data.tagged (cold) equals the tmpfs copy under memory pressure" \
	cmp $mnt/data.tagged /tmp/data.ref
check_cold_sums "under memory pressure"
t1=$(uptime_cs)
diag "under memory pressure: $(seconds $((t1 - t0)))s," \
	"thp_file_pref_fallback +$(($(fallbacks) - fallback2))"
check "the hog held its memory throughout (not OOM-killed)" kill -0 $hog_pid
kill $hog_pid
wait $hog_pid 2>/dev/null
echo "$thp_was" >$thp

# Real fragmentation.  The tmpfs copies go first: compaction could move
# their pages into the holes and free whole 64K blocks.
sum_ref=$(vmhelper sum /tmp/data.ref)
rm -f /tmp/data.ref /tmp/bigprog.ref
cua=/proc/sys/vm/compact_unevictable_allowed
cua_was=$(cat $cua)
# KiB free in blocks of 64K or more (order >= 4 of 4K pages).
free_64k_kib() {
	awk '{ for (o = 4; o + 5 <= NF; o++) { b = 4; for (i = 0; i < o; i++) b *= 2; s += $(o + 5) * b } }
		END { print s + 0 }' /proc/buddyinfo
}
compaction() { grep -E '^(compact_(stall|fail|success|migrate_scanned)|pgmigrate_success) ' /proc/vmstat | tr '\n' ' '; }
# Pages migrated or reclaimed since boot: each may complete a free 64K block.
pages_moved() { awk '$1 == "pgmigrate_success" || $1 ~ /^pgsteal_/ { n += $2 } END { print n }' /proc/vmstat; }
ooms() { dmesg | grep -Eci "out of memory|oom-kill|page allocation failure"; }
drop_caches
stepper_start $mnt/stepper.tagged /tmp/stepper-frag.out
check_stepper /tmp/stepper-frag.out 1 \
	"stepper.tagged part 1 (before fragmentation) computes as the untagged copy"
stat_json /tmp/frag1.json $stepper
text_mappings $stepper
drop_caches
ooms0=$(ooms)
echo 0 >$cua
free0=$(free_64k_kib)
t0=$(uptime_cs)
# The watermark reserve (tens of MiB with THP) would stay free in large
# blocks: lower it while the fragmenter takes what is free.
vm=/proc/sys/vm
mfk_was=$(cat $vm/min_free_kbytes)
wsf_was=$(cat $vm/watermark_scale_factor)
echo 1024 >$vm/min_free_kbytes
echo 1 >$vm/watermark_scale_factor
# Anonymous 64K folios, with which the fragmenter takes the 64K blocks
# still free once it has freed all but one page of each block.
mthp=/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled
mthp_was=$(thp_setting $mthp)
echo always >$mthp
(echo 1000 >/proc/self/oom_score_adj && exec vmhelper fragment 64) >/tmp/frag.out 2>&1 &
frag_pid=$!
if wait_for /tmp/frag.out "fragment ready" 6000 && [ "$(cat $cua)" = 0 ]; then
	ok "fragmenter: one locked page per 64K block, compact_unevictable_allowed 0"
else
	not_ok "fragmenter: one locked page per 64K block, compact_unevictable_allowed 0"
fi
t1=$(uptime_cs)
diag "$(cat /tmp/frag.out) in $(seconds $((t1 - t0)))s"
grep -E '^(MemFree|MemAvailable|Cached):' /proc/meminfo | tr -s ' ' | sed -e 's/^/# /'
free_frag=$(free_64k_kib)
diag "free in blocks >= 64K: $free0 KiB before, $free_frag KiB fragmented"
sed -e 's/^/# buddyinfo: /' /proc/buddyinfo
diag "$(compaction)"
# Compaction still frees the odd 64K block without a locked page, and how
# many order-4 allocations it rescues that way varies from run to run
# (fallbacks counted here: 18 to 139).  extfrag_threshold 1000 is the
# kernel's own switch for "compaction is not worth it" at costly orders,
# so that every allocation the held pages block fails and falls back.
eft_was=$(cat $vm/extfrag_threshold)
echo 1000 >$vm/extfrag_threshold
fallback3=$(fallbacks)
moved3=$(pages_moved)
t0=$(uptime_cs)
kill -USR1 $stepper
check_stepper /tmp/stepper-frag.out 2 \
	"running stepper.tagged faults in new text (part 2) under fragmentation"
stat_json /tmp/frag2.json $stepper
# Counted before anything else runs under fragmentation: the cold reads
# below fall back and move pages of their own.
fallback4=$(fallbacks)
moved4=$(pages_moved)
text_mappings $stepper
check_cold_bigprog "under fragmentation"
check_eq "read() of data.tagged (cold) has the checksum of the tmpfs copy under fragmentation" \
	"$(vmhelper sum $mnt/data.tagged)" "${sum_ref:-(no checksum of the tmpfs copy)}"
check_cold_sums "under fragmentation"
t1=$(uptime_cs)
# The watermarks come back only now: restored earlier, kswapd reclaimed
# page cache up to them and left whole free 64K blocks (11M on 7.3 arm64),
# enough for the stepper's text.
echo "$mfk_was" >$vm/min_free_kbytes
echo "$wsf_was" >$vm/watermark_scale_factor
echo "$eft_was" >$vm/extfrag_threshold
diag "$(compaction)"
sed -e 's/^/# buddyinfo: /' /proc/buddyinfo
diag "time under fragmentation: $(seconds $((t1 - t0)))s"
stepper_growth /tmp/frag1.json /tmp/frag2.json "part 2 under fragmentation"
# The fragmenter takes every free 64K block, but reclaim can free a few
# again before the stepper runs (5-11M on 7.3 arm64), and so can a page
# migrated or reclaimed while it runs (seen: 35 pages migrated and five
# new 64K folios with 128K free in such blocks).  Whatever the kernel
# does, it must be one of: 64K allocations failed and fell back, or the
# new large folios fit in the free 64K blocks that were left or that a
# moved page can have completed.
moved=$((moved4 - moved3))
diag "thp_file_pref_fallback: $fallback3 -> $fallback4 ($((fallback4 - fallback3)) fallbacks in part 2), $moved pages migrated or reclaimed meanwhile"
if [ "$fallback4" -gt "$fallback3" ] ||
	[ $((new_big / 1024)) -le $((free_frag + 64 * moved)) ]; then
	ok "under fragmentation, 64K allocations fell back or used the free 64K blocks left"
else
	not_ok "under fragmentation, 64K allocations fell back or used the free 64K blocks left"
fi
check "the fragmenter held its pages throughout (not OOM-killed)" kill -0 $frag_pid
kill $frag_pid
wait $frag_pid 2>/dev/null
echo "$cua_was" >$cua
echo "$mthp_was" >$mthp
check_eq "no OOM kill, no allocation failure warning under fragmentation" "$(ooms)" "$ooms0"

# Fragmentation released: newly faulted text is in 64K folios again.
drop_caches
diag "free in blocks >= 64K after the fragmenter exited: $(free_64k_kib) KiB"
kill -USR1 $stepper
check_stepper /tmp/stepper-frag.out 3 \
	"stepper.tagged part 3 after fragmentation computes as the untagged copy"
stat_json /tmp/frag3.json $stepper
text_mappings $stepper
# Not asserted: the parts are the same size (28 64K blocks of text each),
# and the checks under fragmentation reclaim the text of the part before
# (kswapd took tens of MiB), so the resident text stays one part's worth
# (1835008 bytes in every run so far) and may still hold part 2's pages in
# fallback folios; the cold bigprog below is the measure.
stepper_growth /tmp/frag2.json /tmp/frag3.json "part 3 after fragmentation"
check_cold_bigprog_folios "after fragmentation"
check "umount" umount $mnt
done_testing
