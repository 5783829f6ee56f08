# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the in-guest tests (smoke.sh, the workload tests of the VM
# suite, the faults and robust tiers): TAP output, the disk and page-cache
# counters, the measurement of a running process with execfolio stat
# --json, and fault injection of large folio allocations.

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
check() { # DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$d"; else not_ok "$d"; fi
}
diag() { echo "# $*"; }
# An empty GOT never passes: a command that printed nothing failed.
check_eq() { # DESCRIPTION GOT WANT
	if [ -n "$2" ] && [ "$2" = "$3" ]; then ok "$1"; else
		not_ok "$1"
		diag "got '$2', want '$3'"
	fi
}

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

# execfolio stat --json PID... into FILE.
stat_json() { # FILE PID...
	f=$1
	shift
	execfolio stat --json "$@" >"$f"
}

# The value of a top-level numeric KEY of a stat --json FILE.
json_u64() { # FILE KEY
	tr -d '{}"' <"$1" | tr ',' '\n' | awk -F: -v k="$2" '
		$1 == k { print $2; found = 1 }
		$1 == "folio_bytes" && k == "folio_bytes" { print $3 }
		END { if (!found) print 0 }'
}

# Cont-aligned share of a stat --json FILE in tenths of a percent.
share_permille() { # FILE
	awk -v a="$(json_u64 "$1" cont_aligned_64k_bytes)" \
		-v e="$(json_u64 "$1" cont_eligible_64k_bytes)" \
		'BEGIN { print e ? int(a * 1000 / e) : 0 }'
}

# "12.3%" from tenths of a percent.
# Text bytes in folios of SIZE bytes or more, of a stat --json FILE.
folio_bytes_from() { # FILE SIZE
	sed -e 's/.*"folio_bytes":{\([^}]*\)}.*/\1/' "$1" | tr -d '"' | tr ',' '\n' |
		awk -F: -v min="$2" '$1 + 0 >= min + 0 { sum += $2 } END { print sum + 0 }'
}

percent() { echo "$(($1 / 10)).$(($1 % 10))%"; }

# Text by folio size of a stat --json FILE: "4K=123kB 64K=4567kB ...",
# sizes with no resident text left out.
folio_summary() { # FILE
	sed -e 's/.*"folio_bytes":{\([^}]*\)}.*/\1/' "$1" | tr -d '"' | tr ',' '\n' |
		awk -F: '$2 > 0 { s = $1 / 1024; u = "K"
			if (s >= 1024) { s /= 1024; u = "M" }
			printf "%s%d%s=%dkB", sep, s, u, $2 / 1024; sep = " " }
			END { print "" }'
}

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

# Wait up to TENTHS tenths of a second for PATTERN in FILE.
wait_for() { # FILE PATTERN TENTHS
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		[ $i -ge "$3" ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# Run the bigprog at PATH (it waits once it has executed all its text),
# measure it into FILE (and execfolio stat's table into FILE less .json
# plus .txt), stop it.  Leaves "READ CACHED" of the run in
# $delta.  Fails if the program did not finish its text.
run_bigprog() { # PATH FILE
	counters_start
	"$1" wait >/tmp/bigprog.out 2>&1 &
	pid=$!
	if ! wait_for /tmp/bigprog.out '^bigprog ' 3000; then
		kill $pid
		wait $pid 2>/dev/null
		return 1
	fi
	stat_json "$2" $pid
	execfolio stat $pid >"${2%.json}.txt"
	cp "/proc/$pid/smaps" /tmp/bigprog.smaps 2>/dev/null
	text_mappings $pid
	delta=$(counters_delta)
	kill $pid
	wait $pid 2>/dev/null
	return 0
}

# Report a measured run as TAP diagnostics: NAME FILE "READ CACHED".
report_run() { # NAME FILE DELTA
	set -- "$1" "$2" $3
	diag "$1: cont-aligned share $(percent "$(share_permille "$2")")" \
		"($(json_u64 "$2" cont_aligned_64k_bytes) of" \
		"$(json_u64 "$2" cont_eligible_64k_bytes) bytes)," \
		"text $(json_u64 "$2" text_bytes) bytes," \
		"pmd-mapped $(json_u64 "$2" pmd_mapped_bytes) bytes," \
		"in partly mapped folios $(json_u64 "$2" partial_bytes) bytes"
	diag "$1: text by folio size: $(folio_summary "$2")"
	diag "$1: read from disk $3 bytes, page cache grew by $4 bytes"
}

# redis-server listens on a Unix socket in its tree, no TCP port: the
# test kernels have no TCP/IP (fs/config/release.config).
REDIS_SOCKET=/tmp/redis.sock

# redis-server chrooted into ROOT: run it in the background (&), where it
# takes the place of the subshell, so that $! is its pid.
redis_server() { # ROOT
	exec chroot "$1" /usr/bin/redis-server --port 0 --unixsocket "$REDIS_SOCKET" \
		--save '' --appendonly no --daemonize no
}

# redis-cli ARG... chrooted into ROOT, on that socket.
redis_cli() { # ROOT ARG...
	_root=$1
	shift
	chroot "$_root" /usr/bin/redis-cli -s "$REDIS_SOCKET" "$@"
}

# Run redis-server chrooted into ROOT (a Debian tree, see
# tests/workloads/debian-tree.sh) under redis-benchmark, measure it into
# FILE (and the table into FILE less .json plus .txt) and stop it.
# Leaves "READ CACHED" of the run in $delta and the benchmark's summary
# in /tmp/redis-bench.out.  REDIS_REQUESTS requests per test.
run_redis() { # ROOT FILE
	root=$1
	mount -t proc proc "$root/proc"
	mount -t devtmpfs devtmpfs "$root/dev"
	counters_start
	rm -f "$root$REDIS_SOCKET"
	redis_server "$root" >/tmp/redis-server.log 2>&1 &
	pid=$!
	i=0
	# redis-cli maps the same libraries: it starts once the server has
	# made its socket, long after the server mapped them, not beside it
	# (two processes mapping a library for the first time at once are
	# not what this measures; redis.sh's first_mapper has none).
	until [ -S "$root$REDIS_SOCKET" ] || [ $i -ge 600 ] || ! kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	i=0
	until redis_cli "$root" ping 2>/dev/null | grep -q PONG; do
		i=$((i + 1))
		if [ $i -ge 120 ] || ! kill -0 $pid 2>/dev/null; then
			sed -e 's/^/# redis-server: /' /tmp/redis-server.log
			kill $pid 2>/dev/null
			wait $pid 2>/dev/null
			umount "$root/dev" "$root/proc"
			return 1
		fi
		sleep 0.5
	done
	chroot "$root" /usr/bin/redis-benchmark -s "$REDIS_SOCKET" -q \
		-n "${REDIS_REQUESTS:-10000}" -c 20 -t set,get,incr,lpush,lpop 2>&1 | tr '\r' '\n' |
		grep 'requests per second' >/tmp/redis-bench.out
	stat_json "$2" $pid
	execfolio stat $pid >"${2%.json}.txt"
	delta=$(counters_delta)
	text_mappings $pid
	redis_cli "$root" shutdown nosave >/dev/null 2>&1 ||
		kill $pid
	wait $pid 2>/dev/null
	umount "$root/dev" "$root/proc"
	return 0
}

# Diagnostics: each executable file mapping of PID with its resident
# text, the part of it in small folios and its cont-aligned share
# (execfolio stat --per-mapping), to see where a share falls short.
text_mappings() { # PID
	execfolio stat --per-mapping "$1" | sed -n -e '/^mappings/,$ s/^/# /p'
}

# The kernel's effective exec folio state of each FILE (vmhelper state).
policy_states() { # FILE...
	for f; do echo "# $f: $(vmhelper state "$f" 2>&1)"; done
}

# The folio fallback counters of /proc/vmstat.
vmstat_folios() {
	grep -E '^(thp_file|nr_file_hugepages|thp_split)' /proc/vmstat | tr '\n' ' ' |
		sed -e 's/^/# vmstat: /' -e 's/ $/\n/'
}

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
# The kernel base the guest runs: 6.12 (the backport) or 7.3.
kbase() { case $(uname -r) in 6.12*) echo 6.12 ;; *) echo 7.3 ;; esac; }
# Does the kernel give executable mappings large folios without any policy?
# On arm64 upstream's exec_folio_order() does (64K; 7.3, and the 6.12
# backport carries it); nowhere else.
arch_exec_default() { [ "$(uname -m)" = aarch64 ]; }
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
