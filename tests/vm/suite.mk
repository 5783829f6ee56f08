# SPDX-License-Identifier: GPL-2.0-or-later
#
# The VM suite: workloads in the guests, on XFS disks made with
# mkfs.execfolio (see tests/vm/README.md).
#
#   make check-vm-suite       arm64: bigprog.sh (a large program, 64k),
#                             redis.sh (redis-server under redis-benchmark)
#                             and readfirst.sh (the policy whoever reads
#                             first; what it must not cost);
#                             x86_64: pmd.sh (2m, PMD-mapped text)
#   make vm-suite-guest ARCH=A  the guest programs, with bigprog
#   make demo                 the README's demo (tests/vm/demo.sh)

CHECK_TIERS += vm-suite vm-suite-6.12

# 4 KiB of text per function: about 5 MiB of text, more than two 2M PMDs.
BIGPROG_FUNCS := 1280
REDIS_TREE := $(VM_DIR)/arm64/redis-tree

# Segments 64K-aligned on arm64 (contpte); on x86_64 2M-aligned and text
# in a segment of its own, so that whole PMDs of it can be mapped.
BIGPROG_LDFLAGS_arm64 := -Wl,-z,max-page-size=0x10000
BIGPROG_LDFLAGS_x86_64 := -Wl,-z,max-page-size=0x200000 -Wl,-z,separate-code

$(VM_DIR)/bigprog.c: tests/vm/gen-bigprog.py
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@)python3 $< $(BIGPROG_FUNCS) > $@.tmp && mv $@.tmp $@

$(BIN)/bigprog: $(VM_DIR)/bigprog.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -O1 $(LDFLAGS) $(BIGPROG_LDFLAGS_$(ARCH)) -o $@ $<

# Debian's redis-server and redis-tools for arm64 with their dependencies.
$(REDIS_TREE).stamp: tests/workloads/debian-tree.sh
	@echo "  TREE     $(REDIS_TREE) (redis-server, redis-tools: a few minutes)"
	$(Q)rm -rf $(REDIS_TREE) $(REDIS_TREE).tmp
	$(Q)sh $< arm64 $(REDIS_TREE).tmp redis-server redis-tools >/dev/null
	$(Q)mv $(REDIS_TREE).tmp $(REDIS_TREE) && touch $@

.PHONY: vm-suite-guest check-vm-suite check-vm-suite-6.12 demo
vm-suite-guest: vm-guest $(BIN)/bigprog

# $(call vm_suite_fail,NAME,REASON): record a run that could not be set up.
vm_suite_fail = mkdir -p $(RESULTS)/vm-suite && \
	printf '1..1\nnot ok 1 - %s\n' "$(2)" > $(RESULTS)/vm-suite/$(1).tap

check-vm-suite: all
	@for a in $(VM_ARCHES); do \
		k=$(vm_kernel); \
		tests=$$(test $$a = arm64 && echo "bigprog.sh redis.sh readfirst.sh" || echo pmd.sh); \
		d=$(VM_DIR)/$$a$(VM_TAG); mkdir -p $$d; \
		if ! { $(MAKE) --no-print-directory kernel ARCH=$$a KCONFIG=$(VM_KCONFIG) && \
			$(MAKE) --no-print-directory vm-suite-guest ARCH=$$a && \
			{ test $$a != arm64 || $(MAKE) --no-print-directory $(REDIS_TREE).stamp; } && \
			$(TOP)/tests/vm/suite-run.sh $$a $$k $$d/suite $$tests; }; then \
			$(call vm_suite_fail,$$a$(VM_TAG)-setup,$$a: kernel / guest programs / disk / VM setup failed); \
			continue; \
		fi; \
		$(TAP_RUN) vm-suite/$$a$(VM_TAG)-console $(TOP)/tests/vm/console-tap.sh $$d/suite; \
		for t in $$tests; do \
			$(TAP_RUN) vm-suite/$$a$(VM_TAG)-$${t%.sh} $(TOP)/tests/vm/vm-tap.sh $$d/suite $$t; \
		done; \
	done

# The 6.12 backport on arm64: the same tier on the other kernel base.
check-vm-suite-6.12:
	@$(MAKE) --no-print-directory check-vm-suite KBASE=6.12 VM_ARCHES=arm64

demo:
	@$(TOP)/tests/vm/demo.sh
