# SPDX-License-Identifier: GPL-2.0-or-later
#
# The disk of vm-robust (a recipe of tests/vm/harness/mkdisk.sh; see
# guest/robust-fsx.sh and guest/robust-stress.sh): fsx/default (mode 0755,
# no xattr: the 64k mount default of the tests applies), fsx/64k and
# fsx/2m (mode 0644, tagged), fsx/flip (mode 0755, 64k at first; the test
# changes it while fsx runs) and stress/prog, a static program with ~800K
# of text (bigtext, mode 0755, no xattr).  Each boot runs on a fresh copy,
# which robust-repair.sh checks afterwards.
disk_inputs() {
	disk_need "$bin/bigtext" "run make vm-guest ARCH=$arch"
	sha256sum "$bin/bigtext" | cut -d' ' -f1
}

disk_stage() {
	mkdir -p "$stage/fsx" "$stage/stress"
	: >"$stage/fsx/default"
	: >"$stage/fsx/64k"
	: >"$stage/fsx/2m"
	: >"$stage/fsx/flip"
	chmod 0755 "$stage/fsx/default" "$stage/fsx/flip"
	chmod 0644 "$stage/fsx/64k" "$stage/fsx/2m"
	install -m 0755 "$bin/bigtext" "$stage/stress/prog"
	disk_rule 'fsx/64k=64k'
	disk_rule 'fsx/2m=2m'
	disk_rule 'fsx/flip=64k'
	disk_strict=1
}
