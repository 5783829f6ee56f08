# SPDX-License-Identifier: GPL-2.0-or-later
#
# The vm-faults tier: allocation failure, memory pressure, bad input,
# privilege and the debug options of the test kernels.  The policy must
# degrade and never fail when large folios cannot be had (DESIGN.md section
# 2.6), refuse every value it cannot parse, and stay root's to change; the
# debug options are what make a locking or VM mistake visible.
#
#   make check-vm-faults          host: the test kernels' .config has the
#                                 debug and fault injection options; guest:
#                                 faults-badinput.sh, faults-privilege.sh,
#                                 faults-inject.sh, one boot per arch
#   make vm-faults-guest ARCH=A   the guest programs, with faults-stepper
#   make check-full               the in-guest suite (vm-smoke, vm-suite,
#                                 vm-faults, vm-robust) on the KASAN arm64
#                                 kernel, vm-robust on x86_64 and the
#                                 kernel built after each patch
#
# VM_KCONFIG=kasan VM_ARCHES=arm64 runs a VM tier on the KASAN kernel
# (build/arm64/kasan/Image), which check-full does.

FAULTS_KCONFIG ?= $(VM_KCONFIG)
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

check-vm-faults: $(VECSTAGE)
	@for a in $(FAULTS_ARCHES); do \
		k=$(BUILD)/$$a/$(call kernel_dir,$$a,$(FAULTS_KCONFIG))$$(test $$a = arm64 && echo Image || echo bzImage); \
		d=$(VM_DIR)/$$a$(VM_TAG); mkdir -p $$d; \
		if ! { $(MAKE) --no-print-directory kernel ARCH=$$a KCONFIG=$(FAULTS_KCONFIG) && \
			$(MAKE) --no-print-directory vm-faults-guest ARCH=$$a; }; then \
			$(call vm_faults_fail,$$a$(VM_TAG)-setup,$$a: kernel build / guest programs failed); \
			continue; \
		fi; \
		$(TAP_RUN) vm-faults/$$a$(VM_TAG)-$(FAULTS_KCONFIG)-config $(TOP)/tests/vm/faults-config.sh $$k.config; \
		if ! $(TOP)/tests/vm/faults-run.sh $$a $$k $$d/faults-$(FAULTS_KCONFIG); then \
			$(call vm_faults_fail,$$a$(VM_TAG)-$(FAULTS_KCONFIG)-setup,$$a: disk / initramfs / VM setup failed); \
			continue; \
		fi; \
		r=$$d/faults-$(FAULTS_KCONFIG); \
		$(TAP_RUN) vm-faults/$$a$(VM_TAG)-$(FAULTS_KCONFIG)-console $(TOP)/tests/vm/console-tap.sh $$r; \
		for t in faults-badinput.sh faults-privilege.sh faults-inject.sh; do \
			$(TAP_RUN) vm-faults/$$a$(VM_TAG)-$(FAULTS_KCONFIG)-$${t%.sh} $(TOP)/tests/vm/vm-tap.sh $$r $$t; \
		done; \
	done

# KASAN (arm64 only: the in-guest suite, with its fault injection, bad
# input and concurrency tests, under the address sanitizer; about twice
# as slow as the test kernel, hence the longer VM timeout), x86_64's
# vm-robust and every patch built on its own; see DESIGN.md section 10.2.
# Ends with the summary line, like make check.
check-full: deps-check
	@rm -rf $(RESULTS)
	@$(MAKE) --no-print-directory tests
	@$(MAKE) --no-print-directory kernel ARCH=arm64 KCONFIG=kasan
	@set -e; for t in vm-smoke vm-suite vm-faults vm-robust; do \
		echo "==== tier $$t (arm64, KASAN)"; \
		$(MAKE) --no-print-directory check-$$t VM_KCONFIG=kasan \
			VM_ARCHES=arm64 FAULTS_ARCHES=arm64 ROBUST_ARCHES=arm64 \
			VM_TIMEOUT=3600; \
	done
	@echo "==== tier vm-robust (x86_64)"
	@$(MAKE) --no-print-directory check-vm-robust ROBUST_ARCHES=x86_64
	@echo "==== check-patches"
	@$(MAKE) --no-print-directory check-patches || \
		printf '1..1\nnot ok 1 - make check-patches failed\n' > $(RESULTS)/check-patches.tap
	@echo "==== summary"
	@$(TOP)/tests/tap-summary $(RESULTS)
