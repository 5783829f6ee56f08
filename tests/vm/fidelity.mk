# SPDX-License-Identifier: GPL-2.0-or-later
#
# The vm-fidelity tier: does execfoliofs's report predict what the kernels
# really do?  The report is only worth running on a stock kernel if it
# does, so it is checked on a workload the model was not tuned on:
# Debian's sqlite3 running tests/vm/fidelity-workload.sql in the arm64
# guest, traced under execfoliofs on the patched test kernel and measured
# with execfolio stat from XFS, tagged 64k on the patched kernel and
# untagged on the stock one (tests/vm/guest/fidelity.sh); the report, run
# with the model the guests print (their kernel's base, the architecture,
# the disk's read_ahead_kb), its 64k and stock columns against the real
# tables, row by row (tests/vm/fidelity-compare.sh); DESIGN.md section 8.4.
#
#   make check-vm-fidelity

SQLITE_TREE := $(VM_DIR)/arm64/sqlite-tree
FIDELITY_DIR := $(VM_DIR)/arm64/fidelity

# Debian's sqlite3 for arm64 with its dependencies.
$(SQLITE_TREE).stamp: tests/workloads/debian-tree.sh
	@echo "  TREE     $(SQLITE_TREE) (sqlite3)"
	$(Q)rm -rf $(SQLITE_TREE) $(SQLITE_TREE).tmp
	$(Q)sh $< arm64 $(SQLITE_TREE).tmp sqlite3 >/dev/null
	$(Q)mv $(SQLITE_TREE).tmp $(SQLITE_TREE) && touch $@

.PHONY: check-vm-fidelity
CHECK_TIERS += vm-fidelity

# The kernels of this base (fs/kernel.mk): the patched test kernel and the
# stock one (KSERIES=stock). The report follows the guests' kernel (6.12 or
# 7.3 model), so the base is this line's alone; 6.12 until the 7.3 model has
# been checked against the 7.3 kernels.
check-vm-fidelity: KBASE := 6.12

# $(call vm_fidelity_fail,REASON): record a run that could not be set up.
vm_fidelity_fail = mkdir -p $(RESULTS)/vm-fidelity && \
	printf '1..1\nnot ok 1 - %s\n' "$(1)" > $(RESULTS)/vm-fidelity/setup.tap

check-vm-fidelity: all
	@rm -f $(RESULTS)/vm-fidelity/setup.tap; \
	if ! { $(MAKE) --no-print-directory kernel ARCH=arm64 KCONFIG=test && \
		$(MAKE) --no-print-directory kernel ARCH=arm64 KCONFIG=test KSERIES=stock && \
		$(MAKE) --no-print-directory vm-guest $(BUILD)/arm64/bin/execfoliofs ARCH=arm64 && \
		$(MAKE) --no-print-directory $(SQLITE_TREE).stamp && \
		$(TOP)/tests/vm/fidelity-run.sh $(FIDELITY_DIR); }; then \
		$(call vm_fidelity_fail,arm64: kernels / guest programs / sqlite3 tree / VM setup failed); \
		exit 0; \
	fi; \
	for r in patched stock; do \
		$(TAP_RUN) vm-fidelity/$$r-console $(TOP)/tests/vm/console-tap.sh $(FIDELITY_DIR)/$$r; \
		$(TAP_RUN) vm-fidelity/$$r-guest $(TOP)/tests/vm/vm-tap.sh $(FIDELITY_DIR)/$$r fidelity.sh; \
	done; \
	$(TAP_RUN) vm-fidelity/compare $(TOP)/tests/vm/fidelity-compare.sh \
		$(FIDELITY_DIR) $(BIN)/execfoliofs
