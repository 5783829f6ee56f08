# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmarks: every file of them is here (bench/README).  `make bench`
# runs every bench-* target.  Benchmarks may use the tests' harness and
# tools (tests/vm/harness/, tests/tools/); the tests never use bench/.

# bench-stat compares `execfolio stat` with the kernel's thpmaps
# (agreement and speed, with the tools of the stat integration test) and
# writes build/bench/stat.md, the section of BENCHMARKS.md.
.PHONY: bench-stat
bench: bench-stat
bench: bench-mkfs

bench-stat: all $(TEXT_HOLDER)
	$(TOP)/bench/bench-stat.sh $(BIN)/execfolio $(TEXT_HOLDER) $(BUILD)/bench

.PHONY: bench-mkfs

# Image builds against plain mkfs.xfs -p, as an unprivileged user: a
# generated 10,000-file, 1 GB tree with --exec-folio-size, and 1 GB copied
# from /usr with --exec-folio-size and --auto (BENCHMARKS.md).
#   make bench-mkfs [BENCH_MKFS_ROUNDS=5]
BENCH_MKFS_ROUNDS ?= 5

bench-mkfs: all
	$(TOP)/bench/mkfs-bench.sh $(BIN)/mkfs.execfolio $(BUILD)/bench \
		$(BENCH_MKFS_ROUNDS)

# execfoliofs against libfuse's passthrough_ll example, built here, and
# the backing XFS (bench/fuse-bench.sh, bench/fsbench.c).
PASSTHROUGH_LL_SRC := /usr/share/doc/libfuse3-dev/examples/passthrough_ll.c
PASSTHROUGH_LL := $(OBJ)/bench/passthrough_ll
FSBENCH := $(OBJ)/bench/fsbench

$(PASSTHROUGH_LL): $(PASSTHROUGH_LL_SRC)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -O2 -g $(FUSE_CFLAGS) \
		-I$(dir $<) -o $@ $< $(FUSE_LIBS)

$(FSBENCH): bench/fsbench.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -lpthread

.PHONY: bench-fuse
bench: bench-fuse

bench-fuse: all $(PASSTHROUGH_LL) $(FSBENCH)
	@mkdir -p $(BUILD)/bench
	TOP=$(TOP) sh $(TOP)/bench/fuse-bench.sh $(BIN)/execfoliofs \
		$(PASSTHROUGH_LL) $(FSBENCH) $(BUILD)/bench/fuse.md

# The guest helper of the VM benchmarks (static, make bench-guest ARCH=...).
BENCHHELPER_SRCS := bench/benchhelper.c bench/create_files.c bench/dm_delay.c \
	bench/ask_daemon.c
$(BIN)/benchhelper: $(BENCHHELPER_SRCS) bench/create_files.h bench/dm_delay.h \
		bench/ask_daemon.h bench/monotonic.h $(LIBEXECFOLIO)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.h,$^)

.PHONY: bench-guest
bench-guest: vm-guest $(BIN)/benchhelper $(BIN)/bigprog

# The kernels side by side (bench/bench-kernels.sh) and the costs
# (bench/bench-costs.sh) in the arm64 guest; tables in build/bench/
# kernels.md and costs.md, plots in bench/plots/ (bench/bench-report.py).
#   make bench-kernels [BENCH_ROUNDS=2] [BENCH_AB_REQUESTS=1000]
#                      [BENCH_REDIS_REQUESTS=1000] [BENCH_CC_JOBS=2]
#                      [BENCH_WORKLOADS="boot nginx redis gcc"]
#   make bench-costs   [BENCH_COST_ROUNDS=3] [BENCH_INODES=100000]
#   make bench-report  the tables and plots again from the last runs
#   make bench-qemu    the VM benchmarks' QEMU (BENCH_QEMU, below)
# Each boot's disk is a fresh copy in BENCH_DISK_DIR (default /dev/shm,
# a tmpfs; bench/benchlib.sh says why).
BENCH_ROUNDS ?= 2
BENCH_AB_REQUESTS ?= 1000
BENCH_REDIS_REQUESTS ?= 1000
BENCH_CC_JOBS ?= 2
BENCH_COST_ROUNDS ?= 3
BENCH_INODES ?= 100000
export BENCH_ROUNDS BENCH_AB_REQUESTS BENCH_REDIS_REQUESTS BENCH_CC_JOBS \
	BENCH_COST_ROUNDS BENCH_INODES
BENCH_TREE := $(BUILD)/bench/arm64-tree
# The kernels compared, each BASE:SERIES (fs/kernel.mk's KBASE and
# KSERIES), on KCONFIG BENCH_KCONFIG, interleaved: stock 6.12, 6.12 with
# option one (the fixed exec folio order as upstream merged it, from the
# backport; OPTION_ONE_PATCH=FILE builds the seed's patch instead), stock
# 7.3 (upstream's exec path: the anchor of the cold-start ratios) and 7.3
# with the series.  BENCH_RA and BENCH_DELAYS: the disk settings of
# bench/bench-kernels.sh; BENCH_ICOUNT=0 boots its guests with two CPUs
# on TCG's clock instead of one under -icount (times in instructions and
# waits).
BENCH_KCONFIG ?= release
# The QEMU of the VM benchmarks: Debian 12's own (7.2) spends up to
# 300 ms of its main thread, several times per boot, discarding
# translated guest code when a disk read lands on pages that held some (a
# page-cache page reused after it held program text), before it tells the
# guest that the read is done; under -icount the guest sees that as the
# disk's latency, and a cold start varies by several times between
# rounds.  QEMU 10 from bookworm-backports (built for Debian 12) stalls
# up to 20 ms, and not at all with bench-kernels.sh's init_on_free=1: it
# is unpacked into the build tree (make bench-qemu, without installing
# it or touching the system's apt sources) and the harness boots it
# (run-vm.sh's VM_QEMU_ROOT).  BENCH_QEMU=system: Debian 12's.
BENCH_QEMU ?= bookworm-backports
BENCH_QEMU_PACKAGES := qemu-system-arm qemu-system-x86 qemu-system-common qemu-system-data
BENCH_QEMU_ROOT := $(BUILD)/qemu-$(BENCH_QEMU)
bench_qemu_root = $(if $(filter system,$(BENCH_QEMU)),,$(BENCH_QEMU_ROOT))
BENCH_KERNELS ?= 6.12:stock 6.12:option-one 7.3:stock 7.3:execfolio
# $(call bench_boots,BASE:SERIES): bench-kernels.sh's NAME[@CONFIG]=KERNEL
# arguments, NAME being SERIES-BASE: the execfolio kernel boots once per
# configuration.
bench_configs_execfolio := mount tagged
bench_base = $(firstword $(subst :, ,$(1)))
bench_series = $(lastword $(subst :, ,$(1)))
bench_boot_names = $(if $(bench_configs_$(2)),$(addprefix $(2)-$(1)@,$(bench_configs_$(2))),$(2)-$(1))
bench_boots = $(addsuffix =$(call kernel_image,arm64,$(BENCH_KCONFIG),$(call bench_series,$(1)),$(call bench_base,$(1))),$(call bench_boot_names,$(call bench_base,$(1)),$(call bench_series,$(1))))

# Debian's arm64 packages of the workloads, with their dependencies.
$(BENCH_TREE).stamp: tests/workloads/debian-tree.sh
	@echo "  TREE     $(BENCH_TREE) (nginx, redis, gcc...: a few minutes)"
	$(Q)rm -rf $(BENCH_TREE) $(BENCH_TREE).tmp
	$(Q)sh $< arm64 $(BENCH_TREE).tmp nginx apache2-utils redis-server \
		redis-tools gcc make libc6-dev coreutils dash grep sed findutils \
		procps >/dev/null
	$(Q)mv $(BENCH_TREE).tmp $(BENCH_TREE) && touch $@

.PHONY: bench-tree bench-kernels bench-costs bench-report bench-qemu
bench: bench-kernels bench-costs
bench-tree: $(BENCH_TREE).stamp

bench-qemu:
	$(Q)[ "$(BENCH_QEMU)" = system ] || $(TOP)/dist/fetch-debs --if-missing \
		$(BENCH_QEMU) $(BENCH_QEMU_ROOT) $(BENCH_QEMU_PACKAGES)

# Only the release configuration has TCP/IP (fs/config/release.config),
# which the workloads' nginx and boot script need.
bench-kernels: all bench-qemu
	$(Q)[ "$(BENCH_KCONFIG)" = release ] || { echo "bench-kernels:" \
		"BENCH_KCONFIG=$(BENCH_KCONFIG) has no TCP/IP for nginx and the boot" \
		"workload: use release (the default)" >&2; exit 2; }
	$(Q)$(MAKE) --no-print-directory bench-guest ARCH=arm64
	$(Q)$(MAKE) --no-print-directory $(BENCH_TREE).stamp
	$(Q)set -e; for k in $(BENCH_KERNELS); do \
		$(MAKE) --no-print-directory kernel ARCH=arm64 KCONFIG=$(BENCH_KCONFIG) \
			KBASE=$${k%%:*} KSERIES=$${k#*:}; \
	done
	VM_QEMU_ROOT=$(call bench_qemu_root) $(TOP)/bench/bench-kernels.sh $(BUILD)/bench/kernels \
		$(foreach k,$(BENCH_KERNELS),$(call bench_boots,$(k)))
	$(TOP)/bench/bench-report.py --kernels $(BUILD)/bench/kernels \
		--out $(BUILD)/bench --plots $(TOP)/bench/plots

bench-costs: all bench-qemu
	$(Q)$(MAKE) --no-print-directory bench-guest ARCH=arm64
	$(Q)$(MAKE) --no-print-directory $(BENCH_TREE).stamp
	$(Q)set -e; for s in stock execfolio; do \
		$(MAKE) --no-print-directory kernel ARCH=arm64 KCONFIG=$(BENCH_KCONFIG) KSERIES=$$s; \
	done
	VM_QEMU_ROOT=$(call bench_qemu_root) $(TOP)/bench/bench-costs.sh $(BUILD)/bench/costs \
		stock-7.3=$(call kernel_image,arm64,$(BENCH_KCONFIG),stock) \
		execfolio-7.3=$(call kernel_image,arm64,$(BENCH_KCONFIG),execfolio)
	$(TOP)/bench/bench-report.py --costs $(BUILD)/bench/costs \
		--out $(BUILD)/bench --plots $(TOP)/bench/plots

# x86_64: stock 7.3 against the series (the 64k mount default, 2m text
# mapped by PMDs), on the test kernels (the release kernels compared on
# arm64 are not built for x86_64), with the harness's amd64 redis tree
# (tests/vm/tiers.mk).
.PHONY: bench-x86
bench: bench-x86
bench-x86: all bench-qemu
	$(Q)$(MAKE) --no-print-directory bench-guest ARCH=x86_64
	$(Q)$(MAKE) --no-print-directory $(call redis_tree,x86_64).stamp
	$(Q)set -e; for s in stock execfolio; do \
		$(MAKE) --no-print-directory kernel ARCH=x86_64 KCONFIG=test KSERIES=$$s; \
	done
	VM_QEMU_ROOT=$(call bench_qemu_root) $(TOP)/bench/bench-x86.sh $(BUILD)/bench/x86 \
		stock-7.3=$(call kernel_image,x86_64,test,stock) \
		execfolio-7.3=$(call kernel_image,x86_64,test)
	$(TOP)/bench/bench-report.py --x86 $(BUILD)/bench/x86 --out $(BUILD)/bench

bench-report:
	$(TOP)/bench/bench-report.py --kernels $(BUILD)/bench/kernels \
		--costs $(BUILD)/bench/costs --x86 $(BUILD)/bench/x86 \
		--out $(BUILD)/bench --plots $(TOP)/bench/plots
