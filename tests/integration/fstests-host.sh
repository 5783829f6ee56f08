#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The host side of make check-fstests (fstests/), without a VM or the
# fstests snapshot: results-table.py's rows from an xunit report and from
# the console of a stopped run, and its errors; the config sections of
# local-config.sh as fstests' own parser reads them; the lists and the
# exclusion file; run.sh and build.sh refusing bad input before they
# touch anything.
. "$TOP/tests/tap.sh"

F=$TOP/fstests
command -v python3 >/dev/null || skip_all "python3 not installed"

W=$(mktemp -d /tmp/execfolio-fstests.XXXXXX)
trap 'rm -rf "$W"' EXIT

# An xunit report as fstests' common/report writes it: a pass, a test
# not run and a failure.
mkdir -p "$W/a/results/xfs-64k"
cat >"$W/a/results/xfs-64k/result.xml" <<'EOF2'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="xfstests" failures="1" skipped="1" tests="3" time="40">
	<properties>
		<property name="SECTION" value="xfs-64k"/>
	</properties>
	<testcase classname="xfstests.xfs-64k" name="generic/001" time="12">
	</testcase>
	<testcase classname="xfstests.xfs-64k" name="generic/002" time="0">
		<skipped message="this test requires a valid $SCRATCH_DEV" />
	</testcase>
	<testcase classname="xfstests.xfs-64k" name="generic/075" time="28">
		<failure message="- output mismatch (see generic/075.out.bad)" type="TestFail" />
		<system-out><![CDATA[
fsx output
]]></system-out>
	</testcase>
</testsuite>
EOF2
check_eq "xunit: one row per test and config, status, time, reason" \
	"$("$F/results-table.py" --tsv "$W/a/results")" \
	"$(printf '%s\n' 'test	config	result	seconds	note' \
		'generic/001	xfs-64k	pass	12	' \
		'generic/002	xfs-64k	notrun	0	this test requires a valid $SCRATCH_DEV' \
		'generic/075	xfs-64k	fail	28	- output mismatch (see generic/075.out.bad)')"
check_eq "xunit: a Markdown row" \
	"$("$F/results-table.py" "$W/a/results" | sed -n 3p)" \
	"| generic/001 | xfs-64k | pass | 12 |  |"

# A run stopped at its timeout: no xunit report, check's console only.
mkdir -p "$W/b/results/xfs"
cat >"$W/b/results/check.console" <<'EOF2'
SECTION       -- xfs
RECREATING    -- xfs on /dev/vda
generic/001 3s ...  4s
generic/002       [not run] this test requires a valid $SCRATCH_DEV
generic/003 - output mismatch (see /opt/fstests/results/xfs/generic/003.out.bad)
    --- tests/generic/003.out
generic/004       [expunged]
generic/005 12s
generic/006
EOF2
check_eq "console of a stopped run: passes, not run, failure, the unfinished test" \
	"$("$F/results-table.py" --tsv "$W/b/results" | cut -f1-4)" \
	"$(printf '%s\n' 'test	config	result	seconds' \
		'generic/001	xfs	pass	4' 'generic/002	xfs	notrun	' \
		'generic/003	xfs	fail	' 'generic/005	xfs	pass	12' \
		'generic/006	xfs	unfinished	')"
check_eq "two runs: rows of both configs, sorted by test" \
	"$("$F/results-table.py" --tsv "$W/a/results" "$W/b/results" | awk 'NR > 1 && $1 == "generic/001" { print $2 }' | tr '\n' ' ')" \
	"xfs xfs-64k "
check_fails "no directory: usage, exit 2" 2 "$F/results-table.py"
check_fails_saying "not a directory: exit 1" 1 "not a results directory" \
	"$F/results-table.py" "$W/none"
mkdir -p "$W/c/results"
check_fails_saying "no results in it: exit 1" 1 "no fstests results" \
	"$F/results-table.py" "$W/c/results"

# local.config, read the way fstests' parse_config_section reads it.
"$F/local-config.sh" >"$W/local.config"
section() { # NAME: the section's settings, one VAR="value" a line
	sed -e 's/[[:space:]]*\=[[:space:]]*/=/g' -e 's/#.*$//' \
		-e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' \
		-e "s/^\([^=]*\)=\"\?'\?\([^\"']*\)\"\?'\?$/\1=\"\2\"/" \
		<"$W/local.config" | sed -n -e "/^\[$1\]/,/^\s*\[/{/^[^#].*\=.*/p;}"
}
check_eq "local.config: the five sections" \
	"$(grep '^\[' "$W/local.config" | tr '\n' ' ')" \
	"[xfs] [xfs-64k] [xfs-2m] [xfs-all] [xfs-16k-64k] "
check_eq "xfs: no mount options, the policy off" \
	"$(section xfs | grep -c MOUNT_OPT)" "0"
check_eq "xfs-all: the default on every regular file, test and scratch" \
	"$(section xfs-all | grep MOUNT_OPT | sort | tr '\n' ' ')" \
	'MOUNT_OPTIONS="-o exec_folio_size=64k,exec_folio_scope=all" TEST_FS_MOUNT_OPTS="-o exec_folio_size=64k,exec_folio_scope=all" '
check_eq "xfs-16k-64k: 16K blocks, 64k, the test device made again" \
	"$(section xfs-16k-64k | grep -E 'MKFS|^MOUNT|RECREATE' | sort | tr '\n' ' ')" \
	'MKFS_OPTIONS="-b size=16384" MOUNT_OPTIONS="-o exec_folio_size=64k" RECREATE_TEST_DEV="true" '

# The lists: enough distinct tests, none also excluded, a reason for
# every exclusion.
tests_of() { sed -e 's/#.*//' "$@" | grep /; }
check_eq "lists/main: at least 150 distinct tests" \
	"$(tests_of "$F/lists/main" | sort -u | awk 'END { print (NR >= 150) }')" "1"
check_eq "lists/folio: at least 40 distinct tests" \
	"$(tests_of "$F/lists/folio" | sort -u | awk 'END { print (NR >= 40) }')" "1"
check_eq "no listed test is excluded, every exclusion has a reason" \
	"$(tests_of "$F/exclude/all.exclude" | sort >"$W/x"
		tests_of "$F/lists/main" "$F/lists/folio" | sort -u | comm -12 - "$W/x"
		grep -v '^#' "$F/exclude/all.exclude" | grep -cv ' # .')" "0"

# Bad input, refused before anything is made.
touch "$W/kernel"
check_fails_saying "run.sh: an unknown config section, exit 2" 2 "not a section" \
	"$F/run.sh" arm64 "$W/kernel" "$W/root.img" "$W/initramfs" "$W/out" xfs-8k
check_fails_saying "run.sh: no kernel, exit 1, nothing made" 1 "make kernel" \
	"$F/run.sh" arm64 "$W/nokernel" "$W/root.img" "$W/initramfs" "$W/out" xfs
echo x >"$W/tarball"
"$F/build.sh" "$W/tarball" 0123 arm64 "$W/build" 2>"$W/err"
check_eq "build.sh: a tarball of another sha256, exit 1, nothing unpacked" \
	"$? $(grep -c 'expected 0123' "$W/err") $(ls "$W" | grep -c -e out -e build)" "1 1 0"
done_testing
