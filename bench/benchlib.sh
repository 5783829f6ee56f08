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

# Where each boot's copy of the guest disk goes: a tmpfs, BENCH_DISK_DIR
# (default /dev/shm), when it has room for IMAGE, else DIR.  A file on a
# disk-backed filesystem keeps its pages in the host's page cache only as
# long as the host wants: a host that reclaims idle page cache on its own
# (proactive reclaim, e.g. DAMON's pageout of pages unused for a minute)
# drops pages of a copy made seconds before, and QEMU then reads them
# from the host's disk, adding milliseconds to a guest's read at random.
# Without swap, tmpfs pages stay in memory.  Sets bench_disks (a
# directory of its own, removed on exit) and bench_disks_note (for
# run-info); a BENCH_DISK_DIR that is not a tmpfs is used with a note.
bench_disk_dir() { # IMAGE DIR
	dir=${BENCH_DISK_DIR:-/dev/shm}
	need_kb=$(du -k "$1" | cut -f1)
	fs=$(stat -f -c %T "$dir" 2>/dev/null || echo none)
	free_kb=$(df -Pk "$dir" 2>/dev/null | awk 'NR == 2 { print $4 }')
	if [ "$fs" = none ] || [ "${free_kb:-0}" -lt $((need_kb + need_kb / 4)) ]; then
		[ -z "${BENCH_DISK_DIR:-}" ] || {
			echo "$bench: BENCH_DISK_DIR $dir: not a directory with $((need_kb / 1024 * 5 / 4)) MiB free for the guest's disk" >&2
			exit 1
		}
		echo "$bench: /dev/shm has no room for the guest's disk ($((need_kb / 1024)) MiB): copying it into $2, where the host may drop its pages during a boot" >&2
		bench_disks=$2
		bench_disks_note="$2 (not a tmpfs)"
		return
	fi
	bench_disks=$(mktemp -d "$dir/execfolio-$bench.XXXXXX")
	# shellcheck disable=SC2064 # the directory is known now
	trap "rm -rf '$bench_disks'" EXIT
	trap 'exit 130' INT TERM
	bench_disks_note="$dir ($fs)"
	[ "$fs" = tmpfs ] || bench_disks_note="$dir ($fs, not a tmpfs)"
}

# One boot of the harness on a fresh copy of IMAGE, then bench_took's
# line: run-vm.sh's arguments after the disk's.  RUNDIR/host-cache
# records how much of the copy was still in the host's memory at the end
# of the boot (fincore), against its allocated size.
bench_boot() { # IMAGE RUNDIR GUEST_SCRIPT ARCH KERNEL INITRAMFS
	disk=$bench_disks/$(basename "$2").disk.img
	cp --sparse=always "$1" "$disk"
	status=0
	"$top/tests/vm/harness/run-vm.sh" "$4" "$5" "$6" "$disk" "$2" || status=$?
	echo "resident $(fincore -b -n -o RES "$disk") allocated $(($(du -k "$disk" | cut -f1) * 1024))" \
		>"$2/host-cache"
	rm -f "$disk"
	[ "$status" -eq 0 ] || exit "$status"
	bench_took "$2" "$3"
}
