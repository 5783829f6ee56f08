#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-fuzz.sh BUILD_COMMAND...: the fast fuzz tier of make check for the
# fuzz target FUZZ_TARGET (elf or trace, tests/fuzz/fuzz_TARGET.c). Builds
# it with BUILD_COMMAND, replays every committed corpus input
# (tests/fuzz/corpus/TARGET/) once, then fuzzes for FUZZ_SECONDS from that
# corpus. TAP output.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

FUZZ_CC=${FUZZ_CC:-clang}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
FUZZ_DIR=${FUZZ_DIR:-$top/build/fuzz}
FUZZ_TARGET=${FUZZ_TARGET:-elf}
fuzzer=$FUZZ_DIR/fuzz_$FUZZ_TARGET
corpus=$top/tests/fuzz/corpus/$FUZZ_TARGET

command -v "$FUZZ_CC" >/dev/null ||
	skip_all "$FUZZ_CC not installed (make deps installs clang)"

check "fuzz_$FUZZ_TARGET builds with ASan and UBSan" "$@"

# Each input runs once; a crash aborts with a non-zero status.
n=$(find "$corpus" -type f | wc -l)
if [ "$n" -gt 0 ] &&
	out=$(find "$corpus" -type f -print0 | xargs -0 "$fuzzer" 2>&1); then
	ok "replayed $n committed corpus inputs without a finding"
else
	not_ok "replay of the committed corpus ($n inputs)"
	diag "$(echo "$out" | tail -40)"
fi

work=$(mktemp -d /tmp/execfolio-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
if out=$(cd "$work" && "$fuzzer" -max_total_time="$FUZZ_SECONDS" \
	-print_final_stats=1 corpus "$corpus" 2>&1); then
	ok "fuzzed for $FUZZ_SECONDS s without a finding"
	diag "$(echo "$out" | grep -aE '^stat::number_of_executed_units|^Done')"
else
	not_ok "fuzzing for $FUZZ_SECONDS s found a problem"
	diag "$(echo "$out" | tail -60)"
	cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$FUZZ_DIR"/ 2>/dev/null
fi
done_testing
