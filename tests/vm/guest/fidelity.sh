#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The fidelity of execfoliofs's report (DESIGN.md section 8.4): Debian's
# sqlite3 running tests/vm/fidelity-workload.sql, a program and workload
# the simulator was not tuned on, from the disk of tests/vm/disks/fidelity.sh.
#
# Both kernels first print the report options that model them (the
# kernel's base, the architecture, the disk's read_ahead_kb) between
# "fidelity-begin model" and "fidelity-end model".
# On the patched kernel: (0) the workload from fidelity/plain, no policy
# anywhere (no xattr, no mount option), as on the stock kernel: with no
# policy the series must leave upstream's behaviour as it is, the same
# table and the same bytes read (tests/vm/nopolicy-compare.sh);
# (1) the workload under execfoliofs in trace mode
# over fidelity/plain, then execfoliofs --report on the trace; (2) the
# workload from fidelity/tagged (everything tagged 64k) on XFS with cold
# caches, its real table measured by execfolio stat.  On the stock kernel
# (no XFS_IOC_GET_EXEC_FOLIO; vm-fidelity-stock, make check-full): (3) the
# workload from fidelity/plain, its real table, which must be (0)'s too.
# The trace, the real tables and the bytes
# each run with no policy read from the disk are printed as "# " lines
# between "fidelity-begin NAME" and "fidelity-end NAME" for the host
# (tests/vm/fidelity-compare.sh), which runs the report on the trace and
# compares it with the real tables row by row.
. /tests/lib/tap.sh
. /tests/lib/measure.sh
. /tests/lib/khugepaged.sh
. /tests/lib/kernel.sh
khugepaged_asleep

# The workload in ROOT, chrooted; stdin is a FIFO kept open, so sqlite3
# waits after the script's last line ("fidelity-done") with its text still
# mapped; it is then measured into /tmp/NAME.json and /tmp/NAME.txt (with
# execfolio stat, unless NAME is "trace") and killed, in every run at the
# same point.  Leaves "READ CACHED" of the run in $delta.
run_workload() { # ROOT NAME
	rm -f /tmp/fidelity.in /tmp/fidelity.out
	mkfifo /tmp/fidelity.in
	counters_start
	chroot "$1" /usr/bin/sqlite3 -batch </tmp/fidelity.in \
		>/tmp/fidelity.out 2>&1 &
	pid=$!
	exec 3>/tmp/fidelity.in
	cat /mnt/fidelity/workload.sql >&3
	if ! wait_for /tmp/fidelity.out '^fidelity-done' 6000; then
		sed -e 's/^/# sqlite3: /' /tmp/fidelity.out | tail -20
		kill -9 $pid
		exec 3>&-
		wait $pid 2>/dev/null
		return 1
	fi
	if [ "$2" != trace ]; then
		stat_json "/tmp/$2.json" $pid
		execfolio stat $pid >"/tmp/$2.txt"
		text_mappings $pid
	fi
	delta=$(counters_delta)
	kill -9 $pid
	exec 3>&-
	wait $pid 2>/dev/null
	return 0
}

# Print FILE as "# " lines between the markers of NAME.
emit() { # NAME FILE
	echo "# fidelity-begin $1"
	sed -e 's/^/# /' "$2"
	echo "# fidelity-end $1"
}

# The run from fidelity/plain, with no policy, for nopolicy-compare.sh:
# its table and "read BYTES" from the disk (cached_bytes also counts the
# guest's own tmpfs files, so only the disk's count is compared).
emit_nopolicy() { # FILE
	emit real-nopolicy "$1"
	echo "# fidelity-begin read-nopolicy"
	echo "# read ${delta%% *}"
	echo "# fidelity-end read-nopolicy"
}

mount "$TEST_DISK" /mnt
mounted=$?
# The same virtual layout in every run and on both kernels: where a
# library's text starts within a 64K block decides its cont-eligible-64kB
# row, and with address space randomisation that moves from boot to boot.
echo 0 >/proc/sys/kernel/randomize_va_space
if vmhelper state /mnt/fidelity/tagged/usr/bin/sqlite3 >/dev/null 2>&1; then
	kernel=patched
else
	kernel=stock
fi
ra_kb=$(cat "/sys/block/${TEST_DISK##*/}/queue/read_ahead_kb")
diag "kernel: $kernel ($(uname -r)), read_ahead_kb $ra_kb"
# The report's model of this kernel: its base (kbase, /tests/lib/kernel.sh), this
# architecture (the host that compares is another), the disk's window.
case $(uname -m) in
aarch64) arch=arm64 ;;
*) arch=x86_64 ;;
esac
model="--kernel $(kbase) --arch $arch --ra-kb $ra_kb"
echo "# fidelity-begin model"
echo "# $model"
echo "# fidelity-end model"

if [ $kernel = patched ]; then
	check "mount the fidelity disk" test $mounted = 0
	if run_workload /mnt/fidelity/plain real-nopolicy; then
		ok "the workload ran from fidelity/plain (no policy)"
	else
		not_ok "the workload ran from fidelity/plain (no policy)"
	fi
	check "execfolio stat measured it" test -s /tmp/real-nopolicy.txt
	emit_nopolicy /tmp/real-nopolicy.txt
	report_run "sqlite3, no policy" /tmp/real-nopolicy.json "$delta"
	cp /mnt/fidelity/execfoliofs /tmp/execfoliofs
	mkdir -p /tmp/efs
	/tmp/execfoliofs -f -o trace=/tmp/fidelity.trace \
		/mnt/fidelity/plain /tmp/efs 2>/tmp/efs.err &
	efs=$!
	i=0
	until grep -q ' /tmp/efs fuse' /proc/mounts; do
		i=$((i + 1))
		[ $i -lt 100 ] && kill -0 $efs 2>/dev/null || break
		sleep 0.1
	done
	check "execfoliofs mounted fidelity/plain in trace mode" \
		grep -q ' /tmp/efs fuse' /proc/mounts
	if run_workload /tmp/efs trace; then
		ok "the workload ran under execfoliofs"
	else
		not_ok "the workload ran under execfoliofs"
	fi
	umount /tmp/efs
	wait $efs
	status=$?
	sed -e 's/^/# execfoliofs: /' /tmp/efs.err
	check "execfoliofs exited 0 after umount (status $status)" test $status = 0
	check "the trace has sqlite3's reads" \
		grep -q '^file .* usr/bin/sqlite3$' /tmp/fidelity.trace
	diag "trace: $(grep -c '^read ' /tmp/fidelity.trace) reads of" \
		"$(grep -c '^file ' /tmp/fidelity.trace) files"
	emit trace /tmp/fidelity.trace
	# shellcheck disable=SC2086 # $model is words
	if /tmp/execfoliofs --report --per-file $model /tmp/fidelity.trace \
		>/tmp/report.txt 2>/tmp/report.err; then
		ok "execfoliofs --report"
		sed -e 's/^/# /' /tmp/report.txt
	else
		not_ok "execfoliofs --report"
		sed -e 's/^/# /' /tmp/report.err
	fi

	if run_workload /mnt/fidelity/tagged real-64k; then
		ok "the workload ran from fidelity/tagged (64k)"
	else
		not_ok "the workload ran from fidelity/tagged (64k)"
	fi
	policy_states /mnt/fidelity/tagged/usr/bin/sqlite3 \
		/mnt/fidelity/tagged/usr/lib/aarch64-linux-gnu/libsqlite3.so.0
	check "execfolio stat measured it" test -s /tmp/real-64k.txt
	emit real-64k /tmp/real-64k.txt
	report_run "sqlite3, 64k" /tmp/real-64k.json "$delta"
else
	check "mount the fidelity disk" test $mounted = 0
	if run_workload /mnt/fidelity/plain real-stock; then
		ok "the workload ran from fidelity/plain"
	else
		not_ok "the workload ran from fidelity/plain"
	fi
	check "execfolio stat measured it" test -s /tmp/real-stock.txt
	emit_nopolicy /tmp/real-stock.txt
	report_run "sqlite3, stock" /tmp/real-stock.json "$delta"
fi
check "umount" umount /mnt
done_testing
