#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The host checks of vm-fidelity, without a VM (a self-test, as
# vm-harness.sh is the harness's).  tests/vm/fidelity-compare.sh runs the
# report with the model the guests printed: the 7.3 model on arm64 for a
# 7.3 guest (the host being another architecture), 6.12 for a 6.12 one;
# guests of different models, or none, fail; the stock column is checked
# against the stock boot (make check-full) or the series' run with no
# policy (make check).  No VM is booted: the guests'
# output is made up, as guest/fidelity.sh prints it, for the workload of
# tests/integration/report.sh (pages 100, 101, 108, 128 of 1M of text).
# tests/vm/nopolicy-compare.sh wants the same table and bytes read from
# the series with no policy as from stock.
. "$TOP/tests/tap.sh"

EFS=$BIN/execfoliofs
[ -x "$EFS" ] || skip_all "$EFS not built"
command -v jq >/dev/null || skip_all "jq not installed"

W=$(mktemp -d /tmp/execfolio-fidelity.XXXXXX)
trap 'rm -rf "$W"' EXIT

# One block of guest output: NAME, then its lines on stdin.
block() {
	echo "# fidelity-begin $1"
	sed -e 's/^/# /'
	echo "# fidelity-end $1"
}

# A real table of execfolio stat with every mapped kB in 64K folios.
table() {
	printf 'text 128 kB\nthp-aligned-64kB 128 kB\ncont-aligned-64kB 128 kB\n'
	printf 'cont-aligned share: 100.0%%\n'
}

# The two guests' TAP under $W/out: MODEL_PATCHED MODEL_STOCK.
guests() {
	mkdir -p "$W/out/patched" "$W/out/stock"
	{
		echo "$1" | block model
		block trace <<EOF
execfoliofs-trace 1
page_size 4096
file 1 1048576 644 none none text
seg 1 0 0 1048576
read 1 1 409600 4096 fault
read 1 1 413696 4096 fault
read 1 1 442368 4096 fault
read 1 1 524288 4096 fault
EOF
		table | block real-64k
		{ echo "processes: 101"; table; } | block real-nopolicy
		echo "read ${3:-8192}" | block read-nopolicy
	} >"$W/out/patched/fidelity.sh.tap"
	{
		echo "$2" | block model
		{ echo "processes: 202"; table | sed -e "${4:-}"; } | block real-nopolicy
		echo "read 8192" | block read-nopolicy
	} >"$W/out/stock/fidelity.sh.tap"
}

compare() { sh "$TOP/tests/vm/fidelity-compare.sh" "$W/out" "$EFS" "${1:-stock}"; }

# 7.3 on arm64: stock reads and maps the 64K folios of the exec faults.
guests "--kernel 7.3 --arch arm64 --ra-kb 128" "--kernel 7.3 --arch arm64 --ra-kb 128"
compare >"$W/tap"
check_eq "7.3 arm64 guests: every row within 5 points, exit 0" \
	"$? $(grep -c '^not ok' "$W/tap")" "0 0"
check "the rows say which stock kernel" grep -q '^ok .* - stock 7.3, thp-aligned-64kB: predicted 100.0%' "$W/tap"
check "the TAP names the model" grep -qx '# the report.s model: --kernel 7.3 --arch arm64 --ra-kb 128' "$W/tap"

# 6.12: read-around in 16K folios, so stock is far from the 64K table.
guests "--kernel 6.12 --arch arm64 --ra-kb 128" "--kernel 6.12 --arch arm64 --ra-kb 128"
compare >"$W/tap"
check_eq "6.12 guests: the stock rows use the 6.12 model (and fail this table)" \
	"$? $(grep -c '^not ok .* - stock 6.12,' "$W/tap")" "1 3"

guests "--kernel 7.3 --arch arm64 --ra-kb 8192" "--kernel 7.3 --arch arm64 --ra-kb 8192"
compare >"$W/tap"
check_eq "the guests' read-ahead window reaches the report: 8M read around page 100" \
	"$? $(grep -c '^# stock: predicted read 655360 bytes' "$W/tap")" "0 1"

guests "--kernel 7.3 --arch arm64 --ra-kb 128" "--kernel 6.12 --arch arm64 --ra-kb 128"
compare >"$W/tap"
check_eq "guests of different models: one failure, exit 1" \
	"$? $(grep -c '^not ok 1 - the guests printed no model, or different ones' "$W/tap")" \
	"1 1"
guests "" ""
check_eq "guests that printed no model: exit 1" \
	"$(compare >/dev/null; echo $?)" "1"

# make check's vm-fidelity boots only the series: the stock column against
# its run with no policy, the stock boot not needed.
guests "--kernel 7.3 --arch arm64 --ra-kb 128" ""
rm "$W/out/stock/fidelity.sh.tap"
compare patched >"$W/tap"
check_eq "the series alone: every row within 5 points, exit 0" \
	"$? $(grep -c '^not ok' "$W/tap")" "0 0"
check "the rows say the stock column is the series with no policy" \
	grep -q '^ok .* - stock 7.3 (the series with no policy), thp-aligned-64kB: predicted 100.0%' "$W/tap"
guests "--kernel 7.3 --arch arm64 --ra-kb 128" "--kernel 7.3 --arch arm64 --ra-kb 128" 8192 's/^thp-aligned-64kB 128/thp-aligned-64kB 64/'
check_eq "the stock column is read from the stock boot's run with no policy" \
	"$(compare stock | grep -c '^not ok .* - stock 7.3, thp-aligned-64kB: predicted 100.0%, real 50.0%')" "1"
compare elsewhere >"$W/tap" 2>"$W/err"
check_eq "an unknown STOCK_BOOT: exit 2, nothing on stdout" "$? $(wc -c <"$W/tap")" "2 0"
check "... and says what it takes" grep -q 'STOCK_BOOT must be stock or patched' "$W/err"

nopolicy() { sh "$TOP/tests/vm/nopolicy-compare.sh" "$W/out"; }
m="--kernel 7.3 --arch arm64 --ra-kb 128"
guests "$m" "$m"
nopolicy >"$W/tap"
check_eq "no policy: the same table (other process) and bytes read pass" \
	"$? $(grep -c '^ok' "$W/tap")" "0 3"
guests "$m" "$m" 8192 's/^thp-aligned-64kB 128/thp-aligned-64kB 64/'
nopolicy >"$W/tap"
check_eq "no policy: a row that differs fails, shown as a diff" \
	"$? $(grep -c '^not ok 2 \|^# -thp-aligned-64kB 64 kB' "$W/tap")" "1 2"
guests "$m" "$m" 12288
nopolicy >"$W/tap"
check_eq "no policy: more bytes read fails, both counts named" \
	"$? $(grep -c '^not ok 3 - the same bytes read from the disk: stock 8192, series 12288' "$W/tap")" "1 1"
rm "$W/out/stock/fidelity.sh.tap"
check_eq "no policy: a boot that printed nothing fails" \
	"$(nopolicy >/dev/null; echo $?)" "1"
done_testing
