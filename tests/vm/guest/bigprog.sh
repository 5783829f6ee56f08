#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A static program with several MB of text, all of it executed in a
# scrambled order (tests/vm/gen-bigprog.py), run from the XFS test disk
# (tests/vm/disks/suite.sh) under the 64k mount default: its cont-aligned
# share (DESIGN.md section 2.10) is at least 98%.  The same program opted out
# (xattr none) is the baseline.  Bytes read from the disk and page-cache
# growth of both runs are reported.  A copy written over a small
# executable file (same inode, instantiated while small) runs at once
# from the folios its writes created at >= 98% as well (on the v2 series
# its order stayed that of the small file: 0.0% measured).
. /tests/lib/tap.sh
. /tests/lib/measure.sh
. /tests/lib/khugepaged.sh
khugepaged_asleep

check "mount -o exec_folio_size=64k" mount -o exec_folio_size=64k "$TEST_DISK" /mnt

if run_bigprog /mnt/bigprog /tmp/tagged.json; then
	ok "bigprog (mount default 64k) executed all its text"
else
	not_ok "bigprog (mount default 64k) executed all its text"
fi
report_run "bigprog, 64k" /tmp/tagged.json "$delta"
tagged_read=${delta% *}
check "bigprog: at least 4 MiB of text resident" \
	test "$(json_u64 /tmp/tagged.json text_bytes)" -ge 4194304
check "bigprog: cont-aligned share at least 98%" \
	test "$(share_permille /tmp/tagged.json)" -ge 980

if run_bigprog /mnt/bigprog.none /tmp/none.json; then
	ok "bigprog.none (xattr none) executed all its text"
else
	not_ok "bigprog.none (xattr none) executed all its text"
fi
report_run "bigprog.none, untagged" /tmp/none.json "$delta"
none_read=${delta% *}
# none leaves the kernel's own choice: on 7.3 arm64 upstream's 64K exec
# folio order, which read-around of the program's first data fault beats
# to the text when the readahead window is large (27.5% cont-aligned with
# 7.3's 8M window for the guest's disk), small folios elsewhere.
check "bigprog.none: fewer cont-aligned bytes than tagged" \
	test "$(json_u64 /tmp/none.json cont_aligned_64k_bytes)" -lt \
	"$(json_u64 /tmp/tagged.json cont_aligned_64k_bytes)"
# The policy must not read more than stock read-around (DESIGN.md
# section 6.2); 10% slack for metadata and what else a run reads.
check "bigprog: read no more from disk than untagged (+10%)" \
	test "$tagged_read" -le $((none_read + none_read / 10))

# Rewritten in place: a small executable file is instantiated (its policy
# resolved while it is 6 bytes long), then the program is written over it
# in 4K writes (dd truncates: same inode) and run at once, from the page
# cache its writes filled, without the inode being read again.
printf 'small\n' >/mnt/rewritten
chmod 0755 /mnt/rewritten
check "rewritten: the small file is instantiated" cat /mnt/rewritten
ino_before=$(stat -c %i /mnt/rewritten)
check "rewritten: bigprog written over it in 4K writes" \
	dd if=/mnt/bigprog of=/mnt/rewritten bs=4k
check "rewritten: same inode" test "$(stat -c %i /mnt/rewritten)" = "$ino_before"
if KEEP_CACHE=1 run_bigprog /mnt/rewritten /tmp/rewritten.json; then
	ok "rewritten bigprog run at once executed all its text"
else
	not_ok "rewritten bigprog run at once executed all its text"
fi
report_run "bigprog rewritten in place, run at once" /tmp/rewritten.json "$delta"
check "rewritten: cont-aligned share at least 98%" \
	test "$(share_permille /tmp/rewritten.json)" -ge 980
rm -f /mnt/rewritten

check "umount" umount /mnt
done_testing
