# SPDX-License-Identifier: GPL-2.0-or-later
#
# The robustness tier: data integrity and concurrency of files cached under
# the exec folio policy, in the arm64 and x86_64 test kernels.  The series
# changes how the page cache of ordinary files is filled and lets the
# preferred order change under live mappings, so it must be shown never to
# cost data, under random I/O or under policy changes racing exec and mmap.
#
#   make check-vm-robust        each test kernel (ROBUST_ARCHES, arm64 by
#                               default) boots once and runs
#                               guest/robust-fsx.sh (fsx on files under the
#                               mount default, 64k, 2m and a changing xattr)
#                               and guest/robust-stress.sh (xattr changes
#                               against exec, mmap, read and truncate); then
#                               xfs_repair -n checks the disk on the host
#   make vm-robust-guest ARCH=A the guest programs, with fsx
#
# robust-run.sh makes the disk (mkfs.execfolio), the initramfs and the run.

ROBUST_TESTS := robust-fsx.sh robust-stress.sh
# make check runs the tier on arm64 only, to keep it well under its time
# budget (about 7 minutes of TCG per arch); check-full runs both.
ROBUST_ARCHES ?= arm64

$(BIN)/fsx: tests/vm/guest/fsx.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

.PHONY: vm-robust-guest check-vm-robust
CHECK_TIERS += vm-robust
vm-robust-guest: vm-guest $(BIN)/fsx

# $(call vm_robust_fail,NAME,REASON): record a run that could not be set up.
vm_robust_fail = mkdir -p $(RESULTS)/vm-robust && \
	printf '1..1\nnot ok 1 - %s\n' "$(2)" > $(RESULTS)/vm-robust/$(1).tap

check-vm-robust: all
	@for a in $(ROBUST_ARCHES); do \
		k=$(vm_kernel); \
		d=$(VM_DIR)/$$a$(VM_TAG); mkdir -p $$d; \
		if ! { $(MAKE) --no-print-directory kernel ARCH=$$a KCONFIG=$(VM_KCONFIG) && \
			$(MAKE) --no-print-directory vm-robust-guest ARCH=$$a && \
			$(TOP)/tests/vm/robust-run.sh $$a $$k $$d/robust $(ROBUST_TESTS); }; then \
			$(call vm_robust_fail,$$a$(VM_TAG)-setup,$$a: kernel / guest programs / disk / VM setup failed); \
			continue; \
		fi; \
		$(TAP_RUN) vm-robust/$$a$(VM_TAG)-console $(TOP)/tests/vm/console-tap.sh $$d/robust; \
		for t in $(ROBUST_TESTS); do \
			$(TAP_RUN) vm-robust/$$a$(VM_TAG)-$${t%.sh} $(TOP)/tests/vm/vm-tap.sh $$d/robust $$t; \
		done; \
		$(TAP_RUN) vm-robust/$$a$(VM_TAG)-repair $(TOP)/tests/vm/robust-repair.sh $$d/robust.disk.img; \
	done
