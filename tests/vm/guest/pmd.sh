#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# x86_64: a static program with more than 4 MB of text linked with
# 2M-aligned segments (-z max-page-size=0x200000 -z separate-code), tagged
# 2m (bigprog.2m), gets at least two PMD-mapped text ranges; the same
# binary untagged (bigprog) gets none, with the disk mounted without the
# mount option; under exec_folio_size=64k the untagged program's text is
# in aligned 64K folios.
. /tests/lib/tap.sh
. /tests/lib/measure.sh
. /tests/lib/khugepaged.sh
khugepaged_asleep

# FilePmdMapped of the last run_bigprog, in kB.
file_pmd_kb() { awk '$1 == "FilePmdMapped:" { s += $2 } END { print s + 0 }' /tmp/bigprog.smaps; }

check "mount (no exec_folio_size)" mount "$TEST_DISK" /mnt
policy_states /mnt/bigprog.2m /mnt/bigprog
cat /sys/block/${TEST_DISK##*/}/queue/read_ahead_kb | sed -e 's/^/# read_ahead_kb: /'
vmstat_folios

if run_bigprog /mnt/bigprog.2m /tmp/pmd-tagged.json; then
	ok "bigprog.2m (xattr 2m) executed all its text"
else
	not_ok "bigprog.2m (xattr 2m) executed all its text"
fi
report_run "bigprog.2m" /tmp/pmd-tagged.json "$delta"
vmstat_folios
kb=$(file_pmd_kb)
diag "bigprog.2m: FilePmdMapped ${kb} kB ($((kb / 2048)) PMD ranges)"
check "bigprog.2m: at least two PMD-mapped text ranges (FilePmdMapped)" \
	test "$kb" -ge 4096
check "bigprog.2m: execfolio stat counts at least 4 MiB PMD-mapped" \
	test "$(json_u64 /tmp/pmd-tagged.json pmd_mapped_bytes)" -ge 4194304

if run_bigprog /mnt/bigprog /tmp/pmd-plain.json; then
	ok "bigprog (untagged) executed all its text"
else
	not_ok "bigprog (untagged) executed all its text"
fi
report_run "bigprog, untagged" /tmp/pmd-plain.json "$delta"
kb=$(file_pmd_kb)
diag "bigprog: FilePmdMapped ${kb} kB"
check "bigprog (untagged): no PMD-mapped text" \
	test "$kb" = 0 -a "$(json_u64 /tmp/pmd-plain.json pmd_mapped_bytes)" = 0
check "umount" umount /mnt

# The 64k mount default, where upstream has no exec folio order: the
# untagged program (mode 0755) in aligned 64K folios.
check "mount -o exec_folio_size=64k" mount -o exec_folio_size=64k "$TEST_DISK" /mnt
if run_bigprog /mnt/bigprog /tmp/pmd-mount.json; then
	ok "bigprog (mount default 64k) executed all its text"
else
	not_ok "bigprog (mount default 64k) executed all its text"
fi
report_run "bigprog, exec_folio_size=64k" /tmp/pmd-mount.json "$delta"
check "bigprog (mount default 64k): cont-aligned share at least 98%" \
	test "$(share_permille /tmp/pmd-mount.json)" -ge 980
check "umount" umount /mnt
done_testing
