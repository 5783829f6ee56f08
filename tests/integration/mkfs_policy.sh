#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The policy mkfs.execfolio is given, read as every other input is: a
# source file's own trusted.exec_folio_size with the policy size grammar
# (valid values stored in canonical form, listed by --dry-run and counted
# by --verbose; invalid ones reported, left out, and an error with
# --strict), and --rule options that match no file (a warning, an error
# with --strict), absolute GLOBs meaning the path from the image root.
. "$TOP/tests/tap.sh"
. "$TOP/tests/image-workdir.sh"

MKFS=$BIN/mkfs.execfolio
POLICY=trusted.exec_folio_size

why=$(xfs_unavailable)
[ -z "$why" ] || skip_all "$why"
command -v setfattr > /dev/null || skip_all "setfattr (package attr) not installed"
[ -x "$MKFS" ] || skip_all "$MKFS not built"

image_workdir mkfs-policy

# policy_hex FILE: its policy xattr's bytes, as getfattr -e hex shows them.
policy_hex() {
	getfattr --absolute-names -e hex -n $POLICY "$1" 2> /dev/null |
		sed -n "s/^$POLICY=//p"
}


# ---- the source's own values: bogus, 3k (no power of two) are invalid;
# 65536, 64K and "64k\n" are valid and stored as 64k. A file the options
# select gets their value whatever its own was; a directory's valid value
# is canonical too, and its invalid one left out.
S=$W/src
mkdir -p "$S/d" "$S/sel"
for f in bogus 3k 65536 64K nl; do
	echo "$f" > "$S/f-$f"
	setfattr -n user.kept -v "$f" "$S/f-$f"
done
setfattr -n $POLICY -v bogus "$S/f-bogus"
setfattr -n $POLICY -v 3k "$S/f-3k"
setfattr -n $POLICY -v 65536 "$S/f-65536"
setfattr -n $POLICY -v 64K "$S/f-64K"
setfattr -n $POLICY -v 0x36346b0a "$S/f-nl"
echo x > "$S/sel/f"
setfattr -n $POLICY -v bogus "$S/sel/f"
setfattr -n $POLICY -v 65536 "$S/d"

got=$("$MKFS" --dry-run --rule 'sel/*=16k' "$S" x 2> "$W/dry.err" | tr '\n' ' ')
check_eq "--dry-run lists the valid source values in canonical form, not the invalid" \
	"$got" "f-64K 64k f-65536 64k f-nl 64k sel/f 16k "
check "--dry-run reports 'bogus' as no policy size, not copied" \
	grep -q "^mkfs.execfolio: f-bogus: xattr $POLICY not copied: 'bogus' is not a policy size" "$W/dry.err"
check "--dry-run reports '3k' as no policy size, not copied" \
	grep -q "^mkfs.execfolio: f-3k: xattr $POLICY not copied: '3k' is not a policy size" "$W/dry.err"
check "--dry-run notes the value 64k and a newline stored in canonical form" \
	grep -q "^mkfs.execfolio: f-nl: xattr $POLICY '64k\\\\n' stored in canonical form as '64k'" "$W/dry.err"
check_eq "a file the options select: no word of its own invalid value" \
	"$(grep -c '^mkfs.execfolio: sel/f' "$W/dry.err")" 0
check_fails_saying "--dry-run --strict: invalid source values are an error" 1 \
	"would differ from .* in 2 ways" "$MKFS" --dry-run --strict --rule 'sel/*=16k' "$S" x
check_fails_saying "--strict: invalid source values are an error" 1 \
	"f-bogus: xattr $POLICY not copied" "$MKFS" --strict "$S" "$W/strict.img"
check "--strict: no image made" test ! -e "$W/strict.img"

out=$("$MKFS" -v --report "$W/img.report" --rule 'sel/*=16k' "$S" "$W/img" 2> "$W/img.err")
check_eq "build: exit status 0" $? 0
case $out in
*", 4 with $POLICY,"*) ok "--verbose counts the 3 valid source values and the rule's" ;;
*) not_ok "--verbose counts the 3 valid source values and the rule's"; diag "$out" ;;
esac
check_eq "the report lists the two invalid values, as differences" \
	"$(grep -c "not a policy size" "$W/img.report")" 2
if mount -o loop,ro "$W/img" "$MNT"; then
	for f in f-65536 f-64K f-nl; do
		check_eq "$f: the image holds 64k, no more" "$(policy_hex "$MNT/$f")" \
			0x36346b
	done
	check_eq "sel/f: the image holds the rule's 16k" \
		"$(policy_hex "$MNT/sel/f")" 0x31366b
	check_eq "d (a directory): the image holds 64k" "$(policy_hex "$MNT/d")" \
		0x36346b
	for f in f-bogus f-3k; do
		check "$f: no $POLICY in the image" \
			sh -c "! getfattr -n $POLICY '$MNT/$f' > /dev/null 2>&1"
		check_eq "$f: its other xattrs are kept" \
			"$(getfattr --only-values -n user.kept "$MNT/$f" 2> /dev/null)" "${f#f-}"
	done
	umount "$MNT"
else
	for i in 1 2 3 4 5 6 7 8 9; do
		not_ok "the image mounts"
	done
fi

# ---- --rule: paths below SOURCE_DIR, or absolute from the image root
R=$W/root
mkdir -p "$R/usr/bin" "$R/usr/lib"
cp /bin/true "$R/usr/bin/true"
echo lib > "$R/usr/lib/lib.so"
got=$("$MKFS" --dry-run --rule '/usr/bin/*=64k' "$R" x 2> "$W/abs.err")
check_eq "an absolute GLOB matches from the image root" "$got" "usr/bin/true 64k"
check_eq "... and is not warned about" "$(cat "$W/abs.err")" ""
got=$("$MKFS" --dry-run --rule 'usr/lib/*=2m' --rule 'usr/sbin/*=64k' \
	--rule 'usr=16k' "$R" x 2> "$W/none.err")
check_eq "rules that match nothing: exit status 0, the others applied" \
	"$?: $got" "0: usr/lib/lib.so 2m"
check "a rule that matches no file is warned about" \
	grep -q "^mkfs.execfolio: --rule 'usr/sbin/\*=64k': warning: no regular file below $R matches 'usr/sbin/\*'" "$W/none.err"
check "... and one that matches a directory only" \
	grep -q "^mkfs.execfolio: --rule 'usr=16k': warning: no regular file" "$W/none.err"
check_eq "... each, once, and no other" "$(wc -l < "$W/none.err")" 2
check_fails_saying "--strict: a rule that matches nothing is an error" 1 \
	"--rule 'usr/sbin/\*=64k': no regular file below .* (an error with --strict)" \
	"$MKFS" --strict --rule 'usr/sbin/*=64k' "$R" "$W/rule.img"
check "--strict: no image made" test ! -e "$W/rule.img"
check_fails_saying "a GLOB of the image root alone is a usage error" 2 \
	"GLOB names the root of the image" "$MKFS" --dry-run --rule '/=64k' "$R" x

done_testing
