# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs.execfolio: XFS images with the policy xattr, built without root.

MKFS_SRCS := $(wildcard mkfs/*.c)
MKFS_OBJS := $(MKFS_SRCS:%.c=$(OBJ)/%.o)

$(MKFS_OBJS): CPPFLAGS += $(FRONTEND_CPPFLAGS)

$(BIN)/mkfs.execfolio: $(MKFS_OBJS) $(LIBFRONTEND) $(LIBEXECFOLIO)
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ifndef GUEST
all: $(BIN)/mkfs.execfolio
endif

# The unit test of the readers of xfs_db output (tests/unit/data/xfsdb/)
# links them, and names.c for the directory hash with report.c under it.
$(OBJ)/tests/unit/test_mkfs_dbparse.o: CPPFLAGS += -I$(TOP)/mkfs -I$(TOP)/tests/unit/mkfs $(FRONTEND_CPPFLAGS)
$(OBJ)/tests/unit/test_mkfs_dbparse: $(addprefix $(OBJ)/mkfs/,dbparse.o names.o report.o) \
	$(OBJ)/tests/unit/mkfs/xfsdb_recording.o $(LIBFRONTEND)

# The unit test of the directory hash index, with the readers it uses;
# both read the recordings through tests/unit/mkfs/xfsdb_recording.c.
$(OBJ)/tests/unit/test_mkfs_dirindex.o: CPPFLAGS += -I$(TOP)/mkfs -I$(TOP)/tests/unit/mkfs $(FRONTEND_CPPFLAGS)
$(OBJ)/tests/unit/test_mkfs_dirindex: $(addprefix $(OBJ)/mkfs/,dbparse.o dirindex.o) \
	$(OBJ)/tests/unit/mkfs/xfsdb_recording.o $(LIBFRONTEND)
$(OBJ)/tests/unit/mkfs/xfsdb_recording.o: CPPFLAGS += -I$(TOP)/mkfs $(FRONTEND_CPPFLAGS)

# Checks the tool's size validation against tests/vectors/policy.vec.
MKFS_VECTORS := $(OBJ)/tests/mkfs/vectors_check

$(MKFS_VECTORS): $(OBJ)/tests/mkfs/vectors_check.o $(VECTORS_OBJ) $(LIBEXECFOLIO)
	$(call quiet,LD,$@)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

tests: $(MKFS_VECTORS)

CHECK_TIERS += mkfs

check-mkfs: all $(MKFS_VECTORS)
	@$(TAP_RUN) mkfs/vectors $(MKFS_VECTORS) $(BIN)/mkfs.execfolio \
		$(TOP)/tests/vectors/policy.vec
	@for t in $(sort $(wildcard tests/integration/mkfs*.sh)); do \
		$(TAP_RUN) mkfs/$$(basename $$t .sh) \
			env BIN=$(BIN) TOP=$(TOP) sh $$t; \
	done

INSTALL_EXTRA += install -D -m 0755 $(BIN)/mkfs.execfolio \
	$(DESTDIR)$(SBINDIR)/mkfs.execfolio && \
	install -D -m 0644 man/mkfs.execfolio.8 \
	$(DESTDIR)$(MANDIR)/man8/mkfs.execfolio.8;
INSTALLED_FILES += $(SBINDIR)/mkfs.execfolio $(MANDIR)/man8/mkfs.execfolio.8

.PHONY: check-mkfs
