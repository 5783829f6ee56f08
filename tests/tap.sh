# SPDX-License-Identifier: GPL-2.0-or-later
#
# The TAP core of every shell test, on the host and in the VM guests
# (busybox sh there: POSIX sh only).  Source it, report each test with
# ok, not_ok, skip or one of the check helpers, and end with done_testing,
# which prints the plan, "1..N", after the tests and exits: a script that
# dies before it has no plan, and tests/tap-summary fails it.  A script
# that cannot run at all calls skip_all WHY instead, before any test.
#
# The core's own variables and those of its helpers start with TAP_ or
# _tap_: a command run by check may be a shell function of the test.

TAP_N=0
TAP_FAILED=0

ok() {
	TAP_N=$((TAP_N + 1))
	printf 'ok %d - %s\n' "$TAP_N" "$*"
}

not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	printf 'not ok %d - %s\n' "$TAP_N" "$*"
}

skip() {
	TAP_N=$((TAP_N + 1))
	printf 'ok %d # SKIP %s\n' "$TAP_N" "$*"
}

# diag MESSAGE...: each line of the message as a "# " line.
diag() {
	printf '%s\n' "$*" | while IFS= read -r _tap_line || [ -n "$_tap_line" ]; do
		printf '# %s\n' "$_tap_line"
	done
}

# skip_all WHY: the whole script skipped (plan "1..0 # SKIP WHY").
skip_all() {
	printf '1..0 # SKIP %s\n' "$*"
	exit 0
}

# bail_out WHY: the script cannot go on; it fails without a plan.
bail_out() {
	printf 'Bail out! %s\n' "$*"
	exit 1
}

# done_testing: the plan, then exit 0 if every test passed, else 1.
done_testing() {
	printf '1..%d\n' "$TAP_N"
	[ "$TAP_FAILED" = 0 ] && exit 0
	exit 1
}

# check DESCRIPTION COMMAND...: ok when the command succeeds.  It runs in
# this shell (what it sets stays set), its output kept aside and shown
# as diagnostics when it fails.
check() {
	_tap_desc=$1
	shift
	_tap_out=$(mktemp "${TMPDIR:-/tmp}/tap-check.XXXXXX") || {
		not_ok "$_tap_desc"
		diag "check: mktemp failed"
		return
	}
	if "$@" >"$_tap_out" 2>&1; then
		ok "$_tap_desc"
	else
		_tap_rc=$?
		not_ok "$_tap_desc"
		diag "command: $*" "(exit status $_tap_rc)"
		[ ! -s "$_tap_out" ] || diag "$(cat "$_tap_out")"
	fi
	rm -f "$_tap_out"
}

# check_eq DESCRIPTION GOT WANT: ok when what the code under test gave is
# exactly what it should have; empty equals empty.  Where WANT is computed
# and must not be empty, give it a default that GOT cannot be:
# "${want:-(what went wrong)}".
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "got:  $2"
		diag "want: $3"
	fi
}

# check_fails DESCRIPTION EXPECTED_STATUS COMMAND...: the command must exit
# with that status and say something on stderr.
check_fails() {
	_tap_desc=$1
	_tap_want=$2
	shift 2
	check_fails_saying "$_tap_desc" "$_tap_want" '' "$@"
}

# check_fails_saying DESCRIPTION EXPECTED_STATUS PATTERN COMMAND...: the
# same, and what it says on stderr matches PATTERN (grep), when not empty.
check_fails_saying() {
	_tap_desc=$1
	_tap_want=$2
	_tap_say=$3
	shift 3
	_tap_err=$("$@" 2>&1 >/dev/null)
	_tap_rc=$?
	if [ "$_tap_rc" = "$_tap_want" ] && [ -n "$_tap_err" ] &&
		{ [ -z "$_tap_say" ] || printf '%s\n' "$_tap_err" | grep -q -- "$_tap_say"; }; then
		ok "$_tap_desc"
		diag "stderr: $_tap_err"
	else
		not_ok "$_tap_desc"
		diag "command: $*"
		diag "exit status $_tap_rc (expected $_tap_want), stderr: $_tap_err"
		[ -z "$_tap_say" ] || diag "expected a message with: $_tap_say"
	fi
}
