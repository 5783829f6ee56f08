#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The same mistake gets the same answer from execfolio, mkfs.execfolio and
# execfoliofs (DESIGN.md section 7.4): a bad policy size, an unknown
# option, an option without its argument and missing operands are usage
# errors, exit status 2, said on standard error with what was wrong and
# the --help hint, and nothing is done. No root or FUSE needed: each is
# refused before any file is touched or anything is mounted.
. "$TOP/tests/tap.sh"

EF=$BIN/execfolio
MKFS=$BIN/mkfs.execfolio
EFS=$BIN/execfoliofs
for p in "$EF" "$MKFS" "$EFS"; do
	[ -x "$p" ] || skip_all "$p not built"
done

BAD_SIZES="48k 3m 64kb 0x10000"

W=$(mktemp -d /tmp/execfolio-exit-status.XXXXXX)
trap 'rm -rf "$W"' EXIT
mkdir "$W/src" "$W/out" "$W/mnt"
: > "$W/src/file"

# refused NAME COMMAND...: run it, keeping its exit status in $rc and its
# standard error in $err (standard output must stay empty).
refused() {
	_name=$1
	shift
	err=$("$@" 2>&1 >"$W/stdout")
	rc=$?
	[ -s "$W/stdout" ] && diag "$_name: printed on standard output: $(cat "$W/stdout")"
}

# said NEEDLE PROGRAM: $err names NEEDLE and ends with PROGRAM's hint.
said() {
	case $err in
	*"$1"*"Try '$2"*" --help'.") return 0 ;;
	esac
	return 1
}

# Nothing done: no xattr on the file, no image, nothing mounted.
untouched() {
	! getfattr --absolute-names -n trusted.exec_folio_size "$W/src/file" \
		>/dev/null 2>&1 &&
		[ -z "$(ls -A "$W/out")" ] && ! mountpoint -q "$W/mnt"
}

for bad in $BAD_SIZES; do
	refused "execfolio set" "$EF" set "$bad" "$W/src/file"
	ef=$rc
	said "'$bad'" "execfolio set" && ef_said=yes || ef_said="no: $err"
	refused "mkfs.execfolio --exec-folio-size" \
		"$MKFS" --exec-folio-size "$bad" "$W/src" "$W/out/img"
	mkfs=$rc
	said "'$bad'" mkfs.execfolio && mkfs_said=yes || mkfs_said="no: $err"
	refused "mkfs.execfolio --rule" \
		"$MKFS" --rule "file=$bad" "$W/src" "$W/out/img"
	rule=$rc
	said "'$bad'" mkfs.execfolio && rule_said=yes || rule_said="no: $err"
	refused "execfoliofs -o exec_folio_size" \
		"$EFS" -f -o "exec_folio_size=$bad" "$W/src" "$W/mnt"
	efs=$rc
	said "=$bad:" execfoliofs && efs_said=yes || efs_said="no: $err"

	check_eq "size $bad: exit status 2 from set, --exec-folio-size, --rule, -o exec_folio_size" \
		"$ef $mkfs $rule $efs" "2 2 2 2"
	check_eq "size $bad: execfolio set names the value, then the hint" "$ef_said" yes
	check_eq "size $bad: mkfs.execfolio --exec-folio-size names the value, then the hint" \
		"$mkfs_said" yes
	check_eq "size $bad: mkfs.execfolio --rule names the value, then the hint" "$rule_said" yes
	check_eq "size $bad: execfoliofs names the value, then the hint" "$efs_said" yes
	check "size $bad: nothing was done" untouched
done

# MISTAKE NEEDLE: the option or operand named, by each program in turn.
while read -r mistake needle_ef needle_mkfs needle_efs; do
	case $mistake in
	unknown-option)
		refused execfolio "$EF" set --no-such-option 64k "$W/src/file"
		set -- "$rc" "$(said "$needle_ef" "execfolio set" && echo yes)"
		refused mkfs.execfolio "$MKFS" --no-such-option "$W/src" "$W/out/img"
		set -- "$@" "$rc" "$(said "$needle_mkfs" mkfs.execfolio && echo yes)"
		refused execfoliofs "$EFS" -f --no-such-option "$W/src" "$W/mnt"
		set -- "$@" "$rc" "$(said "$needle_efs" execfoliofs && echo yes)"
		;;
	missing-argument)
		refused execfolio "$EF" stat --cgroup
		set -- "$rc" "$(said "$needle_ef" "execfolio stat" && echo yes)"
		refused mkfs.execfolio "$MKFS" "$W/src" "$W/out/img" --exec-folio-size
		set -- "$@" "$rc" "$(said "$needle_mkfs" mkfs.execfolio && echo yes)"
		refused execfoliofs "$EFS" --report --ra-kb
		set -- "$@" "$rc" "$(said "$needle_efs" "execfolio report" && echo yes)"
		;;
	missing-operand)
		refused execfolio "$EF" set 64k
		set -- "$rc" "$(said "$needle_ef" "execfolio set" && echo yes)"
		refused mkfs.execfolio "$MKFS" "$W/src"
		set -- "$@" "$rc" "$(said "$needle_mkfs" mkfs.execfolio && echo yes)"
		refused execfoliofs "$EFS" -f "$W/src"
		set -- "$@" "$rc" "$(said "$needle_efs" execfoliofs && echo yes)"
		;;
	esac
	check_eq "$mistake: exit status 2 from execfolio, mkfs.execfolio, execfoliofs" \
		"$1 $3 $5" "2 2 2"
	check_eq "$mistake: each says what, then its --help hint" "$2 $4 $6" "yes yes yes"
	check "$mistake: nothing was done" untouched
done <<EOF
unknown-option --no-such-option --no-such-option --no-such-option
missing-argument --cgroup --exec-folio-size --ra-kb
missing-operand PATH IMAGE MOUNTPOINT
EOF

done_testing
