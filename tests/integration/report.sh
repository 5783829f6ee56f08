#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfolio report on traces written here, no mount needed: the numbers of
# tests/integration/fuse-trace.sh's workload (computed by hand in
# tests/unit/test_simulate.c) on the 6.12 and 7.3 models, the same output
# from execfoliofs --report, --apply, and each kind of damaged trace
# refused with its line, exit 1, nothing stored.
. "$TOP/tests/tap.sh"

EF=$BIN/execfolio
EFS=$BIN/execfoliofs
for p in "$EF" "$EFS"; do
	[ -x "$p" ] || skip_all "$p not built"
done
command -v jq >/dev/null || skip_all "jq not installed"

W=$(mktemp -d /tmp/execfolio-report.XXXXXX)
trap 'rm -rf "$W"' EXIT
T=$W/trace
# One executable 1M segment; pages 100, 101, 108, 128 faulted in.
cat >"$T" <<EOF
execfoliofs-trace 1
page_size 4096
file 1 1048576 644 none none text
seg 1 0 0 1048576
read 1 1 409600 4096 fault
read 1 1 413696 4096 fault
read 1 1 442368 4096 fault
read 1 1 524288 4096 fault
EOF

check "report --json --kernel 6.12" sh -c '"$1" report --json --kernel 6.12 "$2" >"$3"' \
	sh "$EF" "$T" "$W/report.json"
q() { jq -c "$1" "$W/report.json"; }
check_eq "one file, 4K pages, the 6.12 model" \
	"$(q '[.files, .page_size, .kernel]')" '[1,4096,"6.12"]'
check_eq "stock: bytes read and cached (2 x 128K), one major fault" \
	"$(q '.total.stock | [.read_bytes, .cache_bytes, .major_faults]')" \
	"[262144,262144,1]"
check_eq "stock: TLB entries (PTE, contpte, PMD)" \
	"$(q '.total.stock | [.tlb_pte, .tlb_contpte, .tlb_pmd]')" "[3,1,0]"
check_eq "option one: read, mapped, cont-aligned, faults" \
	"$(q '.total["opt-one"] | [.read_bytes, .text_bytes, .cont_aligned_64k_bytes, .major_faults]')" \
	"[131072,69632,65536,2]"
check_eq "the columns, in order" "$(q '.total | keys_unsorted')" \
	'["stock","opt-one","16k","32k","64k","128k","256k","512k","1m","2m","as-set"]'

"$EF" report --per-file --kernel 6.12 "$T" >"$W/report.txt"
check "the table has the seed's rows" grep -q '^| cont-aligned-64kB' "$W/report.txt"
check "and a line per file, suggesting 64k" \
	grep -qE '^4 +4 +none +64k +text$' "$W/report.txt"
check "the table says which kernel it models" \
	grep -q '^model: Linux 6.12 page cache' "$W/report.txt"
check_eq "--ra-kb 16: 16K windows, three major faults instead of one" \
	"$("$EF" report --json --kernel 6.12 --ra-kb 16 "$T" | jq -c '.total.stock | [.read_bytes, .major_faults]')" \
	"[65536,3]"

# 7.3: exec faults read ra_pages from the folio of exec_folio_order()
# around them, 64K on arm64 (as option one), nothing on x86_64.
r73() { "$EF" report --json "$@" "$T" | jq -c '.total | [.stock, .["opt-one"]] | map([.read_bytes, .major_faults, .tlb_pte, .tlb_contpte])'; }
check_eq "7.3 on arm64: stock is upstream's 64K exec folios, as option one" \
	"$(r73 --kernel 7.3 --arch arm64)" "[[262144,2,0,2],[262144,2,0,2]]"
check_eq "7.3 on x86_64: stock reads 128K from the fault in pages" \
	"$(r73 --arch x86_64)" "[[131072,1,4,0],[262144,2,0,2]]"
check_eq "the JSON names the model" \
	"$("$EF" report --json --arch arm64 "$T" | jq -c '[.kernel, .arch]')" \
	'["7.3","arm64"]'
case $(uname -m) in
aarch64) native=arm64 ;;
*) native=x86_64 ;;
esac
check_eq "7.3 on this machine's architecture ($native) by default" \
	"$("$EF" report --json "$T" | jq -c '[.kernel, .arch]')" "[\"7.3\",\"$native\"]"
check "the table names kernel and architecture" sh -c \
	'"$1" report --arch arm64 "$2" | grep -q "^model: Linux 7.3 page cache on arm64 (exec folios of 64 kB without a policy)"' \
	sh "$EF" "$T"
"$EF" report --kernel 7.1 "$T" >"$W/out" 2>"$W/err"
check_eq "--kernel 7.1: usage, the value named" \
	"$? $(head -1 "$W/err")" \
	"2 execfolio report: invalid kernel '7.1': expected 7.3 or 6.12"
check "and nothing on standard output" test ! -s "$W/out"
"$EFS" --report --arch aarch64 "$T" >"$W/out" 2>"$W/err"
check_eq "execfoliofs --report --arch aarch64: execfolio report's usage error" \
	"$? $(head -1 "$W/err")" \
	"2 execfolio report: invalid architecture 'aarch64': expected arm64 or x86_64"
check_fails "a bad --kernel: usage, before the trace is read" 2 \
	"$EF" report --kernel 6 "$W/missing"
check "--help lists --kernel" sh -c '"$1" report --help | grep -q -- "--kernel VERSION"' sh "$EF"

for o in "" "--per-file" "--json --per-file" "--all --json" "--kernel 6.12 --arch arm64"; do
	# shellcheck disable=SC2086 # the options are words
	"$EF" report $o "$T" >"$W/a" 2>&1
	"$EFS" --report $o "$T" >"$W/b" 2>&1
	cmp -s "$W/a" "$W/b" || break
done
check_eq "execfoliofs --report prints what execfolio report prints" \
	"$(cmp "$W/a" "$W/b" 2>&1)" ""

# The daemon holds none of the report's code: --report runs the execfolio
# beside it, else the one in PATH, else says that execfolio is missing.
mkdir "$W/alone"
cp "$EFS" "$W/alone/execfoliofs"
check_fails_saying "execfoliofs --report without execfolio: exit 1, execfolio named" 1 \
	"execfolio is neither in $W/alone nor in PATH" \
	env PATH=/nonexistent "$W/alone/execfoliofs" --report "$T"
check_eq "execfoliofs --report runs the execfolio in PATH" \
	"$(PATH="$BIN:$PATH" "$W/alone/execfoliofs" --report --json "$T" | jq -c .files)" 1

check "execfolio --help lists report" sh -c '"$1" --help | grep -q "^  report TRACE"' sh "$EF"
check "report --help" sh -c '"$1" report --help | grep -q "^Usage: execfolio report"' sh "$EF"

# --apply, as root on a file system with trusted.* attributes.
mkdir "$W/dir"
: >"$W/dir/text"
if [ "$(id -u)" = 0 ] &&
	setfattr -n trusted.execfolio-probe -v 1 "$W/dir/text" 2>/dev/null; then
	setfattr -x trusted.execfolio-probe "$W/dir/text"
	check_eq "--apply prints what it set" \
		"$("$EF" report --kernel 6.12 --apply "$W/dir" "$T" | tail -1)" \
		"set 64k $W/dir/text"
	check_eq "the suggestion is on the file" \
		"$(getfattr --only-values -n trusted.exec_folio_size "$W/dir/text" 2>/dev/null)" \
		"64k"
	"$EF" report --kernel 6.12 --json --apply "$W/dir" "$T" >"$W/out" 2>"$W/err"
	check_eq "--json --apply: standard output stays JSON, set lines on stderr" \
		"$(jq -r .files "$W/out") $(cat "$W/err")" "1 set 64k $W/dir/text"

	# Symlinks are resolved as if DIR were the root directory: a
	# relative link climbing out of it and an absolute one stay inside.
	mkdir -p "$W/outside" "$W/tree$W/outside"
	: >"$W/outside/text"
	: >"$W/tree$W/outside/text"
	ln -s ../outside "$W/tree/up"
	ln -s "$W/outside" "$W/tree/abs"
	xattr() { getfattr --only-values -n trusted.exec_folio_size "$1" 2>/dev/null; }
	sed -e 's| text$| up/text|' "$T" >"$W/up.trace"
	err=$("$EF" report --kernel 6.12 --apply "$W/tree" "$W/up.trace" 2>&1 >/dev/null); rc=$?
	case "$rc:$err" in
	"1:execfolio: report: $W/tree/up/text: No such file or directory (resolved inside $W/tree"*)
		ok "--apply through a link to ../outside: resolved inside DIR (nothing there), exit 1" ;;
	*) not_ok "--apply through a link to ../outside: resolved inside DIR (nothing there), exit 1"; diag "$rc $err" ;;
	esac
	check_eq "... and the file outside is left alone" "$(xattr "$W/outside/text")" ""
	sed -e 's| text$| abs/text|' "$T" >"$W/abs.trace"
	check_eq "--apply through an absolute link: resolved inside DIR, as in a chroot" \
		"$("$EF" report --kernel 6.12 --apply "$W/tree" "$W/abs.trace" | tail -1) $(xattr "$W/tree$W/outside/text")" \
		"set 64k $W/tree/abs/text 64k"
	check_eq "... and the file outside is left alone" "$(xattr "$W/outside/text")" ""
else
	for i in 1 2 3 4 5 6 7; do
		skip "--apply needs root and trusted.* attributes in $W"
	done
fi
sed -e 's| text$| ../text|' "$T" >"$W/escape"
setfattr -x trusted.exec_folio_size "$W/dir/text" 2>/dev/null
check_fails "--apply refuses a path out of the directory" 1 \
	"$EF" report --kernel 6.12 --apply "$W/dir" "$W/escape"
check_eq "and stores nothing" \
	"$(getfattr --only-values -n trusted.exec_folio_size "$W/dir/text" 2>/dev/null)" ""

# A 1 TiB sparse file, data and a program with a 1 TiB executable
# segment, three pages of each touched: the report costs memory in the
# pages touched, not in the size of the files (256 MiB of address space).
cat >"$W/sparse.trace" <<EOF
execfoliofs-trace 1
page_size 4096
file 1 1099511627776 644 none none data
read 1 1 0 4096 syscall
read 1 1 549755813888 4096 fault
read 1 1 1099511623680 4096 fault
file 2 1099511627776 755 none none prog
seg 2 0 0 1099511627776
read 2 2 4096 4096 syscall
read 2 2 549755817984 4096 fault
read 2 2 1099511615488 4096 fault
EOF
(ulimit -v 262144 && exec "$EF" report --all --json "$W/sparse.trace") >"$W/sparse.json" 2>"$W/sparse.err"
check_eq "report --all of 1 TiB sparse files within 256 MiB: exit 0" "$? $(cat "$W/sparse.err")" "0 "
check_eq "... every touched page replayed, three of them in the text" \
	"$(jq -c '[.files, .total.stock.touched_pages, .total.stock.text_touched_pages]' "$W/sparse.json")" '[2,6,3]'

# refused NAME WANT_MESSAGE TRACE_TEXT: exit 1, the message on stderr.
refused() {
	printf '%b' "$3" >"$W/bad"
	err=$("$EF" report "$W/bad" 2>&1 >"$W/out")
	rc=$?
	if [ $rc = 1 ] && [ "$err" = "execfolio: report: $W/bad$2" ] &&
		[ ! -s "$W/out" ]; then
		ok "$1: exit 1, the line and the reason"
	else
		not_ok "$1: exit 1, the line and the reason"
		diag "exit status $rc, stderr: $err"
		diag "want: execfolio: report: $W/bad$2"
	fi
}
H='execfoliofs-trace 1\npage_size 4096\n'
F='file 1 8192 755 none none prog\n'
refused "not a trace" \
	':1: not an execfoliofs trace: the first line must be "execfoliofs-trace 1"' \
	'#!/bin/sh\n'
refused "a trace of another version" \
	':1: trace version 2: this execfolio reads version 1 only (use the execfolio of the release whose execfoliofs wrote the trace)' \
	'execfoliofs-trace 2\npage_size 4096\n'
refused "a trace cut short" \
	':4: the last line has no newline: the trace was cut short (the daemon killed, or the disk full?)' \
	"$H${F}read 1 1 0 40"
refused "a line cut short" ':4: read: LENGTH missing (the line is cut short)' \
	"$H${F}read 1 1 0\n"
refused "a bad number" ':4: read: OFFSET "12x" is not a decimal number' \
	"$H${F}read 1 1 12x 4096\n"
refused "an unknown record" \
	':4: unknown record "write" (version 1 has file, seg and read)' \
	"$H${F}write 1 0 4096\n"
refused "a read of a file not described" \
	':3: read of file 7, which no file record has described yet' \
	"${H}read 7 1 0 4096\n"
awk 'BEGIN { printf "execfoliofs-trace 1\npage_size 4096\n#"
	for (i = 0; i < 20000; i++) printf "x"; print "" }' >"$W/long"
check_eq "an overlong line: exit 1, the line and the reason" \
	"$("$EF" report "$W/long" 2>&1; echo "exit $?")" \
	"execfolio: report: $W/long:3: line longer than 16384 bytes (not a trace, or a damaged one)
exit 1"

check_fails "a missing trace: exit 1" 1 "$EF" report "$W/missing"
check_fails "no trace: usage" 2 "$EF" report
check_fails "a bad --ra-kb: usage, before the trace is read" 2 \
	"$EF" report --ra-kb 1x "$W/missing"
check_fails "an unknown option: usage" 2 "$EF" report --frob "$T"
done_testing
