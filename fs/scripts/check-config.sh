#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-config.sh DOTCONFIG FRAGMENT...
#
# Fail unless every option a fragment sets is set the same way in the final
# .config (Kconfig silently drops options whose dependencies are missing).
# A later fragment overrides an earlier one, as in merge_config.sh: the
# page size of pages16k.config wins over arm64.config's.
set -eu

dotconfig=$1
shift
bad=0
# "FRAGMENT LINE" for the last line that sets each option.
wanted=$(awk '
	FNR == 1 { frag = FILENAME; sub(/.*\//, "", frag) }
	/^CONFIG_[A-Za-z0-9_]*=/ { opt = $0; sub(/=.*/, "", opt) }
	/^# CONFIG_[A-Za-z0-9_]* is not set$/ { opt = $2 }
	opt != "" {
		if (!(opt in line))
			order[++n] = opt
		line[opt] = frag " " $0
		opt = ""
	}
	END { for (i = 1; i <= n; i++) print line[order[i]] }' "$@")
while read -r fragment line; do
	case $line in
	CONFIG_*=*)
		if ! grep -qxF -- "$line" "$dotconfig"; then
			echo "check-config: $fragment wants '$line'," \
				"the .config has '$(grep -E "^(# )?${line%%=*}[= ]" "$dotconfig" || echo unset)'" >&2
			bad=1
		fi
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		if grep -q "^$opt=" "$dotconfig"; then
			echo "check-config: $fragment wants $opt off, the .config has it on" >&2
			bad=1
		fi
		;;
	esac
done <<END
$wanted
END
[ $bad = 0 ] || {
	echo "check-config: $dotconfig lacks options the fragments require; fix fs/config/" >&2
	exit 1
}
