#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The seed's workload: redis-server from Debian's packages, chrooted into
# the package tree on the XFS test disk (tests/vm/disks/suite.sh), under
# redis-benchmark.  arm64: redis/tagged has its executables under the 64k
# mount default and its shared libraries tagged 64k by mkfs.execfolio;
# redis/plain is the same tree without xattrs, run on a mount without the
# option.  The cont-aligned share of the tagged server's text (binary and
# libraries) is at least 98%.  redis/plain then runs a third time under
# the mount options alone, exec_folio_size=64k,exec_folio_scope=all
# (libraries untagged, mode 0644, covered by the scope): at least 98%.
# On x86_64, where upstream has no large folios for executable mappings
# at all and Debian's binaries and libraries are linked for 4K pages
# (p_align 0x1000), only that run is made, after one of redis-server as
# the first process to map its libraries since their inodes were read
# (the loader reads a library's header and reserves its span PROT_READ
# before the executable mapping): at least 98% each.
. /tests/lib/tap.sh
. /tests/lib/redis.sh
. /tests/lib/khugepaged.sh
khugepaged_awake
# 2,000 requests a command (the benchmarks make 1,000): the server's text
# is mapped, and what it runs is faulted in, within the first hundreds;
# 10,000 took most of vm-suite's time, and a guest beside a kernel build
# (make check) is slower still.
REDIS_REQUESTS=${REDIS_REQUESTS:-2000}
export REDIS_REQUESTS

# redis-server from ROOT under redis-benchmark, measured into
# /tmp/redis-NAME.json: one TAP line, the benchmark's rates and the
# measurement as diagnostics.
serve() { # NAME ROOT WHAT
	if run_redis "$2" "/tmp/redis-$1.json"; then
		ok "redis-server ($3) served redis-benchmark"
	else
		not_ok "redis-server ($3) served redis-benchmark"
	fi
	sed -e "s/^/# $1: /" /tmp/redis-bench.out
	report_run "redis-server, $3" "/tmp/redis-$1.json" "$delta"
}

# The mount options alone: redis/plain, at least MIN permille cont-aligned.
MOUNT_ONLY=exec_folio_size=64k,exec_folio_scope=all
mount_option_only() { # MIN
	mount -o $MOUNT_ONLY "$TEST_DISK" /mnt
	serve mount /mnt/redis/plain "untagged, mount option only"
	check "redis-server (mount option only): cont-aligned share at least $(percent "$1")" \
		test "$(share_permille /tmp/redis-mount.json)" -ge "$1"
	check "umount" umount /mnt
}

# redis-server from redis/plain under the mount options alone, with
# dropped caches (and inodes), waited for through its log: no redis-cli
# maps the libraries before it does ("The server is now ready to accept
# connections at SOCKET": a server with no TCP port does not log "Ready to
# accept connections").  At least 98% cont-aligned.
first_mapper() {
	root=/mnt/redis/plain
	mount -o $MOUNT_ONLY "$TEST_DISK" /mnt
	mount -t proc proc "$root/proc"
	mount -t devtmpfs devtmpfs "$root/dev"
	counters_start
	redis_server "$root" >/tmp/first.log 2>&1 &
	pid=$!
	if wait_for /tmp/first.log 'ready to accept connections' 3000 &&
		stat_json /tmp/redis-first.json $pid; then
		ok "redis-server, first to map its libraries, is up"
		delta=$(counters_delta)
		text_mappings $pid
	else
		sed -e 's/^/# redis-server: /' /tmp/first.log
		not_ok "redis-server, first to map its libraries, is up"
		delta="0 0"
	fi
	kill $pid
	wait $pid 2>/dev/null
	report_run "redis-server, first to map its libraries" \
		/tmp/redis-first.json "$delta"
	check "redis-server (first to map its libraries): cont-aligned share at least 98.0%" \
		test "$(share_permille /tmp/redis-first.json)" -ge 980
	umount "$root/dev" "$root/proc"
	check "umount" umount /mnt
}

if [ "$(uname -m)" = x86_64 ]; then
	first_mapper
	mount_option_only 980
	done_testing
fi

check "mount -o exec_folio_size=64k" mount -o exec_folio_size=64k "$TEST_DISK" /mnt
serve tagged /mnt/redis/tagged tagged
check "redis-server (tagged): cont-aligned share at least 98%" \
	test "$(share_permille /tmp/redis-tagged.json)" -ge 980
check "umount" umount /mnt

mount "$TEST_DISK" /mnt
serve plain /mnt/redis/plain untagged
check "redis-server (untagged): lower cont-aligned share than tagged" \
	test "$(share_permille /tmp/redis-plain.json)" -lt \
	"$(share_permille /tmp/redis-tagged.json)"
check "umount" umount /mnt

# As tagged: every file of the mount has the default from the moment its
# inode is read, so the loader's header read already reads a library's
# first folio whole.
mount_option_only 980
done_testing
