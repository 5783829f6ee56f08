#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs.execfolio builds images that pass xfs_repair -n and, mounted through
# a loop device, show the source tree: random trees (as root, and as an
# unprivileged user to prove no privilege is needed), names the protofile
# cannot carry, leaf-form xattrs, filesystems without bigtime, and policy
# selection (--exec-folio-size, --auto, --rule) checked file by file.
. "$TOP/tests/tap.sh"
. "$TOP/tests/xfs-scratch.sh"
. "$TOP/tests/image-workdir.sh"

MKFS=$BIN/mkfs.execfolio
GEN=$TOP/tests/mkfs/gen_tree.py
CMP=$TOP/tests/mkfs/compare_tree.py

why=$(xfs_unavailable)
[ -z "$why" ] || skip_all "$why"
command -v getfattr > /dev/null || skip_all "getfattr (package attr) not installed"
command -v python3 > /dev/null || skip_all "python3 not installed"
[ -x "$MKFS" ] || skip_all "$MKFS not built"

image_workdir mkfs-test

# build_and_compare NAME SRC IMG [OPTIONS...]: build, repair -n, mount,
# compare with the source and the --dry-run policy list.
build_and_compare() {
	_name=$1 _src=$2 _img=$3
	shift 3
	if "$MKFS" --report "$_img.report" "$@" "$_src" "$_img" -- $MKFS_XFS_OPTS 2> "$_img.err"; then
		ok "$_name: image built"
	else
		not_ok "$_name: image built"
		diag "$(cat "$_img.err")"
	fi
	check "$_name: xfs_repair -n passes" xfs_repair -n "$_img"
	"$MKFS" --dry-run "$@" "$_src" "$_img" > "$_img.policies" 2> /dev/null
	if mount -o loop,ro "$_img" "$MNT"; then
		check "$_name: mounted tree, contents, modes, owners, times and xattrs match" \
			python3 "$CMP" "$_src" "$MNT" "$_img.report" "$_img.policies"
		diag "$(python3 "$CMP" "$_src" "$MNT" "$_img.report" "$_img.policies" | tail -1)"
		umount "$MNT"
	else
		not_ok "$_name: mounted tree matches (mount failed)"
	fi
}

# ---- random trees, as root
python3 "$GEN" 1 "$W/r1" 600
build_and_compare "random tree 1" "$W/r1" "$W/r1.img" --auto --exec-folio-size 16k --rule '*.so*=2m'
check "report lists the socket" grep -q '^sock: socket not created' "$W/r1.img.report"
python3 "$GEN" 2 "$W/r2" 300
MKFS_XFS_OPTS="-m bigtime=0" build_and_compare "random tree 2, no bigtime" "$W/r2" "$W/r2.img" --exec-folio-size 64k
check "random tree 2: the image has no bigtime" sh -c "xfs_db -c version '$W/r2.img' | grep -qv BIGTIME"

# ---- as nobody: no root, no mount, no loop device
python3 "$GEN" 3 "$W/r3" 300 --owner 65534:65534
chown 65534:65534 "$W"
if command -v setpriv > /dev/null; then
	if setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$MKFS" --report "$W/r3.img.report" --auto "$W/r3" "$W/r3.img" 2> "$W/r3.err"; then
		ok "unprivileged user builds an image"
	else
		not_ok "unprivileged user builds an image"
		diag "$(cat "$W/r3.err")"
	fi
	check "unprivileged image: owned by the user" test "$(stat -c %u "$W/r3.img")" = 65534
	check "unprivileged build: warns that trusted.* xattrs cannot be read" \
		grep -q "r3: warning: without CAP_SYS_ADMIN its trusted.\* xattrs cannot be read" "$W/r3.err"
	check "unprivileged image: xfs_repair -n passes" xfs_repair -n "$W/r3.img"
	"$MKFS" --dry-run --auto "$W/r3" x > "$W/r3.img.policies" 2> /dev/null
	if mount -o loop,ro "$W/r3.img" "$MNT"; then
		check "unprivileged image: mounted tree matches, with policies" \
			python3 "$CMP" "$W/r3" "$MNT" "$W/r3.img.report" "$W/r3.img.policies"
		umount "$MNT"
	else
		not_ok "unprivileged image: mounted tree matches (mount failed)"
	fi
else
	skip "setpriv not installed"
	skip "setpriv not installed"
	skip "setpriv not installed"
	skip "setpriv not installed"
	skip "setpriv not installed"
fi
chown 0:0 "$W"

# ---- names: blanks, newlines, "$", ":" and dashes, in short-form and in
# larger (block, leaf and node form) directories, and symlink targets with
# blanks. Short awkward names in the larger directories have few or no
# placeholders with their hash: they test placeholders of other hashes,
# whose entries the hash index gives the real hash (mkfs_names.sh has the
# shortest names in every form of directory).
S=$W/names
mkdir -p "$S/small" "$S/large" "$S/block" "$S/leaf"
for n in 'a b' '$' ':c' '-d' "$(printf 'n\nl')" ' ' 'x	y'; do
	echo "$n" > "$S/small/$n"
done
ln -s 'a target with blanks' "$S/small/sl"
i=0
while [ $i -lt 700 ]; do
	: > "$S/large/file number $i"
	i=$((i + 1))
done
echo data > "$S/large/-leading dash and spaces"
i=0
while [ $i -lt 300 ]; do
	[ $i -lt 40 ] && : > "$S/block/f$i"
	: > "$S/leaf/f$i"
	i=$((i + 1))
done
# 16 awkward names more: 56 entries in block, 316 in leaf, 717 in large.
for d in block leaf large; do
	for n in 'a b.txt' 'abc def' "$(printf 'ta\tb')" ' ' '  ' '   ' '    ' \
		"$(printf '\t')" "$(printf '\r')" ':' '$' '\' 'a b' ':c' \
		"$(printf 'n\nl')" "$(printf '\n\n\nq')"; do
		echo "$n" > "$S/$d/$n"
	done
done
build_and_compare "names" "$S" "$W/names.img"
if mount -o loop,ro "$W/names.img" "$MNT"; then
	check_eq "names: 717 entries in the large directory" "$(find "$MNT/large" -mindepth 1 -maxdepth 1 -printf x | wc -c)" 717
	check "names: a name with a newline reads back" test -f "$MNT/small/$(printf 'n\nl')"
	check_eq "names: block directory (56 entries) with blanks and a tab" \
		"$(cat "$MNT/block/a b.txt" "$MNT/block/abc def" "$MNT/block/$(printf 'ta\tb')" | tr '\n' ' ' | sed 's/ $//')" \
		"a b.txt abc def $(printf 'ta\tb')"
	check_eq "names: one-byte names in a leaf directory (316 entries)" \
		"$(cat "$MNT/leaf/ " "$MNT/leaf/:" "$MNT/leaf/\\" "$MNT/leaf/\$" | tr '\n' ' ' | sed 's/ $//')" \
		"  : \\ $"
	umount "$MNT"
else
	not_ok "names: mount"
	not_ok "names: mount"
	not_ok "names: mount"
	not_ok "names: mount"
fi

# ---- device numbers: the largest XFS keeps (511:262143) and ordinary ones,
# read back through the mount as the true major:minor.
D=$W/dev
mkdir -p "$D"
mknod "$D/b-max" b 511 262143
mknod "$D/c-null" c 1 3
mknod "$D/b-nvme" b 259 7
mknod "$D/c-misc" c 10 200
build_and_compare "devices" "$D" "$W/dev.img"
if mount -o loop,ro "$W/dev.img" "$MNT"; then
	check_eq "devices: major:minor through the mount" \
		"$(stat -c '%t:%T ' "$MNT/b-max" "$MNT/b-nvme" "$MNT/c-null" "$MNT/c-misc" | tr -d '\n')" \
		"1ff:3ffff 103:7 1:3 a:c8 "
	umount "$MNT"
else
	not_ok "devices: mount"
fi

# ---- xattrs: short form, leaf form (many), too large for xfs_db (reported)
X=$W/xattrs
mkdir -p "$X"
cp /bin/true "$X/many"
i=0
while [ $i -lt 20 ]; do
	setfattr -n "user.attr$i" -v "value-$i-$(printf '%080d' $i)" "$X/many"
	i=$((i + 1))
done
setfattr -n user.bin -v 0x00ff0a5c22 "$X/many"
echo big > "$X/big"
setfattr -n user.big -v "$(head -c 3500 /dev/zero | tr '\0' 'b')" "$X/big"
setfattr -n user.small -v s "$X/big"
echo t > "$X/trusted"
setfattr -n trusted.other -v t "$X/trusted"
echo e > "$X/empty"
setfattr -n user.empty -v '""' "$X/empty"
setfattr -n user.kept -v k "$X/empty"
build_and_compare "xattrs" "$X" "$W/x.img" --rule 'many=64k' --rule 'trusted=none'
check "xattrs: a 3500-byte value (out of line) is reported" grep -q '^big: xattr user.big not copied' "$W/x.img.report"
check "xattrs: an empty value (xfs_db cannot store one) is reported" grep -q '^empty: xattr user.empty not copied: xfs_db cannot store an empty value' "$W/x.img.report"

# ---- a file larger than an allocation group of a 300m image (75 MB):
# mkfs.xfs 6.1 would write it over the next group's headers; the default
# size makes room. A sparse file: its holes are allocated, and reported.
G=$W/large
mkdir -p "$G"
head -c 150000000 /dev/urandom > "$G/big"
truncate -s 20m "$G/sparse"
echo data | dd of="$G/sparse" bs=1 seek=10000000 conv=notrunc 2> /dev/null
build_and_compare "a 150 MB file" "$G" "$W/large.img"
check "report lists the sparse file" grep -q '^sparse: sparse file: its holes are stored as allocated blocks' "$W/large.img.report"
rm -rf "$G" "$W/large.img"
# The content of a sparse file reads back the same: no difference for
# --strict (program files linked with large page alignment have holes).
mkdir -p "$G"
truncate -s 1m "$G/sparse"
echo data | dd of="$G/sparse" bs=1 seek=500000 conv=notrunc 2> /dev/null
check "--strict builds a tree with a sparse file" \
	"$MKFS" --strict --report "$W/sparse.report" "$G" "$W/sparse.img"
check "--strict: the sparse file is still noted" grep -q '^sparse: sparse file' "$W/sparse.report"
rm -rf "$G" "$W/sparse.img" "$W/sparse.report"

# ---- policy selection, file by file
P=$W/pol
mkdir -p "$P/bin" "$P/lib" "$P/data"
cp /bin/true "$P/bin/true"
cp /bin/true "$P/bin/true-noexec"
chmod 644 "$P/bin/true-noexec"
libc=$(ldd /bin/true | awk '/libc.so/ { print $3 }')
cp "$libc" "$P/lib/libc.so.6"
chmod 644 "$P/lib/libc.so.6"
printf '#!/bin/sh\n' > "$P/bin/script"
chmod 711 "$P/bin/script"
echo data > "$P/data/file"
chmod 644 "$P/data/file"
auto_libc=$("$BIN/execfolio" scan --json "$P/lib/libc.so.6" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["recommended"])')
got=$("$MKFS" --dry-run --exec-folio-size 16k "$P" x | sort | tr '\n' ' ')
check_eq "--exec-folio-size: files with an execute bit only" "$got" "bin/script 16k bin/true 16k "
got=$("$MKFS" --dry-run --auto "$P" x | grep '^lib/' | tr '\n' ' ')
want=$([ "$auto_libc" = none ] && echo "" || echo "lib/libc.so.6 $auto_libc ")
check_eq "--auto: libc.so.6 gets what execfolio scan recommends ($auto_libc)" "$got" "$want"
got=$("$MKFS" --dry-run --auto "$P" x | grep -c '^bin/script')
check_eq "--auto: a shell script is no ELF file" "$got" 0
# A file that claims to be ELF but is cut short: the report line names the
# source file read and what is wrong with it, and the file gets no policy.
mkdir "$W/cut"
head -c 100 /bin/true > "$W/cut/prog"
chmod 755 "$W/cut/prog"
got=$("$MKFS" --dry-run --auto "$W/cut" x 2>&1)
check_eq "--auto: a truncated ELF file is reported and left alone" "$got" \
	"mkfs.execfolio: prog: --auto: not analysed ($W/cut/prog: truncated program header table (e_phoff + e_phnum * e_phentsize lies beyond the end of the file)); no policy from --auto"
# The ELF headers are read from the file the tree walk opens anyway: each
# file is opened once.
strace -f -o "$W/auto.trace" -e trace=open,openat \
	"$MKFS" --dry-run --auto "$P" x > /dev/null 2>&1
got=$(grep -c "open.*\"$P/lib/libc.so.6\"" "$W/auto.trace")
check_eq "--auto: each file opened once (ELF headers read in the tree walk)" "$got" 1
# Reading a file moves its atime (the ELF headers are read in the tree
# walk): the image keeps the one the source had before the build, for
# every link of a hard-linked program.
mkdir -p "$W/links/a" "$W/links/b" "$W/links-out"
chmod -R 755 "$W/links"
chown 65534 "$W/links-out"
cp /bin/true "$W/links/a/prog"
ln "$W/links/a/prog" "$W/links/b/prog"
touch -a -d '2001-02-03 04:05:06 UTC' "$W/links/a/prog"
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$MKFS" --auto "$W/links" "$W/links-out/img" 2> /dev/null
if mount -o loop,ro "$W/links-out/img" "$MNT"; then
	got=$(stat -c %X "$MNT/a/prog" "$MNT/b/prog" | tr '\n' ' ')
	umount "$MNT"
else
	got="mount failed"
fi
check_eq "--auto: both links of a program it reads keep the source's atime" \
	"$got" "981173106 981173106 "
got=$("$MKFS" --dry-run --exec-folio-size 16k --rule 'bin/*=2m' --rule 'bin/true=none' --rule 'data/*=4096' "$P" x | sort | tr '\n' ' ')
check_eq "--rule: after the options, last match wins, none stored, canonical" \
	"$got" "bin/script 2m bin/true none bin/true-noexec 2m data/file 4k "
got=$("$MKFS" --dry-run --rule '*=64k' --rule 'lib=2m' "$P" x | sort | tr '\n' ' ')
check_eq "--rule: fnmatch without flags, '*' crosses '/', no partial match" \
	"$got" "bin/script 64k bin/true 64k bin/true-noexec 64k data/file 64k lib/libc.so.6 64k "

done_testing
