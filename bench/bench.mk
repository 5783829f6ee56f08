# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmarks. `make bench` runs every bench-* target; bench-stat compares
# `execfolio stat` with the kernel's thpmaps (agreement and speed) and writes
# build/bench/stat.md, the section of BENCHMARKS.md.

BENCH_TEXT_HOLDER := $(OBJ)/bench/text-holder

$(BENCH_TEXT_HOLDER): bench/text-holder.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

# The stat integration test runs the text holder too.
tests: $(BENCH_TEXT_HOLDER)

.PHONY: bench-stat
bench: bench-stat
bench: bench-mkfs

bench-stat: all $(BENCH_TEXT_HOLDER)
	$(TOP)/bench/bench-stat.sh $(BIN)/execfolio $(BENCH_TEXT_HOLDER) $(BUILD)/bench
