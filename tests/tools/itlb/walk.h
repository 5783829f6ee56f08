/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Page-table walks as the hardware does them on an instruction fetch:
 * from the translation registers and the descriptors in guest memory to
 * the translation a TLB would cache, its size taken from the
 * descriptors.  A walk reads descriptors by physical address through a
 * caller's function (the plugin reads guest memory, the tests a table of
 * their own).
 *
 * Errors: -ENOENT no valid translation (a fetch that would fault),
 * -EFAULT a descriptor could not be read, -EOPNOTSUPP a regime not
 * modelled (granule, address size, paging mode).
 */
#ifndef ITLB_WALK_H
#define ITLB_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "tlb.h"

/* Reads the 8-byte descriptor at physical address @pa into @desc. */
typedef int (*walk_read_fn)(void *ctx, uint64_t pa, uint64_t *desc);

struct walk_arm64_regs {
	uint64_t ttbr0; /* TTBR0_EL1 */
	uint64_t ttbr1; /* TTBR1_EL1 */
	uint64_t tcr; /* TCR_EL1 */
};

/* The ASID that non-global translations of @va are tagged with. */
uint16_t walk_arm64_asid(const struct walk_arm64_regs *regs, uint64_t va);

int walk_arm64(const struct walk_arm64_regs *regs, uint64_t va,
	       walk_read_fn read, void *ctx, struct tlb_translation *t,
	       unsigned int *reads);

struct walk_x86_64_regs {
	uint64_t cr3;
	uint64_t cr4;
	bool coalesce; /* AMD Zen: aligned contiguous 4K runs as one entry */
};

uint16_t walk_x86_64_pcid(const struct walk_x86_64_regs *regs);

int walk_x86_64(const struct walk_x86_64_regs *regs, uint64_t va,
		walk_read_fn read, void *ctx, struct tlb_translation *t,
		unsigned int *reads);

#endif
