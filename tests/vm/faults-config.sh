#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# faults-config.sh CONFIG...: TAP, one line per option and built kernel
# .config (build/<arch>/Image.config, bzImage.config): the debug and fault
# injection options the vm-faults tier relies on are really =y (Kconfig
# drops an option whose dependencies are missing without a word).
options="CONFIG_PROVE_LOCKING CONFIG_DEBUG_VM CONFIG_DEBUG_ATOMIC_SLEEP
CONFIG_FAIL_PAGE_ALLOC CONFIG_FAULT_INJECTION_DEBUG_FS"
. "$(dirname "$0")/../tap.sh"
for config; do
	for opt in $options; do
		if [ ! -r "$config" ]; then
			not_ok "$config: $opt=y (no such file: build the kernel)"
		elif grep -qx "$opt=y" "$config"; then
			ok "$config: $opt=y"
		else
			not_ok "$config: $opt=y"
			diag "  it has: $(grep -E "^(# )?${opt}[= ]" "$config" || echo unset)"
		fi
	done
done
done_testing
