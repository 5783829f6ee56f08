# SPDX-License-Identifier: GPL-2.0-or-later
#
# Unit tests (cmocka, TAP output) and the `make check` driver.
#
# A tier is a make target named check-TIER that runs its TAP programs
# through tests/tap-run, which keeps each stream in $(RESULTS). Components add
# their tier to CHECK_TIERS; `make check` runs every tier, even after one
# fails, then tests/tap-summary prints the closing line.

RESULTS := $(BUILD)/test-results
TAP_RUN := $(TOP)/tests/tap-run $(RESULTS)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(OBJ)/tests/unit/%)
# Support code the unit tests share (fixtures, ELF builders).
UNIT_HELPER_SRCS := $(filter-out $(UNIT_SRCS),$(wildcard tests/unit/*.c))
UNIT_HELPER_OBJS := $(UNIT_HELPER_SRCS:%.c=$(OBJ)/%.o)

# Objects first, then archives: some tests add objects of their own below.
$(OBJ)/tests/unit/test_%: $(OBJ)/tests/unit/test_%.o $(UNIT_HELPER_OBJS) $(LIBEXECFOLIO)
	$(call quiet,LD,$@)$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) \
		$(filter %.a,$^) -lcmocka $(LDLIBS)

# The policy vectors (DESIGN.md section 2.9).
$(OBJ)/tests/unit/test_policy: $(VECTORS_OBJ)

tests: all $(UNIT_BINS)

# Tools of the tests that the benchmarks use too (tests/tools/): a process
# that maps files as text, for execfolio stat against thpmaps.
TEXT_HOLDER := $(OBJ)/tests/tools/text-holder

$(TEXT_HOLDER): tests/tools/text-holder.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

tests: $(TEXT_HOLDER)

CHECK_TIERS := unit integration $(CHECK_TIERS)

check-unit: tests
	@for t in $(UNIT_BINS); do \
		$(TAP_RUN) unit/$$(basename $$t) $$t; \
	done

# Integration tests that components run in their own tier.
COMPONENT_TESTS := tests/integration/mkfs% tests/integration/fuse%

check-integration: tests
	@for t in $(sort $(filter-out $(COMPONENT_TESTS),$(wildcard tests/integration/*.sh))); do \
		$(TAP_RUN) integration/$$(basename $$t .sh) \
			env BIN=$(BIN) TOP=$(TOP) sh $$t; \
	done

# $(call run_tiers,TIERS): make check-TIER for each, going on after a
# failure, which is recorded as a failing TAP line (make check, check-full).
# A TIER:ARCH runs the tier's boots on ARCH alone (VM_ONLY_ARCHES).
run_tiers = for run in $(1); do \
		tier=$${run%%:*}; arch=$${run\#$$tier}; arch=$${arch\#:}; \
		echo "==== tier $$tier$${arch:+ ($$arch)}"; \
		$(MAKE) --no-print-directory check-$$tier $${arch:+VM_ONLY_ARCHES=$$arch} || \
			printf '1..1\nnot ok 1 - make check-%s failed\n' "$$tier$${arch:+ on $$arch}" \
				> $(RESULTS)/$$tier$${arch:+-$$arch}-make.tap; \
	done

# The single test command of README.md: the tiers on this machine, then
# the VM tiers kernel by kernel, while the kernels build ahead of them
# (tests/vm/vm.mk).
check: deps-check
	@rm -rf $(RESULTS)
	@$(MAKE) --no-print-directory tests
	@MAKE="$(MAKE)" $(TOP)/tests/vm/harness/build-ahead.sh $(BUILD)/kernels-ahead.log \
		$(MAKE) --no-print-directory check-tiers
	@echo "==== summary"
	@$(TOP)/tests/tap-summary $(RESULTS)

.PHONY: check-tiers
check-tiers:
	@$(call run_tiers,$(CHECK_TIERS))
	@echo "==== the VM tiers' trees"
	@$(MAKE) --no-print-directory vm-check-needs || \
		echo "check: making the VM tiers' trees failed: the tiers that need them say so"
	@$(call run_tiers,$(VM_CHECK_RUNS))
