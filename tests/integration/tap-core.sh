#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The TAP core (tests/tap.sh) and its judges (tests/tap-run, tests/
# tap-summary), on tiny scripts of their own: a passing one, a failing one
# (check shows the command's output, check_eq compares exactly), and ones
# that die before done_testing or bail out, which must count as failed;
# plans first and last, test lines after a closing plan, a skip_all.  The
# scripts run under sh and, where it is installed, busybox sh, the shell
# of the VM guests.
. "$(dirname "$0")/../tap.sh"
tests=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/execfolio-tap-core.XXXXXX)
trap 'rm -rf "$work"' EXIT

# script NAME: a test script from stdin, sourcing the core.
script() {
	{
		echo ". '$tests/tap.sh'"
		cat
	} >"$work/$1.sh"
}

script pass <<'EOF'
ok "plain ok"
check "a command that succeeds" true
check_eq "two equal values" "a b" "a b"
check_eq "empty equals empty" "" ""
skip "not here"
setter() { kept=set; }
check "a shell function run by check" setter
check_eq "what it set stays set" "${kept:-}" set
ok 'a backslash stays: a\nb'
done_testing
EOF

script fail <<'EOF'
check "a failing command" sh -c 'echo "what went wrong"; exit 3'
check_eq "empty is not a value" "" x
check_eq "a value is not empty" x ""
ok "one passes"
done_testing
EOF

script dies <<'EOF'
ok "one"
exit 0
ok "never reached"
done_testing
EOF

script killed <<'EOF'
ok "one"
kill -KILL $$
done_testing
EOF

script bails <<'EOF'
ok "one"
bail_out "no disk"
EOF

script skips <<'EOF'
skip_all "nothing to test here"
EOF

# summary NAME SHELL: the closing line of tap-summary over NAME alone,
# run by tap-run under SHELL; its whole output in $work/NAME.summary.
summary() {
	rm -rf "$work/results"
	"$tests/tap-run" "$work/results" "$1" $2 "$work/$1.sh" >/dev/null
	# As outside CI: under CI=true a script skipped as a whole is a
	# failure (tap-summary), which these checks are not about.
	CI= "$tests/tap-summary" "$work/results" >"$work/$1.summary"
	tail -n 1 "$work/$1.summary"
}

# stream NAME: the stream tap-run kept of NAME's last run.
stream() { cat "$work/results/$1.tap"; }

for shell in sh "busybox sh"; do
	if [ "$shell" != sh ] && ! busybox sh -c : 2>/dev/null; then
		skip "busybox sh: busybox is not installed"
		continue
	fi
	check_eq "$shell: a passing script passes, its skip counted" \
		"$(summary pass "$shell")" "7 passed, 0 failed, 1 skipped"
	check_eq "$shell: the plan comes last, counted by the core" \
		"$(stream pass | grep -v '^# exit status' | tail -n 1)" "1..8"
	check "$shell: ok prints its description as given" \
		grep -qx 'ok 8 - a backslash stays: a\\nb' "$work/results/pass.tap"
	check_eq "$shell: a failing script fails each failing test" \
		"$(summary fail "$shell")" "1 passed, 3 failed, 0 skipped"
	check "$shell: check shows the command's output as a diagnostic" \
		grep -qx '# what went wrong' "$work/results/fail.tap"
	check "$shell: check shows the command and its exit status" \
		grep -q '^# command: sh -c .* (exit status 3)$' "$work/results/fail.tap"
	check "$shell: done_testing exits 1 after a failure" \
		grep -qx '# exit status 1' "$work/results/fail.tap"
	check_eq "$shell: a script that exits 0 before done_testing fails" \
		"$(summary dies "$shell")" "1 passed, 1 failed, 0 skipped"
	check "$shell: ... for having no plan" grep -q 'has no TAP plan' "$work/dies.summary"
	check_eq "$shell: a script killed before done_testing fails" \
		"$(summary killed "$shell")" "1 passed, 1 failed, 0 skipped"
	check_eq "$shell: a script that bails out fails" \
		"$(summary bails "$shell")" "1 passed, 1 failed, 0 skipped"
	check "$shell: ... saying why" grep -q 'bailed out: no disk' "$work/bails.summary"
	check_eq "$shell: skip_all skips the script" \
		"$(summary skips "$shell")" "0 passed, 0 failed, 1 skipped"
done

# Streams as other programs print them (cmocka, the harness): the plan first.
raw() { # NAME: a "script" printing stdin as its stream
	cat >"$work/$1.tap.in"
	printf 'cat "%s"\n' "$work/$1.tap.in" >"$work/$1.sh"
}
printf '1..2\nok 1 - one\nok 2 - two\n' | raw first
check_eq "a plan first still passes" "$(summary first sh)" "2 passed, 0 failed, 0 skipped"
printf 'ok 1 - one\n1..1\nok 2 - two\n' | raw after
check_eq "a test line after a closing plan fails the stream" \
	"$(summary after sh)" "2 passed, 1 failed, 0 skipped"
check "... saying so" grep -q 'test lines after its closing plan' "$work/after.summary"
printf 'ok 1 - one\nok 2 - two\n1..3\n' | raw short
check_eq "a closing plan that does not match fails" \
	"$(summary short sh)" "2 passed, 1 failed, 0 skipped"
printf 'ok 1 - one\n1..0 # SKIP too late\n' | raw lateskip
check_eq "a skip of the whole script after tests is no skip: it fails" \
	"$(summary lateskip sh)" "1 passed, 1 failed, 0 skipped"
done_testing
