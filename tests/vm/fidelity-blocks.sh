# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# Sourced by the host checks of vm-fidelity: guest/fidelity.sh prints what
# it measured as "# " lines between "# fidelity-begin NAME" and
# "# fidelity-end NAME" in its TAP.

# The lines of block NAME of a guest's TAP, without the "# ".
block() { # TAP NAME
	awk -v b="# fidelity-begin $2" -v e="# fidelity-end $2" '
		$0 == b { on = 1; next }
		$0 == e { on = 0 }
		on { sub(/^# ?/, ""); print }' "$1" 2>/dev/null
}
