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

# A library (mode 0644, no xattr) as the dynamic loader uses it: its ELF
# header read() while nothing else of it is cached, then mapped executable.
# The header read reads the file's first block as one 64K folio, and the
# mapping brings the file into the mount default with nothing pending and
# nothing to read again.
cp /mnt/bigtext /mnt/lib.so
chmod 0644 /mnt/lib.so
drop_caches
stat /mnt/lib.so >/dev/null
read0=$(disk_read_bytes)
dd if=/mnt/lib.so of=/dev/null bs=832 count=1 2>/dev/null
read1=$(disk_read_bytes)
check_eq "a header read of an undecided file on the mount reads its first 64K block" \
	"$((read1 - read0))" 65536
check_eq "library mapped executable after its header read: mount default, nothing pending" \
	"$(vmhelper execsum /mnt/lib.so >/tmp/execsum.out && state /mnt/lib.so)" \
	"size=65536 source=mount order=4 folio=65536 pending=0 deferred=0"
read_sum=$(vmhelper sum /mnt/lib.so)
check_eq "library mapped executable: its bytes as read(2) gives them" \
	"$(cat /tmp/execsum.out)" "${read_sum:-(no checksum from read(2))}"
# The same on a fresh inode, counting what the two steps read together.
cp /mnt/lib.so /mnt/lib3.so
drop_caches
stat /mnt/lib3.so >/dev/null
read0=$(disk_read_bytes)
dd if=/mnt/lib3.so of=/dev/null bs=832 count=1 2>/dev/null
vmhelper execsum /mnt/lib3.so >/dev/null
read1=$(disk_read_bytes)
size=$(stat -c %s /mnt/lib3.so)
check_eq "header read then executable mapping: every block read once" \
	"$((read1 - read0))" "$(((size + 4095) / 4096 * 4096))"
# A library that ends inside its first block (10008 bytes, as liblzf):
# the header read reads all of it, an 8K folio and a 4K one under one
# plug, so with one request, and its executable mapping reads nothing.
head -c 10008 /mnt/lib.so >/mnt/lib6.so
drop_caches
stat /mnt/lib6.so >/dev/null
set -- $(disk_reads)
reqs0=$1 read0=$3
dd if=/mnt/lib6.so of=/dev/null bs=832 count=1 2>/dev/null
set -- $(disk_reads)
read1=$3
check_eq "a header read of a library smaller than the block: all of it, with one request" \
	"$((read1 - read0)) bytes, $(($1 - reqs0)) request(s)" "12288 bytes, 1 request(s)"
check_eq "that library mapped executable: nothing more read, nothing pending" \
	"$(vmhelper execsum /mnt/lib6.so >/dev/null && state /mnt/lib6.so) $(($(disk_read_bytes) - read1))" \
	"size=65536 source=mount order=4 folio=65536 pending=0 deferred=0 0"
# With readahead off the header read caches one page: the first
# executable mapping drops it (nothing pending), so that the first
# block is read as one folio.
cp /mnt/lib.so /mnt/lib4.so
drop_caches
stat /mnt/lib4.so >/dev/null
echo 0 >$ra
dd if=/mnt/lib4.so of=/dev/null bs=832 count=1 2>/dev/null
echo 128 >$ra
check_eq "readahead off: a header read caches one page" \
	"$(vmhelper cached /mnt/lib4.so)" 4096
check_eq "readahead off: the executable mapping drops the header page, nothing pending" \
	"$(vmhelper execsum /mnt/lib4.so >/dev/null && state /mnt/lib4.so)" \
	"size=65536 source=mount order=4 folio=65536 pending=0 deferred=0"
# The same when the loader reads the header and reserves the library's
# span with a PROT_READ mapping before the executable one (x86_64), in
# one process: the file is mapped, the header page is not, and it is
# dropped all the same.
cp /mnt/lib.so /mnt/lib5.so
drop_caches
stat /mnt/lib5.so >/dev/null
echo 0 >$ra
vmhelper loadsum /mnt/lib5.so >/tmp/loadsum.out
echo 128 >$ra
check_eq "readahead off, header read and span reserved PROT_READ first: the executable mapping drops the header page, nothing pending" \
	"$(state /mnt/lib5.so)" \
	"size=65536 source=mount order=4 folio=65536 pending=0 deferred=0"
read_sum=$(vmhelper sum /mnt/lib5.so)
check_eq "library mapped as the loader maps it: its bytes as read(2) gives them" \
	"$(cat /tmp/loadsum.out)" "${read_sum:-(no checksum from read(2))}"
cp /mnt/lib.so /mnt/lib2.so
drop_caches
vmhelper read /mnt/lib2.so >/dev/null
check_eq "a library cached whole before its first executable mapping keeps its folios (pending)" \
	"$(vmhelper execsum /mnt/lib2.so >/dev/null && state /mnt/lib2.so)" \
	"size=65536 source=mount order=4 folio=65536 pending=1 deferred=0"
rm -f /mnt/lib.so /mnt/lib2.so /mnt/lib3.so /mnt/lib4.so /mnt/lib5.so /mnt/lib6.so

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
