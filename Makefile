# SPDX-License-Identifier: GPL-2.0-or-later
#
# execfolio: per-file exec folio policy.
#
#   make                 host programs into build/bin/
#   make ARCH=arm64      static guest programs into build/arm64/bin/
#   make deps            install the Debian packages the project needs
#   make check           every test tier, ending with "N passed, N failed"
#   make check-full      the VM tiers again on a KASAN kernel, the tiers of
#                        the 6.12, stock and 16K-page kernels, every patch built
#   make demo            the release kernel with and without the policy
#   make install         PREFIX=/usr/local DESTDIR=
#   make uninstall       what make install wrote, the same variables
#   make deb             the Debian package, build/execfolio_VERSION_ARCH.deb
#   make clean

HOST_ARCH := $(shell uname -m | sed -e 's/aarch64/arm64/')
ARCH ?= $(HOST_ARCH)
V ?= 0
export CI

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
DESTDIR ?=

TOP := $(abspath .)
BUILD := $(TOP)/build

# Host builds are dynamic and go to build/bin/; ARCH= builds are static
# guest programs in build/<arch>/bin/ (DESIGN.md section 5.2).
ifeq ($(origin ARCH),command line)
GUEST := 1
endif

ifdef GUEST
ifeq ($(ARCH),arm64)
CROSS_COMPILE ?= aarch64-linux-gnu-
else ifeq ($(ARCH),x86_64)
CROSS_COMPILE ?= $(if $(filter x86_64,$(HOST_ARCH)),,x86_64-linux-gnu-)
endif
CC := $(CROSS_COMPILE)gcc
AR := $(CROSS_COMPILE)ar
OBJ := $(BUILD)/$(ARCH)/obj
BIN := $(BUILD)/$(ARCH)/bin
LDFLAGS += -static
else
CC ?= gcc
OBJ := $(BUILD)/obj
BIN := $(BUILD)/bin
endif

CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wshadow \
	  -Wmissing-prototypes -Wstrict-prototypes -Werror=implicit-function-declaration \
	  -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -MMD -MP
VERSION := 0.1
CPPFLAGS += -I$(TOP)/include -DEXECFOLIO_VERSION=\"$(VERSION)\"

ifeq ($(V),0)
Q := @
quiet = @printf '  %-8s %s\n' $(1) $(patsubst $(TOP)/%,%,$(2));
else
Q :=
quiet =
endif

.SECONDARY:

.PHONY: all clean check check-unit deb deps deps-check install uninstall tests fuzz bench

all:

# --- libexecfolio -----------------------------------------------------------
LIB_SRCS := $(wildcard lib/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(OBJ)/%.o)
LIBEXECFOLIO := $(OBJ)/libexecfolio.a

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIBEXECFOLIO): $(LIB_OBJS)
	$(call quiet,AR,$@)rm -f $@ && $(AR) rcs $@ $^

# --- front end --------------------------------------------------------------
# What the three programs share and libexecfolio, which never prints, must
# not hold: messages, exit statuses, allocation that exits (frontend.h).
FRONTEND_SRCS := $(wildcard frontend/*.c)
FRONTEND_OBJS := $(FRONTEND_SRCS:%.c=$(OBJ)/%.o)
LIBFRONTEND := $(OBJ)/libfrontend.a
FRONTEND_CPPFLAGS := -I$(TOP)/frontend

$(FRONTEND_OBJS): CPPFLAGS += $(FRONTEND_CPPFLAGS)

$(LIBFRONTEND): $(FRONTEND_OBJS)
	$(call quiet,AR,$@)rm -f $@ && $(AR) rcs $@ $^

# --- the policy vectors loader ------------------------------------------------
# Reads tests/vectors/policy.vec for the tests of each implementation
# (DESIGN.md section 2.9): linked into those, not into libexecfolio. Link
# lines put it before $(LIBEXECFOLIO), whose policy code it checks.
VECTORS_OBJ := $(OBJ)/tests/vectors/vectors.o

# --- execfolio ----------------------------------------------------------------
TOOL_SRCS := $(wildcard tools/*.c)
TOOL_OBJS := $(TOOL_SRCS:%.c=$(OBJ)/%.o)

$(TOOL_OBJS): CPPFLAGS += $(FRONTEND_CPPFLAGS)

$(BIN)/execfolio: $(TOOL_OBJS) $(LIBFRONTEND) $(LIBEXECFOLIO)
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

all: $(BIN)/execfolio

# Components add themselves here (mkfs/, fuse/, fs/, tests/, fstests/).
-include mkfs/mkfs.mk
-include fuse/fuse.mk
-include tests/tests.mk
-include tests/tools/itlb/itlb.mk
-include fs/kernel.mk
-include tests/vm/vm.mk
-include bench/bench.mk
-include tests/fuzz/fuzz.mk
-include fstests/fstests.mk

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)

# --- check-full -----------------------------------------------------------------
# Not part of make check (DESIGN.md section 10.2): the in-guest tiers on
# the KASAN arm64 kernel (their fault injection, bad input and concurrency
# tests under the address sanitizer; about twice as slow as the test
# kernel, hence the longer VM timeout), vm-robust on x86_64, both with the
# guest tests' own settings (VM_APPEND=, not the shorter ones vm-robust
# has in make check), the tiers
# that need a kernel make check does not build (VM_FULL_TIERS, tests/vm/
# tiers.mk: vm-fidelity against stock 7.3, the policy with 16K pages) and
# every patch built on its own.
# Ends with the summary line, like make check.
CHECK_FULL_KASAN_TIERS := vm-smoke vm-suite vm-faults vm-robust

.PHONY: check-full demo
check-full: deps-check
	@rm -rf $(RESULTS)
	@$(MAKE) --no-print-directory tests
	@$(MAKE) --no-print-directory kernel ARCH=arm64 KCONFIG=kasan
	@set -e; for t in $(CHECK_FULL_KASAN_TIERS); do \
		echo "==== tier $$t (arm64, KASAN)"; \
		$(MAKE) --no-print-directory check-$$t VM_KCONFIG=kasan \
			VM_ARCHES=arm64 VM_TIMEOUT=3600 VM_APPEND=; \
	done
	@echo "==== tier vm-robust (x86_64)"
	@$(MAKE) --no-print-directory check-vm-robust VM_ARCHES=x86_64 VM_APPEND=
	@$(call run_tiers,$(VM_FULL_TIERS))
	@echo "==== check-patches"
	@$(MAKE) --no-print-directory check-patches || \
		printf '1..1\nnot ok 1 - make check-patches failed\n' > $(RESULTS)/check-patches.tap
	@echo "==== summary"
	@$(TOP)/tests/tap-summary $(RESULTS)

# --- demo -----------------------------------------------------------------------
# The README's demo: the release arm64 kernel under QEMU, a large program
# and redis-server without and with the policy (tests/vm/demo.sh).
demo:
	@$(TOP)/tests/vm/demo.sh

# --- deps -----------------------------------------------------------------------
# Debian packages, one list for everything `make check`, `make kernel` and
# `make demo` use. Installed only when something is missing.
DEPS_PKGS := build-essential pkg-config clang llvm libclang-rt-14-dev \
	clang-format libcmocka-dev libfuse3-dev fuse3 liburcu-dev xfsprogs attr \
	python3 python3-numpy python3-ply jq util-linux util-linux-extra kmod debhelper lintian \
	linux-source-6.12 flex bison bc libelf-dev libssl-dev cpio ccache rsync \
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross libfuse3-dev:arm64 liburcu-dev:arm64 \
	qemu-system-arm qemu-system-x86 busybox-static gnuplot-nox strace \
	autoconf automake libtool libacl1-dev:arm64 libattr1-dev:arm64 \
	libaio-dev:arm64 liburing-dev:arm64 uuid-dev:arm64 libcap-dev:arm64 \
	libglib2.0-dev

# Linux 7.3, the kernel the series is written for, is not in Debian 12's
# suites: its source tarball comes from trixie-backports through a private
# apt configuration, leaving the system's apt sources as they are.
KERNEL_SOURCE_7.3 := linux-source-7.3 trixie-backports /usr/src/linux-source-7.3.tar.xz

deps:
	@$(TOP)/dist/install-deps $(DEPS_PKGS)
	@$(TOP)/dist/fetch-kernel-source $(KERNEL_SOURCE_7.3)

deps-check:
	@$(TOP)/dist/install-deps --if-missing $(DEPS_PKGS)
	@$(TOP)/dist/fetch-kernel-source --if-missing $(KERNEL_SOURCE_7.3)

# --- install --------------------------------------------------------------------
# The two files under SYSCONFDIR are configuration, handled as dpkg handles
# a conffile: `make install` keeps a reapply.conf that differs from the
# shipped one (the administrator's rules), `make uninstall` keeps either
# file when it differs from what this tree installs, and says so.
HOOK_DIR := $(PREFIX)/libexec/execfolio
HOOK_CONF := $(DESTDIR)$(SYSCONFDIR)/execfolio/reapply.conf
HOOK_APT := $(DESTDIR)$(SYSCONFDIR)/apt/apt.conf.d/99execfolio
HOOK_APT_TEXT = sed -e 's|@LIBEXECDIR@|$(HOOK_DIR)|g' \
	-e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	dist/99execfolio.in
# What the hook leaves while it runs (dist/dpkg-reapply).
HOOK_STATE := $(DESTDIR)/var/lib/execfolio

# Every other file install writes, for uninstall; components add theirs.
INSTALLED_FILES += $(BINDIR)/execfolio $(MANDIR)/man1/execfolio.1 \
	$(HOOK_DIR)/dpkg-reapply

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(SYSCONFDIR)/apt/apt.conf.d $(DESTDIR)$(HOOK_DIR)
	install -m 0755 $(BIN)/execfolio $(DESTDIR)$(BINDIR)/execfolio
	install -m 0644 man/execfolio.1 $(DESTDIR)$(MANDIR)/man1/execfolio.1
	install -m 0755 dist/dpkg-reapply $(DESTDIR)$(HOOK_DIR)/dpkg-reapply
	@if [ -e $(HOOK_CONF) ] && ! cmp -s dist/reapply.conf $(HOOK_CONF); then \
		echo "install: keeping $(HOOK_CONF), which differs from dist/reapply.conf"; \
	else \
		echo "install -D -m 0644 dist/reapply.conf $(HOOK_CONF)"; \
		install -D -m 0644 dist/reapply.conf $(HOOK_CONF); \
	fi
	$(HOOK_APT_TEXT) > $(HOOK_APT)
	$(if $(INSTALL_EXTRA),$(INSTALL_EXTRA))

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	rm -rf $(HOOK_STATE)
	@if [ -e $(HOOK_CONF) ] && ! cmp -s dist/reapply.conf $(HOOK_CONF); then \
		echo "uninstall: keeping $(HOOK_CONF), which differs from dist/reapply.conf (remove it by hand)"; \
	else \
		echo "rm -f $(HOOK_CONF)"; rm -f $(HOOK_CONF); \
	fi
	@if [ -e $(HOOK_APT) ] && ! $(HOOK_APT_TEXT) | cmp -s - $(HOOK_APT); then \
		echo "uninstall: keeping $(HOOK_APT), which differs from what make install writes (remove it by hand)"; \
	else \
		echo "rm -f $(HOOK_APT)"; rm -f $(HOOK_APT); \
	fi
	@for d in $(DESTDIR)$(HOOK_DIR) $(DESTDIR)$(SYSCONFDIR)/execfolio; do \
		[ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d; \
	done

# --- deb ------------------------------------------------------------------------
# The Debian package, made by debhelper from debian/ with the install target
# above (README.md, "Debian package"), in a copy of the tree: debhelper's
# work files and its clean step (which deletes *.orig, *.rej and *~ files
# throughout the tree) stay in build/deb/.
DEB_FILE = $(BUILD)/execfolio_$(VERSION)_$(shell dpkg --print-architecture).deb
DEB_SRC := $(BUILD)/deb/src

deb:
	@v=$$(dpkg-parsechangelog -S Version) || exit 1; \
	if [ "$$v" != "$(VERSION)" ]; then \
		echo "deb: debian/changelog is at $$v, the Makefile's VERSION is $(VERSION):" \
			"add a changelog entry (dch -v $(VERSION))" >&2; \
		exit 1; \
	fi
	@dpkg-checkbuilddeps || \
		{ echo "deb: build dependencies missing: run 'make deps' as root" >&2; exit 1; }
	@rm -rf $(BUILD)/deb $(BUILD)/execfolio_*.deb && mkdir -p $(DEB_SRC)
	tar -C $(TOP) --exclude=./build --exclude=./.git -cf - . | tar -C $(DEB_SRC) -xf -
	cd $(DEB_SRC) && \
		DEB_BUILD_OPTIONS="$${DEB_BUILD_OPTIONS-parallel=$$(nproc)}" \
		debian/rules binary PKG_DEB_DESTDIR=$(BUILD)
	@echo "deb: $(DEB_FILE)"

clean:
	rm -rf $(BUILD)
