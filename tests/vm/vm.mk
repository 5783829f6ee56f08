# SPDX-License-Identifier: GPL-2.0-or-later
#
# VM tests: the patched kernels under QEMU (TCG), in-guest tests as TAP.
# This is the harness's make side: the guest programs and the one rule
# that runs any tier described in tests/vm/tiers.mk (tests/vm/README.md).
#
#   make check-vm-TIER      a tier of tiers.mk (check-vm-smoke, ...)
#   make vm-guest ARCH=A    the static guest programs of build/A/bin/
#                           every tier has (a tier builds its own too)
#
# Parameters of every tier, over what its description says:
#   VM_ARCHES="arm64 ..."   the architectures to boot
#   VM_KCONFIG=test|kasan   the kernel configuration (check-full: kasan)
#   KBASE=7.3|6.12          the kernel base
#   VM_TIMEOUT=SECONDS      the limit of each boot
#
# A boot (harness/tier-boot.sh) builds the guest programs, the disk
# (harness/mkdisk.sh, cached) and then the kernel, boots it once with an
# initramfs (busybox, the guest programs, harness/init and the tier's
# guest tests) and reports the console and each test as TAP in
# build/test-results/TIER/NAME-*.tap.

VM_DIR := $(BUILD)/vm
# About 800K of text: several contpte blocks, more than one read-around.
BIGTEXT_FUNCS := 1500
# 4 KiB of text per function: about 5 MiB of text, more than two 2M PMDs.
BIGPROG_FUNCS := 1280

# --- guest programs ----------------------------------------------------------
$(VM_DIR)/bigtext.c: tests/vm/gen-bigtext.py
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@)python3 $< $(BIGTEXT_FUNCS) > $@.tmp && mv $@.tmp $@

$(VM_DIR)/bigprog.c: tests/vm/gen-bigprog.py
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@)python3 $< $(BIGPROG_FUNCS) > $@.tmp && mv $@.tmp $@

$(BIN)/vmhelper: tests/vm/guest/vmhelper.c tests/vm/guest/vmhelper-memory.c \
		tests/vm/guest/vmhelper-hwpoison.c tests/vm/guest/vmhelper-readfolios.c \
		tests/vm/guest/vmhelper-pagemap.c \
		tests/vm/guest/vmhelper.h include/execfolio/policy.h \
		include/execfolio/xfs_exec_folio.h $(LIBEXECFOLIO)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.h,$^)

$(BIN)/vmvectors: tests/vm/guest/vmvectors.c tests/vm/guest/vectors-offline.h \
		$(VECTORS_OBJ) $(LIBEXECFOLIO)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.h,$^)

# Runs on the host (disks/smoke.sh): build it with the host's ARCH.
VECSTAGE := $(OBJ)/tests/vm/vecstage
$(VECSTAGE): tests/vm/vecstage.c tests/vm/guest/vectors-offline.h $(VECTORS_OBJ) \
		$(LIBEXECFOLIO)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.h,$^)

# Segments 64K-aligned in the file and in memory on every architecture.
$(BIN)/bigtext: $(VM_DIR)/bigtext.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -O1 $(LDFLAGS) -Wl,-z,max-page-size=0x10000 -o $@ $<

# Segments 64K-aligned on arm64 (contpte); on x86_64 2M-aligned and text
# in a segment of its own, so that whole PMDs of it can be mapped.
BIGPROG_LDFLAGS_arm64 := -Wl,-z,max-page-size=0x10000
BIGPROG_LDFLAGS_x86_64 := -Wl,-z,max-page-size=0x200000 -Wl,-z,separate-code

$(BIN)/bigprog: $(VM_DIR)/bigprog.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -O1 $(LDFLAGS) $(BIGPROG_LDFLAGS_$(ARCH)) -o $@ $<

# bigprog's functions, run a part at a time on SIGUSR1; same link options.
$(BIN)/faults-stepper: tests/vm/guest/faults-stepper.c $(VM_DIR)/bigprog.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -O1 -I$(VM_DIR) $(LDFLAGS) $(BIGPROG_LDFLAGS_$(ARCH)) -o $@ $<

# A static PIE with more than 64K and less than 2M of text (piebias.sh);
# -static-pie, which LDFLAGS's -static would override.
$(BIN)/pieaddr: tests/vm/guest/pieaddr.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -O2 -fPIE -static-pie -o $@ $<

$(BIN)/fsx: tests/tools/fsx.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

.PHONY: vm-guest
vm-guest: $(BIN)/execfolio $(BIN)/vmhelper $(BIN)/vmvectors $(BIN)/bigtext

# --- the tier driver ---------------------------------------------------------
-include tests/vm/tiers.mk

# $(call vm_var,TIER,FIELD): the variable of FIELD in TIER's description,
# or in that of the tier it is a variant of (TIER.base); empty if neither
# has it.
vm_var = $(if $(filter undefined,$(origin $(1).$(2))),$(if $($(1).base),$(call vm_var,$($(1).base),$(2))),$(1).$(2))
vm_field = $(if $(call vm_var,$(1),$(2)),$($(call vm_var,$(1),$(2))))
# A variant reports into the results of the tier it varies.
vm_results = $(or $($(1).base),$(1))
vm_kbase = $(if $(filter command line,$(origin KBASE)),$(KBASE),$(or $(call vm_field,$(1),kbase),7.3))
vm_kconfig = $(or $(VM_KCONFIG),$(call vm_field,$(1),kconfig),test)
vm_arches = $(or $(VM_ARCHES),$(call vm_field,$(1),arches))
# Runs on 6.12 are named ARCH-6.12, apart from those on 7.3.
vm_tag = $(if $(filter 6.12,$(call vm_kbase,$(1))),-6.12)
# $(call vm_name,TIER,ARCH): the name of TIER's boot on ARCH, by default
# ARCH and the tag; TIER.name is called with ARCH, the tag and the kernel
# configuration.
vm_name = $(if $(call vm_var,$(1),name),$(call $(call vm_var,$(1),name),$(2),$(call vm_tag,$(1)),$(call vm_kconfig,$(1))),$(2)$(call vm_tag,$(1)))
# The boots, NAME:ARCH:KSERIES each: TIER.boots, or one per architecture
# with the series.
vm_all_boots = $(or $(call vm_field,$(1),boots),$(foreach a,$(call vm_arches,$(1)),$(call vm_name,$(1),$(a)):$(a):execfolio))
vm_boot_arch = $(word 2,$(subst :, ,$(1)))
# $(call vm_boots_on,TIER,ARCHES): those of the boots on ARCHES, all of
# them if ARCHES is empty.  VM_ONLY_ARCHES picks a tier's boots this way
# (where VM_ARCHES replaces the architectures the tier names).
vm_boots_on = $(if $(2),$(foreach b,$(call vm_all_boots,$(1)),$(if $(filter $(call vm_boot_arch,$(b)),$(2)),$(b))),$(call vm_all_boots,$(1)))
vm_boots = $(call vm_boots_on,$(1),$(VM_ONLY_ARCHES))
# $(call vm_boot_kernel,TIER,BOOT): the kernel BOOT boots, as
# ARCH/KCONFIG/KSERIES/KBASE.
vm_boot_kernel = $(call vm_boot_arch,$(2))/$(call vm_kconfig,$(1))/$(word 3,$(subst :, ,$(2)))/$(call vm_kbase,$(1))
# $(call vm_uniq,WORDS): WORDS without repeats, in the order of their first
# appearance.
vm_uniq = $(if $(1),$(firstword $(1)) $(call vm_uniq,$(filter-out $(firstword $(1)),$(1))))

# $(call vm_boot,TIER,NAME,ARCH,KSERIES): one boot, its checks (TIER.check,
# called with RESULTS/NAME, the kernel and the run directory), the run's
# disk removed afterwards.
vm_append = $(if $(filter command line environment%,$(origin VM_APPEND)),$(VM_APPEND),$(call vm_field,$(1),append))
vm_boot = MAKE="$(MAKE)" VM_APPEND="$(call vm_append,$(1))" $(TOP)/tests/vm/harness/tier-boot.sh \
	--make-last "kernel ARCH=$(3) KCONFIG=$(call vm_kconfig,$(1)) KSERIES=$(4) KBASE=$(call vm_kbase,$(1))" \
	--make "vm-guest $(addprefix $(BUILD)/$(3)/bin/,$(call vm_field,$(1),programs)) ARCH=$(3)" \
	$(if $(strip $(call vm_field,$(1),needs) $(call vm_field,$(1),needs.$(3))),\
		--make "$(call vm_field,$(1),needs) $(call vm_field,$(1),needs.$(3))") \
	--disk $(call vm_field,$(1),disk) \
	$(addprefix --extra-disk ,$(call vm_field,$(1),disks)) \
	$(addprefix --program ,$(call vm_field,$(1),programs)) \
	--timeout $(or $(VM_TIMEOUT),$(call vm_field,$(1),timeout),900) \
	$(RESULTS)/$(call vm_results,$(1)) $(2) $(3) \
	$(call kernel_image,$(3),$(call vm_kconfig,$(1)),$(4),$(call vm_kbase,$(1))) \
	$(VM_DIR)/$(call vm_results,$(1))/$(2) $(call vm_field,$(1),tests) $(call vm_field,$(1),tests.$(3)); \
	$(if $(call vm_var,$(1),check),$(call $(call vm_var,$(1),check),$(call vm_results,$(1))/$(2),$(call kernel_image,$(3),$(call vm_kconfig,$(1)),$(4),$(call vm_kbase,$(1))),$(VM_DIR)/$(call vm_results,$(1))/$(2));) \
	rm -f $(VM_DIR)/$(call vm_results,$(1))/$(2).disk.img;

# VM_FULL_TIERS run in make check-full only.
VM_TIER_TARGETS := $(addprefix check-,$(VM_TIERS) $(VM_FULL_TIERS))
.PHONY: $(VM_TIER_TARGETS) vm-check-kernels vm-check-needs

# make check runs the boots of VM_TIERS grouped by the kernel they boot
# (the kernels in the order the tiers first boot them, VM_CHECK_ARCHES
# one after the other), as TIER:ARCH runs of the tiers, while
# vm-check-kernels builds those kernels ahead in the same order
# (harness/build-ahead.sh): one kernel's guests run while the next kernel
# builds (DESIGN.md section 10.1).
VM_CHECK_ARCHES := arm64 x86_64
vm_check_boots = $(foreach a,$(VM_CHECK_ARCHES),$(foreach t,$(VM_TIERS),$(foreach b,$(call vm_boots_on,$(t),$(a)),$(t)@$(b))))
vm_run_kernel = $(call vm_boot_kernel,$(firstword $(subst @, ,$(1))),$(lastword $(subst @, ,$(1))))
VM_CHECK_KERNELS := $(call vm_uniq,$(foreach r,$(vm_check_boots),$(call vm_run_kernel,$(r))))
VM_CHECK_RUNS := $(call vm_uniq,$(foreach k,$(VM_CHECK_KERNELS),$(foreach r,$(vm_check_boots),$(if $(filter $(k),$(call vm_run_kernel,$(r))),$(firstword $(subst @, ,$(r))):$(call vm_boot_arch,$(lastword $(subst @, ,$(r))))))))

# What the runs need besides their kernels (Debian's packages unpacked
# into trees): made before the first run, while the first kernel builds.
vm_run_needs = $(call vm_field,$(firstword $(subst :, ,$(1))),needs) \
	$(call vm_field,$(firstword $(subst :, ,$(1))),needs.$(lastword $(subst :, ,$(1))))
vm-check-needs: $(sort $(foreach r,$(VM_CHECK_RUNS),$(call vm_run_needs,$(r))))

# Each in turn, going on after one fails (its tiers make it again and
# report it); fails if one did.
vm-check-kernels:
	@failed=; $(foreach k,$(VM_CHECK_KERNELS),$(MAKE) --no-print-directory kernel \
		$(join ARCH= KCONFIG= KSERIES= KBASE=,$(subst /, ,$(k))) || failed="$$failed $(k)";) \
	if [ -n "$$failed" ]; then echo "vm-check-kernels: failed:$$failed" >&2; exit 1; fi

# The one rule of every tier: its boots one after the other, then its
# checks of all of them (TIER.after), which a tier with no boots to run
# (VM_ONLY_ARCHES) does not run either.
$(VM_TIER_TARGETS): check-%: all $(VECSTAGE)
	@$(foreach b,$(call vm_boots,$*),$(call vm_boot,$*,$(word 1,$(subst :, ,$(b))),$(word 2,$(subst :, ,$(b))),$(word 3,$(subst :, ,$(b)))))\
	$(if $(call vm_boots,$*),$(call vm_field,$*,after))
