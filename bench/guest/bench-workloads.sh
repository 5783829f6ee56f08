#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel benchmarks' guest side (bench/bench-kernels.sh): the seed's
# workloads chrooted into the Debian arm64 tree on the disk made by
# bench/disks/kernels.sh.  On a kernel without the exec folio mount option
# (stock, option one) one configuration runs: plain/ mounted without
# options.  On the execfolio kernel two: plain/ with the 64k mount default
# applied to every regular file (exec_folio_scope=all: "mount") and tagged/ (libraries tagged 64k) with it ("tagged"), in the
# order of BENCH_CONFIGS (commas; default "mount,tagged"), which
# bench-kernels.sh sets to one of them per boot: what runs second in a
# guest runs up to twice as slow under TCG.  A third, "inplace", is
# plain/ with its libraries tagged 64k in the guest before the run
# (execfolio set): the same inodes, directories and places on the disk
# as "mount", where tagged/ is a copy elsewhere on the disk whose
# metadata is read in other requests; it tells the policy's effect from
# the layout's.
#
# Workloads (BENCH_WORKLOADS, default all four, in this order):
#   boot   etc/bench/boot.sh: coreutils, procps and findutils at work, then
#          redis-server and nginx started until they answer, then a shell
#   nginx  nginx (2 workers) under ab, BENCH_AB_REQUESTS (1000) requests,
#          10 at a time, of a 4 KB page over loopback
#   redis  redis-server under redis-benchmark (run_redis,
#          tests/vm/lib/redis.sh), BENCH_REDIS_REQUESTS (1000) requests
#          per test, over a Unix socket since 2026-12-06 (before: TCP
#          over loopback), as in the tests, whose kernels have no TCP/IP
#   gcc    Debian's gcc-12 building this project's lib/ (src/Makefile),
#          make -j BENCH_CC_JOBS (2)
#
# The disk (BENCH_DELAY_MS and BENCH_RA_KB on the kernel command line):
# with BENCH_DELAY_MS=MS it is reached through device-mapper's delay target
# (benchhelper dm-delay), every request waiting MS milliseconds (0: none,
# the same path), as on a disk with real latency; BENCH_RA_KB=KB sets the
# read_ahead_kb the file system reads with (default: what the kernel gave
# the guest's disk, which the delay device inherits).
#
# Each workload starts with the page cache dropped.  Results are TAP
# comments "# bench CONFIG WORKLOAD VIEW KEY VALUE": VIEW "run" (bytes
# read from disk, page-cache growth, major faults, the workload's figure,
# its cold-start time start_ns: until the boot script or the build ended,
# until nginx or redis-server first answered a request that benchhelper
# ask sends every millisecond (since 2026-12-06; before, their own
# clients every 20 ms), and start_read_requests, the disk's read
# requests in that time),
# "live" (execfolio stat of the workload's processes still running: the
# daemons; rows in kB) and "cache" (execfolio stat of benchhelper hold's
# mappings of the tree: the text of every ELF file of the tree as the
# workload left it in the page cache, mapped as the loader maps it).
#
# BENCH_FILES=1 (on the kernel command line) adds, per workload, where the
# page cache is, file by file: "# files CONFIG WORKLOAD LINE" with the
# lines of benchhelper hold's BENCH_HOLD_REPORT (file, text and miss: the
# 64K blocks of text that are not cont-aligned, with their folios), and
# the kernel's thp_file_* counters of /proc/vmstat; bench/bench-files.py
# compares two such runs file by file.
#
# BENCH_TRACE=EVENT[,EVENT...] (on the kernel command line) traces the
# cold start of the boot script, nginx and redis-server: each EVENT is a
# tracefs event (block:block_rq_issue, readahead, ...), optionally
# followed by @FILTER (sched:sched_switch@prev_state&2: the switches to
# sleep in D state), enabled from just before the start until the first
# answer, and the trace is printed as "# trace CONFIG WORKLOAD LINE"
# (timestamps on the guest's clock).  A kernel without tracefs or one of
# the events prints why; the figures are taken as without it.
. /tests/lib/tap.sh
. /tests/lib/redis.sh
# The chroot's programs are in usr/.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

# A workload killed by a signal says where in the kernel's log (arm64's
# "unhandled exception" lines, printed when a start never answers).
echo 1 >/proc/sys/debug/exception-trace 2>/dev/null || :
# The guest has no RTC driver, so its wall clock starts at the epoch, and
# nginx sets its cached time strings only when the second it reads
# differs from the one it cached, which starts as 0: started within a
# second of boot (under -icount, 0.5 s), it copied a NULL Date string and
# died of SIGSEGV in memcpy.  Any date after the epoch's first second
# will do; a fixed one keeps the boots alike.
[ "$(date +%s)" -ge 86400 ] || date -u -s @1767225600 >/dev/null

ab_requests=${BENCH_AB_REQUESTS:-1000}
REDIS_REQUESTS=${BENCH_REDIS_REQUESTS:-1000}
export REDIS_REQUESTS
cc_jobs=${BENCH_CC_JOBS:-2}
workloads=$(echo "${BENCH_WORKLOADS:-boot nginx redis gcc}" | tr , " ")

emit() { echo "# bench $cfg $wl $*"; }
majflt() { awk '$1 == "pgmajfault" { print $2 }' /proc/vmstat; }
# Preferred folios that could not be had and fell back to smaller ones
# (the series' counter; nothing on a kernel without it).
pref_fallbacks() {
	awk '$1 == "thp_file_pref_fallback" { print $2 }' /proc/vmstat
}

# Start counting major faults and fallbacks for emit_faults.
faults_start() {
	maj0=$(majflt)
	fallback0=$(pref_fallbacks)
}

emit_faults() {
	emit run majflt $(($(majflt) - maj0))
	[ -z "$fallback0" ] ||
		emit run pref_fallback $(($(pref_fallbacks) - fallback0))
}

# The time from this call until the daemon at ADDRESS (benchhelper ask's
# unix:PATH or tcp:IPV4:PORT) first answers REQUEST with a reply that
# starts with REPLY, asked every millisecond for at most 60 s: printed in
# nanoseconds, nothing when it never answered.
time_to_answer() { # ADDRESS REQUEST REPLY
	benchhelper ask /tmp/answer.out "$@" 60000 || return 1
	set -- $(cat /tmp/answer.out)
	echo "$2"
}

tracefs=/sys/kernel/tracing
# Enable the events of BENCH_TRACE, with an empty buffer.
trace_begin() {
	[ -n "${BENCH_TRACE:-}" ] || return 0
	[ -e $tracefs/trace ] || mount -t tracefs nodev $tracefs 2>/dev/null ||
		{ echo "# trace $cfg $wl: no tracefs"; return 0; }
	echo 0 >$tracefs/tracing_on
	echo >$tracefs/set_event
	echo 16384 >$tracefs/buffer_size_kb
	for e in $(echo "$BENCH_TRACE" | tr , " "); do
		ev=${e%%@*}
		dir=$tracefs/events/$(echo "$ev" | tr : /)
		if [ ! -d "$dir" ]; then
			echo "# trace $cfg $wl: no event $ev"
			continue
		fi
		case $e in
		*@*) echo "${e#*@}" >"$dir/filter" ||
			echo "# trace $cfg $wl: bad filter for $ev: ${e#*@}" ;;
		*) echo 0 >"$dir/filter" 2>/dev/null ;;
		esac
		echo 1 >"$dir/enable"
	done
	: >$tracefs/trace
	echo 1 >$tracefs/tracing_on
}

# Stop tracing and print what the events recorded.
trace_end() {
	[ -n "${BENCH_TRACE:-}" ] && [ -e $tracefs/trace ] || return 0
	echo 0 >$tracefs/tracing_on
	sed -e '/^#/d' -e "s/^/# trace $cfg $wl /" $tracefs/trace
	echo >$tracefs/set_event
}

# The PIDs of the processes whose root is ROOT.
chroot_pids() { # ROOT
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$1" ] && echo "${p#/proc/}"
	done
}

# Why the daemon NAME (started as PID in ROOT) never answered: its LOGs,
# what each process of ROOT waits in, its exit status if it died, and the
# kernel's "unhandled exception" lines about it.
start_failed() { # NAME PID ROOT LOG...
	daemon=$1 daemon_pid=$2 daemon_root=$3
	shift 3
	sed -e "s/^/# $daemon: /" "$@"
	for p in $(chroot_pids "$daemon_root"); do
		echo "# $cfg $daemon: pid $p $(cut -d' ' -f2-3 /proc/$p/stat) in $(cat /proc/$p/wchan)"
		sed -e "s/^/# $cfg $daemon: pid $p stack /" /proc/$p/stack 2>/dev/null
	done
	if ! kill -0 "$daemon_pid" 2>/dev/null; then
		wait "$daemon_pid"
		echo "# $cfg $daemon: exited with status $?"
	fi
	dmesg | grep "$daemon\[" | sed -e "s/^/# $cfg $daemon: /"
}

# Stop every process of ROOT.
chroot_kill() { # ROOT
	pids=$(chroot_pids "$1")
	[ -z "$pids" ] && return 0
	kill $pids 2>/dev/null
	i=0
	while [ -n "$(chroot_pids "$1")" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	pids=$(chroot_pids "$1")
	[ -z "$pids" ] || kill -9 $pids 2>/dev/null
}

# The table (execfolio stat's, rows in kB) and figures of stat --json.
emit_stat() { # VIEW TABLE JSON
	awk -v p="# bench $cfg $wl $1" '/ kB / { print p, $1, $2 }' "$2"
	for k in text_bytes partial_bytes cont_aligned_64k_bytes \
		cont_eligible_64k_bytes pmd_mapped_bytes; do
		emit "$1" "$k" "$(json_u64 "$3" "$k")"
	done
	emit "$1" share_permille "$(share_permille "$3")"
}

# Measure the live processes PID... as VIEW "live".
measure_live() { # PID...
	stat_json /tmp/live.json "$@" &&
		execfolio stat "$@" >/tmp/live.txt &&
		emit_stat live /tmp/live.txt /tmp/live.json
}

# A proc root (execfolio stat --proc) showing only PID's mappings of files
# under ROOT: the hold's own text (benchhelper, from the initramfs, in 4K
# pages) is not the tree's and must not count in the cache view.
tree_proc() { # PID ROOT
	rm -rf /tmp/treeproc
	mkdir -p "/tmp/treeproc/$1"
	ln -s /proc/kpageflags /tmp/treeproc/kpageflags
	ln -s "/proc/$1/pagemap" "/tmp/treeproc/$1/pagemap"
	awk -v root="$2/" '/^[0-9a-f]+-[0-9a-f]+ / { keep = index($6, root) == 1 }
		keep' "/proc/$1/smaps" >"/tmp/treeproc/$1/smaps"
}

# Measure what the workload left in the page cache of ROOT's ELF files.
measure_cache() { # ROOT
	root=$1
	rm -f /tmp/hold.out /tmp/files.txt
	report=
	[ -z "${BENCH_FILES:-}" ] || report=/tmp/files.txt
	find "$root" -xdev -type f |
		BENCH_HOLD_REPORT=$report benchhelper hold >/tmp/hold.out &
	hpid=$!
	if wait_for /tmp/hold.out '^ready' 6000; then
		if [ -n "$report" ]; then
			sed -e "s|^|# files $cfg $wl |" -e "s| $root/| /|" "$report"
			awk -v p="# files $cfg $wl vmstat" \
				'/^thp_file/ { print p, $1, $2 }' /proc/vmstat
		fi
		set -- $(cat /tmp/hold.out)
		emit cache files "$4"
		emit cache text_cached_bytes "$6"
		emit cache file_cached_bytes "$8"
		tree_proc $hpid "$root"
		if stat_json /tmp/cache.json --proc /tmp/treeproc $hpid &&
			execfolio stat --proc /tmp/treeproc $hpid >/tmp/cache.txt; then
			emit_stat cache /tmp/cache.txt /tmp/cache.json
			check_eq "$cfg $wl: the cache view holds the tree's text only" \
				"$(json_u64 /tmp/cache.json text_bytes)" "$6"
		else
			not_ok "$cfg $wl: execfolio stat of the tree's text"
		fi
	else
		not_ok "$cfg $wl: benchhelper hold did not get ready"
	fi
	kill $hpid 2>/dev/null
	wait $hpid 2>/dev/null
}

# Read requests of the test disk from here to emit_start_reads: how many
# the cold start sent the disk, beside its time.
start_reads_begin() {
	set -- $(disk_reads)
	start_reads0=$1
}

emit_start_reads() {
	set -- $(disk_reads)
	emit run start_read_requests $(($1 - start_reads0))
}

# The counters of a run started with counters_start and faults_start.
emit_counters() {
	set -- $(counters_delta)
	emit run read_bytes "$1"
	emit run cache_growth_bytes "$2"
	emit_faults
}

# benchhelper run's line: wall and CPU time of the step.
emit_runfile() { # FILE
	set -- $(cat "$1")
	emit run wall_ns "$4"
	emit run start_ns "$4"
	emit run cpu_ns "$2"
	[ "$8" = 0 ]
}

chroot_mounts() { # ROOT
	mount -t proc proc "$1/proc"
	mount -t devtmpfs devtmpfs "$1/dev"
}

chroot_umounts() { # ROOT
	umount "$1/dev" "$1/proc"
}

bench_boot() { # ROOT
	chroot_mounts "$1"
	faults_start
	counters_start
	start_reads_begin
	trace_begin
	benchhelper run /tmp/boot.run chroot "$1" /bin/sh /etc/bench/boot.sh \
		>/tmp/boot.log 2>&1
	booted=$?
	trace_end
	if [ $booted = 0 ]; then
		emit_start_reads
		emit_counters
		emit_runfile /tmp/boot.run
		ok "$cfg boot: the boot script started redis-server and nginx"
		measure_live $(chroot_pids "$1")
	else
		sed -e 's/^/# boot: /' /tmp/boot.log | tail -n 20
		not_ok "$cfg boot: the boot script started redis-server and nginx"
	fi
	chroot_kill "$1"
	measure_cache "$1"
	chroot_umounts "$1"
}

bench_nginx() { # ROOT
	chroot_mounts "$1"
	faults_start
	counters_start
	start_reads_begin
	trace_begin
	chroot "$1" /usr/sbin/nginx -c /etc/bench/nginx.conf -g 'daemon off;' \
		>/tmp/nginx.log 2>&1 &
	nginx_pid=$!
	start_ns=$(time_to_answer tcp:127.0.0.1:8080 \
		'GET /index.html HTTP/1.0\r\n\r\n' 'HTTP/1.1 200')
	trace_end
	if [ -n "$start_ns" ]; then
		emit_start_reads
	else
		start_failed nginx $nginx_pid "$1" /tmp/nginx.log \
			"$1/var/log/nginx/error.log"
	fi
	chroot "$1" /usr/bin/ab -q -n "$ab_requests" -c 10 \
		http://127.0.0.1:8080/index.html >/tmp/ab.out 2>&1
	rps=$(awk '/^Requests per second:/ { print $4 }' /tmp/ab.out)
	failed_req=$(awk '/^Failed requests:/ { print $3 }' /tmp/ab.out)
	if [ -n "$rps" ] && [ "$failed_req" = 0 ]; then
		emit_counters
		emit run requests_per_s "$rps"
		emit run start_ns "$start_ns"
		ok "$cfg nginx: served $ab_requests requests to ab"
		measure_live $(chroot_pids "$1")
	else
		sed -e 's/^/# ab: /' /tmp/ab.out | tail -n 20
		not_ok "$cfg nginx: served $ab_requests requests to ab"
	fi
	chroot_kill "$1"
	measure_cache "$1"
	chroot_umounts "$1"
}

# redis-server's cold start: from a dropped cache until it first answers
# a ping.  The measured run (run_redis) then starts from a dropped cache
# again.
redis_start() { # ROOT
	chroot_mounts "$1"
	counters_start
	rm -f "$1$REDIS_SOCKET"
	start_reads_begin
	trace_begin
	redis_server "$1" >/tmp/redis-start.log 2>&1 &
	spid=$!
	start_ns=$(time_to_answer "unix:$1$REDIS_SOCKET" 'PING\r\n' '+PONG')
	trace_end
	if [ -n "$start_ns" ]; then
		emit_start_reads
		redis_cli "$1" shutdown nosave >/dev/null 2>&1
	else
		start_failed redis-server $spid "$1" /tmp/redis-start.log
	fi
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
	chroot_umounts "$1"
	[ -n "$start_ns" ]
}

bench_redis() { # ROOT
	if redis_start "$1"; then
		emit run start_ns "$start_ns"
	else
		not_ok "$cfg redis: redis-server answered a ping from a cold cache"
	fi
	faults_start
	if run_redis "$1" /tmp/live.json; then
		set -- "$1" $delta
		emit run read_bytes "$2"
		emit run cache_growth_bytes "$3"
		emit_faults
		emit run requests_per_s "$(awk '{ s += $2; n++ }
			END { if (n) printf "%.2f", s / n }' /tmp/redis-bench.out)"
		emit_stat live /tmp/live.txt /tmp/live.json
		ok "$cfg redis: redis-server served redis-benchmark"
	else
		not_ok "$cfg redis: redis-server served redis-benchmark"
	fi
	measure_cache "$1"
}

bench_gcc() { # ROOT
	chroot_mounts "$1"
	rm -f "$1"/src/lib/*.o "$1/src/libexecfolio.a"
	sync
	faults_start
	counters_start
	start_reads_begin
	if benchhelper run /tmp/gcc.run chroot "$1" /usr/bin/make -C /src \
		-j"$cc_jobs" >/tmp/gcc.log 2>&1 && [ -s "$1/src/libexecfolio.a" ]; then
		emit_start_reads
		emit_counters
		emit_runfile /tmp/gcc.run
		ok "$cfg gcc: built libexecfolio.a"
	else
		sed -e 's/^/# gcc: /' /tmp/gcc.log | tail -n 20
		not_ok "$cfg gcc: built libexecfolio.a"
	fi
	measure_cache "$1"
	chroot_umounts "$1"
}

# CONFIG MOUNT_OPTIONS TREE
run_config() {
	cfg=$1
	if [ -n "$2" ]; then
		check "$cfg: mount -o $2" mount -o "$2" "$TEST_DISK" /mnt
	else
		check "$cfg: mount" mount "$TEST_DISK" /mnt
	fi
	for wl in $workloads; do
		diag "$cfg $wl: start $(cut -d' ' -f1 /proc/uptime)"
		"bench_$wl" "/mnt/$3"
	done
	check "$cfg: umount" umount /mnt
}

# Tag plain/'s shared libraries 64k (the files tagged/ has tagged, by the
# same patterns) and write it all back: the workloads then find only
# their xattrs changed, in the inodes (shortform), nothing cached.
tag_in_place() {
	check "inplace: mount" mount "$TEST_DISK" /mnt
	find /mnt/plain -type f \( -name '*.so' -o -name '*.so.[0-9]*' \) >/tmp/libs
	diag "inplace: $(wc -l </tmp/libs) libraries of plain/ to tag 64k"
	check "inplace: execfolio set 64k on them" sh -c 'xargs execfolio set 64k </tmp/libs'
	check "inplace: umount" umount /mnt
}

diag "kernel $(uname -r), page size $(getconf PAGESIZE 2>/dev/null || echo 4096)"
if [ -n "${BENCH_DELAY_MS:-}" ]; then
	if dm=$(benchhelper dm-delay bench "$TEST_DISK" "$BENCH_DELAY_MS"); then
		ok "the disk through a delay of $BENCH_DELAY_MS ms a request (/dev/$dm)"
		ra_kb=$(cat "/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb")
		TEST_DISK=/dev/$dm
		echo "$ra_kb" >"/sys/block/$dm/queue/read_ahead_kb"
	else
		not_ok "the disk through a delay of $BENCH_DELAY_MS ms a request"
	fi
fi
if [ -n "${BENCH_RA_KB:-}" ]; then
	check "read_ahead_kb $BENCH_RA_KB on $TEST_DISK" sh -c \
		"echo $BENCH_RA_KB >/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb"
fi
diag "disk $TEST_DISK, read_ahead_kb $(cat "/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb")"
set -- $(disk_reads)
reads0=$1
read_ms0=$2
if mount -o exec_folio_size=64k "$TEST_DISK" /mnt 2>/dev/null; then
	umount /mnt
	for c in $(echo "${BENCH_CONFIGS:-mount tagged}" | tr , " "); do
		case $c in
		mount) run_config mount exec_folio_size=64k,exec_folio_scope=all plain ;;
		tagged) run_config tagged exec_folio_size=64k tagged ;;
		inplace) tag_in_place && run_config inplace exec_folio_size=64k plain ;;
		*) not_ok "BENCH_CONFIGS: unknown configuration '$c'" ;;
		esac
	done
else
	run_config default "" plain
fi
set -- $(disk_reads)
cfg=disk
wl=all
emit run read_requests $(($1 - reads0))
emit run read_ms $(($2 - read_ms0))
done_testing
