# SPDX-License-Identifier: GPL-2.0-or-later
#
# fstests (xfstests) on the series' kernel, in a QEMU guest with a Debian
# root (fstests/README.md).  Not part of make check.
#
#   make fstests            build fstests for the guest (FSTESTS_ARCH, arm64)
#   make fstests-root       the guest's root disk: Debian, fstests, lists
#   make check-fstests      boot the test kernel once per FSTESTS_CONFIG
#                           section and run ./check there
#
# Parameters: FSTESTS_CONFIG="xfs xfs-64k ..." (default xfs),
# FSTESTS_LIST=main|folio, FSTESTS_TESTS=generic/001,xfs/131,
# FSTESTS_TIMEOUT=SECONDS, FSTESTS_KERNEL=IMAGE (default: the test kernel
# of make kernel ARCH=arm64), FSTESTS_TARBALL (the upstream snapshot).

FSTESTS_TARBALL ?= $(TOP)/../shared/fstests/fstests-63a29724a85f.tar.gz
FSTESTS_SHA256 := 8bea7c544fa9f98f75e9b645a286fd480b31d4273594f79c4d4d2876c88073fe
FSTESTS_ARCH ?= arm64
FSTESTS_DIR := $(BUILD)/fstests/$(FSTESTS_ARCH)
FSTESTS_SRC := $(FSTESTS_DIR)/src
FSTESTS_ROOT := $(FSTESTS_DIR)/root.img
FSTESTS_INITRAMFS := $(FSTESTS_DIR)/initramfs.cpio.gz
FSTESTS_KERNEL ?= $(BUILD)/$(FSTESTS_ARCH)/Image
FSTESTS_CONFIG ?= xfs
FSTESTS_RESULTS := $(BUILD)/fstests/results

.PHONY: fstests fstests-root check-fstests

fstests: $(FSTESTS_SRC)/.built

$(FSTESTS_SRC)/.built: fstests/build.sh
	@$(TOP)/fstests/build.sh $(FSTESTS_TARBALL) $(FSTESTS_SHA256) \
		$(FSTESTS_ARCH) $(FSTESTS_DIR)

fstests-root: $(FSTESTS_ROOT)

$(FSTESTS_ROOT): $(FSTESTS_SRC)/.built $(BUILD)/bin/mkfs.execfolio fstests/root.sh \
		fstests/packages fstests/local-config.sh fstests/guest/run-check \
		$(wildcard fstests/lists/* fstests/exclude/*) \
		tests/workloads/debian-tree.sh
	@$(TOP)/fstests/root.sh $(FSTESTS_ARCH) $(FSTESTS_SRC) \
		$(BUILD)/bin/mkfs.execfolio $@

# The harness's initramfs with one guest test, fstests/guest/fstests.sh;
# its guest programs are the static ones of make vm-guest.
$(FSTESTS_INITRAMFS): fstests/guest/fstests.sh tests/vm/harness/init \
		tests/vm/harness/mkinitramfs.sh
	@$(MAKE) --no-print-directory vm-guest ARCH=$(FSTESTS_ARCH)
	@$(TOP)/tests/vm/harness/mkinitramfs.sh $(FSTESTS_ARCH) $@ \
		$(TOP)/fstests/guest/fstests.sh

check-fstests: $(FSTESTS_ROOT) $(FSTESTS_INITRAMFS)
	@$(TOP)/fstests/run.sh $(FSTESTS_ARCH) $(FSTESTS_KERNEL) $(FSTESTS_ROOT) \
		$(FSTESTS_INITRAMFS) $(FSTESTS_RESULTS) $(FSTESTS_CONFIG)
