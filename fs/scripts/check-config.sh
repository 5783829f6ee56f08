#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-config.sh DOTCONFIG FRAGMENT...
#
# Fail unless every option a fragment sets is set the same way in the final
# .config (Kconfig silently drops options whose dependencies are missing).
set -eu

dotconfig=$1
shift
bad=0
for fragment in "$@"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			if ! grep -qxF -- "$line" "$dotconfig"; then
				echo "check-config: $(basename "$fragment") wants '$line'," \
					"the .config has '$(grep -E "^(# )?${line%%=*}[= ]" "$dotconfig" || echo unset)'" >&2
				bad=1
			fi
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			if grep -q "^$opt=" "$dotconfig"; then
				echo "check-config: $(basename "$fragment") wants $opt off, the .config has it on" >&2
				bad=1
			fi
			;;
		esac
	done <"$fragment"
done
[ $bad = 0 ] || {
	echo "check-config: $dotconfig lacks options the fragments require; fix fs/config/" >&2
	exit 1
}
