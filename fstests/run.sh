#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh ARCH KERNEL ROOT_IMAGE INITRAMFS OUTDIR CONFIG...
#
# make check-fstests: one boot of KERNEL under the VM harness
# (tests/vm/harness/run-vm.sh) per CONFIG, a section of fstests'
# local.config (xfs, xfs-64k, xfs-2m, xfs-all, xfs-16k-64k).  Each boot has
# a fresh copy of ROOT_IMAGE (the Debian root with fstests, root.sh), an
# empty test and scratch disk and a disk for the results archive; the
# guest test (guest/fstests.sh in INITRAMFS) runs ./check.  The results
# end up in OUTDIR/CONFIG/results/ (fstests' own), the console and the
# check output in OUTDIR/CONFIG/, and one table row per test in
# OUTDIR/results.md (results-table.py).
#
# FSTESTS_LIST=main|folio (default: main for xfs, folio for the others),
# FSTESTS_TESTS=generic/001,xfs/131 (instead of a list; -g,GROUP works),
# FSTESTS_TIMEOUT=SECONDS (per boot; default 600 per test of the list),
# FSTESTS_TEST_SIZE, FSTESTS_SCRATCH_SIZE (default 4G, 8G; sparse).
set -u
me=check-fstests
[ $# -ge 6 ] || { echo "usage: $0 ARCH KERNEL ROOT_IMAGE INITRAMFS OUTDIR CONFIG..." >&2; exit 2; }
arch=$1
kernel=$2
root=$3
initramfs=$4
out=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

[ -f "$kernel" ] || {
	echo "$me: no kernel at $kernel: run make kernel ARCH=$arch or set FSTESTS_KERNEL" >&2
	exit 1
}
for c; do
	grep -qx "\[$c\]" <<EOF2 || {
$("$here/local-config.sh")
EOF2
		echo "$me: FSTESTS_CONFIG '$c' is not a section of local-config.sh" >&2
		exit 2
	}
done
case ${FSTESTS_TESTS:-} in
*[[:space:]]*)
	echo "$me: FSTESTS_TESTS '$FSTESTS_TESTS': separate tests with commas" >&2
	exit 2
	;;
esac

status=0
for c; do
	list=${FSTESTS_LIST:-}
	[ -n "$list" ] || { [ "$c" = xfs ] && list=main || list=folio; }
	[ -f "$here/lists/$list" ] || { echo "$me: no list fstests/lists/$list" >&2; exit 2; }
	if [ -n "${FSTESTS_TESTS:-}" ]; then
		count=$(echo "$FSTESTS_TESTS" | tr ',' '\n' | grep -c /)
	else
		count=$(sed -e 's/#.*//' "$here/lists/$list" | grep -c /)
	fi
	[ "$count" -gt 0 ] || count=50
	run=$out/$c
	rm -rf "$run"
	mkdir -p "$run"
	cp --sparse=always "$root" "$run/root.img"
	# fstests makes the test device again for the section; an XFS on it
	# already keeps ./check from tripping over an empty disk before that.
	truncate -s "${FSTESTS_TEST_SIZE:-4G}" "$run/test.img"
	mkfs.xfs -q -f "$run/test.img" || { echo "$me: mkfs.xfs failed: run make deps" >&2; exit 1; }
	truncate -s "${FSTESTS_SCRATCH_SIZE:-8G}" "$run/scratch.img"
	truncate -s 256M "$run/fsresults.img"
	echo "$me: $c, ${FSTESTS_TESTS:-list $list} ($count tests), $kernel"
	start=$(date +%s)
	VM_RESULTS_MB=8 VM_TIMEOUT=${FSTESTS_TIMEOUT:-$((count * 600 + 300))} \
		VM_APPEND="FSTESTS_SECTION=$c FSTESTS_LIST=$list${FSTESTS_TESTS:+ FSTESTS_TESTS=$FSTESTS_TESTS}" \
		"$top/tests/vm/harness/run-vm.sh" "$arch" "$kernel" "$initramfs" \
		"$run/test.img" "$run/vm" root="$run/root.img" \
		scratch="$run/scratch.img" fsresults="$run/fsresults.img" || {
		echo "$me: $c: QEMU could not be started" >&2
		exit 1
	}
	rm -f "$run/test.img" "$run/scratch.img"
	tar -C "$run" -xf "$run/fsresults.img" 2>/dev/null
	rm -f "$run/fsresults.img"
	echo "$me: $c took $(($(date +%s) - start)) s (QEMU exit $(cat "$run/vm/qemu-status"))"
	if [ -f "$run/vm/fstests.sh.tap" ]; then
		sed -n -e '/^Ran:/p' -e '/^Not run:/p' -e '/^Failures:/p' -e '/^Failed /p' -e '/^Passed all/p' \
			-e '/^not ok/p' -e '/^ok/p' "$run/vm/fstests.sh.tap"
	fi
	if [ ! -f "$run/results/$c/result.xml" ]; then
		echo "$me: $c: no fstests results (see $run/vm/console.log)" >&2
		status=1
	elif grep -q '<failure' "$run/results/$c/result.xml"; then
		status=1
	fi
	rm -f "$run/root.img"
done
"$here/results-table.py" "$out"/*/results >"$out/results.md" &&
	echo "$me: table in $out/results.md"
exit $status
