#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# How make check schedules its kernels, without building one: the VM
# tiers' boots grouped by kernel, the 6.12 backport's among them;
# build-ahead.sh running the tiers beside the kernel builds and stopping
# those when the tiers end; build-kernel.sh's locks, which make a build
# wait for the one before it and a second build of the same kernel wait
# for the first and take its kernel from the cache.
. "$(dirname "$0")/../tap.sh"
tests=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$tests/.." && pwd)
harness=$tests/vm/harness
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- the order of make check's VM runs ----------------------------------------
# Without the settings of a make check that runs this test (MAKEFLAGS):
# the schedule of make check as it is run.
make_eval() {
	(cd "$top" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u VM_ARCHES -u VM_KCONFIG \
		-u KBASE make --no-print-directory -s --eval "vm-sched-print: ; @echo $1" vm-sched-print)
}
# The boots make -n shows for a tier, with its settings.
tier_boots() { # TIER SETTING...
	_tier=$1
	shift
	(cd "$top" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -n --no-print-directory \
		"check-$_tier" "$@" 2>&1) | grep -c 'tier-boot.sh'
}
kernels=$(make_eval '$(VM_CHECK_KERNELS)')
check_eq "the kernels, in the order the tiers first boot them" "$kernels" \
	"arm64/test/execfolio/7.3 arm64/test/execfolio/6.12 x86_64/test/execfolio/7.3"
runs=$(make_eval '$(VM_CHECK_RUNS)')
case " $runs " in
*" vm-smoke-6.12:arm64 vm-suite-6.12:arm64 "*) ok "make check runs vm-smoke and vm-suite on the 6.12 backport" ;;
*) not_ok "make check runs vm-smoke and vm-suite on the 6.12 backport" && diag "runs: $runs" ;;
esac
# Each run's kernel, in the order of the runs: each kernel's runs must be
# one block, in the order of the kernels.
run_kernels=
for run in $runs; do
	k=$(make_eval "\$(foreach b,\$(call vm_boots_on,${run%:*},${run#*:}),\$(call vm_boot_kernel,${run%:*},\$(b)))")
	run_kernels="$run_kernels $k"
done
blocks=$(echo $run_kernels | tr ' ' '\n' | uniq | tr '\n' ' ')
check_eq "each kernel's runs come together, kernel after kernel" "$blocks" "$kernels "
check_eq "VM_ONLY_ARCHES picks a tier's boots: vm-smoke's arm64 one" \
	"$(tier_boots vm-smoke VM_ONLY_ARCHES=arm64)" "1"
check_eq "a tier with no boot on the architecture asked for runs nothing" \
	"$(tier_boots vm-robust VM_ONLY_ARCHES=x86_64)" "0"

# --- build-ahead.sh -------------------------------------------------------------
# A make that records its goals and its pid, then runs until it is
# stopped, and says so.
cat >"$work/fake-make" <<EOF
#!/bin/sh
trap 'echo stopped >"$work/builder.stopped"; exit 143' TERM
echo "\$*" >"$work/builder.goals"
echo \$\$ >"$work/builder.pid.tmp" && mv "$work/builder.pid.tmp" "$work/builder.pid"
sleep 300 &
wait
EOF
chmod +x "$work/fake-make"
# The tiers: wait for the builder to start, then end with status 3.
tiers='for i in $(seq 100); do [ -s "$0/builder.pid" ] && exit 3; sleep 0.1; done; exit 9'
MAKE=$work/fake-make "$harness/build-ahead.sh" "$work/ahead.log" sh -c "$tiers" "$work" \
	>"$work/ahead.out" 2>&1
check_eq "build-ahead exits with the tiers' status" "$?" 3
check_eq "it builds make vm-check-kernels beside them" \
	"$(cat "$work/builder.goals" 2>/dev/null)" "--no-print-directory vm-check-kernels"
for _ in $(seq 50); do
	[ -s "$work/builder.stopped" ] && break
	sleep 0.1
done
check_eq "the builds still running when the tiers end are stopped" \
	"$(cat "$work/builder.stopped" 2>/dev/null)" "stopped"
[ -s "$work/builder.stopped" ] || kill "$(cat "$work/builder.pid")" 2>/dev/null
check "and it says so" grep -q "stopping them" "$work/ahead.out"
# A build that fails: the tiers go on (they make their kernels
# themselves) and it is said.
printf '#!/bin/sh\nexit 2\n' >"$work/failing-make"
chmod +x "$work/failing-make"
tiers='for i in $(seq 100); do [ -s "$0/failing.log.status" ] && exit 0; sleep 0.1; done; exit 9'
MAKE=$work/failing-make "$harness/build-ahead.sh" "$work/failing.log" sh -c "$tiers" "$work" \
	>"$work/failing.out" 2>&1
check_eq "a failed build ahead leaves the tiers' status" "$?" 0
check "and is said" grep -q "building the kernels ahead failed" "$work/failing.out"

# --- build-kernel.sh's locks ------------------------------------------------------
# A tarball that is not one: past its locks, a build fails at unpacking it.
echo "not a tarball" >"$work/linux.tar.xz"
kbuild=$work/kbuild
build_kernel() {
	KERNEL_BUILD=$kbuild KERNEL_TARBALL=$work/linux.tar.xz \
		"$top/fs/scripts/build-kernel.sh" x86_64 test "$work/out/bzImage" stock
}
build_kernel >"$work/first.out" 2>&1
key_lock=$(ls "$kbuild"/locks/x86_64-test-stock-*.lock 2>/dev/null | head -n 1)
# hold LOCK MARKER: holds LOCK for a second, then writes MARKER and lets
# go; returns once it holds it.
hold() {
	rm -f "$work/held" "$2"
	flock "$1" sh -c "touch '$work/held'; sleep 1; echo released >'$2'" &
	for _ in $(seq 100); do
		[ -e "$work/held" ] && return 0
		sleep 0.1
	done
	diag "could not take $1"
	return 1
}
hold "$kbuild/locks/build.lock" "$work/build-released"
build_kernel >"$work/second.out" 2>&1
if grep -q "waiting for the kernel build before this one" "$work/second.out" &&
	[ -s "$work/build-released" ] &&
	grep -q "unpacking" "$work/second.out"; then
	ok "a build waits for the one before it, then unpacks its tree"
else
	not_ok "a build waits for the one before it, then unpacks its tree"
	diag "$(cat "$work/second.out")"
fi
wait

# The same kernel cached meanwhile by the build holding its lock.
if [ -n "$key_lock" ]; then
	cache=$kbuild/cache/$(basename "$key_lock" .lock)
	mkdir -p "$cache"
	echo "the kernel" >"$cache/bzImage"
	echo "CONFIG_X=y" >"$cache/config"
fi
hold "$key_lock" "$work/kernel-released"
build_kernel >"$work/third.out" 2>&1
check_eq "a second build of a kernel waits for the first" \
	"$(grep -c "waiting for another build of the x86_64-test-stock kernel" "$work/third.out")/$(cat "$work/kernel-released" 2>/dev/null)" \
	"1/released"
check_eq "then takes the kernel from the cache" "$(cat "$work/out/bzImage" 2>/dev/null)" "the kernel"
wait
done_testing
