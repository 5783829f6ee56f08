#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tier-boot.sh [OPTION]... RESULTS NAME ARCH KERNEL OUTDIR TEST...
#
# One boot of a VM tier; the generic rule of tests/vm/vm.mk runs one per
# boot of the tier's description (tests/vm/tiers.mk):
#   --make 'GOALS'   make GOALS first: the guest programs, the trees the
#                    disk is made from (repeatable)
#   --make-last 'GOALS'
#                    make GOALS last, just before the boot: the kernel,
#                    which make check builds ahead (build-ahead.sh), so
#                    that the rest is made while it builds
#   --disk RECIPE    the test disk: mkdisk.sh RECIPE, cached in
#                    build/vm/ARCH/RECIPE-disk.img (RECIPE a name of
#                    tests/vm/disks/ or a path); the boot runs on a
#                    copy, OUTDIR.disk.img, left for the checks after it
#   --extra-disk RECIPE
#                    another disk made the same way, attached after the
#                    test disk as a virtio disk with RECIPE as its serial
#                    (repeatable); its copy, OUTDIR.RECIPE.disk.img, is
#                    removed after the boot
#   --program P      build/ARCH/bin/P into the initramfs (repeatable)
#   --timeout S      the limit of the boot (VM_TIMEOUT of run-vm.sh)
# then the initramfs with the guest TESTs (mkinitramfs.sh), KERNEL under
# QEMU (run-vm.sh, the results in OUTDIR) and the TAP, through tap-run:
# RESULTS/NAME-console.tap (console-tap.sh) and RESULTS/NAME-LABEL.tap for
# each TEST (vm-tap.sh), LABEL being the script's name without .sh, or
# given as LABEL=SCRIPT.  When a step before the tests fails,
# RESULTS/NAME-setup.tap records one failure saying which.  Exits 0 once
# the results are recorded: the TAP says how the tests went.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
usage() {
	echo "tier-boot: usage: tier-boot.sh [--make GOALS]... [--make-last GOALS] --disk RECIPE [--extra-disk RECIPE]... [--program P]... [--timeout S] RESULTS NAME ARCH KERNEL OUTDIR TEST..." >&2
	exit 2
}

goals_n=0
goals_last=
disk=
extra_disks=
programs=
timeout=${VM_TIMEOUT:-}
while [ $# -gt 0 ]; do
	case $1 in
	--make)
		[ $# -ge 2 ] || usage
		goals_n=$((goals_n + 1))
		eval "goals_$goals_n=\$2"
		shift 2
		;;
	--make-last)
		[ $# -ge 2 ] || usage
		goals_last=$2
		shift 2
		;;
	--disk)
		[ $# -ge 2 ] || usage
		disk=$2
		shift 2
		;;
	--extra-disk)
		[ $# -ge 2 ] || usage
		extra_disks="$extra_disks $2"
		shift 2
		;;
	--program)
		[ $# -ge 2 ] || usage
		programs="$programs -p $2"
		shift 2
		;;
	--timeout)
		[ $# -ge 2 ] || usage
		timeout=$2
		shift 2
		;;
	--*) usage ;;
	*) break ;;
	esac
done
if [ $# -lt 5 ] || [ -z "$disk" ]; then
	usage
fi
results=$1
name=$2
arch=$3
kernel=$4
out=$5
shift 5
tap_run="$top/tests/tap-run $results"

rm -f "$results/$name-setup.tap"
setup_failed() { # WHAT
	echo "tier-boot: $name: $1 failed" >&2
	mkdir -p "$results"
	printf '1..1\nnot ok 1 - %s: %s failed\n' "$name" "$1" >"$results/$name-setup.tap"
	rm -f "$out".*.disk.img
	exit 0
}

make_goals() { # GOALS
	# shellcheck disable=SC2086
	${MAKE:-make} --no-print-directory -C "$top" $1 || setup_failed "make $1"
}

i=1
while [ $i -le $goals_n ]; do
	goals=
	eval "goals=\$goals_$i"
	make_goals "$goals"
	i=$((i + 1))
done

# A copy of the cached disk of RECIPE, for this boot: COPY.
boot_disk() { # RECIPE COPY
	recipe=$(basename "$1" .sh)
	image=$top/build/vm/$arch/$recipe-disk.img
	"$here/mkdisk.sh" "$1" "$arch" "$image" || setup_failed "the disk ($recipe)"
	cp --sparse=always "$image" "$2" || setup_failed "the copy of the disk ($recipe)"
}

mkdir -p "$(dirname "$out")"
rm -f "$out.disk.img" "$out".*.disk.img
boot_disk "$disk" "$out.disk.img"
extra_images=
for d in $extra_disks; do
	boot_disk "$d" "$out.$(basename "$d" .sh).disk.img"
	extra_images="$extra_images $(basename "$d" .sh)=$out.$(basename "$d" .sh).disk.img"
done

scripts=
for t; do scripts="$scripts ${t#*=}"; done
# shellcheck disable=SC2086
"$here/mkinitramfs.sh" $programs "$arch" "$out.initramfs.gz" $scripts ||
	setup_failed "the initramfs"
[ -z "$goals_last" ] || make_goals "$goals_last"
# shellcheck disable=SC2086 # the extra disks are words
VM_TIMEOUT=${timeout:-900} "$here/run-vm.sh" "$arch" "$kernel" \
	"$out.initramfs.gz" "$out.disk.img" "$out" $extra_images || setup_failed "QEMU"
rm -f "$out".*.disk.img

$tap_run "$name-console" "$here/console-tap.sh" "$out"
for t; do
	script=${t#*=}
	script=${script##*/}
	case $t in
	*=*) label=${t%%=*} ;;
	*) label=${script%.sh} ;;
	esac
	$tap_run "$name-$label" "$here/vm-tap.sh" "$out" "$script"
done
exit 0
