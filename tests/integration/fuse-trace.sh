#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfoliofs trace mode and report: a workload whose faults are known (an
# ELF file with one executable segment, pages touched through a PROT_EXEC
# mapping) gives exactly those one-page reads, and the report's numbers are
# the ones computed by hand from the 6.12 and 7.3 code (see
# tests/unit/test_simulate.c for the same cases step by step). Then a real
# program is traced. The report is execfolio report's; execfoliofs --report
# runs that command.
. "$TOP/tests/tap.sh"
. "$TOP/tests/fuse/lib.sh"

why=$(efs_unavailable)
[ -n "$why" ] && skip_all "$why"
command -v jq >/dev/null || skip_all "jq not installed"
efs_setup
T=$EFS_DIR/trace

"$HELPERS/mkelf" "$B/text" 1048576
efs_mount "$B" "$M" -o trace="$T"
check "touch pages 100 101 108 128 through a PROT_EXEC mapping" \
	"$HELPERS/touch" "$M/text" 100 101 108 128
efs_umount "$M"
check_eq "unmount of a tracing daemon: exit 0" "$EFS_STATUS" "0"
check_eq "trace header" "$(head -1 "$T")" "execfoliofs-trace 1"
check_eq "the file is described with its executable segment" \
	"$(grep -E '^(file|seg) ' "$T" | paste -sd '|')" \
	"file 1 1048576 644 none none text|seg 1 0 0 1048576"
check_eq "readahead off: one 4K read per first touch, in order" \
	"$(awk '$1 == "read" { print $4, $5 }' "$T" | paste -sd ,)" \
	"409600 4096,413696 4096,442368 4096,524288 4096"
check_eq "touches through a mapping are recorded as faults" \
	"$(awk '$1 == "read" { print $6 }' "$T" | sort -u)" "fault"

"$EFS" --report --json --kernel 6.12 "$T" > "$EFS_DIR/report.json"
check "report --json --kernel 6.12" test -s "$EFS_DIR/report.json"
q() { jq -c "$1" "$EFS_DIR/report.json"; }
check_eq "pages touched" "$(q '.total.stock | [.touched_pages, .text_touched_pages] | join(" ")' | tr -d '"')" "4 4"
# stock: read-around [84,116) in order-2 folios; async readahead from the
# mark at 108 reads [116,148) with order-4 folios; fault-around maps
check_eq "stock: bytes read and cached (2 x 128K)" \
	"$(q '.total.stock | [.read_bytes, .cache_bytes, .major_faults]')" "[262144,262144,1]"
check_eq "stock: mapped text by folio size" \
	"$(q '.total.stock | [.text_bytes, .aligned, .partial_bytes, .cont_aligned_64k_bytes]')" \
	'[118784,{"16384":49152,"65536":65536},4096,65536]'
check_eq "stock: TLB entries (PTE, contpte, PMD)" \
	"$(q '.total.stock | [.tlb_pte, .tlb_contpte, .tlb_pmd]')" "[3,1,0]"
# option one: 64K folios at 96 and 128, no readahead beyond them
check_eq "option one: read, mapped, cont-aligned, faults" \
	"$(q '.total["opt-one"] | [.read_bytes, .text_bytes, .cont_aligned_64k_bytes, .major_faults]')" \
	"[131072,69632,65536,2]"
check_eq "option one: TLB entries" \
	"$(q '.total["opt-one"] | [.tlb_pte, .tlb_contpte, .tlb_pmd]')" "[1,1,0]"
# 2m: clamped to the 1M file, one order-8 folio, mapped whole by the exec
# fault (the series maps the whole preferred folio inside the VMA)
check_eq "2m policy clamped to the file: one 1M folio, mapped whole" \
	"$(q '.total["2m"] | [.read_bytes, .cache_bytes, .partial_bytes, .cont_aligned_64k_bytes, .pmd_mapped_bytes, .tlb_contpte]')" \
	"[1048576,1048576,0,1048576,0,2]"
check_eq "as-set is stock for a file without a policy" \
	"$(q '.total["as-set"]')" "$(q '.total.stock')"
# 7.3 on arm64: upstream's VM_EXEC branch reads [96, 128) and [128, 160)
# in 64K folios and maps the faulting ones whole
check_eq "7.3 on arm64: stock read, faults, TLB entries (PTE, contpte)" \
	"$("$EFS" --report --json --arch arm64 "$T" | jq -c '.total.stock | [.read_bytes, .major_faults, .tlb_pte, .tlb_contpte]')" \
	"[262144,2,0,2]"

"$EFS" --report --per-file --kernel 6.12 "$T" > "$EFS_DIR/report.txt"
check "the table has the seed's rows" grep -q '^| cont-aligned-64kB' "$EFS_DIR/report.txt"
check "and a line per file, suggesting 64k (fewest TLB entries, no more read)" \
	grep -qE '^4 +4 +none +64k +text$' "$EFS_DIR/report.txt"
diag "$(cat "$EFS_DIR/report.txt")"

check_eq "report --apply writes the suggestion" \
	"$("$EFS" --report --kernel 6.12 --apply "$B" "$T" | tail -1)" "set 64k $B/text"
check_eq "the suggestion is on the file" \
	"$(getfattr --only-values -n trusted.exec_folio_size "$B/text" 2>/dev/null)" "64k"
sed -e 's| text$| ../text|' "$T" > "$EFS_DIR/escape"
check_fails "report --apply refuses a path out of the directory" 1 \
	"$EFS" --report --kernel 6.12 --apply "$B" "$EFS_DIR/escape"
check_eq "the suggestion in JSON (--per-file)" \
	"$("$EFS" --report --kernel 6.12 --json --per-file "$T" | jq -r '.per_file[0].suggested')" "64k"

printf 'execfoliofs-trace 1\npage_size 4096\nread 7 1 0 4096\n' > "$EFS_DIR/bad"
check_fails "report of a malformed trace: exit 1" 1 "$EFS" --report "$EFS_DIR/bad"
check_fails "report of a missing trace: exit 1" 1 "$EFS" --report "$EFS_DIR/missing"
check_fails "report without a trace: usage" 2 "$EFS" --report
check_fails "report with a bad --ra-kb: usage, before the trace is read" 2 \
	"$EFS" --report --ra-kb 1x "$EFS_DIR/missing"
check_fails "report with an unknown option: usage" 2 "$EFS" --report --frob "$T"

# A real program, with the mount default of 64k.
rm -f "$T"
cp /bin/ls "$B/ls"
efs_mount "$B" "$M" -o trace="$T",exec_folio_size=64k
"$M/ls" -l / >/dev/null
efs_umount "$M"
check_eq "ls traced with its policy" \
	"$(awk '$1 == "file" && $7 == "ls" { print $5, $6 }' "$T")" "64k mount"
check_eq "execve's read of the ELF header is a system call" \
	"$(awk '$1 == "read" && $2 == 1 { print $4, $6; exit }' "$T")" "0 syscall"
check_eq "every read in the trace is one page" \
	"$(awk '$1 == "read" { print $5 }' "$T" | sort -u | paste -sd ,)" "4096"
"$EFS" --report --json "$T" > "$EFS_DIR/ls.json"
check "the report covers ls's text" \
	test "$(jq '.total.stock.text_touched_pages' "$EFS_DIR/ls.json")" -gt 0
# execfoliofs --report is execfolio report (tests/integration/report.sh).
check_eq "execfolio report reads the daemon's trace as execfoliofs --report" \
	"$("$BIN/execfolio" report --json "$T" | cmp - "$EFS_DIR/ls.json" 2>&1)" ""
diag "$("$EFS" --report "$T")"
done_testing
