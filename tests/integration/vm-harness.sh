#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The VM harness judges runs correctly: console-tap.sh fails a run with a
# planted kernel splat, a timeout or missing results, and passes a clean
# one; vm-tap.sh, tap-run and tap-summary fail a guest test that did not
# report, or reported a missing or short plan; run-vm.sh refuses a further
# disk that is not NAME=IMAGE, and a VM_QEMU_ROOT without QEMU, before it
# touches its output directory or starts QEMU.  No VM is booted: the
# runs are made up, as run-vm.sh would leave them.
. "$(dirname "$0")/../tap.sh"
vm=$(cd "$(dirname "$0")/../vm/harness" && pwd)
tests=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A run directory: QEMU STATUS, the console with LINE in it, all results.
fake_run() { # DIR STATUS LINE
	mkdir -p "$1"
	echo "$2" >"$1/qemu-status"
	echo 42 >"$1/seconds"
	: >"$1/complete"
	printf 'Booting Linux on physical CPU 0x0\nexecfolio-vm: start\n%s\nexecfolio-vm: done\n' \
		"$3" >"$1/console.log"
}

# The number of "not ok" lines console-tap.sh gives for a run.
console_failures() { "$vm/console-tap.sh" "$1" | grep -c '^not ok'; }

splats='WARNING: CPU: 1 PID: 77 at mm/filemap.c:3190 do_sync_mmap_readahead+0x1c/0x2a0
BUG: KASAN: slab-use-after-free in xfs_exec_folio_apply+0x44/0x100
Internal error: Oops: 0000000096000004 [#1] PREEMPT SMP
WARNING: possible circular locking dependency detected
WARNING: possible recursive locking detected
inconsistent lock state
INFO: task sh:88 blocked for more than 120 seconds.
Unable to handle kernel NULL pointer dereference at virtual address 0000000000000008
BUG: sleeping function called from invalid context at mm/filemap.c:1234
Kernel panic - not syncing: Fatal exception'

fake_run "$work/clean" 0 "xfs: exec_folio_size=64k"
check_eq "a clean run passes console-tap" "$(console_failures "$work/clean")" 0

i=0
while IFS= read -r line; do
	i=$((i + 1))
	fake_run "$work/splat$i" 0 "[   12.345678] $line"
	check "a planted splat fails the run: $line" \
		sh -c "'$vm/console-tap.sh' '$work/splat$i' | grep -q '^not ok 3 '"
done <<EOF
$splats
EOF

fake_run "$work/timeout" 124 ""
check "a timeout (QEMU status 124) fails the run" \
	sh -c "'$vm/console-tap.sh' '$work/timeout' | grep -q '^not ok 1 '"
fake_run "$work/short" 0 ""
rm "$work/short/complete"
check "a run that did not write all its results fails" \
	sh -c "'$vm/console-tap.sh' '$work/short' | grep -q '^not ok 2 '"

# Guest tests: judged by tap-run and tap-summary as make check does.
results=$work/results
printf '1..2\nok 1 - one\nok 2 - two\n### exit 0\n' >"$work/clean/good.sh.tap"
printf '1..3\nok 1 - one\nok 2 - two\n### exit 0\n' >"$work/clean/cut.sh.tap"
printf 'ok 1 - one\n### exit 0\n' >"$work/clean/noplan.sh.tap"
summary() { # TEST: the tap-summary line of TEST's stream alone
	rm -rf "$results"
	"$tests/tap-run" "$results" "$1" "$vm/vm-tap.sh" "$work/clean" "$1" >/dev/null
	CI=true "$tests/tap-summary" "$results" | tail -n 1
}
check_eq "a guest test with a full plan passes" "$(summary good.sh)" \
	"2 passed, 0 failed, 0 skipped"
check_eq "a guest test that did not report fails" "$(summary missing.sh)" \
	"0 passed, 1 failed, 0 skipped"
check_eq "a short plan fails" "$(summary cut.sh)" "2 passed, 1 failed, 0 skipped"
check_eq "a missing plan fails" "$(summary noplan.sh)" "1 passed, 1 failed, 0 skipped"

check_fails_saying "run-vm.sh: a further disk that is not NAME=IMAGE: exit 2" 2 \
	"'$work/lbs.img' is not NAME=IMAGE" \
	"$vm/run-vm.sh" arm64 "$work/Image" "$work/initramfs.gz" "$work/disk.img" \
	"$work/run" "$work/lbs.img"
check_fails_saying "run-vm.sh: a further disk named like the results disk: exit 2" 2 \
	"'results' is the name of the test or results disk" \
	"$vm/run-vm.sh" arm64 "$work/Image" "$work/initramfs.gz" "$work/disk.img" \
	"$work/run" "results=$work/lbs.img"
check_fails_saying "run-vm.sh: a further disk whose name a serial cannot carry: exit 2" 2 \
	"disk name 'lbs,16k': only a-z" \
	"$vm/run-vm.sh" arm64 "$work/Image" "$work/initramfs.gz" "$work/disk.img" \
	"$work/run" "lbs,16k=$work/lbs.img"
mkdir -p "$work/run"
touch "$work/run/kept"
check_fails_saying "run-vm.sh: a VM_QEMU_ROOT without the QEMU binary: exit 2" 2 \
	"VM_QEMU_ROOT $work/noqemu has no usr/bin/qemu-system-aarch64" \
	env VM_QEMU_ROOT="$work/noqemu" "$vm/run-vm.sh" arm64 "$work/Image" \
	"$work/initramfs.gz" "$work/disk.img" "$work/run"
check "run-vm.sh refuses before it replaces OUTDIR" test -e "$work/run/kept"
check_fails_saying "run-vm.sh --qemu-version of an unknown ARCH: exit 2" 2 \
	"unknown ARCH 'sparc'" "$vm/run-vm.sh" --qemu-version sparc
check_fails_saying "run-vm.sh: a VM_QEMU_ROOT with a comma: exit 2" 2 \
	"no commas or spaces in its path" \
	env VM_QEMU_ROOT="$work/a,b" "$vm/run-vm.sh" arm64 "$work/Image" \
	"$work/initramfs.gz" "$work/disk.img" "$work/run"
done_testing
