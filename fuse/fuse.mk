# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfoliofs: the FUSE prototype (DESIGN.md section 8). Host only: it
# links libfuse3 and liburcu, which lib/ must not.

FUSE_SRCS := $(wildcard fuse/*.c)
FUSE_OBJS := $(FUSE_SRCS:%.c=$(OBJ)/%.o)
FUSE_PKGS := fuse3 liburcu-memb liburcu-cds
ifdef GUEST
# A static program for the guests (tracing where the test kernels run),
# built when Debian's libfuse3-dev and liburcu-dev for ARCH are installed.
FUSE_TRIPLET := $(if $(filter arm64,$(ARCH)),aarch64,x86_64)-linux-gnu
FUSE_CFLAGS := -I/usr/include/fuse3 -I/usr/include/$(FUSE_TRIPLET)
FUSE_LIBS := -lfuse3 -lurcu-memb -lurcu-cds -lurcu-common -lpthread -ldl
FUSE_GUEST_OK := $(and $(wildcard /usr/lib/$(FUSE_TRIPLET)/libfuse3.a),$(wildcard /usr/include/$(FUSE_TRIPLET)/urcu/config.h))
else
FUSE_CFLAGS = $(shell pkg-config --cflags $(FUSE_PKGS))
FUSE_LIBS = $(shell pkg-config --libs $(FUSE_PKGS))
endif

$(FUSE_OBJS): CPPFLAGS += $(FUSE_CFLAGS) $(FRONTEND_CPPFLAGS)

# The daemon is the library and the front end; --report runs execfolio
# (fuse/report.c).
$(BIN)/execfoliofs: $(FUSE_OBJS) $(LIBFRONTEND) $(LIBEXECFOLIO)
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(LDFLAGS) -o $@ $^ $(FUSE_LIBS) $(LDLIBS)

# Test helpers: tests/fuse/*.c, one program each.
FUSE_HELPER_SRCS := $(wildcard tests/fuse/*.c)
FUSE_HELPERS := $(FUSE_HELPER_SRCS:%.c=$(OBJ)/%)

$(OBJ)/tests/fuse/%: $(OBJ)/tests/fuse/%.o $(LIBEXECFOLIO)
	$(call quiet,LD,$@)$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) \
		$(filter %.a,$^) -lpthread $(LDLIBS)

$(OBJ)/tests/fuse/vectors_mount: $(VECTORS_OBJ)

# fsx is the VM tier's (tests/tools/fsx.c, tests/vm/vm.mk), built for the
# host.
FUSE_FSX := $(OBJ)/tests/fuse/fsx
FUSE_HELPERS += $(FUSE_FSX)

$(FUSE_FSX): tests/tools/fsx.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

ifndef GUEST
all: $(BIN)/execfoliofs
tests: $(FUSE_HELPERS)
else ifneq ($(FUSE_GUEST_OK),)
all: $(BIN)/execfoliofs
endif

CHECK_TIERS += fuse

# Real mounts through /dev/fuse; the scripts skip without root or FUSE.
check-fuse: all $(FUSE_HELPERS)
	@for t in $(sort $(wildcard tests/integration/fuse*.sh)); do \
		$(TAP_RUN) fuse/$$(basename $$t .sh) \
			env BIN=$(BIN) TOP=$(TOP) HELPERS=$(OBJ)/tests/fuse \
			sh $$t; \
	done

INSTALL_EXTRA += install -D -m 0755 $(BIN)/execfoliofs \
	$(DESTDIR)$(SBINDIR)/execfoliofs && \
	install -D -m 0644 man/execfoliofs.8 \
	$(DESTDIR)$(MANDIR)/man8/execfoliofs.8;
INSTALLED_FILES += $(SBINDIR)/execfoliofs $(MANDIR)/man8/execfoliofs.8

.PHONY: check-fuse
