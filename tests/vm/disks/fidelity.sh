# SPDX-License-Identifier: GPL-2.0-or-later
#
# The disk of vm-fidelity (a recipe of tests/vm/harness/mkdisk.sh; see
# guest/fidelity.sh), arm64: fidelity/plain (Debian's sqlite3 and its
# libraries, build/vm/arm64/sqlite-tree, no xattrs), fidelity/tagged (the
# same tree, executables and shared libraries tagged 64k),
# fidelity/workload.sql and the guest's execfoliofs.
tree=$build/vm/arm64/sqlite-tree
workload=$top/tests/vm/fidelity-workload.sql

disk_inputs() {
	disk_need "$bin/execfoliofs" "run make ARCH=$arch (with libfuse3-dev:$arch)"
	disk_need "$tree/usr/bin/sqlite3" "run make $tree.stamp"
	sha256sum "$bin/execfoliofs" "$workload" | cut -d' ' -f1
	disk_tree "$tree"
}

disk_stage() {
	mkdir -p "$stage/fidelity"
	cp -a "$tree" "$stage/fidelity/plain"
	cp -a "$tree" "$stage/fidelity/tagged"
	install -m 0644 "$workload" "$stage/fidelity/workload.sql"
	install -m 0755 "$bin/execfoliofs" "$stage/fidelity/execfoliofs"
	disk_rule 'fidelity/tagged/usr/bin/*=64k'
	disk_rule 'fidelity/tagged/*.so*=64k'
}
