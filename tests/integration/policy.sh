#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfolio set/get/clear on a real XFS filesystem (loop device): canonical
# values on disk, refusals before any change, error messages and exit codes,
# recursion, auto, and what an unprivileged user is told.
. "$TOP/tests/tap.sh"
. "$TOP/tests/xfs-scratch.sh"

EF=$BIN/execfolio
why=$(xfs_unavailable)
[ -z "$why" ] || skip_all "$why"
command -v getfattr > /dev/null || skip_all "getfattr (package attr) not installed"
xfs_scratch_mount || skip_all "cannot mount an XFS loop device"

M=$SCRATCH_MNT
cp /bin/true "$M/exe"
chmod 0755 "$M/exe"
libc=$(ldd /bin/true | awk '/libc.so/ { print $3 }')
cp "$libc" "$M/lib.so"
chmod 0644 "$M/lib.so"
echo "plain text" > "$M/text"
mkdir -p "$M/dir/sub"
cp "$libc" "$M/dir/a.so"
cp /bin/true "$M/dir/sub/b"
ln -s ../lib.so "$M/dir/link.so"
mkfifo "$M/fifo"

# Only a kernel with the series applies the policy (and has its ioctl).
if grep -qw xfs_ioc_get_exec_folio /proc/kallsyms 2> /dev/null; then
	series=yes
else
	series=no
fi
diag "the running kernel has the execfolio series: $series"

raw() { getfattr --absolute-names --only-values -n trusted.exec_folio_size "$1" 2> /dev/null; }
has() { getfattr --absolute-names -n trusted.exec_folio_size "$1" > /dev/null 2>&1; }
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

# ---- set writes the canonical form
for spelling in 64k 64K 65536; do
	"$EF" set "$spelling" "$M/lib.so"
	check_eq "set $spelling stores 64k" "$(raw "$M/lib.so")" "64k"
done
"$EF" set 2048k "$M/exe"
check_eq "set 2048k stores 2m" "$(raw "$M/exe")" "2m"
"$EF" set 0 "$M/exe"
check_eq "set 0 stores none" "$(raw "$M/exe")" "none"

# ---- bad sizes are refused before the file is touched
"$EF" set 64k "$M/lib.so"
for bad in 48k 0x10000 "64k " 4m 1k none2 "" -64k; do
	check_fails "set '$bad' is a usage error" 2 "$EF" set "$bad" "$M/lib.so"
done
check_eq "refused sizes left the value alone" "$(raw "$M/lib.so")" "64k"
msg=$("$EF" set 48k "$M/lib.so" 2>&1)
case $msg in
*"invalid size '48k'"*"power of two"*) ok "bad size message says what is wrong" ;;
*) not_ok "bad size message says what is wrong"; diag "$msg" ;;
esac

# ---- errors name the file and the reason
msg=$("$EF" set 64k "$M/dir" 2>&1); rc=$?
check_eq "directory without -r fails" "$rc" 1
case $msg in *"$M/dir"*"is a directory"*) ok "... and says so" ;; *) not_ok "... and says so"; diag "$msg" ;; esac
msg=$("$EF" set 64k "$M/fifo" 2>&1); rc=$?
case "$rc:$msg" in 1:*"$M/fifo"*"not a regular file"*) ok "fifo refused" ;; *) not_ok "fifo refused"; diag "$rc $msg" ;; esac
msg=$("$EF" set 64k "$M/missing" 2>&1); rc=$?
case "$rc:$msg" in 1:*"$M/missing"*"No such file"*) ok "missing file refused" ;; *) not_ok "missing file refused"; diag "$rc $msg" ;; esac
msg=$("$EF" set 64k /proc/self/status 2>&1); rc=$?
case "$rc:$msg" in 1:*"does not support"*) ok "filesystem without xattrs refused" ;; *) not_ok "filesystem without xattrs refused"; diag "$rc $msg" ;; esac
# one bad path does not stop the others
"$EF" clear "$M/exe"
"$EF" set 16k "$M/missing" "$M/exe" 2> /dev/null; rc=$?
check_eq "a failing path makes exit 1" "$rc" 1
check_eq "... and the other paths are still done" "$(raw "$M/exe")" "16k"

# ---- recursion: regular files only, symlinks not followed
"$EF" set -r 64k "$M/dir"
check_eq "-r tags files below" "$(raw "$M/dir/a.so") $(raw "$M/dir/sub/b")" "64k 64k"
check_eq "-r does not follow symlinks into their target" "$(raw "$M/lib.so")" "64k"
"$EF" clear -r "$M/dir"
if has "$M/dir/a.so" || has "$M/dir/sub/b"; then not_ok "clear -r removes"; else ok "clear -r removes"; fi

# ---- dry run changes nothing
"$EF" set -n 2m "$M/text" > /dev/null
if has "$M/text"; then not_ok "set -n changes nothing"; else ok "set -n changes nothing"; fi

# ---- get: PATH SIZE SOURCE, the policy in effect: only a kernel with the
# series applies it; without, get says 0 none and why.
"$EF" set 64k "$M/lib.so" 2> /dev/null
"$EF" set none "$M/exe" 2> /dev/null
"$EF" clear "$M/text"
if [ $series = yes ]; then
	check_eq "get tagged" "$("$EF" get "$M/lib.so")" "$M/lib.so 64k xattr"
	check_eq "get opted out" "$("$EF" get "$M/exe")" "$M/exe 0 xattr"
	check_eq "get --json" \
		"$("$EF" get --json "$M/lib.so" | jq -r '.[0] | "\(.size) \(.source) \(.applied_by) \(.stored) \(.stored_valid)"')" \
		"64k xattr kernel 64k true"
else
	check_eq "get tagged, no series: nothing in effect" \
		"$("$EF" get "$M/lib.so" 2> /dev/null)" "$M/lib.so 0 none"
	check_eq "get opted out, no series" "$("$EF" get "$M/exe" 2> /dev/null)" "$M/exe 0 none"
	check_eq "get --json, no series: why, and the stored value" \
		"$("$EF" get --json "$M/lib.so" 2> /dev/null | jq -r '.[0] | "\(.size) \(.source) \(.applied_by) \(.not_applied) \(.why | test("lacks the execfolio series.*ENOTTY")) \(.stored) \(.stored_valid)"')" \
		"none none none kernel true 64k true"
fi
check_eq "get untagged" "$("$EF" get "$M/text" 2> /dev/null)" "$M/text 0 none"
check_eq "get -r lists regular files" "$("$EF" get -r "$M/dir" 2> /dev/null | wc -l)" 2
setfattr -n trusted.exec_folio_size -v 48k "$M/text"
out=$("$EF" get "$M/text" 2> "$SCRATCH_DIR/err")
check_eq "malformed stored value is ignored, as the kernel does" "$out" "$M/text 0 none"
case $(cat "$SCRATCH_DIR/err") in *malformed*) ok "... with a warning" ;; *) not_ok "... with a warning" ;; esac
out=$("$EF" get -v "$M/text" 2> /dev/null)
case $series:$out in
yes:"$M/text 0 none stored=48k mount_default=- mount_scope=- fs=xfs kernel_order="*" applied_by=kernel" | \
no:"$M/text 0 none stored=48k mount_default=- mount_scope=- fs=xfs applied_by=none why=kernel")
	ok "get -v shows the stored value and who applies the policy" ;;
*) not_ok "get -v shows the stored value and who applies the policy"; diag "$out" ;;
esac

# ---- set where the kernel does not apply the policy: stored, with a warning
"$EF" clear "$M/lib.so" "$M/exe"
err=$("$EF" set 64k "$M/lib.so" "$M/exe" 2>&1 > /dev/null); rc=$?
check_eq "set exits 0 and stores the value whether or not the kernel applies it" \
	"$rc $(raw "$M/lib.so") $(raw "$M/exe")" "0 64k 64k"
if [ $series = no ]; then
	case $err in
	"execfolio: set: $M/lib.so: warning: the running kernel ($(uname -r)) lacks the execfolio series"*"ENOTTY"*"changes nothing on this system")
		ok "... without the series it warns, once for the file system" ;;
	*) not_ok "... without the series it warns, once for the file system"; diag "$err" ;;
	esac
else
	check_eq "... with the series it does not warn" "$err" ""
fi

# ---- clear says whether there was anything to clear
"$EF" set 64k "$M/lib.so" 2> /dev/null
"$EF" clear "$M/text"
check_eq "clear -v of a file with the attribute: cleared" \
	"$("$EF" clear -v "$M/lib.so")" "$M/lib.so: cleared"
check_eq "clear -v of a file without: left alone" \
	"$("$EF" clear -v "$M/text")" "$M/text: left alone (had no policy xattr)"
check_eq "clear -n of a file without: would leave alone" \
	"$("$EF" clear -n "$M/text")" "$M/text: would leave alone (has no policy xattr)"

# ---- an immutable file: EPERM for root too, and said as such
"$EF" set 16k "$M/lib.so" 2> /dev/null
if chattr +i "$M/lib.so" "$M/text" 2> /dev/null; then
	err=$("$EF" set 64k "$M/lib.so" 2>&1); rc=$?
	case "$rc:$err" in
	1:*"$M/lib.so: the file is immutable (chattr +i)"*) ok "set on an immutable file fails saying it is immutable" ;;
	*) not_ok "set on an immutable file fails saying it is immutable"; diag "$rc $err" ;;
	esac
	case $err in *CAP_SYS_ADMIN*) not_ok "... not that CAP_SYS_ADMIN is missing"; diag "$err" ;; *) ok "... not that CAP_SYS_ADMIN is missing" ;; esac
	err=$("$EF" clear "$M/lib.so" 2>&1); rc=$?
	case "$rc:$err" in
	1:*"$M/lib.so: the file is immutable"*) ok "clear on an immutable file fails saying so" ;;
	*) not_ok "clear on an immutable file fails saying so"; diag "$rc $err" ;;
	esac
	check_eq "... and the value is unchanged" "$(raw "$M/lib.so")" 16k
	check_eq "clear of an immutable file without the attribute: nothing to do" \
		"$("$EF" clear -v "$M/text" 2>&1) $?" "$M/text: left alone (had no policy xattr) 0"
	chattr -i "$M/lib.so" "$M/text"
else
	for i in 1 2 3 4 5; do skip "chattr +i not supported here"; done
fi

# ---- without CAP_SYS_ADMIN: the series' ioctl refuses, so get cannot
# tell, never "none"; a kernel without it applies nothing, known all the same
chmod 0755 "$SCRATCH_DIR"
out=$(as_nobody "$EF" get "$M/lib.so" 2> "$SCRATCH_DIR/err"); rc=$?
if [ $series = yes ]; then
	check_eq "unprivileged get cannot tell" "$out" "$M/lib.so ? unknown"
	check_eq "... exits 1" "$rc" 1
	case $(cat "$SCRATCH_DIR/err") in *"$M/lib.so: cannot read"*CAP_SYS_ADMIN*) ok "... and says why, naming the file" ;; *) not_ok "... and says why, naming the file"; diag "$(cat "$SCRATCH_DIR/err")" ;; esac
else
	check_eq "unprivileged get, kernel without the series: 0 none" "$out" "$M/lib.so 0 none"
	check_eq "... exits 0" "$rc" 0
	case $(cat "$SCRATCH_DIR/err") in *CAP_SYS_ADMIN*) not_ok "... and says why: the kernel, not the privilege"; diag "$(cat "$SCRATCH_DIR/err")" ;; *"lacks the execfolio series"*) ok "... and says why: the kernel, not the privilege" ;; *) not_ok "... and says why: the kernel, not the privilege"; diag "$(cat "$SCRATCH_DIR/err")" ;; esac
fi
err=$(as_nobody "$EF" set 2m "$M/lib.so" "$M/exe" 2>&1); rc=$?
case "$rc:$err" in
1:*"$M/lib.so (and 1 other path): changing trusted.exec_folio_size needs CAP_SYS_ADMIN"*) ok "unprivileged set fails, naming the files" ;;
*) not_ok "unprivileged set fails, naming the files"; diag "$rc $err" ;;
esac
check_eq "... and changes nothing" "$(raw "$M/lib.so")" "16k"

# ---- auto: the size scan recommends, non-ELF files left alone
"$EF" clear "$M/lib.so" "$M/text"
want=$("$EF" scan --json "$M/lib.so" | jq -r '.[0].recommended')
"$EF" set auto "$M/lib.so" "$M/text"
got=$(raw "$M/lib.so"); [ -n "$got" ] || got=none
check_eq "set auto applies the recommendation ($want)" "$got" "$want"
if has "$M/text"; then not_ok "set auto leaves non-ELF files alone"; else ok "set auto leaves non-ELF files alone"; fi

mkdir "$M/autodir" && : > "$M/autodir/empty" && cp "$libc" "$M/autodir/l.so"
"$EF" set -r auto "$M/autodir"; rc=$?
check_eq "set -r auto: empty files are no failure" "$rc $(raw "$M/autodir/l.so" || echo none)" "0 $want"

# ---- --if-unset keeps an existing value
"$EF" set 16k "$M/lib.so"
"$EF" set --if-unset 2m "$M/lib.so" "$M/text"
check_eq "--if-unset keeps an existing value" "$(raw "$M/lib.so")" "16k"
check_eq "--if-unset sets where there is none" "$(raw "$M/text")" "2m"

# ---- usage
check_fails "no arguments" 2 "$EF"
check_fails "unknown command" 2 "$EF" frob
check_fails "set without a path" 2 "$EF" set 64k
check_fails "unknown option" 2 "$EF" get --frob "$M/text"

done_testing
