# SPDX-License-Identifier: GPL-2.0-or-later
#
# The disk of vm-smoke (a recipe of tests/vm/harness/mkdisk.sh; see
# guest/smoke.sh and guest/vectors.sh for what they do with it;
# guest/hwpoison.sh writes a file of its own):
#   bigtext         ~800K of text, no xattr: the 64k mount default applies
#   bigtext.none    xattr none
#   bigtext.fi      no xattr, for the fault injection part
#   bigtext.leaf    xattr 64k in a leaf-form attribute fork (8 user
#                   xattrs of 200 bytes), mode 0644
#   plain           256K of random data, mode 0644
#   vectors/line-N  through the loop mount: a file per policy vector whose
#                   xattr is malformed, stored as given by vecstage
#                   (tests/vm/vecstage.c, a host program): mkfs.execfolio
#                   cannot store such a value
# faults.sh builds on it.
vecstage=$build/obj/tests/vm/vecstage
policy_vec=$top/tests/vectors/policy.vec

smoke_inputs() {
	disk_need "$bin/bigtext" "run make vm-guest ARCH=$arch"
	disk_need "$vecstage" "run make $vecstage"
	sha256sum "$bin/bigtext" "$vecstage" "$policy_vec" "$top/tests/vm/disks/smoke.sh" |
		cut -d' ' -f1
}

smoke_stage() {
	install -m 0755 "$bin/bigtext" "$stage/bigtext"
	install -m 0755 "$bin/bigtext" "$stage/bigtext.none"
	install -m 0755 "$bin/bigtext" "$stage/bigtext.fi"
	# Enough user xattrs that the attribute fork leaves the inode.
	install -m 0644 "$bin/bigtext" "$stage/bigtext.leaf"
	i=0
	while [ $i -lt 8 ]; do
		setfattr -n "user.filler$i" -v "$(printf '%0200d' $i)" "$stage/bigtext.leaf"
		i=$((i + 1))
	done
	head -c 262144 /dev/urandom >"$stage/plain"
	chmod 0644 "$stage/plain"
	disk_rule 'bigtext.none=none'
	disk_rule 'bigtext.leaf=64k'
	disk_size=320m
	disk_strict=1
}

# bigtext.leaf is only worth testing if its attribute fork is not local.
smoke_check() { # IMAGE
	aformat=$(xfs_db -r -c "path /bigtext.leaf" -c "print core.aformat" "$1")
	case $aformat in
	*local* | "") die "bigtext.leaf has a local attribute fork ($aformat)" ;;
	esac
}

smoke_loop() { # MNT
	"$vecstage" "$policy_vec" "$1"
}

disk_inputs() { smoke_inputs; }
disk_stage() { smoke_stage; }
disk_check() { smoke_check "$1"; }
disk_loop() { smoke_loop "$1"; }
