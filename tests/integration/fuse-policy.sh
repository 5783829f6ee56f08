#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfoliofs resolves and validates the policy like the kernel: the shared
# vectors (tests/vectors/policy.vec) through real mounts, one per pair of
# mount option values, the policy following chmod and xattr changes, and
# exec_folio_scope=all in the policy, get -v and the trace.
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

# vectors_check NAME SIZE|- SCOPE|-: helper output as diagnostics
vectors_check() {
	if out=$("$HELPERS/vectors_mount" "$VEC" "$B" "$M" "$2" "$3"); then
		ok "$1"
	else
		not_ok "$1"
	fi
	diag "$out"
}

efs_mount "$B" "$M"
vectors_check "parse vectors as setxattr, resolve vectors without mount values" - -
efs_umount "$M"

# Each pair of mount values of the vectors, "-" for one left out.
while read -r size scope expect; do
	opts=
	[ "$size" = - ] || opts=exec_folio_size=$size
	[ "$scope" = - ] || opts=${opts:+$opts,}exec_folio_scope=$scope
	rm -rf "$B" && mkdir "$B"
	if [ "$expect" = EINVAL ]; then
		check_fails "-o $opts is a usage error" 2 \
			"$EFS" -f -o "$opts" "$B" "$M"
		continue
	fi
	efs_mount "$B" "$M" -o "$opts"
	vectors_check "resolve vectors with $opts" "$size" "$scope"
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

# exec_folio_scope=all: the mount default for every regular file, 0644
# libraries included; the xattr none still opts a file out.
rm -rf "$B" && mkdir "$B"
check_fails_saying "-o exec_folio_scope=ALL: a usage error that names the values" 2 \
	"invalid exec_folio_scope=ALL: expected exec .* or all" \
	"$EFS" -f -o exec_folio_size=64k,exec_folio_scope=ALL "$B" "$M"
"$HELPERS/mkelf" "$B/lib.so" 262144
chmod 644 "$B/lib.so"
install -m 644 "$B/lib.so" "$B/optout.so"
setfattr -n trusted.exec_folio_size -v none "$B/optout.so"
T=$EFS_DIR/trace
efs_mount "$B" "$M" -o exec_folio_size=64k,exec_folio_scope=all --trace "$T"
check_eq "scope=all: a 0644 file gets the mount default" \
	"$(getfattr --only-values -n trusted.execfoliofs.policy "$M/lib.so" 2>/dev/null)" "64k mount"
check_eq "execfolio get -v: the daemon's policy is the mount default" \
	"$("$EF" get -v "$M/lib.so" 2>/dev/null)" \
	"$M/lib.so 0 none stored=- mount_default=? mount_scope=? fs=fuse.execfoliofs applied_by=none why=fuse daemon_size=64k daemon_source=mount"
check_eq "scope=all: the xattr none still opts a file out" \
	"$(getfattr --only-values -n trusted.execfoliofs.policy "$M/optout.so" 2>/dev/null)" "none xattr"
sh -c "umask 077; exec 3>'$M/new'"
check_eq "scope=all: a file created through the mount, mode 0600" \
	"$(getfattr --only-values -n trusted.execfoliofs.policy "$M/new" 2>/dev/null)" "64k mount"
check "read lib.so and optout.so through the mount" \
	sh -c "cat '$M/lib.so' '$M/optout.so' >/dev/null"
efs_umount "$M"
check_eq "the trace records the mount default of the 0644 file, the opt-out of the other" \
	"$(awk '$1 == "file" { print $3, $4, $5, $6, $7 }' "$T" | paste -sd '|')" \
	"262144 644 64k mount lib.so|262144 644 none xattr optout.so"
done_testing
