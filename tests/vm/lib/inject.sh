# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest fault injection of large folio allocations and the fallbacks
# it causes (/tests/lib/inject.sh).

# fail_page_alloc (CONFIG_FAIL_PAGE_ALLOC, debugfs) failing every allocation
# of order >= 4, sleeping ones too, without stack dumps.  TASK_FILTER Y
# limits it to tasks that wrote 1 to /proc/self/make-it-fail; N makes it
# system-wide.
fail_page_alloc=/sys/kernel/debug/fail_page_alloc
inject_on() { # TASK_FILTER
	echo 0 >$fail_page_alloc/probability
	echo 0 >$fail_page_alloc/verbose
	echo "$1" >$fail_page_alloc/task-filter
	echo N >$fail_page_alloc/ignore-gfp-wait
	echo N >$fail_page_alloc/ignore-gfp-highmem
	echo 4 >$fail_page_alloc/min-order
	echo -1 >$fail_page_alloc/times
	echo 100 >$fail_page_alloc/probability
}
inject_off() { echo 0 >$fail_page_alloc/probability 2>/dev/null; }

# Exec folios served smaller than the policy asks (/proc/vmstat), and the
# kernel log lines that say so.
fallbacks() { awk '$1 == "thp_file_pref_fallback" { print $2 }' /proc/vmstat; }
# Fallbacks to smaller folios reported since the previous call (the first
# call: since boot): events of the tracepoint
# readahead:page_cache_pref_fallback (enabled by the first call; -1 when
# the kernel has no such tracepoint).
fallback_logs() {
	tr=/sys/kernel/tracing
	[ -e $tr/trace ] || mount -t tracefs nodev $tr 2>/dev/null
	ev=$tr/events/readahead/page_cache_pref_fallback
	[ -w $ev/enable ] || { echo -1; return; }
	if [ "$(cat $ev/enable)" = 1 ]; then
		grep -c "page_cache_pref_fallback:" $tr/trace
		grep "page_cache_pref_fallback:" $tr/trace | tail -2 | sed -e 's/^/# trace: /' >&2
	else
		echo 0
	fi
	echo 1 >$ev/enable
	: >$tr/trace
}
