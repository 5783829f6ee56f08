#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The host side of the VM tier driver, without a VM: mkdisk.sh makes a
# disk from a recipe once, reuses it while the inputs are unchanged,
# rebuilds it when one changes and leaves nothing behind when a recipe
# fails; tier-boot.sh records a failing setup line, which tap-summary
# counts, when a make goal or the disk cannot be made; tiers.mk describes
# every tier the driver runs.
. "$(dirname "$0")/../tap.sh"
harness=$(cd "$(dirname "$0")/../vm/harness" && pwd)
tests=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$tests/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
arch=$(uname -m | sed -e 's/aarch64/arm64/')

[ -x "$top/build/bin/mkfs.execfolio" ] || skip_all "mkfs.execfolio is not built (make)"

# A recipe that stages one file from $INPUT and counts its builds in $COUNT.
cat >"$work/recipe.sh" <<'RECIPE'
disk_inputs() { sha256sum "$INPUT"; }
disk_stage() {
	cp "$INPUT" "$stage/input"
	disk_rule 'input=64k'
	disk_size=300m
	echo built >>"$COUNT"
}
RECIPE
echo one >"$work/input"
INPUT=$work/input
COUNT=$work/count
export INPUT COUNT
image=$work/disk.img
builds() { wc -l <"$COUNT" 2>/dev/null | tr -d ' ' || echo 0; }

check "a recipe makes a disk" "$harness/mkdisk.sh" "$work/recipe.sh" "$arch" "$image"
check_eq "the disk holds the staged file" \
	"$(xfs_db -r -c 'path /input' -c 'print core.size' "$image" 2>&1)" "core.size = 4"
"$harness/mkdisk.sh" "$work/recipe.sh" "$arch" "$image"
check_eq "unchanged inputs: the cached disk is reused" "$(builds)" 1
echo two >"$work/input"
"$harness/mkdisk.sh" "$work/recipe.sh" "$arch" "$image"
check_eq "a changed input: the disk is made again" "$(builds)" 2
"$harness/mkdisk.sh" "$work/recipe.sh" x86_64-other "$image"
check_eq "another architecture: the disk is made again" "$(builds)" 3

cat >"$work/broken.sh" <<'RECIPE'
disk_inputs() { echo broken; }
disk_stage() {
	echo half >"$stage/half"
	false
}
RECIPE
check_fails "a failing recipe fails" 1 "$harness/mkdisk.sh" "$work/broken.sh" "$arch" "$image"
check "it leaves no image and no key behind" \
	sh -c "[ ! -e '$image' ] && [ ! -e '$image.key' ] && [ ! -e '$image.root' ]"
check_fails "a missing recipe fails" 1 "$harness/mkdisk.sh" "$work/none.sh" "$arch" "$image"

# tier-boot.sh: setup failures become one failing TAP line each.
results=$work/results
summary_line() {
	CI=true "$tests/tap-summary" "$results" | tail -n 1
}
MAKE=false "$harness/tier-boot.sh" --make "kernel" --disk smoke \
	"$results/vm-x" arm64 arm64 /nonexistent "$work/run" smoke.sh >/dev/null 2>&1
check_eq "a make goal that fails: tier-boot exits 0 and records NAME-setup" \
	"$(sed -n 2p "$results/vm-x/arm64-setup.tap" 2>/dev/null)" \
	"not ok 1 - arm64: make kernel failed"
check_eq "tap-summary counts it as a failure" "$(summary_line)" "0 passed, 1 failed, 0 skipped"
MAKE=true "$harness/tier-boot.sh" --make "nothing" --disk "$work/broken.sh" \
	"$results/vm-x" arm64 "$arch" /nonexistent "$work/run" smoke.sh >/dev/null 2>&1
check_eq "a disk that cannot be made is a setup failure" \
	"$(sed -n 2p "$results/vm-x/arm64-setup.tap" 2>/dev/null)" \
	"not ok 1 - arm64: the disk (broken) failed"

# Every tier of tiers.mk names its tests and a disk recipe that exist.
missing=$(cd "$top" && make --no-print-directory -s --eval '
vm-driver-list:
	@$(foreach t,$(VM_TIERS) $(VM_FULL_TIERS),echo "$(t) disk=$(subst $() ,:,$(strip $(call vm_field,$(t),disk) $(call vm_field,$(t),disks))) $(foreach a,arm64 x86_64,$(call vm_field,$(t),tests) $(call vm_field,$(t),tests.$(a)))";)
' vm-driver-list | while read -r tier disks scripts; do
	for d in $(echo "${disks#disk=}" | tr : ' '); do
		[ -r "$top/tests/vm/disks/$d.sh" ] || echo "$tier: no recipe $d"
	done
	for s in $scripts; do
		[ -r "$top/tests/vm/guest/${s#*=}" ] || echo "$tier: no guest test ${s#*=}"
	done
done)
check_eq "every tier's disk recipes and guest tests exist" "$missing" ""

# The guest scripts source what mkinitramfs.sh puts in /tests/lib:
# tests/tap.sh and the files of tests/vm/lib/.
unknown=$(sed -n 's|^\. \(/tests/[^ ]*\)$|\1|p' "$top"/tests/vm/guest/*.sh \
	"$top"/tests/vm/lib/*.sh | sort -u | while read -r lib; do
	case $lib in
	/tests/lib/tap.sh) ;;
	/tests/lib/*) [ -r "$top/tests/vm/lib/${lib#/tests/lib/}" ] || echo "$lib" ;;
	*) echo "$lib" ;;
	esac
done)
check_eq "the guest tests source only the libraries of /tests/lib" "$unknown" ""
# The guests run busybox sh.
if busybox sh -c : 2>/dev/null; then
	unparsed=$(for f in "$top"/tests/vm/guest/*.sh "$top"/tests/vm/lib/*.sh \
		"$top"/tests/tap.sh; do
		busybox sh -n "$f" 2>&1 || echo "${f#"$top"/} does not parse"
	done)
	check_eq "every guest test and library parses under busybox sh" "$unparsed" ""
else
	skip "busybox is not installed: the guest scripts' syntax is not checked"
fi
done_testing
