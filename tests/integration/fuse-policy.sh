#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfoliofs resolves and validates the policy like the kernel: the shared
# vectors (tests/vectors/policy.vec) through real mounts, one per mount
# option value, and the policy following chmod and xattr changes.
. "$TOP/tests/tap.sh"
. "$TOP/tests/fuse/lib.sh"

why=$(efs_unavailable)
[ -n "$why" ] && skip_all "$why"
VEC=$TOP/tests/vectors/policy.vec
values=$("$HELPERS/vectors_mount" --list-mounts "$VEC") || {
	not_ok "cannot load $VEC"
	done_testing
}
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

# execfolio get reports what the daemon applies, from its virtual attribute.
EF=$BIN/execfolio
check_eq "execfolio get: the daemon's mount default" \
	"$("$EF" get "$M/prog" 2>&1)" "$M/prog 64k mount"
check_eq "execfolio get -v: applied by the daemon, its default unknown to mountinfo" \
	"$("$EF" get -v "$M/prog" 2>&1)" \
	"$M/prog 64k mount stored=- mount_default=? fs=fuse.execfoliofs applied_by=daemon"
err=$("$EF" set 16k "$M/prog" 2>&1); rc=$?
check_eq "execfolio set through the mount: exit 0, no warning" "$rc $err" "0 "
check_eq "execfolio get --json: the xattr the daemon applies" \
	"$("$EF" get --json "$M/prog" | jq -r '.[0] | "\(.size) \(.source) \(.applied_by) \(.stored)"')" \
	"16k xattr daemon 16k"
"$EF" set none "$M/prog"
check_eq "execfolio get: an opt-out" "$("$EF" get "$M/prog" 2>&1)" "$M/prog 0 xattr"
"$EF" clear "$M/prog"
chmod 644 "$M/prog"
check_eq "execfolio get: not executable, no xattr" "$("$EF" get "$M/prog" 2>&1)" "$M/prog 0 none"
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
done_testing
