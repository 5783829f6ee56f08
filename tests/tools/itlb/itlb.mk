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
	$(ITLB_DIR)/walk_arm64.c $(ITLB_DIR)/walk_x86_64.c
ITLB_MODEL_OBJS := $(ITLB_MODEL_SRCS:%.c=$(OBJ)/%.o)

$(OBJ)/tests/unit/test_itlb_%.o: CPPFLAGS += -I$(TOP)/$(ITLB_DIR)
$(addprefix $(OBJ)/tests/unit/test_itlb_,tlb walk decode): $(ITLB_MODEL_OBJS)
