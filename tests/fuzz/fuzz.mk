# SPDX-License-Identifier: GPL-2.0-or-later
#
# libFuzzer targets (clang, ASan + UBSan): fuzz_elf (the ELF parser) and
# fuzz_trace (the execfoliofs trace reader and writer, and the report's
# loading of a trace).
#
#   make fuzz                 fuzz each for FUZZ_SECONDS over its committed
#                             corpus
#   make check-fuzz           (tier "fuzz" of make check) replay each corpus,
#                             then fuzz each for FUZZ_CHECK_SECONDS
#
# New inputs go to build/fuzz/corpus-TARGET/, never into the committed
# tests/fuzz/corpus/TARGET/; a crash leaves build/fuzz/crash-* to add there
# once fixed.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 300
FUZZ_CHECK_SECONDS ?= 20
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -fno-omit-frame-pointer -I$(TOP)/include \
	-I$(TOP)/lib -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_ELF := $(FUZZ_DIR)/fuzz_elf
FUZZ_ELF_SRCS := tests/fuzz/fuzz_elf.c lib/elf.c lib/elf_source.c lib/policy.c

$(FUZZ_ELF): $(FUZZ_ELF_SRCS) include/execfolio/elf.h lib/elf_source.h
	@mkdir -p $(dir $@)
	$(call quiet,FUZZCC,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_ELF_SRCS)

FUZZ_TRACE := $(FUZZ_DIR)/fuzz_trace
FUZZ_TRACE_SRCS := tests/fuzz/fuzz_trace.c lib/trace_parse.c \
	lib/trace_read.c lib/trace_write.c lib/report.c lib/policy.c

$(FUZZ_TRACE): $(FUZZ_TRACE_SRCS) include/execfolio/trace.h \
		include/execfolio/report.h
	@mkdir -p $(dir $@)
	$(call quiet,FUZZCC,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_TRACE_SRCS)

FUZZ_TARGETS := elf trace

fuzz: $(FUZZ_ELF) $(FUZZ_TRACE)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/corpus-$$t && \
		(cd $(FUZZ_DIR) && ./fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
			-print_final_stats=1 corpus-$$t \
			$(TOP)/tests/fuzz/corpus/$$t) || exit 1; \
	done

CHECK_TIERS += fuzz

check-fuzz:
	@for t in $(FUZZ_TARGETS); do \
		$(TAP_RUN) fuzz/$$t env FUZZ_CC=$(FUZZ_CC) FUZZ_TARGET=$$t \
			FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS) FUZZ_DIR=$(FUZZ_DIR) \
			sh $(TOP)/tests/fuzz/check-fuzz.sh $(MAKE) -C $(TOP) \
			--no-print-directory $(FUZZ_DIR)/fuzz_$$t; \
	done
