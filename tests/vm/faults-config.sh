#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# faults-config.sh CONFIG...: TAP, one line per option and built kernel
# .config (build/<arch>/Image.config, bzImage.config): the debug and fault
# injection options the vm-faults tier relies on are really =y (Kconfig
# drops an option whose dependencies are missing without a word).
options="CONFIG_PROVE_LOCKING CONFIG_DEBUG_VM CONFIG_DEBUG_ATOMIC_SLEEP
CONFIG_FAIL_PAGE_ALLOC CONFIG_FAULT_INJECTION_DEBUG_FS"
n=0
failed=0
echo "1..$(($# * $(echo $options | wc -w)))"
for config; do
	for opt in $options; do
		n=$((n + 1))
		if [ ! -r "$config" ]; then
			echo "not ok $n - $config: $opt=y (no such file: build the kernel)"
			failed=1
		elif grep -qx "$opt=y" "$config"; then
			echo "ok $n - $config: $opt=y"
		else
			echo "not ok $n - $config: $opt=y"
			echo "#   it has: $(grep -E "^(# )?${opt}[= ]" "$config" || echo unset)"
			failed=1
		fi
	done
done
exit $failed
