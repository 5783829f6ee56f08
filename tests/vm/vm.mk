# SPDX-License-Identifier: GPL-2.0-or-later
#
# VM tests: the patched kernels under QEMU (TCG), in-guest tests as TAP.
#
#   make check-vm-smoke   boot each test kernel, run guest/smoke.sh and
#                         guest/vectors.sh (the shared policy vectors)
#   make vm-guest ARCH=A  the static guest programs of build/A/bin/
#
# A run boots one kernel once with an initramfs (busybox, the guest
# programs, guest/init and the listed guest tests) and the XFS test disk;
# run-vm.sh collects each test's TAP from a results disk, vm-tap.sh and
# console-tap.sh report it (see tests/vm/README.md).

VM_DIR := $(BUILD)/vm
VM_ARCHES ?= arm64 x86_64
# The kernels the VM tiers boot: test (make check) or kasan (check-full).
VM_KCONFIG ?= test
# Runs on the 6.12 backport (KBASE=6.12) keep their results and work files
# apart from those of 7.3, the default base.
VM_TAG := $(if $(filter 6.12,$(KBASE)),-6.12)
# The image of VM_KCONFIG for the architecture in the shell variable $$a.
vm_kernel = $(BUILD)/$$a/$(call kernel_dir,$$a,$(VM_KCONFIG))$$(test $$a = arm64 && echo Image || echo bzImage)
# About 800K of text: several contpte blocks, more than one read-around.
BIGTEXT_FUNCS := 1500

$(VM_DIR)/bigtext.c: tests/vm/gen-bigtext.py
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@)python3 $< $(BIGTEXT_FUNCS) > $@.tmp && mv $@.tmp $@

$(BIN)/vmhelper: tests/vm/guest/vmhelper.c tests/vm/guest/vmhelper-memory.c \
		tests/vm/guest/vmhelper.h include/execfolio/policy.h \
		include/execfolio/xfs_exec_folio.h
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.c,$^)

$(BIN)/vmvectors: tests/vm/guest/vmvectors.c tests/vm/guest/vectors-offline.h \
		$(VECTORS_OBJ) $(LIBEXECFOLIO)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.h,$^)

# Runs on the host (mkdisk.sh): build it with the host's ARCH.
VECSTAGE := $(OBJ)/tests/vm/vecstage
$(VECSTAGE): tests/vm/vecstage.c tests/vm/guest/vectors-offline.h $(VECTORS_OBJ) \
		$(LIBEXECFOLIO)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.h,$^)

# Segments 64K-aligned in the file and in memory on every architecture.
$(BIN)/bigtext: $(VM_DIR)/bigtext.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -O1 $(LDFLAGS) -Wl,-z,max-page-size=0x10000 -o $@ $<

.PHONY: vm-guest check-vm-smoke check-vm-smoke-6.12
CHECK_TIERS += vm-smoke vm-smoke-6.12
vm-guest: $(BIN)/execfolio $(BIN)/vmhelper $(BIN)/vmvectors $(BIN)/bigtext

# $(call vm_fail,NAME,REASON): record a VM run that could not be set up.
vm_fail = mkdir -p $(RESULTS)/vm-smoke && \
	printf '1..1\nnot ok 1 - %s\n' "$(2)" > $(RESULTS)/vm-smoke/$(1).tap

check-vm-smoke: $(VECSTAGE)
	@for a in $(VM_ARCHES); do \
		k=$(vm_kernel); \
		d=$(VM_DIR)/$$a$(VM_TAG); mkdir -p $$d; \
		if ! { $(MAKE) --no-print-directory kernel ARCH=$$a KCONFIG=$(VM_KCONFIG) && \
			$(MAKE) --no-print-directory vm-guest ARCH=$$a && \
			$(TOP)/tests/vm/mkinitramfs.sh $$a $(BUILD)/$$a/bin $(VM_DIR) \
				$$d/smoke-initramfs.gz smoke.sh vectors.sh && \
			$(TOP)/tests/vm/mkdisk.sh $(BUILD)/$$a/bin $$d/smoke-disk.img && \
			$(TOP)/tests/vm/run-vm.sh $$a $$k $$d/smoke-initramfs.gz \
				$$d/smoke-disk.img $$d/smoke; }; then \
			$(call vm_fail,$$a$(VM_TAG)-setup,$$a: kernel build / guest programs / VM setup failed); \
			continue; \
		fi; \
		$(TAP_RUN) vm-smoke/$$a$(VM_TAG)-console $(TOP)/tests/vm/console-tap.sh $$d/smoke; \
		$(TAP_RUN) vm-smoke/$$a$(VM_TAG)-smoke $(TOP)/tests/vm/vm-tap.sh $$d/smoke smoke.sh; \
		$(TAP_RUN) vm-smoke/$$a$(VM_TAG)-vectors $(TOP)/tests/vm/vm-tap.sh $$d/smoke vectors.sh; \
	done

# The 6.12 backport on arm64: the same tier on the other kernel base.
check-vm-smoke-6.12:
	@$(MAKE) --no-print-directory check-vm-smoke KBASE=6.12 VM_ARCHES=arm64
