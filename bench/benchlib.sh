# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# Sourced by the host scripts of the VM benchmarks (bench-kernels.sh,
# bench-costs.sh, bench-x86.sh) after setting $bench to their name: the
# checks of their arguments and settings, which exit 1 with a message.

# Every NAME=KERNEL argument names a kernel image that exists.
bench_need_kernels() { # NAME=KERNEL...
	for k; do
		[ -f "${k#*=}" ] || {
			echo "$bench: no kernel ${k#*=} for ${k%%=*}" >&2
			exit 1
		}
	done
}

# Every read_ahead_kb setting (BENCH_RA) is "device" or a number of KB.
bench_check_ra() { # SETTING...
	for ra; do
		case $ra in
		device) ;;
		'' | 0* | *[!0-9]*)
			echo "$bench: BENCH_RA: '$ra' is neither 'device' nor a read_ahead_kb" >&2
			exit 1
			;;
		esac
	done
}

# One line on a finished boot: its time and its TAP's ok and not ok lines.
bench_took() { # RUNDIR GUEST_SCRIPT
	echo "$bench: took $(cat "$1/seconds") s," \
		"$(grep -c '^ok' "$1/$2.tap" 2>/dev/null || true) ok," \
		"$(grep -c '^not ok' "$1/$2.tap" 2>/dev/null || true) not ok"
}

# run-info's line for each NAME=KERNEL: the image relative to the tree
# ($top) and the start of its SHA-256.
bench_kernel_lines() { # NAME=KERNEL...
	for k; do
		echo "kernel ${k%%=*} ${k#*=} $(sha256sum "${k#*=}" | cut -c1-12)"
	done | sed -e "s| $top/| |"
}
