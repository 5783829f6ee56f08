#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest smoke test of the exec folio series on XFS, as TAP.  The test
# disk (tests/vm/disks/smoke.sh) holds bigtext, a static program with
# ~800K of text (mode 0755, no xattr), bigtext.none (a copy with
# trusted.exec_folio_size=none), bigtext.leaf (mode 0644, the xattr 64k
# among enough user xattrs for a leaf-form attribute fork) and plain
# (mode 0644, 256K of data, no xattr), and bigtext.fi (a copy left uncached
# for the fault injection test).
. /tests/lib/tap.sh
. /tests/lib/measure.sh
. /tests/lib/inject.sh
. /tests/lib/khugepaged.sh
. /tests/lib/kernel.sh
khugepaged_asleep

state() { vmhelper state "$1"; }

# Share (percent) of the text of running PID in folios of 64K or more, and
# its cont-aligned share (DESIGN.md section 2.10), from execfolio stat.
measure() { # PID -> "BIG64 CONT TEXT"
	execfolio stat --json "$1" | tr -d '{}"' | tr ',' '\n' | awk -F: '
		$1 == "text_bytes" { text = $2 }
		$1 == "cont_aligned_64k_bytes" { cont = $2 }
		$1 == "cont_eligible_64k_bytes" { elig = $2 }
		($1 == "folio_bytes" && NF == 3) || ($1 ~ /^[0-9]+$/ && NF == 2) {
			if ($(NF - 1) + 0 >= 65536) big += $NF }
		END { if (!text) text = 1; if (!elig) elig = 1
		      printf "%d %d %d\n", big * 100 / text, cont * 100 / elig, text }'
}

# Run PROGRAM until it has faulted in its text, measure it, stop it.  With
# a second argument the program runs with fault injection enabled for it.
run_measure() { # PROGRAM [fail] -> "BIG64 CONT TEXT"
	: >/tmp/prog.out
	if [ -n "${2:-}" ]; then
		(echo 1 >/proc/self/make-it-fail && exec "$1" wait) >/tmp/prog.out &
	else
		"$1" wait >/tmp/prog.out &
	fi
	pid=$!
	wait_for /tmp/prog.out bigtext 600
	measure $pid
	kill $pid
	wait $pid 2>/dev/null
}


# The readahead window decides what a data fault's read-around brings in
# before the text is executed.  Linux 7.3 gives the guest's virtio disk
# 8M, enough for read-around to cache all of bigtext before its first
# exec fault; the checks below are about exec faults, so they run with
# 128K, the window 6.12 gives it.
ra=/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb
diag "read_ahead_kb of ${TEST_DISK##*/}: $(cat $ra), set to 128"
echo 128 >$ra

# Mount option: strict parsing, shown in /proc/mounts.
if mount -o exec_folio_size=4194304m "$TEST_DISK" /mnt 2>/dev/null; then
	umount /mnt
	not_ok "mount refuses exec_folio_size=4194304m (overflow)"
else
	ok "mount refuses exec_folio_size=4194304m (overflow)"
fi
check "the refusal is logged with the value" \
	sh -c 'dmesg | grep -q "bad exec_folio_size=4194304m"'
# noatime: the checks below count the disk's bytes read, and the atime
# update of a file's first read logs its inode, which reads the inode's
# 16K cluster buffer again when XFS has dropped it (1 run in 20 here).
check "mount -o exec_folio_size=64k" mount -o exec_folio_size=64k,noatime "$TEST_DISK" /mnt
check "/proc/mounts shows exec_folio_size=64k" \
	grep -q "/mnt xfs .*exec_folio_size=64k" /proc/mounts

# Resolution at instantiation.
check_eq "bigtext: mount default, 64K folios" \
	"$(state /mnt/bigtext)" "size=65536 source=mount order=4 folio=65536 pending=0 deferred=0"
check_eq "bigtext.none: opted out by the xattr" \
	"$(state /mnt/bigtext.none)" "size=0 source=xattr order=0 folio=4096 pending=0 deferred=0"
check_eq "bigtext.leaf: xattr in a leaf-form attribute fork, mode 0644" \
	"$(state /mnt/bigtext.leaf)" "size=65536 source=xattr order=4 folio=65536 pending=0 deferred=0"
check_eq "plain: no execute bit, no policy" \
	"$(state /mnt/plain)" "size=0 source=none order=0 folio=4096 pending=0 deferred=0"

# The text of the tagged program is in 64K folios, the opted-out one's not;
# only the tagged one's faults go through the exec folio hook.
hook_faults() { awk '$1 == "thp_file_pref_exec_fault" { print $2 }' /proc/vmstat; }
before=$(hook_faults)
set -- $(run_measure /mnt/bigtext)
after=$(hook_faults)
echo "# bigtext: ${1}% of ${3} text bytes in folios >= 64K, cont-aligned ${2}%, $((after - before)) hook faults"
check "bigtext: at least 90% of its text in folios >= 64K" test "${1:-0}" -ge 90
check "bigtext: at least 90% of its text cont-aligned" test "${2:-0}" -ge 90
check "bigtext: its faults go through the exec folio hook" \
	test "${after:-0}" -gt "${before:-0}"
before=$(hook_faults)
set -- $(run_measure /mnt/bigtext.none)
after=$(hook_faults)
echo "# bigtext.none: ${1}% of ${3} text bytes in folios >= 64K, cont-aligned ${2}%, $((after - before)) hook faults"
# none leaves the kernel's own choice: upstream's exec_folio_order() on 7.3
# arm64 (64K), small folios elsewhere.
if arch_exec_default; then
	check "bigtext.none: the architecture's default, at least 80% in folios >= 64K" \
		test "${1:-0}" -ge 80
else
	check "bigtext.none: less than half of its text in folios >= 64K" \
		test "${1:-100}" -lt 50
fi
check_eq "bigtext.none: untagged, the exec folio hook is never entered" \
	"$((after - before))" 0

# The xattr: malformed values are refused.
for v in "64k " 0x10000 4194304m 3k; do
	check_eq "setxattr '$v' fails with EINVAL" \
		"$(vmhelper setxattr /mnt/plain "$v")" EINVAL
done

# Changes on cached inodes: bigtext.none has folios cached.  While it is
# open the change is pending, and the cached folios stay (no eviction, no
# writeback) until the cache lets them go.
exec 3</mnt/bigtext.none
vmhelper setxattr /mnt/bigtext.none 64k >/dev/null
check_eq "xattr set on a cached inode in use: applied, pending" \
	"$(state /mnt/bigtext.none)" "size=65536 source=xattr order=4 folio=65536 pending=1 deferred=0"
exec 3<&-
check_eq "once unused it stays cached, the change still pending" \
	"$(state /mnt/bigtext.none)" "size=65536 source=xattr order=4 folio=65536 pending=1 deferred=0"
drop_caches
set -- $(run_measure /mnt/bigtext.none)
echo "# bigtext.none after the change: ${1}% of ${3} text bytes in folios >= 64K, cont-aligned ${2}%"
check "bigtext.none after the change: at least 90% in folios >= 64K" \
	test "${1:-0}" -ge 90
chmod 0755 /mnt/plain
check_eq "chmod +x on an uncached inode: mount default applied at once" \
	"$(state /mnt/plain)" "size=65536 source=mount order=4 folio=65536 pending=0 deferred=0"
vmhelper read /mnt/plain >/dev/null
exec 3</mnt/plain
chmod 0644 /mnt/plain
check_eq "chmod -x on a cached inode in use: no policy, pending" \
	"$(state /mnt/plain)" "size=0 source=none order=0 folio=4096 pending=1 deferred=0"
exec 3<&-
check_eq "once unused its folios stay cached, the change still pending" \
	"$(state /mnt/plain)" "size=0 source=none order=0 folio=4096 pending=1 deferred=0"

# The policy is decided by the file (its xattr, its mode, the mount's
# options), never by who maps it or how.  A library (mode 0644, no xattr)
# mapped executable by an unprivileged user, after its ELF header was
# read as the dynamic loader reads it, gets no policy under the default
# scope, and the header read reads no more than without a mount option.
cp /mnt/bigtext /mnt/lib.so
chmod 0644 /mnt/lib.so
drop_caches
stat /mnt/lib.so >/dev/null
read0=$(disk_read_bytes)
dd if=/mnt/lib.so of=/dev/null bs=832 count=1 2>/dev/null
read1=$(disk_read_bytes)
diag "header read of lib.so, no policy: $((read1 - read0)) bytes read"
check "a header read of a file without a policy reads less than a 64K folio" \
	test "$((read1 - read0))" -lt 65536
check_eq "mapped executable by another user: still no policy" \
	"$(vmhelper as-user 1000 1000 vmhelper execsum /mnt/lib.so >/dev/null; state /mnt/lib.so)" \
	"size=0 source=none order=0 folio=4096 pending=0 deferred=0"
check_eq "nor after its inode is read again" \
	"$(drop_caches; state /mnt/lib.so)" \
	"size=0 source=none order=0 folio=4096 pending=0 deferred=0"

# exec_folio_scope=all: the mount default covers every regular file, from
# the moment its inode is instantiated.
check "remount with exec_folio_scope=all" \
	mount -o remount,exec_folio_scope=all /mnt
check "/proc/mounts shows exec_folio_scope=all" \
	grep -q "/mnt xfs .*exec_folio_scope=all" /proc/mounts
drop_caches
check_eq "scope all: a library (mode 0644) has the mount default before any use" \
	"$(state /mnt/lib.so)" \
	"size=65536 source=mount order=4 folio=65536 pending=0 deferred=0"
get_v=$(execfolio get -v /mnt/lib.so 2>&1)
diag "execfolio get -v: $get_v"
check "scope all: execfolio get -v shows the mount default in effect and the scope" \
	sh -c "echo '$get_v' | grep -q '^/mnt/lib.so 64k mount .*mount_scope=all'"
cp /mnt/lib.so /mnt/optout.so
vmhelper setxattr /mnt/optout.so none >/dev/null
check_eq "scope all: the xattr none still opts a file out" \
	"$(drop_caches; state /mnt/optout.so)" "size=0 source=xattr order=0 folio=4096 pending=0 deferred=0"
rm -f /mnt/optout.so
# As the loader uses it: its header read reads the first 64K folio, and
# the executable mapping reads every other block once.
stat /mnt/lib.so >/dev/null
read0=$(disk_read_bytes)
dd if=/mnt/lib.so of=/dev/null bs=832 count=1 2>/dev/null
read1=$(disk_read_bytes)
check_eq "scope all: a header read reads the library's first 64K folio" \
	"$((read1 - read0))" 65536
vmhelper execsum /mnt/lib.so >/tmp/execsum.out
read2=$(disk_read_bytes)
size=$(stat -c %s /mnt/lib.so)
check_eq "scope all: header read then executable mapping: every block read once" \
	"$((read2 - read0))" "$(((size + 4095) / 4096 * 4096))"
read_sum=$(vmhelper sum /mnt/lib.so)
check_eq "scope all: the library mapped executable gives its bytes as read(2) does" \
	"$(cat /tmp/execsum.out)" "${read_sum:-(no checksum from read(2))}"
check "remount with exec_folio_scope=exec" \
	mount -o remount,exec_folio_scope=exec /mnt
drop_caches
check_eq "scope exec again: the library has no policy" \
	"$(state /mnt/lib.so)" "size=0 source=none order=0 folio=4096 pending=0 deferred=0"
rm -f /mnt/lib.so

# An execute bit given through a POSIX ACL (setfacl), which changes
# the mode without a chmod, applies the mount default; taken away,
# it leaves no policy.
cp /mnt/bigtext /mnt/acl.prog
chmod 0644 /mnt/acl.prog
check_eq "acl: user::rwx set" "$(vmhelper acl /mnt/acl.prog access 0755)" ok
check_eq "acl: an execute bit through the ACL applies the mount default" \
	"$(stat -c %a /mnt/acl.prog) $(state /mnt/acl.prog)" \
	"755 size=65536 source=mount order=4 folio=65536 pending=1 deferred=0"
vmhelper acl /mnt/acl.prog access 0644 >/dev/null
check_eq "acl: the last execute bit taken through the ACL leaves no policy" \
	"$(stat -c %a /mnt/acl.prog) $(state /mnt/acl.prog)" \
	"644 size=0 source=none order=0 folio=4096 pending=1 deferred=0"
rm -f /mnt/acl.prog

# Strength: with every allocation of order >= 4 failing for it, an uncached
# program still runs, on smaller folios, and the fallback is counted and
# logged.  (fail_page_alloc limited to the test task, no stack dumps.)
before=$(fallbacks)
fallback_logs >/dev/null
inject_on Y
set -- $(run_measure /mnt/bigtext.fi fail)
inject_off
echo "# bigtext.fi, order >= 4 failing: ${1}% of ${3} text bytes in folios >= 64K"
check "bigtext.fi runs with order >= 4 allocations failing" \
	grep -q bigtext /tmp/prog.out
check "its text is on smaller folios" test "${1:-100}" -lt 10
after=$(fallbacks)
echo "# thp_file_pref_fallback: $before -> $after"
check "the fallback is counted in /proc/vmstat" test "${after:-0}" -gt "${before:-0}"
check "the fallback is reported by the tracepoint" \
	test "$(fallback_logs)" -gt 0

# Remount: the new default applies to inodes instantiated afterwards.
check "remount with exec_folio_size=16k" \
	mount -o remount,exec_folio_size=16k /mnt
check "/proc/mounts shows exec_folio_size=16k" \
	grep -q "/mnt xfs .*exec_folio_size=16k" /proc/mounts
cp /mnt/bigtext /mnt/bigtext.new
check_eq "a new inode gets the new default" \
	"$(state /mnt/bigtext.new)" "size=16384 source=mount order=2 folio=16384 pending=0 deferred=0"

check "umount" umount /mnt
done_testing
