# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by build-kernel.sh and build-each-patch.sh: the locks in
# $KERNEL_BUILD/locks/ (make check builds its kernels ahead of its tiers,
# tests/vm/README.md).
#
#   take_lock FD FILE WHO WHAT   open FILE on FD and lock it, saying
#                                "WHO: waiting for WHAT" when another
#                                build holds it; held until exit
#   take_build_lock KBUILD WHO   the one-kernel-build-at-a-time lock, on
#                                FD 9: each build takes both cores and a
#                                2 GB tree

take_lock() {
	mkdir -p "$(dirname "$2")"
	eval "exec $1>\"\$2\""
	flock -n "$1" && return 0
	echo "$3: waiting for $4"
	flock "$1"
}

take_build_lock() {
	take_lock 9 "$1/locks/build.lock" "$2" "the kernel build before this one (one at a time)"
}
