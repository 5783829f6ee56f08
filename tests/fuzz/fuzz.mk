# SPDX-License-Identifier: GPL-2.0-or-later
#
# libFuzzer targets (clang, ASan + UBSan).
#
#   make fuzz                 fuzz for FUZZ_SECONDS over the committed corpus
#   make check-fuzz           (tier "fuzz" of make check) replay the corpus,
#                             then fuzz for FUZZ_CHECK_SECONDS
#
# New inputs go to build/fuzz/corpus-elf/, never into the committed
# tests/fuzz/corpus/elf/; a crash leaves build/fuzz/crash-* to add there
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

fuzz: $(FUZZ_ELF)
	@mkdir -p $(FUZZ_DIR)/corpus-elf
	cd $(FUZZ_DIR) && $(FUZZ_ELF) -max_total_time=$(FUZZ_SECONDS) \
		-print_final_stats=1 corpus-elf $(TOP)/tests/fuzz/corpus/elf

CHECK_TIERS += fuzz

check-fuzz:
	@$(TAP_RUN) fuzz/elf env FUZZ_CC=$(FUZZ_CC) \
		FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS) FUZZ_DIR=$(FUZZ_DIR) \
		sh $(TOP)/tests/fuzz/check-fuzz.sh $(MAKE) -C $(TOP) \
		--no-print-directory $(FUZZ_ELF)
