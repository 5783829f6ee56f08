# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel side: fs/patches applied to Debian's linux-source-6.12.
#
#   make kernel [ARCH=arm64|x86_64] [KCONFIG=test|release]
#   make kernels         both architectures (KCONFIG as above)
#   make checkpatch      scripts/checkpatch.pl --strict on every patch
#   make check-patches   build the kernel after each patch in turn
#                        (ARCH=arm64 by default; for make check-full)
#
# Test kernels go to build/arm64/Image and build/x86_64/bzImage, release
# kernels to build/<arch>/release/. See fs/README.md.

KCONFIG ?= test
KERNEL_ARCHES := arm64 x86_64

# $(call kernel_image,ARCH,KCONFIG)
kernel_image = $(BUILD)/$(1)/$(if $(filter release,$(2)),release/)$(if $(filter arm64,$(1)),Image,bzImage)

.PHONY: kernel kernels checkpatch check-patches

kernel:
	$(Q)$(TOP)/fs/scripts/build-kernel.sh $(ARCH) $(KCONFIG) \
		$(call kernel_image,$(ARCH),$(KCONFIG))

# One after the other: never two kernel builds at once.
kernels:
	$(Q)for a in $(KERNEL_ARCHES); do \
		$(TOP)/fs/scripts/build-kernel.sh $$a $(KCONFIG) \
			$(call kernel_image,$$a,$(KCONFIG)) || exit 1; \
	done

checkpatch:
	$(Q)$(TOP)/fs/scripts/checkpatch.sh

check-patches:
	$(Q)$(TOP)/fs/scripts/build-each-patch.sh $(if $(filter command line,$(origin ARCH)),$(ARCH),arm64)
