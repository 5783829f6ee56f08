# SPDX-License-Identifier: GPL-2.0-or-later
#
# The disk of vm-faults (a recipe of tests/vm/harness/mkdisk.sh): the
# smoke disk (smoke.sh) with, written through the loop mount by the
# host's own kernel (which stores any value as given):
#   bigprog.tagged, stepper.tagged  bigprog and faults-stepper, xattr 64k
#   stepper.none                    faults-stepper, xattr none (reference)
#   data.tagged                     24 MiB of random data, mode 0644, 64k
#   mal.3k, mal.long, mal.bin,      bigtext with a malformed xattr written
#   mal.leaf                        offline: "3k"; 300 bytes; "64k\0"; and
#                                   "0x10000" in a leaf-form attribute fork
#   SHA256SUMS                      of all of the above
. "$top/tests/vm/disks/smoke.sh"

disk_inputs() {
	smoke_inputs
	for p in bigprog faults-stepper; do
		disk_need "$bin/$p" "run make vm-guest $bin/$p ARCH=$arch"
	done
	sha256sum "$bin/bigprog" "$bin/faults-stepper" | cut -d' ' -f1
}

disk_loop() { # MNT
	m=$1
	smoke_loop "$m"
	tag() { # FILE VALUE (setfattr syntax: 0x... is hex, "..." a string)
		setfattr -n trusted.exec_folio_size -v "$2" "$1"
	}
	install -m 0755 "$bin/bigprog" "$m/bigprog.tagged"
	tag "$m/bigprog.tagged" 64k
	install -m 0755 "$bin/faults-stepper" "$m/stepper.tagged"
	tag "$m/stepper.tagged" 64k
	install -m 0755 "$bin/faults-stepper" "$m/stepper.none"
	tag "$m/stepper.none" none
	head -c 25165824 /dev/urandom >"$m/data.tagged"
	chmod 0644 "$m/data.tagged"
	tag "$m/data.tagged" 64k

	for f in mal.3k mal.long mal.bin mal.leaf; do
		install -m 0755 "$bin/bigtext" "$m/$f"
	done
	tag "$m/mal.3k" 3k
	tag "$m/mal.long" "\"$(printf '%0300d' 64)\""
	tag "$m/mal.bin" 0x36346b00
	i=0
	while [ $i -lt 24 ]; do
		setfattr -n "user.filler$i" -v "$(printf '%0200d' $i)" "$m/mal.leaf"
		i=$((i + 1))
	done
	tag "$m/mal.leaf" '"0x10000"'
	# The host kernel must have stored the values as given.
	[ "$(getfattr --absolute-names --only-values -n trusted.exec_folio_size "$m/mal.leaf")" = 0x10000 ] ||
		die "the host did not store trusted.exec_folio_size=0x10000 as given"
	(cd "$m" && sha256sum bigprog.tagged stepper.tagged stepper.none data.tagged \
		mal.3k mal.long mal.bin mal.leaf bigtext >SHA256SUMS)
}
