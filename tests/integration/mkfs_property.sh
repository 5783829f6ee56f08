#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The property test of mkfs.execfolio: random source trees
# (tests/mkfs/prop_tree.py says what they hold), each built by an
# unprivileged user (every third by root, which sees the source's trusted.*
# xattrs), checked with xfs_repair -n, mounted read-only and
# compared with the source field by field. A difference the report does
# not announce fails, and so does a build refused: every tree it makes
# can be built, whatever its names. Then, per seed, a tree with a device
# number XFS cannot keep must be refused, naming the file.
#
# MKFS_PROP_SEED sets the first seed (default: from the clock), and
# MKFS_PROP_RUNS the number of seeds (default 3); each seed is printed,
# and MKFS_PROP_SEED=N MKFS_PROP_RUNS=1 repeats one run.
. "$TOP/tests/tap.sh"
. "$TOP/tests/xfs-scratch.sh"
. "$TOP/tests/image-workdir.sh"

MKFS=$BIN/mkfs.execfolio
PROP=$TOP/tests/mkfs/prop_tree.py

why=$(xfs_unavailable)
[ -z "$why" ] || skip_all "$why"
command -v python3 > /dev/null || skip_all "python3 not installed"
command -v setpriv > /dev/null || skip_all "setpriv not installed"
[ -x "$MKFS" ] || skip_all "$MKFS not built"

SEED=${MKFS_PROP_SEED:-$(date +%s)}
RUNS=${MKFS_PROP_RUNS:-3}
NOBODY=65534

image_workdir mkfs-prop

as_nobody() {
	setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups --inh-caps=-all "$@"
}

diag "seeds $SEED to $((SEED + RUNS - 1)); repeat one with MKFS_PROP_SEED=N MKFS_PROP_RUNS=1"

run=0
while [ $run -lt "$RUNS" ]; do
	s=$((SEED + run))
	run=$((run + 1))
	R=$W/$s
	mkdir "$R"
	chown $NOBODY:$NOBODY "$R"
	if ! python3 "$PROP" gen "$s" "$R/src" "$R/snap" > "$R/opts" 2> "$R/err"; then
		not_ok "seed $s: the source tree is made"
		diag "$(tail -5 "$R/err")"
		skip "seed $s: no tree"
		skip "seed $s: no tree"
		skip "seed $s: no tree"
		skip "seed $s: no tree"
		rm -rf "$R"
		continue
	fi
	opts=$(sed -n 1p "$R/opts")
	xfsopts=$(sed -n 2p "$R/opts")
	# Nothing reads the tree before the build: its atimes are compared.
	diag "seed $s: options '$opts', mkfs.xfs options '$xfsopts'"
	# Every third seed as root, which sees the trusted.* xattrs.
	if [ $((run % 3)) = 0 ]; then
		as=root uid=0 builder=
	else
		as="an unprivileged user" uid=$NOBODY builder=as_nobody
	fi
	build() {
		# shellcheck disable=SC2086 # the options are words
		$builder "$MKFS" --report "$R/report" $opts "$R/src" "$R/img" \
			-- $xfsopts 2> "$R/err"
	}
	if build; then
		ok "seed $s: $as builds the image"
	else
		not_ok "seed $s: $as builds the image"
		diag "$(head -c 4000 "$R/err")"
		skip "seed $s: no image"
		skip "seed $s: no image"
		skip "seed $s: no image"
		rm -rf "$R"
		continue
	fi
	# shellcheck disable=SC2086
	$builder "$MKFS" --dry-run $opts "$R/src" "$R/x" -- $xfsopts \
		> "$R/policies" 2> /dev/null
	check "seed $s: xfs_repair -n passes" xfs_repair -n "$R/img"
	if mount -o loop,ro "$R/img" "$MNT"; then
		out=$(python3 "$PROP" compare "$R/snap" "$R/src" "$MNT" \
			"$R/report" "$R/policies" "$R/err")
		if [ $? = 0 ]; then
			ok "seed $s: the mounted image matches the source"
		else
			not_ok "seed $s: the mounted image matches the source"
			diag "$(printf '%s\n' "$out" | head -40)"
		fi
		diag "$(printf '%s\n' "$out" | tail -1)"
		umount "$MNT"
	else
		not_ok "seed $s: the image mounts"
	fi
	check_eq "seed $s: the image belongs to the user who built it" \
		"$(stat -c %u "$R/img")" $uid
	rm -rf "$R"

	# A device number XFS cannot keep: refused, the file named.
	B=$W/bad$s
	name=$(python3 "$PROP" baddev "$s" "$B")
	err=$("$MKFS" "$B" "$B.img" 2>&1)
	rc=$?
	if [ $rc = 1 ] && [ ! -e "$B.img" ] &&
		printf '%s' "$err" | grep -q "^mkfs.execfolio: $name: device number"; then
		ok "seed $s: an out-of-range device number is refused, named"
	else
		not_ok "seed $s: an out-of-range device number is refused, named"
		diag "exit $rc: $err"
	fi
	rm -rf "$B" "$B.img"
done

done_testing
