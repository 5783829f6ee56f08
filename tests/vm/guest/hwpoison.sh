#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest test: a hardware-poisoned page of a large page-cache folio that
# memory failure could not split is never mapped by a fault on another
# page of the folio (DESIGN.md section 6.2).  A 256K file tagged 64k is
# read into 64K folios; vmhelper hwpoison pins one of them through a pipe,
# poisons page 5 (MADV_HWPOISON), maps the file again and reads page 3.
# With fault-around at one page, that fault is finish_fault()'s, which
# maps a whole folio: page 5 must stay unmapped, so that reading it faults
# and never reads the poisoned page.  Runs last in its tier: the poisoned
# page stays poisoned.
. /tests/lib/tap.sh
. /tests/lib/counters.sh

check "mount" mount "$TEST_DISK" /mnt
file=/mnt/hwpoison.dat
head -c 262144 /dev/urandom >$file
check_eq "tag it 64k" "$(vmhelper setxattr $file 64k)" ok
drop_caches
check_eq "the tagged file gets 64K folios" "$(vmhelper state $file)" \
	"size=65536 source=xattr order=4 folio=65536 pending=0 deferred=0"

# Fault-around skips poisoned pages itself: with it on, the test would
# pass without the fix.
fault_around=/sys/kernel/debug/fault_around_bytes
saved=$(cat $fault_around)
echo 4096 >$fault_around
check_eq "fault-around is off (fault_around_bytes one page)" \
	"$(cat $fault_around)" 4096
result=$(vmhelper hwpoison $file 5 3)
echo "$saved" >$fault_around
diag "vmhelper hwpoison: $result"
set -- $result
check_eq "memory failure left poisoned page 5 in the large folio of page 3" \
	"${1:-} ${2:-} ${3:-}" "large=1 samefolio=1 poisoned=1"
check_eq "a new mapping's fault on page 3 finds that folio" "${4:-}" "kept=1"
# Without the fix, all 16 pages of the folio are mapped.
check_eq "that fault maps page 3 alone, not the poisoned page" \
	"${5:-}" "mapped=1"
# Touching page 5 must reach the fault handler's poison check, which
# drops the clean folio and reads the page again, or fails the fault when
# it cannot drop it: either way the poisoned page is not read.
case ${6:-} in
access=fresh | access=sigbus) ok "reading page 5 gets a fresh page or SIGBUS, not the poisoned page (${6#access=})" ;;
*) not_ok "reading page 5 gets a fresh page or SIGBUS, not the poisoned page (got '${6:-}')" ;;
esac
done_testing
