# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest control of khugepaged (/tests/lib/khugepaged.sh).
#
# Keep khugepaged asleep (for a day) or wake it to scan every 10 s, the
# kernel's default.  With THP "always" it collapses an executable file
# mapping that covers a whole 2M range into a PMD folio: a measured
# program, paused, has its text unmapped while the collapse runs and then
# mapped from a folio the policy did not choose (seen: bigprog's text
# measured as 0 bytes, stepper's shrinking by 1.3 MiB), so the tests that
# measure a program of their own keep it asleep.  Writing the interval
# wakes it for one pass, before the test's programs run.  redis.sh wakes
# it: what a real program start caches includes its scans (they once read
# a library whole before its executable mapping, see fs/README.md).
khugepaged_scan_sleep() { # MILLISECONDS
	f=/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs
	[ ! -w $f ] || echo "$1" >$f
}
khugepaged_asleep() { khugepaged_scan_sleep 86400000; }
khugepaged_awake() { khugepaged_scan_sleep 10000; }
