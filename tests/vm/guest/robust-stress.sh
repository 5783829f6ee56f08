#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Concurrency under the exec folio policy, as TAP: for STRESS_SECONDS
# (default 180) of guest time, on the robustness disk mounted with
# exec_folio_size=64k, one loop sets and removes trusted.exec_folio_size
# on stress/prog (a static program with ~800K of text) and on a copy of it
# while other loops exec prog (two of them), checksum it through mmap and
# through read(), truncate the copy at a random offset, write its tail
# back and check and exec it, and drop the page and inode caches.  Every
# exec must print what the program prints from the initramfs, every
# checksum must match; a kernel warning fails the run (console-tap.sh).
. /tests/lib/tap.sh
. /tests/lib/measure.sh
secs=${STRESS_SECONDS:-180}
mnt=/mnt
prog=$mnt/stress/prog
copy=$mnt/stress/copy

t0=$(cut -d. -f1 /proc/uptime)
check "mount -t xfs -o exec_folio_size=64k" mount -t xfs -o exec_folio_size=64k "$TEST_DISK" $mnt
if ! grep -q " $mnt xfs " /proc/mounts; then
	bail_out "the robustness disk did not mount"
fi

# The reference: the program and its output from the initramfs (tmpfs).
want_out=$(/bin/bigtext)
want_sum=$(vmhelper sum /bin/bigtext)
size=$(wc -c </bin/bigtext)
check "stress/prog is the program of the initramfs (read)" \
	test "$(vmhelper sum $prog)" = "$want_sum"
cat $prog >$copy && chmod 0755 $copy
check "stress/copy written" test "$(vmhelper mmapsum $copy)" = "$want_sum"

end=$(($(date +%s) + secs))
rm -f /tmp/stress.*

# Run the loop body (a function) NAME until the end; count runs and
# failures into /tmp/stress.NAME.  A failing body says why on stdout.
loop() { # NAME
	runs=0
	bad=0
	while [ "$(date +%s)" -lt $end ]; do
		if ! "$1" >>/tmp/stress.$1.log 2>&1; then
			bad=$((bad + 1))
			echo "run $runs failed" >>/tmp/stress.$1.log
		fi
		runs=$((runs + 1))
	done
	echo "$runs $bad" >/tmp/stress.$1
}

flip() {
	for v in 2m rm 16k none 64k rm 4k 2m 0 128k; do
		for f in $prog $copy; do
			if [ $v = rm ]; then
				r=$(vmhelper rmxattr $f)
			else
				r=$(vmhelper setxattr $f $v)
			fi
			[ "$r" = ok ] || {
				echo "$v on $f: $r"
				return 1
			}
		done
		vmhelper state $prog | sed -e "s/^/$v /" >>/tmp/stress.states
	done
}
run_prog() {
	out=$($prog)
	[ "$out" = "$want_out" ] || {
		echo "exec of $prog printed '$out' (exit $?)"
		return 1
	}
}
run_prog2() { run_prog; }
map_prog() {
	s=$(vmhelper mmapsum $prog)
	[ "$s" = "$want_sum" ] || {
		echo "mmap checksum of $prog: $s"
		return 1
	}
}
read_prog() {
	s=$(vmhelper sum $prog)
	[ "$s" = "$want_sum" ] || {
		echo "read checksum of $prog: $s"
		return 1
	}
}
# Cut the copy at a random byte, write its tail back from prog, check it
# by read() and mmap, run it.
rewrite() {
	cut=$(((RANDOM * 32768 + RANDOM) % (size - 1) + 1))
	truncate -s $cut $copy || return 1
	[ "$(wc -c <$copy)" = $cut ] || {
		echo "size $(wc -c <$copy) after truncate -s $cut"
		return 1
	}
	dd if=$prog of=$copy bs=$cut skip=1 seek=1 conv=notrunc 2>/dev/null || return 1
	s=$(vmhelper sum $copy)
	m=$(vmhelper mmapsum $copy)
	[ "$s" = "$want_sum" ] && [ "$m" = "$want_sum" ] || {
		echo "cut at $cut: read checksum $s, mmap checksum $m"
		return 1
	}
	out=$($copy)
	[ "$out" = "$want_out" ] || {
		echo "cut at $cut: exec printed '$out'"
		return 1
	}
}
drop() {
	sleep 2
	echo 3 >/proc/sys/vm/drop_caches
}

workers="flip run_prog run_prog2 map_prog read_prog rewrite drop"
for w in $workers; do
	loop $w &
done
wait
diag "the loops ended $(($(cut -d. -f1 /proc/uptime) - t0))s after the start"

for w in $workers; do
	set -- $(cat /tmp/stress.$w 2>/dev/null || echo 0 0)
	echo "# $w: $1 runs, $2 failed"
	[ "$2" = 0 ] || head -20 /tmp/stress.$w.log | sed -e 's/^/#   /'
	check "$w: ran (${1}x) and never failed" test "$1" -gt 0 -a "$2" = 0
done
check "prog unchanged after the run" test "$(vmhelper sum $prog)" = "$want_sum"
# The states seen after each change (the kernel clamps a policy larger
# than the file to the file's size).
sort /tmp/stress.states | uniq -c | sed -e 's/^ */# seen /'
check "2m: a folio size above the 64k mount default was in effect on prog" \
	awk '$1 == "2m" { split($5, f, "="); if (f[2] > 65536) seen = 1 }
		END { exit !seen }' /tmp/stress.states
check "removing the xattr fell back to the 64k mount default" \
	grep -q "^rm .* source=mount .*folio=65536 " /tmp/stress.states
policy_states $prog $copy
vmstat_folios
check "umount" umount $mnt
diag "$(($(cut -d. -f1 /proc/uptime) - t0))s of guest time in all"
done_testing
