# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel side: fs/patches applied to Debian's linux-source-7.3, and the
# backport in fs/backport-6.12/ applied to Debian's linux-source-6.12.
#
#   make kernel [ARCH=arm64|x86_64] [KCONFIG=test|release|kasan|pages16k]
#               [KSERIES=execfolio|stock|option-one] [KBASE=7.3|6.12]
#   make kernels         both architectures (KCONFIG as above)
#   make checkpatch      scripts/checkpatch.pl --strict on every patch
#   make check-patches   build the kernel after each patch in turn
#                        (ARCH=arm64 by default; for make check-full;
#                        FIRST_PATCH=N from the N-th on, the ones before
#                        applied without a build)
#
# Test kernels go to build/arm64/Image and build/x86_64/bzImage, release,
# KASAN and 16K-page kernels to build/<arch>/<KCONFIG>/, and
# the kernels of KBASE=6.12 to the same places under build/<arch>/6.12/; the
# kernels execfolio is compared with
# (KSERIES=stock: the bare tarball, KSERIES=option-one: 6.12 with the fixed
# exec folio order as upstream merged it, the backport's patches up to
# 38b0ece6d763, or OPTION_ONE_PATCH=FILE) to build/<arch>/<KCONFIG>-<KSERIES>/.
# See fs/README.md.

KCONFIG ?= test
KSERIES ?= execfolio
KBASE ?= 7.3
export KBASE
KERNEL_ARCHES := arm64 x86_64

# $(call kernel_image,ARCH,KCONFIG[,KSERIES[,KBASE]])
kernel_dir = $(if $(filter 6.12,$(or $(4),$(KBASE))),6.12/)$(if $(filter-out execfolio,$(or $(3),execfolio)),$(2)-$(3)/,$(if $(filter release kasan pages16k,$(2)),$(2)/))
kernel_image = $(BUILD)/$(1)/$(call kernel_dir,$(1),$(2),$(3),$(4))$(if $(filter arm64,$(1)),Image,bzImage)

.PHONY: kernel kernels checkpatch check-patches

kernel:
	$(Q)$(TOP)/fs/scripts/build-kernel.sh $(ARCH) $(KCONFIG) \
		$(call kernel_image,$(ARCH),$(KCONFIG),$(KSERIES)) $(KSERIES)

# One after the other: never two kernel builds at once.
kernels:
	$(Q)set -e; $(foreach a,$(KERNEL_ARCHES),$(TOP)/fs/scripts/build-kernel.sh \
		$(a) $(KCONFIG) $(call kernel_image,$(a),$(KCONFIG),$(KSERIES)) $(KSERIES);)

checkpatch:
	$(Q)$(TOP)/fs/scripts/checkpatch.sh

check-patches:
	$(Q)$(TOP)/fs/scripts/build-each-patch.sh $(if $(filter command line,$(origin ARCH)),$(ARCH),arm64) $(FIRST_PATCH)
