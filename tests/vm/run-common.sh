# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the host-side scripts that set up and boot one VM run with the
# arguments ARCH KERNEL OUTDIR TEST... (suite-run.sh, robust-run.sh, faults-run.sh):
#
#   . "$(dirname "$0")/run-common.sh"
#   vm_run_args NAME "$@"
#   shift 3
#
# Sets $arch, $kernel, $out, $here (tests/vm), $build and $bin (the guest
# programs of ARCH); exits, with a message naming NAME, when the arguments
# are missing or KERNEL is not there.
vm_run_args() { # NAME ARCH KERNEL OUTDIR
	[ $# -ge 4 ] || {
		echo "$1: usage: $1.sh ARCH KERNEL OUTDIR [TEST...]" >&2
		exit 2
	}
	arch=$2
	kernel=$3
	out=$4
	here=$(cd "$(dirname "$0")" && pwd)
	build=$(cd "$here/../.." && pwd)/build
	bin=$build/$arch/bin
	[ -f "$kernel" ] || {
		echo "$1: no kernel $kernel: run make kernel ARCH=$arch" >&2
		exit 1
	}
}
