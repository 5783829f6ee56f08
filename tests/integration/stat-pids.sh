#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfolio stat on PIDs it cannot measure: a kernel thread is named as
# one (it has no user text), and --json still prints JSON when no PID could
# be measured.
. "$TOP/tests/tap.sh"

EF=$BIN/execfolio
[ "$(id -u)" = 0 ] || skip_all "needs root for pagemap PFNs and /proc/kpageflags"
[ -r /proc/kpageflags ] || skip_all "no /proc/kpageflags in this kernel"
command -v jq > /dev/null || skip_all "jq not installed (make deps installs it)"

# A kernel thread: PF_KTHREAD (0x00200000) in the flags of /proc/PID/stat.
kthread=
# kthreadd (PID 2) first: the names of workers change as they work.
for stat in /proc/2/stat /proc/[0-9]*/stat; do
	flags=$(sed -e 's/.*) //' "$stat" 2> /dev/null | awk '{ print $7 }')
	[ -n "$flags" ] || continue
	if [ $((flags & 0x00200000)) != 0 ]; then
		kthread=${stat#/proc/}
		kthread=${kthread%/stat}
		break
	fi
done
[ -n "$kthread" ] || skip_all "no kernel thread visible in /proc"
# No process has the largest PID: pid_max is at most 4194304.
gone=2147483647


err=$("$EF" stat "$kthread" 2>&1 > /dev/null); rc=$?
case "$rc:$err" in
"1:execfolio: stat: PID $kthread: a kernel thread ("*"): it has no user text to measure")
	ok "stat of a kernel thread: exit 1, named as a kernel thread with no user text" ;;
*) not_ok "stat of a kernel thread: exit 1, named as a kernel thread with no user text"; diag "$rc $err" ;;
esac
err=$("$EF" stat "$gone" 2>&1 > /dev/null); rc=$?
check_eq "stat of a PID that does not exist: no such process" \
	"$rc $err" "1 execfolio: stat: PID $gone: no such process"

out=$("$EF" stat --json "$kthread" "$gone" 2> /dev/null); rc=$?
check_eq "stat --json with only failing PIDs: [] and exit 1" "$rc $out" "1 []"
check_eq "... which is JSON" "$(printf '%s' "$out" | jq -c .)" "[]"
out=$("$EF" stat --json $$ "$gone" 2> /dev/null); rc=$?
check_eq "stat --json with one PID measured: its object, exit 1" \
	"$rc $(printf '%s' "$out" | jq -c .pids)" "1 [$$]"

done_testing
