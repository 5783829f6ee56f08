#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfolio scan: real system binaries of several classes and machines
# compared with readelf -lW, the --json contract checked with jq, files that
# are not ELF, malformed and special files, -r, and the exit statuses.
. "$TOP/tests/tap.sh"

command -v jq > /dev/null || skip_all "jq not installed (make deps installs it)"
command -v readelf > /dev/null || skip_all "readelf (binutils) not installed"

EF=$BIN/execfolio
CORPUS=$TOP/tests/fuzz/corpus/elf
T=$(mktemp -d /tmp/execfolio-scan.XXXXXX)
trap 'rm -rf "$T"' EXIT

# Real ELF files: host executable and libc, arm64 and i386 libc when the
# cross/multilib packages are there.
host_libc=$(ldd /bin/true | awk '/libc.so/ { print $3 }')
REAL="/bin/ls $host_libc"
for f in /usr/aarch64-linux-gnu/lib/libc.so.6 /lib32/libc.so.6 \
	/usr/bin/gcc-12 /usr/bin/clang-14; do
	f=$(readlink -f "$f")
	[ -f "$f" ] && REAL="$REAL $f"
done
nreal=$(echo $REAL | wc -w)


# Executable PT_LOAD segments as readelf sees them: "offset vaddr filesz
# align" in decimal, one per line.
readelf_exec_segments() {
	readelf -lW "$1" | awk '$1 == "LOAD" {
		flags = ""
		for (i = 7; i < NF; i++) flags = flags $i
		if (flags ~ /E/) print $2, $3, $5, $NF }' |
		while read -r off vaddr filesz align; do
			echo "$((off)) $((vaddr)) $((filesz)) $((align))"
		done
}

# What the recommendation must be, computed here from readelf's numbers.
reference_recommendation() {
	readelf_exec_segments "$1" | {
		n=0 text=0 c2m=1 c64k=1 c16k=1
		while read -r off vaddr filesz align; do
			n=$((n + 1))
			text=$((text + filesz))
			d=$((vaddr - off))
			[ $((d & 0x1fffff)) = 0 ] || c2m=0
			[ $((d & 0xffff)) = 0 ] || c64k=0
			[ $((d & 0x3fff)) = 0 ] || c16k=0
		done
		if [ "$n" = 0 ]; then
			echo none
		elif [ "$c2m" = 1 ] && [ "$text" -ge 2097152 ]; then
			echo 2m
		elif [ "$c64k" = 1 ] && [ "$text" -ge 65536 ]; then
			echo 64k
		elif [ "$c16k" = 1 ] && [ "$text" -ge 16384 ]; then
			echo 16k
		else
			echo none
		fi
	}
}

reference_type() {
	etype=$(readelf -hW "$1" | awk '$1 == "Type:" { print $2 }')
	interp=$(readelf -lW "$1" | awk '$1 == "INTERP"' | wc -l)
	case "$etype" in
	EXEC) echo executable ;;
	DYN) [ "$interp" -gt 0 ] && echo executable || echo shared-library ;;
	*) echo other ;;
	esac
}

out=$("$EF" scan --help)
check_eq "--help exits 0 with the usage" $? 0
case "$out" in
*"Usage: execfolio scan"*) ok "--help shows the usage line" ;;
*) not_ok "--help shows the usage line" ;;
esac

# shellcheck disable=SC2086
"$EF" scan --json $REAL > "$T/real.json" 2> "$T/real.err"
check_eq "scan --json of $nreal real binaries exits 0" "$?" "0"
check "the output is a JSON array of $nreal objects with the contract's keys" \
	jq -e --argjson n "$nreal" 'length == $n and all(.[];
		(.path | type) == "string" and .elf == true and
		(.exec_segments | type) == "array" and
		all(.exec_segments[]; (.offset, .vaddr, .filesz, .align |
			type == "number")) and
		(.contpte_ok | type) == "boolean" and
		(.pmd_ok | type) == "boolean" and
		(.recommended | IN("2m", "64k", "16k", "none")))' "$T/real.json"

for f in $REAL; do
	want=$(readelf_exec_segments "$f")
	got=$(jq -r --arg p "$f" '.[] | select(.path == $p) | .exec_segments[] |
		"\(.offset) \(.vaddr) \(.filesz) \(.align)"' "$T/real.json")
	check_eq "$f: executable segments match readelf -lW" "$got" "$want"
	check_eq "$f: recommendation matches the rule applied to readelf's numbers" \
		"$(jq -r --arg p "$f" '.[] | select(.path == $p) | .recommended' "$T/real.json")" \
		"$(reference_recommendation "$f")"
	check_eq "$f: type from e_type and PT_INTERP" \
		"$(jq -r --arg p "$f" '.[] | select(.path == $p) | .type' "$T/real.json")" \
		"$(reference_type "$f")"
done

# The human table: one header and one row per file.
row=$("$EF" scan /bin/ls | awk 'NR == 2 { print $1, $NF }')
check_eq "the table lists /bin/ls as an executable" "$row" "executable /bin/ls"

# Built images: ELF64 big-endian with the count behind PN_XNUM, and an
# ELF32 little-endian one with two congruent text segments. The corpus
# holds their headers only: extended (sparsely) past their text, they are
# whole files.
for f in xnum-64be pie-two-32le; do
	cp "$CORPUS/$f" "$T/$f"
	truncate -s 4M "$T/$f"
done
check_eq "ELF64 big-endian, PN_XNUM: contpte, pmd, 2m" \
	"$("$EF" scan --json "$T/xnum-64be" |
		jq -r '.[0] | "\(.contpte_ok) \(.pmd_ok) \(.recommended)"')" \
	"true true 2m"
check_eq "ELF32 little-endian: two executable segments" \
	"$("$EF" scan --json "$T/pie-two-32le" |
		jq -r '.[0] | "\(.exec_segments | length) \(.recommended)"')" \
	"2 2m"

printf '#!/bin/sh\necho not an ELF file\n' > "$T/script.sh"
check_eq "a file that is not ELF is listed with elf false and no segments" \
	"$("$EF" scan --json "$T/script.sh" | jq -c -j '.[0] | .elf, " ", .exec_segments, " ", .recommended')" \
	'false [] none'

head -c 40 /bin/ls > "$T/cut.elf"
check_fails "a truncated ELF header fails with exit 1" 1 "$EF" scan "$T/cut.elf"
err=$("$EF" scan --json "$T/script.sh" "$T/cut.elf" 2>&1 > "$T/mixed.json")
rc=$?
case "$rc:$err" in
1:*"$T/cut.elf: truncated ELF header"*) ok "the error names the file and says what is wrong" ;;
*) not_ok "the error names the file and says what is wrong"; diag "$rc: $err" ;;
esac
check "the JSON stays valid and lists the good file when another fails" \
	jq -e 'length == 1 and .[0].elf == false' "$T/mixed.json"
check_eq "no table header when every file failed" \
	"$("$EF" scan "$T/cut.elf" "$T/missing" 2> /dev/null)" ""

# Headers intact, text cut short: listed, but no size for a damaged file.
head -c 20000 /bin/ls > "$T/short.elf"
err=$("$EF" scan --json "$T/short.elf" 2>&1 > "$T/short.json")
rc=$?
check_eq "text past the end of the file: exit 0, truncated, recommended none" \
	"$rc $(jq -r '.[0] | "\(.truncated) \(.recommended)"' "$T/short.json")" "0 true none"
case $err in
*"$T/short.elf"*"beyond the end of the file"*"no size is recommended"*) ok "... and stderr says why" ;;
*) not_ok "... and stderr says why"; diag "$err" ;;
esac
check_eq "... the table's RECOMMENDED column says truncated" \
	"$("$EF" scan "$T/short.elf" 2> /dev/null | awk 'NR == 2 { print $6 }')" "truncated"
check_eq "a whole file is not truncated" \
	"$("$EF" scan --json /bin/ls | jq -r '.[0].truncated')" "false"

check_fails "no PATH is a usage error (exit 2)" 2 "$EF" scan
check_fails "an unknown option is a usage error (exit 2)" 2 "$EF" scan --frobnicate /bin/ls
err=$("$EF" scan -x /bin/ls 2>&1 > /dev/null)
check_eq "an unknown option is said once, with the --help hint" \
	"$(echo "$err" | paste -sd '|')" \
	"execfolio scan: unknown option '-x'|Try 'execfolio scan --help'."

# A tree: -r visits regular files, lists empty ones as not ELF, and skips
# symlinks (to directories too) and FIFOs.
mkdir -p "$T/tree/sub"
cp /bin/ls "$T/tree/sub/ls"
: > "$T/tree/empty"
ln -s /usr/bin "$T/tree/bin-link"
ln -s /bin/ls "$T/tree/ls-link"
mkfifo "$T/tree/fifo"
cp /bin/true "$T/tree/$(printf 'caf\303\251')"
check_fails "a named directory without -r fails (exit 1)" 1 "$EF" scan "$T/tree"
"$EF" scan -r --json "$T/tree" > "$T/tree.json"
check_eq "-r exits 0 on a tree with links and a FIFO" $? 0
check_eq "-r lists the regular files only, UTF-8 names unchanged" \
	"$(jq -r '.[] | "\(.path) \(.elf)"' "$T/tree.json" | sort)" \
	"$(printf '%s\n' "$T/tree/caf$(printf '\303\251') true" "$T/tree/empty false" "$T/tree/sub/ls true")"
check_fails "a named FIFO is an error (exit 1)" 1 "$EF" scan "$T/tree/fifo"
check_fails "a named empty file is an error (exit 1)" 1 "$EF" scan "$T/tree/empty"

# One line per file, whatever the name: newline and backslash escaped.
mkdir "$T/names"
cp /bin/ls "$T/names/$(printf 'a\nb')"
echo text > "$T/names/c\\d"
check_eq "a newline and a backslash in a name are escaped in the table" \
	"$("$EF" scan -r "$T/names" | awk 'NR > 1 { print $1, $NF }' | sort)" \
	"$(printf '%s\n' "executable $T/names/a\\nb" "not-elf $T/names/c\\\\d")"
done_testing
