#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfoliofs as a file system: every operation through the mount, checked
# against the backing directory, programs executed and mapped from it, and
# a clean exit on fusermount3 -u.
. "$TOP/tests/tap.sh"
. "$TOP/tests/fuse/lib.sh"

why=$(efs_unavailable)
[ -n "$why" ] && skip_all "$why"
efs_setup
umask 022

if efs_mount "$B" "$M"; then
	ok "mount $B on $M"
else
	not_ok "mount $B on $M"
	exit 1
fi

# same NAME: stat fields of M/NAME and B/NAME agree
same() {
	check_eq "$1: stat through the mount matches the backing file" \
		"$(stat -c '%i %f %s %h %u %g %Y %X' "$M/$2")" \
		"$(stat -c '%i %f %s %h %u %g %Y %X' "$B/$2")"
}

printf 'hello, world\n' > "$M/file"
check_eq "create and write reach the backing file" "$(cat "$B/file")" "hello, world"
echo more >> "$M/file"
check_eq "O_APPEND writes at the end" "$(cat "$B/file")" "$(printf 'hello, world\nmore')"
echo "from backing" > "$B/other"
check_eq "files made in the backing directory are read" "$(cat "$M/other")" "from backing"
same "regular file" file

chmod 4750 "$M/file"
check_eq "chmod" "$(stat -c %a "$B/file")" "4750"
chown 1234:5678 "$M/file"
check_eq "chown" "$(stat -c %u:%g "$B/file")" "1234:5678"
truncate -s 100000 "$M/file"
check_eq "truncate" "$(stat -c %s "$B/file")" "100000"
touch -m -d '2001-02-03 04:05:06 UTC' "$M/file"
touch -a -d '2002-03-04 05:06:07 UTC' "$M/file"
check_eq "utimens (mtime, atime)" "$(stat -c '%Y %X' "$B/file")" "981173106 1015218367"
same "after setattr" file

mkdir "$M/dir"
check "mkdir" test -d "$B/dir"
same "directory" dir
mkfifo "$M/dir/fifo"
check "mknod (fifo)" test -p "$B/dir/fifo"
ln -s ../file "$M/dir/link"
check_eq "symlink and readlink" "$(readlink "$M/dir/link")" "../file"
check_eq "symlink in the backing directory" "$(readlink "$B/dir/link")" "../file"
ln "$M/other" "$M/dir/hard"
check_eq "link: one inode, two names" "$(stat -c '%h %i' "$M/dir/hard")" "2 $(stat -c %i "$B/other")"
rm "$M/dir/hard"
check "unlink" test ! -e "$B/dir/hard"
check_eq "unlink drops the link count" "$(stat -c %h "$M/other")" "1"

echo one > "$M/a"
echo two > "$M/b"
mv "$M/a" "$M/dir/a"
check "rename" test -f "$B/dir/a" -a ! -e "$B/a"
check_eq "rename RENAME_NOREPLACE onto a name fails with EEXIST" \
	"$("$HELPERS/rename2" noreplace "$M/b" "$M/dir/a")" "EEXIST"
check_eq "rename RENAME_EXCHANGE" \
	"$("$HELPERS/rename2" exchange "$M/b" "$M/dir/a") $(cat "$B/dir/a") $(cat "$B/b")" \
	"ok two one"
rmdir "$M/dir" 2>/dev/null
check "rmdir of a non-empty directory fails" test -d "$B/dir"
mkdir "$M/empty" && rmdir "$M/empty"
check "rmdir" test ! -e "$B/empty"

mkdir "$M/many"
i=0
while [ $i -lt 600 ]; do : > "$M/many/entry-with-a-long-name-$i"; i=$((i + 1)); done
check_eq "readdir of 600 entries" "$(ls -a "$M/many" | sort | md5sum)" "$(ls -a "$B/many" | sort | md5sum)"
check_eq "readdirplus attributes" \
	"$(cd "$M/many" && ls -la --time-style=+%s | md5sum)" \
	"$(cd "$B/many" && ls -la --time-style=+%s | md5sum)"

setfattr -n user.test -v value "$M/other"
check_eq "setxattr reaches the backing file" "$(getfattr --only-values -n user.test "$B/other")" "value"
check_eq "listxattr" "$(getfattr -d -m - "$M/other" | sed 1d)" "$(getfattr -d -m - "$B/other" | sed 1d)"
setfattr -x user.test "$M/other"
check "removexattr" sh -c "! getfattr -n user.test '$B/other' 2>/dev/null"

head -c 8388608 /dev/urandom > "$EFS_DIR/random"
dd if="$EFS_DIR/random" of="$M/big" bs=65536 conv=fsync status=none
check "8M write with fsync, then compared" cmp "$EFS_DIR/random" "$B/big"
check "8M read back through the mount" cmp "$EFS_DIR/random" "$M/big"
fallocate -l 1048576 "$M/falloc"
check_eq "fallocate" "$(stat -c %s "$B/falloc")" "1048576"
printf 'xxxxxxxx' | dd of="$M/falloc" conv=notrunc status=none
fallocate -p -o 0 -l 4096 "$M/falloc"
check_eq "fallocate punch hole" "$(od -An -tx1 -N8 "$B/falloc" | tr -d ' ' | sed 's/^/0000000 /; s/0000000000000000$/000000/')" "0000000 000000"
check_eq "statfs" "$(stat -f -c '%b %S %c' "$M")" "$(stat -f -c '%b %S %c' "$B")"

cp /bin/ls "$M/ls"
check_eq "exec a binary from the mount" "$("$M/ls" -d /)" "/"
printf '#!/bin/sh\necho script ran\n' > "$M/script" && chmod 755 "$M/script"
check_eq "exec a script from the mount" "$("$M/script")" "script ran"
"$HELPERS/mkelf" "$B/text" 1048576
check "mmap PROT_EXEC and fault pages" "$HELPERS/touch" "$M/text" 0 100 255

mkdir -m 1777 "$M/shared"
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo x > '$M/shared/nobody'"
check_eq "a file created by another user is theirs" "$(stat -c %u:%g "$B/shared/nobody")" "65534:65534"
check "permissions are enforced (default_permissions)" \
	sh -c "! setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo y >> \"$M/other\"' 2>/dev/null"

efs_umount "$M"
check_eq "fusermount3 -u: the daemon exits 0" "$EFS_STATUS" "0"
done_testing
