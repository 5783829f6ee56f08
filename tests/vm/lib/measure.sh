# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest measurement of running programs (/tests/lib/measure.sh):
# execfolio stat --json and what the tests read from it, the run of the
# large test program, and their report as TAP diagnostics (diag, from
# /tests/lib/tap.sh, sourced first).
. /tests/lib/counters.sh

# execfolio stat --json PID... into FILE.
stat_json() { # FILE PID...
	f=$1
	shift
	execfolio stat --json "$@" >"$f"
}

# The value of a top-level numeric KEY of a stat --json FILE.
json_u64() { # FILE KEY
	tr -d '{}"' <"$1" | tr ',' '\n' | awk -F: -v k="$2" '
		$1 == k { print $2; found = 1 }
		$1 == "folio_bytes" && k == "folio_bytes" { print $3 }
		END { if (!found) print 0 }'
}

# Cont-aligned share of a stat --json FILE in tenths of a percent.
share_permille() { # FILE
	awk -v a="$(json_u64 "$1" cont_aligned_64k_bytes)" \
		-v e="$(json_u64 "$1" cont_eligible_64k_bytes)" \
		'BEGIN { print e ? int(a * 1000 / e) : 0 }'
}

# Text bytes in folios of SIZE bytes or more, of a stat --json FILE.
folio_bytes_from() { # FILE SIZE
	sed -e 's/.*"folio_bytes":{\([^}]*\)}.*/\1/' "$1" | tr -d '"' | tr ',' '\n' |
		awk -F: -v min="$2" '$1 + 0 >= min + 0 { sum += $2 } END { print sum + 0 }'
}

# "12.3%" from tenths of a percent.
percent() { echo "$(($1 / 10)).$(($1 % 10))%"; }

# Text by folio size of a stat --json FILE: "4K=123kB 64K=4567kB ...",
# sizes with no resident text left out.
folio_summary() { # FILE
	sed -e 's/.*"folio_bytes":{\([^}]*\)}.*/\1/' "$1" | tr -d '"' | tr ',' '\n' |
		awk -F: '$2 > 0 { s = $1 / 1024; u = "K"
			if (s >= 1024) { s /= 1024; u = "M" }
			printf "%s%d%s=%dkB", sep, s, u, $2 / 1024; sep = " " }
			END { print "" }'
}

# Wait up to TENTHS tenths of a second for PATTERN in FILE.
wait_for() { # FILE PATTERN TENTHS
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		[ $i -ge "$3" ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# Run the bigprog at PATH (it waits once it has executed all its text),
# measure it into FILE (and execfolio stat's table into FILE less .json
# plus .txt), stop it.  Leaves "READ CACHED" of the run in
# $delta.  Fails if the program did not finish its text.
run_bigprog() { # PATH FILE
	counters_start
	"$1" wait >/tmp/bigprog.out 2>&1 &
	pid=$!
	if ! wait_for /tmp/bigprog.out '^bigprog ' 3000; then
		kill $pid
		wait $pid 2>/dev/null
		return 1
	fi
	stat_json "$2" $pid
	execfolio stat $pid >"${2%.json}.txt"
	cp "/proc/$pid/smaps" /tmp/bigprog.smaps 2>/dev/null
	text_mappings $pid
	delta=$(counters_delta)
	kill $pid
	wait $pid 2>/dev/null
	return 0
}

# Report a measured run as TAP diagnostics: NAME FILE "READ CACHED".
report_run() { # NAME FILE DELTA
	set -- "$1" "$2" $3
	diag "$1: cont-aligned share $(percent "$(share_permille "$2")")" \
		"($(json_u64 "$2" cont_aligned_64k_bytes) of" \
		"$(json_u64 "$2" cont_eligible_64k_bytes) bytes)," \
		"text $(json_u64 "$2" text_bytes) bytes," \
		"pmd-mapped $(json_u64 "$2" pmd_mapped_bytes) bytes," \
		"in partly mapped folios $(json_u64 "$2" partial_bytes) bytes"
	diag "$1: text by folio size: $(folio_summary "$2")"
	diag "$1: read from disk $3 bytes, page cache grew by $4 bytes"
}

# Diagnostics: each executable file mapping of PID with its resident
# text, the part of it in small folios and its cont-aligned share
# (execfolio stat --per-mapping), to see where a share falls short.
text_mappings() { # PID
	execfolio stat --per-mapping "$1" | sed -n -e '/^mappings/,$ s/^/# /p'
}

# The kernel's effective exec folio state of each FILE (vmhelper state).
policy_states() { # FILE...
	for f; do echo "# $f: $(vmhelper state "$f" 2>&1)"; done
}

# The folio fallback counters of /proc/vmstat.
vmstat_folios() {
	grep -E '^(thp_file|nr_file_hugepages|thp_split)' /proc/vmstat | tr '\n' ' ' |
		sed -e 's/^/# vmstat: /' -e 's/ $/\n/'
}
