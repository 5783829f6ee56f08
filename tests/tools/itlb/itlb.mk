# SPDX-License-Identifier: GPL-2.0-or-later
#
# The iTLB instrument (tests/tools/itlb/README): a QEMU TCG plugin that
# models the instruction TLBs of real cores on the guest's own page
# tables.  Its model and walks are plain C, checked by the unit tests
# (tests/unit/test_itlb_*.c, make check-unit) on the host; the plugin
# needs QEMU's plugin header, taken from Debian's qemu source package of
# the QEMU it is loaded into (make itlb-plugin), never at test time.

ITLB_DIR := tests/tools/itlb
ITLB_MODEL_SRCS := $(ITLB_DIR)/tlb.c $(ITLB_DIR)/core.c $(ITLB_DIR)/decode.c \
	$(ITLB_DIR)/fetch_log.c \
	$(ITLB_DIR)/walk_arm64.c $(ITLB_DIR)/walk_x86_64.c
ITLB_MODEL_OBJS := $(ITLB_MODEL_SRCS:%.c=$(OBJ)/%.o)

$(OBJ)/tests/unit/test_itlb_%.o: CPPFLAGS += -I$(TOP)/$(ITLB_DIR)
$(addprefix $(OBJ)/tests/unit/test_itlb_,tlb walk decode fetch_log): \
		$(ITLB_MODEL_OBJS)

# The plugin: make itlb-plugin [ITLB_QEMU_SUITE=bookworm-backports].  The
# header comes from the source package of the suite whose QEMU loads the
# plugin (QEMU refuses a plugin built for another API version).
ITLB_QEMU_SUITE ?= bookworm-backports
ITLB_HEADER_DIR := $(BUILD)/qemu-plugin-header-$(ITLB_QEMU_SUITE)
ITLB_HEADER := $(ITLB_HEADER_DIR)/qemu-plugin.h
ITLB_PLUGIN := $(OBJ)/tests/tools/itlb/libitlb.so
ITLB_PLUGIN_SRCS := $(addprefix $(ITLB_DIR)/,plugin.c walk_guest.c invalidate.c \
	report.c) $(ITLB_MODEL_SRCS)

$(ITLB_HEADER):
	$(Q)$(TOP)/dist/fetch-qemu-plugin-header --if-missing $(ITLB_QEMU_SUITE) $@

$(ITLB_PLUGIN): $(ITLB_PLUGIN_SRCS) $(wildcard $(ITLB_DIR)/*.h) $(ITLB_HEADER)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wshadow \
		-Wmissing-prototypes -Wstrict-prototypes \
		-Wno-unused-parameter -fPIC -shared -fvisibility=hidden \
		-I$(ITLB_HEADER_DIR) -I$(TOP)/$(ITLB_DIR) \
		$$(pkg-config --cflags glib-2.0) -o $@ $(ITLB_PLUGIN_SRCS) \
		$$(pkg-config --libs glib-2.0)

.PHONY: itlb-plugin
itlb-plugin: $(ITLB_PLUGIN)

# The guest program of the iTLB test (page-chain.c): static in guest
# builds (make ARCH=arm64 itlb-page-chain), built on the host by
# make tests so that it keeps compiling.
ITLB_PAGE_CHAIN := $(BIN)/itlb-page-chain

$(ITLB_PAGE_CHAIN): $(ITLB_DIR)/page-chain.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

.PHONY: itlb-page-chain
itlb-page-chain: $(ITLB_PAGE_CHAIN)
tests: $(ITLB_PAGE_CHAIN)
