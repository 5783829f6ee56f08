#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfoliofs resolves and validates the policy like the kernel: the shared
# vectors (tests/vectors/policy.vec) through real mounts, one per mount
# option value, and the policy following chmod and xattr changes.
. "$TOP/tests/lib.sh"
. "$TOP/tests/fuse/lib.sh"

why=$(efs_unavailable)
[ -n "$why" ] && skip_all "$why"
VEC=$TOP/tests/vectors/policy.vec
values=$("$HELPERS/vectors_mount" --list-mounts "$VEC") || {
	echo "1..1"
	echo "not ok 1 - cannot load $VEC"
	exit 1
}
plan $((1 + $(echo "$values" | wc -l) + 17))
efs_setup

# vectors_check NAME MOUNT_VALUE|-: helper output as diagnostics
vectors_check() {
	if out=$("$HELPERS/vectors_mount" "$VEC" "$B" "$M" "$2"); then
		ok "$1"
	else
		not_ok "$1"
	fi
	diag "$out"
}

efs_mount "$B" "$M"
vectors_check "parse vectors as setxattr, resolve vectors without a mount value" -
efs_umount "$M"

while read -r value expect; do
	rm -rf "$B" && mkdir "$B"
	if [ "$expect" = EINVAL ]; then
		check_fails "-o exec_folio_size=$value is a usage error" 2 \
			"$EFS" -f -o "exec_folio_size=$value" "$B" "$M"
		continue
	fi
	efs_mount "$B" "$M" -o "exec_folio_size=$value"
	vectors_check "resolve vectors with exec_folio_size=$value" "$value"
	efs_umount "$M"
done <<EOF
$values
EOF

rm -rf "$B" && mkdir "$B"
efs_mount "$B" "$M" -o exec_folio_size=64k
cp /bin/ls "$M/prog"
policy() { getfattr --only-values -n trusted.execfoliofs.policy "$M/prog" 2>/dev/null; }
check_eq "an executable file gets the mount default" "$(policy)" "64k mount"
chmod 644 "$M/prog"
check_eq "chmod -x through the mount: no policy" "$(policy)" "none none"
setfattr -n trusted.exec_folio_size -v 2m "$M/prog"
check_eq "the xattr set through the mount wins" "$(policy)" "2m xattr"
check_eq "the xattr is stored on the backing file" \
	"$(getfattr --only-values -n trusted.exec_folio_size "$B/prog" 2>/dev/null)" "2m"
setfattr -x trusted.exec_folio_size "$M/prog"
chmod 755 "$M/prog"
check_eq "removing it falls back to the mount default" "$(policy)" "64k mount"

# execfolio get: the kernel does not apply the daemon's policy (it caches
# a FUSE mount's files as it would without one): 0 none, as on tmpfs, with
# the policy the daemon traces beside, from its virtual attribute.
EF=$BIN/execfolio
check_eq "execfolio get: no policy in effect, the kernel does not apply it" \
	"$("$EF" get "$M/prog" 2> "$EFS_DIR/get.err")" "$M/prog 0 none"
case $(cat "$EFS_DIR/get.err") in
"execfolio: get: $M/prog: note: on execfoliofs ($M) the daemon resolves the policy and records it in its traces"*"the kernel does not apply it"*"no policy is in effect (0 none)")
	ok "... and a note says the daemon traces it but the kernel does not apply it" ;;
*) not_ok "... and a note says the daemon traces it but the kernel does not apply it"; diag "$(cat "$EFS_DIR/get.err")" ;;
esac
check_eq "execfolio get -v: applied by nobody, why=fuse, the daemon's policy beside" \
	"$("$EF" get -v "$M/prog" 2>/dev/null)" \
	"$M/prog 0 none stored=- mount_default=? mount_scope=? fs=fuse.execfoliofs applied_by=none why=fuse daemon_size=64k daemon_source=mount"
err=$("$EF" set 16k "$M/prog" 2>&1); rc=$?
case "$rc:$err" in
"0:execfolio: set: $M/prog: warning: on execfoliofs ($M) the daemon resolves the policy"*"the attribute is stored and traced")
	ok "execfolio set through the mount: exit 0, a warning that the kernel does not apply it" ;;
*) not_ok "execfolio set through the mount: exit 0, a warning that the kernel does not apply it"; diag "$rc $err" ;;
esac
check_eq "execfolio get --json: none applied, the daemon traces the xattr" \
	"$("$EF" get --json "$M/prog" 2>/dev/null | jq -r '.[0] | "\(.size) \(.source) \(.applied_by) \(.not_applied) \(.daemon.size) \(.daemon.source) \(.stored)"')" \
	"none none none fuse 16k xattr 16k"
"$EF" set none "$M/prog" 2>/dev/null
check_eq "execfolio get -v: an opt-out, as the daemon traces it" \
	"$("$EF" get -v "$M/prog" 2>/dev/null)" \
	"$M/prog 0 none stored=none mount_default=? mount_scope=? fs=fuse.execfoliofs applied_by=none why=fuse daemon_size=0 daemon_source=xattr"
"$EF" clear "$M/prog"
chmod 644 "$M/prog"
check_eq "execfolio get --json: not executable, no xattr: the daemon traces none" \
	"$("$EF" get --json "$M/prog" 2>/dev/null | jq -r '.[0] | "\(.size) \(.daemon.size) \(.daemon.source)"')" "none none none"
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$EF" get "$M/prog" 2>/dev/null); rc=$?
check_eq "unprivileged execfolio get: known all the same (nothing applies it), exit 0" \
	"$rc $out" "0 $M/prog 0 none"
chmod 755 "$M/prog"
check "the virtual attributes are read-only" \
	sh -c "! setfattr -n trusted.execfoliofs.policy -v 2m '$M/prog' 2>/dev/null"
# A file the daemon creates is resolved without reading its xattrs; one
# that already exists in the backing directory still is.
cp /bin/ls "$B/old"
setfattr -n trusted.exec_folio_size -v 16k "$B/old"
: >>"$M/old"
check_eq "O_CREAT of an existing backing file keeps its xattr" \
	"$(getfattr --only-values -n trusted.execfoliofs.policy "$M/old" 2>/dev/null)" "16k xattr"
newpolicy() { getfattr --only-values -n trusted.execfoliofs.policy "$M/new" 2>/dev/null; }
sh -c "umask 0; exec 3>'$M/new'"
check_eq "a file created through the mount, not executable: no policy" \
	"$(newpolicy)" "none none"
chmod 755 "$M/new"
check_eq "made executable: the mount default" "$(newpolicy)" "64k mount"
efs_umount "$M"
tap_done
