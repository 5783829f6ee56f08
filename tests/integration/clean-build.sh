#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A fresh clone of the repository (its committed state) builds without
# touching its own tree: after make, make tests and make deb, git status
# shows no tracked file changed and no file outside build/, ignored files
# included. make deb there runs the unit tests: no debhelper output is
# committed that would make dh skip its build and test steps, and what
# debhelper writes into debian/ when the package is built in the tree
# itself is ignored. One clone serves every check (make deb takes about a
# minute).
. "$TOP/tests/tap.sh"

command -v git > /dev/null || skip_all "git not installed"
head=$(git -C "$TOP" rev-parse --short HEAD 2> /dev/null) ||
	skip_all "$TOP is not a git repository"


work=$(mktemp -d /tmp/execfolio-clean.XXXXXX)
trap 'rm -rf "$work"' EXIT
src=$work/src
diag "clone of $head (uncommitted changes are not in it)"

# outside_build: what git status says about the clone, but build/.
outside_build() {
	git -C "$src" status --porcelain --ignored | grep -v '^!! build/$'
}

check "git clone" git clone -q "$TOP" "$src"
jobs=$(nproc)
if nice make -C "$src" --no-print-directory -j"$jobs" > "$work/make.log" 2>&1 &&
	nice make -C "$src" --no-print-directory -j"$jobs" tests >> "$work/make.log" 2>&1; then
	check_eq "make, make tests: nothing changed or new outside build/" \
		"$(outside_build)" ""
else
	not_ok "make, make tests: nothing changed or new outside build/"
	diag "$(tail -20 "$work/make.log")"
fi

# Paths debhelper writes into debian/ when dpkg-buildpackage runs in the tree.
left=
for f in debian/debhelper-build-stamp debian/.debhelper/generated/execfolio/x \
	debian/files debian/execfolio.substvars debian/execfolio.debhelper.log \
	debian/execfolio.postrm.debhelper debian/execfolio/DEBIAN/control \
	debian/tmp/usr/bin/execfolio; do
	git -C "$src" check-ignore -q "$f" || left="$left $f"
done
check_eq "debhelper's output in debian/ is ignored, none of it committed" \
	"$left $(git -C "$src" ls-files debian | grep -v -x -e debian/changelog \
		-e debian/control -e debian/copyright -e debian/rules \
		-e debian/source/format -e 'debian/execfolio\.[a-z-]*' | tr '\n' ' ')" " "

if ! (cd "$src" && dpkg-checkbuilddeps) > /dev/null 2>&1; then
	skip "make deb runs the unit tests: build dependencies missing (make deps)"
	skip "make deb: nothing changed or new outside build/"
	skip "make deb built the package"
	done_testing
	exit
fi
nice make -C "$src" --no-print-directory deb > "$work/deb.log" 2>&1
rc=$?
# tests/tap-run names each unit test program, tests/tap-summary counts.
units=$(grep -c '^# ---- unit/test_' "$work/deb.log")
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/deb.log" | tail -1)
check_eq "make deb runs the unit tests, all passing" \
	"$([ "$units" -gt 0 ] && echo "some" || echo "none") $(echo "$summary" | sed 's/^[0-9]* passed, \([0-9]*\) failed.*/\1 failed/')" \
	"some 0 failed"
diag "make deb: $units unit test programs, $summary"
check_eq "make deb: nothing changed or new outside build/" "$(outside_build)" ""
check_eq "make deb built the package (exit 0)" \
	"$rc $(ls "$src"/build/execfolio_*.deb 2> /dev/null | wc -l)" "0 1"
[ "$rc" = 0 ] || diag "$(tail -20 "$work/deb.log")"

done_testing
