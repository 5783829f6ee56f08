#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fidelity-compare.sh OUTDIR EXECFOLIOFS STOCK_BOOT
#
# TAP: the report of execfoliofs (the program EXECFOLIOFS, run here on the
# trace the guest recorded, with the model the guests printed: their
# kernel's base, architecture and read_ahead_kb) against the real tables
# execfolio stat measured in the guests (vm-fidelity's boots, OUTDIR/BOOT),
# row by row of the seed's table, each as a share of the mapped text: the
# 64k column against the patched kernel (OUTDIR/patched) with every file
# tagged 64k, the stock column against the table of the run with no policy
# on the boot STOCK_BOOT: "stock", the bare tarball (make check-full), or
# "patched", the series with no policy, which leaves upstream's page cache
# as it is (make check; nopolicy-compare.sh shows that in check-full).  A
# row passes when the two differ by at most FIDELITY_PP percentage points
# (5).
set -u
out=$1
efs=$2
stock_boot=${3:-}
case $stock_boot in
stock | patched) ;;
*)
	echo "fidelity-compare.sh: STOCK_BOOT must be stock or patched, not '$stock_boot'" >&2
	exit 2
	;;
esac
tol=${FIDELITY_PP:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/../tap.sh"
# shellcheck source=tests/vm/fidelity-blocks.sh
. "$(dirname "$0")/fidelity-blocks.sh"

# "LABEL PERCENT" per row of an execfolio stat table on stdin, the
# percentages of the mapped text to two decimals.
real_rows() {
	awk '$1 == "text" && $3 == "kB" { text = $2 }
		$3 == "kB" && $1 != "text" && $1 != "cont-eligible-64kB" {
			label[++n] = $1; kb[n] = $2 }
		/^cont-aligned share: [0-9.]+%/ { share = $3; sub(/%/, "", share) }
		END {
			if (!text)
				exit
			for (i = 1; i <= n; i++)
				printf "%s %.2f\n", label[i], text ? 100 * kb[i] / text : 0
			printf "cont-aligned-share %.2f\n", share
		}'
}

# The same rows from column COLUMN of a report --json on stdin.
report_rows() { # COLUMN
	jq -r --arg c "$1" '.total[$c] as $t | ($t.text_bytes) as $x |
		def pct(v): if $x > 0 then (v // 0) * 100 / $x else 0 end;
		def row(l; v): "\(l) \(pct(v) * 100 | round / 100)";
		row("base-page-4kB"; $t.aligned["4096"]),
		(range(1; 10) as $o | (4096 * pow(2; $o) | floor) as $s |
			row("thp-aligned-\($s / 1024)kB"; $t.aligned["\($s)"])),
		(range(1; 10) as $o | (4096 * pow(2; $o) | floor) as $s |
			row("thp-unaligned-\($s / 1024)kB"; $t.unaligned["\($s)"])),
		row("thp-partial"; $t.partial_bytes),
		row("thp-pmd-mapped-2048kB"; $t.pmd_mapped_bytes),
		row("cont-aligned-64kB"; $t.cont_aligned_64k_bytes),
		"cont-aligned-share \(if $t.cont_eligible_64k_bytes > 0 then
			($t.cont_aligned_64k_bytes * 10000 / $t.cont_eligible_64k_bytes |
			round / 100) else 0 end)"'
}

tap_patched=$out/patched/fidelity.sh.tap
tap_stock=$out/$stock_boot/fidelity.sh.tap
block "$tap_patched" trace >"$tmp/trace"
block "$tap_patched" real-64k | real_rows >"$tmp/real-64k"
block "$tap_stock" real-nopolicy | real_rows >"$tmp/real-stock"

# The report options of the guests' kernels (guest/fidelity.sh): both
# boots must be of one base and disk window, or no column means anything.
model=$(block "$tap_patched" model)
if [ -z "$model" ] || [ "$model" != "$(block "$tap_stock" model)" ]; then
	not_ok "the guests printed no model, or different ones:" \
		"patched '$model', stock '$(block "$tap_stock" model)'"
	done_testing
fi
kernel=$(echo "$model" | sed -n 's/.*--kernel \([^ ]*\).*/\1/p')

# shellcheck disable=SC2086 # $model is words
if [ ! -s "$tmp/trace" ] ||
	! "$efs" --report --json $model "$tmp/trace" >"$tmp/report.json" 2>"$tmp/err"; then
	not_ok "no report from the guest's trace (see $tap_patched)"
	sed -e 's/^/# /' "$tmp/err" 2>/dev/null
	done_testing
fi
report_rows 64k <"$tmp/report.json" >"$tmp/pred-64k"
report_rows stock <"$tmp/report.json" >"$tmp/pred-stock"

# One line per row that either side has (base pages, partial folios and
# the cont-aligned rows always): "COLUMN LABEL PREDICTED REAL".
for c in 64k stock; do
	if [ -s "$tmp/real-$c" ]; then
		awk -v c=$c 'NR == FNR { p[$1] = $2; next }
			$2 > 0 || p[$1] > 0 || $1 ~ /base-page|partial|cont-aligned/ {
				print c, $1, p[$1] + 0, $2 }' \
			"$tmp/pred-$c" "$tmp/real-$c"
	else
		echo "$c missing - -"
	fi
done >"$tmp/rows"

diag "the report's model: $model"
stock_label="stock $kernel"
[ "$stock_boot" = stock ] || stock_label="$stock_label (the series with no policy)"
# A verdict and what it is about, per row.
verdicts() {
	awk -v tol="$tol" -v stock="$stock_label" '
		$2 == "missing" {
			printf "not_ok %s: no real table from the guest\n", $1
			next
		}
		{
			d = $3 - $4; if (d < 0) d = -d
			printf "%s %s %s: predicted %.1f%%, real %.1f%% (%.1f pp)\n",
				d <= tol ? "ok" : "not_ok",
				$1 == "64k" ? "this policy at 64k," : stock ",", $2, $3, $4, d
		}' "$tmp/rows"
}
while read -r verdict what; do
	case $verdict in
	ok) ok "$what" ;;
	not_ok) not_ok "$what" ;;
	esac
done <<EOF
$(verdicts)
EOF
for c in 64k stock; do
	if [ $c = 64k ]; then
		tap=$tap_patched real=real-64k label="sqlite3, 64k"
	else
		tap=$tap_stock real=real-nopolicy
		label="sqlite3, $([ "$stock_boot" = stock ] && echo stock || echo no policy)"
	fi
	echo "# $c: mapped text predicted $(($(jq ".total[\"$c\"].text_bytes" "$tmp/report.json") / 1024)) kB," \
		"real $(block "$tap" $real | awk '$1 == "text" && $3 == "kB" { print $2 }') kB"
	echo "# $c: predicted read $(jq ".total[\"$c\"].read_bytes" "$tmp/report.json") bytes," \
		"page cache $(jq ".total[\"$c\"].cache_bytes" "$tmp/report.json") bytes;" \
		"real: $(sed -n "s/^# $label: read from disk \([0-9]*\) bytes, page cache grew by \([0-9]*\) bytes.*/read \1 bytes, page cache grew \2 bytes (whole run, all files)/p" \
		"$tap" 2>/dev/null | tail -1)"
done
done_testing
