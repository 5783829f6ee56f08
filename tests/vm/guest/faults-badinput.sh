#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Bad input to the exec folio policy, as TAP (vm-faults tier).  Every
# malformed value of tests/vectors/policy.vec ("parse ... -> EINVAL") and
# the extra list below is
#  - refused with EINVAL as trusted.exec_folio_size (raw setxattr), with a
#    kernel log line naming the attribute;
#  - refused by mount(2) and by remount as exec_folio_size=VALUE, with a
#    log line naming the option (values with a NUL byte cannot be mount
#    data and are not tried there);
# and a malformed value written offline (disks/faults.sh, by the host's
# stock kernel) is ignored: no policy, the file reads and runs, one warning
# naming the inode, not repeated on later accesses.
# Values use the vectors' escapes (\n \r \t \\ \" \0 \xHH), which vmhelper
# decodes.
. /tests/lib/tap.sh
. /tests/lib/counters.sh
mnt=/mnt
file=$mnt/badinput.target
inputs=/tmp/badinput.values

# The vectors' malformed values: bare words, or quoted with escapes.
sed -n 's/^parse \(.*\) -> EINVAL$/\1/p' /tests/policy.vec |
	sed -e 's/^"\(.*\)"$/\1/' >$inputs
from_vectors=$(wc -l <$inputs)
# More that the vectors do not have: unit spellings DESIGN.md section 2.2 does
# not allow, other signs and words, bounds, UTF-8, very long values.
cat >>$inputs <<'EOF'
64kB
64KB
64Kb
64kib
64Ki
2MB
2Mb
2MiB
2mi
NoNe
nOnE
none 
 none
\tnone
none\n\n
0 
00k
0m
0M
+0
-0
-1
-4096
2^16
1<<16
65536.0
65536\r
64\n
4095
4097
8191
2097151
2097153
2147483648
4294967295
18446744073709551615
18446744073709551616k
4294967296k
\x00\x01\x02
\x80
\xc3\xa9
\xef\xbc\x96\xef\xbc\x94k
\0\0\0\0
2m\0\0
64k\0\n
64k\t
64k\x7f
EOF
printf '%0300d\n' 64 >>$inputs
printf '%0299dk\n' 64 >>$inputs
# Longer would make the kernel's log line longer than a printk record.
printf '%0900d\n' 2 >>$inputs
extra=$(($(wc -l <$inputs) - from_vectors))
total=$((from_vectors + extra))
with_nul=$(grep -c -e '\\0' -e '\\x00' $inputs)
diag "inputs: $from_vectors from tests/vectors/policy.vec, $extra extra;" \
	"$with_nul with a NUL byte are not tried as mount options"

# The kernel log since the last call (the ring buffer is emptied).
new_log() { dmesg -c; }

# An escaped VALUE that holds a NUL byte (cannot be mount data).
has_nul() { case $1 in *'\0'* | *'\x00'*) return 0 ;; esac; return 1; }

# The log line that explains a refused mount VALUE: it names the option,
# or, for a value with a comma, the part after the comma (the kernel
# splits mount data at commas, so that part is an unknown option).
mount_log_ok() { # VALUE LOG
	case $1 in
	*,*) echo "$2" | grep -q "Unknown parameter" ;;
	*) echo "$2" | grep -q "exec_folio_size" ;;
	esac
}

new_log >/dev/null
check "mount $TEST_DISK with exec_folio_size=none" \
	vmhelper mount "$TEST_DISK" $mnt none
: >$file
chmod 0755 $file
check "a valid value is accepted (64k)" vmhelper setxattr $file 64k
new_log >/dev/null

# setxattr: EINVAL and a log line for each value; the valid 64k stays.
tried=0
while IFS= read -r v; do
	got=$(vmhelper setxattr $file "$v")
	log=$(new_log)
	tried=$((tried + 1))
	if [ "$got" = EINVAL ]; then
		ok "setxattr '$v': EINVAL"
	else
		not_ok "setxattr '$v': EINVAL"
		diag "got $got"
	fi
	if echo "$log" | grep -q "exec_folio_size"; then
		ok "setxattr '$v': logged"
	else
		not_ok "setxattr '$v': logged"
		diag "kernel log: ${log:-(nothing)}"
	fi
done <$inputs
diag "setxattr: $tried malformed values tried"
state=$(vmhelper state $file)
if [ "${state#size=65536 source=xattr }" != "$state" ]; then
	ok "the refused values left the valid 64k xattr in place"
else
	not_ok "the refused values left the valid 64k xattr in place"
	diag "state: $state"
fi

# Remount: refused, logged, the mount's option unchanged.
check "remount with exec_folio_size=64k" \
	vmhelper mount "$TEST_DISK" $mnt remount 64k
new_log >/dev/null
tried=0
while IFS= read -r v; do
	has_nul "$v" && continue
	got=$(vmhelper mount "$TEST_DISK" $mnt remount "$v")
	log=$(new_log)
	tried=$((tried + 1))
	if [ "$got" = EINVAL ]; then
		ok "remount exec_folio_size='$v': EINVAL"
	else
		not_ok "remount exec_folio_size='$v': EINVAL"
		diag "got $got"
	fi
	if mount_log_ok "$v" "$log"; then
		ok "remount exec_folio_size='$v': logged"
	else
		not_ok "remount exec_folio_size='$v': logged"
		diag "kernel log: ${log:-(nothing)}"
	fi
done <$inputs
diag "remount: $tried malformed values tried"
check "/proc/mounts still shows exec_folio_size=64k" \
	grep -q "$mnt xfs .*exec_folio_size=64k" /proc/mounts
check "umount" umount $mnt
new_log >/dev/null

# Mount: refused, logged, nothing mounted.
tried=0
while IFS= read -r v; do
	has_nul "$v" && continue
	got=$(vmhelper mount "$TEST_DISK" $mnt "$v")
	log=$(new_log)
	tried=$((tried + 1))
	if [ "$got" = EINVAL ]; then
		ok "mount exec_folio_size='$v': EINVAL"
	else
		not_ok "mount exec_folio_size='$v': EINVAL"
		diag "got $got"
		[ "$got" = ok ] && umount $mnt
	fi
	if mount_log_ok "$v" "$log"; then
		ok "mount exec_folio_size='$v': logged"
	else
		not_ok "mount exec_folio_size='$v': logged"
		diag "kernel log: ${log:-(nothing)}"
	fi
done <$inputs
diag "mount: $tried malformed values tried"
diag "inputs tried: setxattr $total, mount $tried, remount $tried"

# Warnings about inode $ino in the kernel log.
warned() { dmesg | grep -c "inode $ino: bad trusted.exec_folio_size"; }

# Malformed values written offline: ignored, warned about once each time
# the inode is read from disk (rate limited).
check "mount $TEST_DISK (no default) for the offline values" \
	mount "$TEST_DISK" $mnt
(cd $mnt && sha256sum -c SHA256SUMS) >/tmp/sums.out 2>&1
for f in mal.3k mal.long mal.bin mal.leaf; do
	ino=$(printf '0x%x' "$(stat -c %i $mnt/$f)")
	check_state=$(vmhelper state $mnt/$f)
	if [ "$check_state" = "size=0 source=none order=0 folio=4096 pending=0 deferred=0" ]; then
		ok "$f: offline malformed value ignored (no policy, order 0)"
	else
		not_ok "$f: offline malformed value ignored (no policy, order 0)"
		diag "state: $check_state"
	fi
	out=$($mnt/$f 2>&1)
	case $out in
	bigtext*) ok "$f: runs" ;;
	*)
		not_ok "$f: runs"
		diag "output: $out"
		;;
	esac
	check "$f: reads back as written" grep -qx "$f: OK" /tmp/sums.out
	first=$(warned)
	vmhelper read $mnt/$f >/dev/null
	$mnt/$f >/dev/null 2>&1
	again=$(warned)
	if [ "$first" = 1 ] && [ "$again" = 1 ]; then
		ok "$f: one warning naming inode $ino, none on the next accesses"
	else
		not_ok "$f: one warning naming inode $ino, none on the next accesses"
		diag "warnings: $first after the first accesses, $again after more"
	fi
done
# The inodes leave the cache and are read from disk again.
drop_caches
for f in mal.3k mal.long mal.bin mal.leaf; do
	ino=$(printf '0x%x' "$(stat -c %i $mnt/$f)")
	vmhelper state $mnt/$f >/dev/null
	evicted=$(warned)
	if [ "$evicted" -ge 1 ] && [ "$evicted" -le 2 ]; then
		ok "$f: at most one more warning when the inode is read from disk again"
	else
		not_ok "$f: at most one more warning when the inode is read from disk again"
		diag "warnings: $evicted after drop_caches and another access"
	fi
	dmesg | grep "inode $ino: bad" | sed -e 's/^/# log: /' | head -3
done
check "umount" umount $mnt
done_testing
