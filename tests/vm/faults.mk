# SPDX-License-Identifier: GPL-2.0-or-later
#
# The vm-faults tier: allocation failure, memory pressure, bad input,
# privilege and the debug options of the test kernels (issue 5).
#
#   make check-vm-faults          host: the test kernels' .config has the
#                                 debug and fault injection options; guest:
#                                 faults-badinput.sh, faults-privilege.sh,
#                                 faults-inject.sh, one boot per arch
#   make vm-faults-guest ARCH=A   the guest programs, with faults-stepper
#   make check-full               vm-faults on the KASAN arm64 kernel and
#                                 the kernel built after each patch
#
# FAULTS_KCONFIG=kasan FAULTS_ARCHES=arm64 runs the tier on the KASAN
# kernel (build/arm64/kasan/Image), which check-full does.

FAULTS_KCONFIG ?= test
FAULTS_ARCHES ?= $(VM_ARCHES)

# Same link options as bigprog: 64K-aligned segments on arm64, 2M on x86_64.
$(BIN)/faults-stepper: tests/vm/guest/faults-stepper.c $(VM_DIR)/bigprog.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -O1 -I$(VM_DIR) $(LDFLAGS) $(BIGPROG_LDFLAGS_$(ARCH)) -o $@ $<

.PHONY: vm-faults-guest check-vm-faults check-full
CHECK_TIERS += vm-faults
vm-faults-guest: vm-suite-guest $(BIN)/faults-stepper

# $(call vm_faults_fail,NAME,REASON): record a run that could not be set up.
vm_faults_fail = mkdir -p $(RESULTS)/vm-faults && \
	printf '1..1\nnot ok 1 - %s\n' "$(2)" > $(RESULTS)/vm-faults/$(1).tap

check-vm-faults:
	@for a in $(FAULTS_ARCHES); do \
		k=$(BUILD)/$$a/$(call kernel_dir,$$a,$(FAULTS_KCONFIG))$$(test $$a = arm64 && echo Image || echo bzImage); \
		d=$(VM_DIR)/$$a; mkdir -p $$d; \
		if ! { $(MAKE) --no-print-directory kernel ARCH=$$a KCONFIG=$(FAULTS_KCONFIG) && \
			$(MAKE) --no-print-directory vm-faults-guest ARCH=$$a; }; then \
			$(call vm_faults_fail,$$a-setup,$$a: kernel build / guest programs failed); \
			continue; \
		fi; \
		$(TAP_RUN) vm-faults/$$a-$(FAULTS_KCONFIG)-config $(TOP)/tests/vm/faults-config.sh $$k.config; \
		if ! $(TOP)/tests/vm/faults-run.sh $$a $$k $$d/faults-$(FAULTS_KCONFIG); then \
			$(call vm_faults_fail,$$a-$(FAULTS_KCONFIG)-setup,$$a: disk / initramfs / VM setup failed); \
			continue; \
		fi; \
		r=$$d/faults-$(FAULTS_KCONFIG); \
		$(TAP_RUN) vm-faults/$$a-$(FAULTS_KCONFIG)-console $(TOP)/tests/vm/console-tap.sh $$r; \
		for t in faults-badinput.sh faults-privilege.sh faults-inject.sh; do \
			$(TAP_RUN) vm-faults/$$a-$(FAULTS_KCONFIG)-$${t%.sh} $(TOP)/tests/vm/vm-tap.sh $$r $$t; \
		done; \
	done

# KASAN (arm64 only: the fault injection and bad input paths under the
# address sanitizer) and every patch built on its own; see DESIGN.md
# section 8.  Ends with the summary line, like make check.
check-full: deps-check
	@rm -rf $(RESULTS)
	@$(MAKE) --no-print-directory tests
	@echo "==== tier vm-faults (KASAN)"
	@$(MAKE) --no-print-directory check-vm-faults FAULTS_KCONFIG=kasan FAULTS_ARCHES=arm64
	@echo "==== tier vm-robust (x86_64)"
	@$(MAKE) --no-print-directory check-vm-robust ROBUST_ARCHES=x86_64
	@echo "==== check-patches"
	@$(MAKE) --no-print-directory check-patches || \
		printf '1..1\nnot ok 1 - make check-patches failed\n' > $(RESULTS)/check-patches.tap
	@echo "==== summary"
	@$(TOP)/tests/tap-summary $(RESULTS)
