# SPDX-License-Identifier: GPL-2.0-or-later
#
# The VM tiers, each described once; the rule of tests/vm/vm.mk runs any
# of them as make check-TIER (tests/vm/README.md).  A description:
#
#   TIER.arches     the architectures, one boot each (VM_ARCHES overrides)
#   TIER.kbase      the kernel base, 7.3 (the default) or 6.12
#   TIER.kconfig    test (the default) or kasan (VM_KCONFIG overrides)
#   TIER.tests, TIER.tests.ARCH
#                   the guest tests (tests/vm/guest/), in the order they
#                   run; each reports build/test-results/TIER/NAME-T.tap,
#                   T the script's name without .sh or LABEL in LABEL=SCRIPT
#   TIER.disk       the disk recipe, tests/vm/disks/RECIPE.sh
#   TIER.disks      the recipes of further disks, which the guest finds
#                   in EXTRA_DISKS (harness/init)
#   TIER.programs   guest programs of build/ARCH/bin/ the tier builds
#                   (besides vm-guest) and puts in the initramfs's /bin
#   TIER.needs, TIER.needs.ARCH
#                   what else to make first (the trees of the disk)
#   TIER.timeout    seconds per boot (default 900)
#   TIER.append     kernel parameters of its boots, which the guest tests
#                   read as settings (VM_APPEND of run-vm.sh), unless
#                   VM_APPEND is given
#   TIER.name       a boot's NAME, called with ARCH, the tag (-6.12 on
#                   6.12) and the configuration; by default ARCH and tag
#   TIER.boots      the boots as NAME:ARCH:KSERIES, instead of one per
#                   architecture of the execfolio series
#   TIER.check      per boot, host checks called with TIER/NAME, the
#                   kernel image and the run directory
#   TIER.after      host checks after all boots
#   TIER.base       the tier this one is a variant of: what it does not
#                   say is the base's, and it reports into the base's
#                   results
#
# Adding a guest test: its script in tests/vm/guest/ and its name in the
# tier's .tests.

# --- vm-smoke -----------------------------------------------------------------
# The policy vectors against the kernel and the smoke test: a program's
# text in 64K folios under the mount default, opted out by the xattr,
# changed while cached, the fallback under injected allocation failure,
# the mount option shown and remounted; a lone read of a tagged file of a
# folio or more is read in its folios, a smaller one stays small, none
# reads past its range or marks a folio for async readahead, on 4K and
# 16K blocks (loneread.sh); a collapse of a file range past EOF
# reads nothing (collapse.sh); a small static PIE keeps its load address
# randomized under a 2m default and is aligned under 64k (piebias.sh);
# last, a hardware-poisoned page of
# a pinned large folio left unmapped by a fault on another page of the
# folio (hwpoison.sh).  Empty disks with 16K and 64K blocks carry the
# vector lines of those block sizes (large block sizes on 4K pages).
VM_TIERS += vm-smoke
vm-smoke.arches := arm64 x86_64
vm-smoke.tests := smoke.sh vectors.sh loneread.sh collapse.sh piebias.sh \
	hwpoison.sh
vm-smoke.programs := pieaddr
vm-smoke.disk := smoke
vm-smoke.disks := blocks16k blocks64k

# The same tier on the 6.12 backport, arm64.
VM_TIERS += vm-smoke-6.12
vm-smoke-6.12.base := vm-smoke
vm-smoke-6.12.kbase := 6.12
vm-smoke-6.12.arches := arm64

# --- vm-pages16k (make check-full) --------------------------------------------
# The policy with 16K pages (arm64, KCONFIG=pages16k), where its sizes are
# other page counts: the vector lines written for 16K pages, which every
# 4K kernel skips (on 4K and 16K blocks), and a 5 MB program tagged 64k (order 2, four pages) and
# 2m (order 7, a contiguous-bit block of 128 pages) in folios of those
# sizes (pagesize.sh).
VM_FULL_TIERS += vm-pages16k
vm-pages16k.arches := arm64
vm-pages16k.kconfig := pages16k
vm-pages16k.tests := pagesize.sh vectors.sh
vm-pages16k.disk := smoke
vm-pages16k.disks := blocks16k
vm-pages16k.programs := bigprog

# --- vm-suite -----------------------------------------------------------------
# Workloads on disks made with mkfs.execfolio: arm64, bigprog.sh (a large
# program, 64k), redis.sh (redis-server under redis-benchmark) and
# readfirst.sh (the policy whoever reads first, and what it must not cost:
# random reads, a preload over cached pages, writeback on chmod +x, a
# memory cgroup at its limit);
# x86_64, pmd.sh (2m, PMD-mapped text) and redis.sh (the 64k mount option
# alone, where upstream has no default for executable mappings, also for
# the first process to map the libraries).
VM_TIERS += vm-suite
# Debian's redis-server and redis-tools of ARCH, with their dependencies.
redis_tree = $(VM_DIR)/$(1)/redis-tree
vm-suite.arches := arm64 x86_64
vm-suite.tests.arm64 := bigprog.sh redis.sh readfirst.sh
vm-suite.tests.x86_64 := pmd.sh redis.sh
vm-suite.disk := suite
vm-suite.programs := bigprog
vm-suite.needs.arm64 := $(call redis_tree,arm64).stamp
vm-suite.needs.x86_64 := $(call redis_tree,x86_64).stamp
vm-suite.timeout := 1800

VM_TIERS += vm-suite-6.12
vm-suite-6.12.base := vm-suite
vm-suite-6.12.kbase := 6.12
vm-suite-6.12.arches := arm64

# Debian names x86_64 amd64.
$(VM_DIR)/%/redis-tree.stamp: tests/workloads/debian-tree.sh
	@echo "  TREE     $(VM_DIR)/$*/redis-tree (redis-server, redis-tools: a few minutes)"
	$(Q)rm -rf $(VM_DIR)/$*/redis-tree $(VM_DIR)/$*/redis-tree.tmp
	$(Q)sh $< $(patsubst x86_64,amd64,$*) $(VM_DIR)/$*/redis-tree.tmp \
		redis-server redis-tools >/dev/null
	$(Q)mv $(VM_DIR)/$*/redis-tree.tmp $(VM_DIR)/$*/redis-tree && touch $@

# --- vm-fidelity ----------------------------------------------------------------
# Does execfoliofs's report predict what the kernels really do?  The
# report is only worth running on a stock kernel if it does, so it is
# checked on a workload the model was not tuned on: Debian's sqlite3
# running tests/vm/fidelity-workload.sql in the arm64 guest
# (guest/fidelity.sh), traced under execfoliofs on the patched test kernel
# and measured with execfolio stat from XFS, tagged 64k and with no policy
# at all; the report's 64k and stock columns against those real tables,
# row by row (fidelity-compare.sh, the report run with the model the guest
# prints: its kernel's base, the architecture, the disk's read_ahead_kb);
# DESIGN.md section 8.4.  With no policy the series leaves upstream's page
# cache alone, so its table is stock 7.3's: vm-fidelity-stock shows that
# against a stock kernel.
VM_TIERS += vm-fidelity
SQLITE_TREE := $(VM_DIR)/arm64/sqlite-tree
vm-fidelity.boots := patched:arm64:execfolio
vm-fidelity.tests := guest=fidelity.sh
vm-fidelity.disk := fidelity
vm-fidelity.programs := execfoliofs
vm-fidelity.needs := $(SQLITE_TREE).stamp
vm-fidelity.timeout := 1200
vm-fidelity.after = $(TAP_RUN) vm-fidelity/compare $(TOP)/tests/vm/fidelity-compare.sh \
	$(VM_DIR)/vm-fidelity $(BIN)/execfoliofs patched

# The same against stock 7.3, the bare tarball (make check-full): a second
# boot runs sqlite3 from fidelity/plain there; the report's stock column
# is compared with that, and the series with no policy must give the
# stock kernel's table and bytes read, row for row and byte for byte
# (nopolicy-compare.sh).
VM_FULL_TIERS += vm-fidelity-stock
vm-fidelity-stock.base := vm-fidelity
vm-fidelity-stock.boots := patched:arm64:execfolio stock:arm64:stock
vm-fidelity-stock.after = $(TAP_RUN) vm-fidelity/compare $(TOP)/tests/vm/fidelity-compare.sh \
	$(VM_DIR)/vm-fidelity $(BIN)/execfoliofs stock; \
	$(TAP_RUN) vm-fidelity/nopolicy $(TOP)/tests/vm/nopolicy-compare.sh \
	$(VM_DIR)/vm-fidelity

# Debian's sqlite3 for arm64 with its dependencies.
$(SQLITE_TREE).stamp: tests/workloads/debian-tree.sh
	@echo "  TREE     $(SQLITE_TREE) (sqlite3)"
	$(Q)rm -rf $(SQLITE_TREE) $(SQLITE_TREE).tmp
	$(Q)sh $< arm64 $(SQLITE_TREE).tmp sqlite3 >/dev/null
	$(Q)mv $(SQLITE_TREE).tmp $(SQLITE_TREE) && touch $@

# --- vm-faults ------------------------------------------------------------------
# Allocation failure, memory pressure, bad input, privilege and the debug
# options of the test kernels.  The policy must degrade and never fail
# when large folios cannot be had (DESIGN.md section 2.6), refuse every
# value it cannot parse, and stay root's to change; the debug options are
# what make a locking or VM mistake visible.  On the host, the kernel's
# .config has the debug and fault injection options (faults-config.sh).
VM_TIERS += vm-faults
vm-faults.arches := arm64 x86_64
vm-faults.name = $(1)$(2)-$(3)
vm-faults.tests := faults-badinput.sh faults-privilege.sh faults-inject.sh
vm-faults.disk := faults
vm-faults.programs := bigprog faults-stepper
vm-faults.timeout := 1800
vm-faults.check = $(TAP_RUN) $(1)-config $(TOP)/tests/vm/faults-config.sh $(2).config

# --- vm-robust ------------------------------------------------------------------
# Data integrity and concurrency of files cached under the policy.  The
# series changes how the page cache of ordinary files is filled and lets
# the preferred order change under live mappings, so it must be shown
# never to cost data: fsx on files under the mount default, 64k, 2m and a
# changing xattr (robust-fsx.sh), xattr changes against exec, mmap, read
# and truncate (robust-stress.sh), then xfs_repair -n on the host
# (robust-repair.sh).  arm64 only in make check, and shorter there than
# the guest tests' defaults (5,000 fsx operations a file instead of
# 10,000, 60 s of stress instead of 180: about 4 minutes of TCG instead
# of 8), to keep make check within its hour; check-full runs the
# defaults (VM_APPEND= on its command line), on KASAN arm64 and x86_64.
VM_TIERS += vm-robust
vm-robust.arches := arm64
vm-robust.append := FSX_OPS=5000 STRESS_SECONDS=60
vm-robust.tests := robust-fsx.sh robust-stress.sh
vm-robust.disk := robust
vm-robust.programs := fsx bigtext
vm-robust.timeout := 1800
vm-robust.check = $(TAP_RUN) $(1)-repair $(TOP)/tests/vm/robust-repair.sh $(3).disk.img

# --- make check and make check-full ----------------------------------------------
# make check boots three test kernels: 7.3 with the series on arm64 and
# x86_64 and the 6.12 backport on arm64, built ahead of the tiers that
# boot them (vm.mk, DESIGN.md section 10.1).  Each further kernel is
# another 10-14 minutes of two cores from an empty ccache, which a
# fresh machine's make check cannot fit in its hour: the tiers that need
# one (stock 7.3, 16K pages) are VM_FULL_TIERS, which make check-full
# runs.
