#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# nopolicy-compare.sh OUTDIR
#
# TAP: with no policy (no xattr, no mount option) the series leaves the
# page cache as upstream fills it.  vm-fidelity's two boots (OUTDIR/patched,
# the series; OUTDIR/stock, the bare tarball of the same base) each ran
# Debian's sqlite3 from fidelity/plain with cold caches and printed its
# execfolio stat table and the bytes read from the disk
# (guest/fidelity.sh, blocks real-nopolicy and read-nopolicy): both must
# be the same, row for row and byte for byte.
set -u
out=$1

. "$(dirname "$0")/../tap.sh"
# shellcheck source=tests/vm/fidelity-blocks.sh
. "$(dirname "$0")/fidelity-blocks.sh"

tap_patched=$out/patched/fidelity.sh.tap
tap_stock=$out/stock/fidelity.sh.tap
# The table without its first line, which names the process.
table_patched=$(block "$tap_patched" real-nopolicy | sed -e '/^processes:/d')
table_stock=$(block "$tap_stock" real-nopolicy | sed -e '/^processes:/d')
read_patched=$(block "$tap_patched" read-nopolicy | sed -n 's/^read \([0-9][0-9]*\)$/\1/p')
read_stock=$(block "$tap_stock" read-nopolicy | sed -n 's/^read \([0-9][0-9]*\)$/\1/p')

if [ -n "$table_patched" ] && [ -n "$table_stock" ] &&
	[ -n "$read_patched" ] && [ -n "$read_stock" ]; then
	ok "both kernels printed a table and a byte count"
else
	not_ok "both kernels printed a table and a byte count" \
		"(see $tap_patched and $tap_stock)"
fi
if [ -n "$table_patched" ] && [ "$table_patched" = "$table_stock" ]; then
	ok "the same folio table on the series with no policy as on stock"
else
	not_ok "the same folio table on the series with no policy as on stock"
	printf '%s\n' "$table_stock" >"$out/nopolicy-stock.txt"
	printf '%s\n' "$table_patched" >"$out/nopolicy-patched.txt"
	diff -u "$out/nopolicy-stock.txt" "$out/nopolicy-patched.txt" |
		sed -e 's/^/# /'
fi
if [ -n "$read_patched" ] && [ "$read_patched" = "$read_stock" ]; then
	ok "the same bytes read from the disk ($read_stock)"
else
	not_ok "the same bytes read from the disk:" \
		"stock ${read_stock:-none}, series ${read_patched:-none}"
fi
printf '%s\n' "$table_stock" | sed -e 's/^/# stock: /'
done_testing
