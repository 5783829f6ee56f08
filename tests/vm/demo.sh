#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make demo: on a fresh Debian 12 machine, install what is missing, build
# the release arm64 kernel with the exec folio series, boot it under QEMU
# and run a large program and redis-server (Debian's arm64 package, under
# redis-benchmark) from an XFS disk made by mkfs.execfolio, without and
# with the policy; print the text of each by folio size, the cont-aligned
# share, bytes read from disk and page-cache growth, side by side.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build
out=$build/vm/arm64/demo
# DEMO_KERNEL: boot that arm64 kernel instead of building the release one.
kernel=${DEMO_KERNEL:-$build/arm64/release/Image}
make="make -C $top --no-print-directory"

say() { printf '\n==> %s\n' "$*"; }

# Run a long command, printing a line every 30 seconds so that the wait is
# visible; its own output goes to LOG (shown if it fails).
with_progress() { # WHAT LOG COMMAND...
	what=$1
	log=$2
	shift 2
	start=$(date +%s)
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		i=0
		while [ $i -lt 30 ] && kill -0 $pid 2>/dev/null; do
			sleep 1
			i=$((i + 1))
		done
		kill -0 $pid 2>/dev/null &&
			echo "    $what: $(($(date +%s) - start))s, $(tail -n 1 "$log" | cut -c1-60)"
	done
	if ! wait $pid; then
		tail -n 30 "$log" | sed -e 's/^/    /'
		echo "demo: $what failed: see $log" >&2
		exit 1
	fi
	echo "    $what: done in $(($(date +%s) - start))s"
}

mkdir -p "$out.logs"
logs=$out.logs
say "installing the Debian packages that are missing (make deps)"
$make deps-check
say "building the tools and the arm64 guest programs"
with_progress "tools" "$logs/tools.log" $make -j2 all
with_progress "guest programs" "$logs/guest.log" $make -j2 vm-guest "$build/arm64/bin/bigprog" ARCH=arm64
say "unpacking Debian's arm64 redis-server and redis-tools (a few minutes the first time)"
with_progress "redis tree" "$logs/tree.log" $make "$build/vm/arm64/redis-tree.stamp"
if [ -z "${DEMO_KERNEL:-}" ]; then
	say "building the release kernel (about 10 minutes the first time; cached afterwards)"
	with_progress "release kernel" "$logs/kernel.log" $make kernel ARCH=arm64 KCONFIG=release
fi
say "making the XFS disk (the VM suite's, cached) and the initramfs"
harness=$top/tests/vm/harness
with_progress "disk" "$logs/disk.log" \
	"$harness/mkdisk.sh" suite arm64 "$build/vm/arm64/suite-disk.img"
cp --sparse=always "$build/vm/arm64/suite-disk.img" "$out.disk.img"
with_progress "initramfs" "$logs/initramfs.log" \
	"$harness/mkinitramfs.sh" arm64 "$out.initramfs.gz" demo.sh
say "booting the arm64 guest under QEMU (TCG: a few minutes): without and with the policy"
with_progress "guest" "$logs/guest-run.log" env VM_TIMEOUT="${VM_TIMEOUT:-1800}" \
	"$harness/run-vm.sh" arm64 "$kernel" "$out.initramfs.gz" "$out.disk.img" "$out"
rm -f "$out.disk.img"

tap=$out/demo.sh.tap
[ -f "$tap" ] || {
	echo "demo: the guest did not report: see $out/console.log" >&2
	exit 1
}

# The section NAME of the guest's output: execfolio stat's table and the
# "counters READ CACHED" line.
section() { # NAME
	awk -v s="=== $1" '$0 == s { on = 1; next } /^=== |^ok |^not ok / { on = 0 }
		/^#/ { next } on' "$tap"
}

# Two stat tables and their counters side by side; rows that are zero in
# both are left out.
side_by_side() { # TITLE BEFORE AFTER
	echo
	echo "$1"
	section "$2" >"$out/before.txt"
	section "$3" >"$out/after.txt"
	paste -d '|' "$out/before.txt" "$out/after.txt" | awk -F'|' '
		function row(label, b, bp, a, ap) {
			printf "  %-26s %12s %7s    %12s %7s\n", label, b, bp, a, ap }
		function mb(x) { return sprintf("%.1f MB", x / 1048576) }
		BEGIN { printf "  %-26s %20s    %20s\n", "", "without the policy",
			"with 64k"; row("", "", "% text", "", "% text") }
		$1 ~ /^processes:/ || $1 ~ /^text folios/ { next }
		$1 ~ /^cont-aligned share/ {
			split($1, b, " "); split($2, a, " ")
			row("cont-aligned share", "", b[3], "", a[3]); next }
		$1 ~ /^counters/ {
			split($1, b, " "); split($2, a, " ")
			row("read from disk", mb(b[2]), "", mb(a[2]), "")
			row("page-cache growth", mb(b[3]), "", mb(a[3]), ""); next }
		{
			split($1, b, " "); split($2, a, " ")
			if (b[2] == 0 && a[2] == 0 && b[1] != "cont-aligned-64kB") next
			row(b[1], b[2] " kB", b[4], a[2] " kB", a[4])
		}'
}

echo
echo "================================================================"
echo " execfolio demo: arm64 guest, release kernel $(basename "$kernel"),"
echo " XFS disk made by mkfs.execfolio; text of the running processes"
echo "================================================================"
side_by_side "A static program with 5 MB of text, all executed in a scrambled order" \
	"bigprog before" "bigprog after"
side_by_side "redis-server under redis-benchmark (its binary and libraries)" \
	"redis before" "redis after"
echo
echo "cont-aligned share: of the 64K blocks of text with a page resident, those"
echo "mapped by one contpte entry (16 pages resident, contiguous, 64K-aligned)."
if grep -q '^not ok' "$tap"; then
	grep '^not ok' "$tap" >&2
	echo "demo: some runs failed: see $tap" >&2
	exit 1
fi
echo "Full output: $tap"
