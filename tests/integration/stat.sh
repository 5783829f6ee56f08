#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfolio stat on real processes: text on XFS read sequentially gets large
# folios; stat sees them, its text matches smaps, and the kernel's thpmaps
# agrees per folio size within 1%.

. "$TOP/tests/tap.sh"
. "$TOP/tests/xfs-scratch.sh"

why=$(xfs_unavailable)
[ -z "$why" ] || skip_all "$why"
[ -r /proc/kpageflags ] || skip_all "no /proc/kpageflags in this kernel"

execfolio=$BIN/execfolio
holder=${BIN%/bin}/obj/tests/tools/text-holder
[ -x "$holder" ] || { not_ok "text holder $holder not built"; done_testing; }

pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	[ -n "${cg:-}" ] && rmdir "$cg" 2>/dev/null
	scratch_cleanup
}
xfs_scratch_mount || { not_ok "XFS scratch mount"; exit 1; }
trap cleanup EXIT

hold() {
	fifo=$SCRATCH_DIR/ready
	rm -f "$fifo"
	mkfifo "$fifo"
	"$holder" "$@" > "$fifo" &
	holder_pid=$!
	pids="$pids $holder_pid"
	read -r _ _ < "$fifo"
}

head -c 24M /dev/urandom > "$SCRATCH_MNT/text.bin"
dd if="$SCRATCH_MNT/text.bin" iflag=nocache count=0 status=none
cat "$SCRATCH_MNT/text.bin" > /dev/null
hold "$SCRATCH_MNT/text.bin"
pid=$holder_pid
hold "$SCRATCH_MNT/text.bin"
pid2=$holder_pid

json=$("$execfolio" stat --json "$pid")
check "stat --json succeeds on PID $pid" test -n "$json"
large=$(echo "$json" | jq '[.folio_bytes | to_entries[] | select((.key | tonumber) > 4096) | .value] | add')
check "text read sequentially from XFS is in folios larger than 4K ($large bytes)" \
	test "$large" -gt 0
smaps_rss=$(awk '$1 ~ /^[0-9a-f]+-[0-9a-f]+$/ { x = (substr($2, 3, 1) == "x" && $5 != 0) }
	x && $1 == "Rss:" { rss += $2 } END { print rss * 1024 }' "/proc/$pid/smaps")
check_eq "text_bytes equals Rss of executable file mappings in smaps" \
	"$(echo "$json" | jq .text_bytes)" "$smaps_rss"
rows=$(echo "$json" | jq '(([.folio_bytes[]] | add) + .partial_bytes) == .text_bytes')
check_eq "folio sizes and partial folios add up to the text" "$rows" true

# Two processes mapping the same file: its pages are counted once.
both=$("$execfolio" stat --json "$pid" "$pid2")
check_eq "a page mapped by two processes is counted once" \
	"$(echo "$both" | jq '.folio_bytes["2097152"]')" \
	"$(echo "$json" | jq '.folio_bytes["2097152"]')"
check_eq "both PIDs are listed" "$(echo "$both" | jq -c .pids)" "[$pid,$pid2]"

if /usr/bin/python3 -c 'import numpy' 2>/dev/null &&
	thpmaps=$("$TOP/tests/tools/get-thpmaps" "${BIN%/bin}"); then
	"$TOP/tests/tools/thpmaps-exec" "$thpmaps" "$pid" > "$SCRATCH_DIR/thpmaps.json"
	echo "$json" > "$SCRATCH_DIR/stat.json"
	check "thpmaps agrees per folio size within 1%" \
		"$TOP/tests/tools/compare-folios" "$SCRATCH_DIR/stat.json" "$SCRATCH_DIR/thpmaps.json"
	diag "$(cat "$SCRATCH_DIR/thpmaps.json")"
else
	skip "thpmaps needs /usr/bin/python3 with numpy and linux-source-6.12 (make deps)"
fi

# --per-mapping: a line per executable mapping, each page in the first
# mapping that maps it, adding up to the aggregate.
each=$("$execfolio" stat --json --per-mapping "$pid" "$pid2")
check_eq "--per-mapping: the mappings' text adds up to the aggregate" \
	"$(echo "$each" | jq '([.mappings[].text_bytes] | add) == .text_bytes')" true
check_eq "--per-mapping: the text file's mapping is named, with its PID" \
	"$(echo "$each" | jq -r --arg f "$SCRATCH_MNT/text.bin" \
		'[.mappings[] | select(.path == $f) | .pid] | unique | map(tostring) | join(" ")')" \
	"$pid $pid2"
check_eq "--per-mapping: the second process's mapping of it adds nothing" \
	"$(echo "$each" | jq --arg f "$SCRATCH_MNT/text.bin" --argjson p "$pid2" \
		'[.mappings[] | select(.path == $f and .pid == $p) | .text_bytes] | add')" 0
table=$("$execfolio" stat --per-mapping "$pid")
check_eq "--per-mapping table: the text file's line has its resident kB" \
	"$(echo "$table" | awk -v f="$SCRATCH_MNT/text.bin" '$NF == f { print $3 * 1024 }')" \
	"$(echo "$each" | jq --arg f "$SCRATCH_MNT/text.bin" --argjson p "$pid" \
		'[.mappings[] | select(.path == $f and .pid == $p) | .text_bytes] | add')"

# A cgroup v2 (or, failing that, v1) with the first process in it.
cg=
for base in /sys/fs/cgroup /sys/fs/cgroup/unified /sys/fs/cgroup/pids; do
	[ -f "$base/cgroup.procs" ] || continue
	if mkdir "$base/execfolio-test.$$" 2>/dev/null; then
		cg=$base/execfolio-test.$$
		echo "$pid" > "$cg/cgroup.procs" && break
		rmdir "$cg"
		cg=
	fi
done
if [ -n "$cg" ]; then
	check_eq "--cgroup measures the cgroup's processes ($cg)" \
		"$("$execfolio" stat --json --cgroup "$cg" | jq -c '[.pids, .text_bytes]')" \
		"$(echo "$json" | jq -c '[.pids, .text_bytes]')"
	echo "$pid" > "$base/cgroup.procs"
else
	skip "cannot create a cgroup under /sys/fs/cgroup here"
fi

check_fails "a PID that does not exist fails naming it" 1 \
	"$execfolio" stat 2147483646
check_fails "no PID is a usage error" 2 "$execfolio" stat
err=$("$execfolio" stat -1 2>&1 >/dev/null)
check_eq "an unknown option is said once, with the --help hint" \
	"$(echo "$err" | paste -sd '|')" \
	"execfolio stat: unknown option '-1'|Try 'execfolio stat --help'."

# The table: every percentage is a share of the text; the eligible 64K
# blocks are address space (resident or not), given in kB only.
table=$("$execfolio" stat "$pid")
check_eq "no row of the table exceeds 100% of the text" \
	"$(echo "$table" | awk '$3 == "kB" && $4 ~ /%$/ && $4 + 0 > 100')" ""
check_eq "cont-eligible-64kB is given in kB, not as a share of the text" \
	"$(echo "$table" | awk '$1 == "cont-eligible-64kB" { print $3, $4 }')" "kB blocks"

# Root that may not read kpageflags (a copy owned by another user, and no
# CAP_DAC_OVERRIDE): the file, the errno, and no advice to become root.
mkdir "$SCRATCH_DIR/proc"
: > "$SCRATCH_DIR/proc/kpageflags"
chown 65534 "$SCRATCH_DIR/proc/kpageflags"
chmod 0400 "$SCRATCH_DIR/proc/kpageflags"
err=$(setpriv --bounding-set=-dac_override,-dac_read_search \
	"$execfolio" stat --proc "$SCRATCH_DIR/proc" "$pid" 2>&1 >/dev/null)
rc=$?
case "$rc:$err" in
*"run as root"*) not_ok "root refused kpageflags: the file and the errno, not 'run as root'"; diag "$rc: $err" ;;
1:"execfolio: stat: cannot open $SCRATCH_DIR/proc/kpageflags: Permission denied (EACCES); the process runs as root but lacks"*)
	ok "root refused kpageflags: the file and the errno, not 'run as root'" ;;
*) not_ok "root refused kpageflags: the file and the errno, not 'run as root'"; diag "$rc: $err" ;;
esac
check_fails "a cgroup directory that does not exist fails" 1 \
	"$execfolio" stat --cgroup "$SCRATCH_DIR/nonexistent"
if command -v setpriv >/dev/null; then
	err=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$execfolio" stat "$pid" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 1 ] && echo "$err" | grep -q "root"; then
		ok "without privileges stat fails saying it needs root"
	else
		not_ok "without privileges stat fails saying it needs root"
		diag "status $rc: $err"
	fi
else
	skip "setpriv not installed"
fi
done_testing
