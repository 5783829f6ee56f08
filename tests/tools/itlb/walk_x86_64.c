// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The x86_64 4-level walk of an instruction fetch (AMD64 Architecture
 * Programmer's Manual vol. 2, long-mode page translation): from CR3
 * through PML4, PDPT (PS: a 1GB page), PD (PS: a 2MB page) and PT (a 4KB
 * page).  The PCID is CR3's low 12 bits when CR4.PCIDE is set; G (bit 8)
 * makes a translation global when CR4.PGE is set.  5-level paging
 * (CR4.LA57) is not modelled.
 *
 * Coalescing (AMD Zen): the "PTE coalescing" of the Software
 * Optimization Guide for AMD Family 17h Processors (AMD publication
 * 55723), which lets one TLB entry hold a run of 4KB pages.  The
 * conditions modelled here are this model's reading of it: the four 4KB
 * PTEs of a 16KB-aligned virtual group all present, with the same
 * attributes (accessed and dirty aside), mapping four consecutive 4KB
 * physical pages that start on a 16KB boundary, give one 16KB entry.
 */
#include <errno.h>

#include "walk.h"

#define PTE_P 0x1ull
#define PTE_A (1ull << 5)
#define PTE_D (1ull << 6)
#define PTE_PS (1ull << 7)
#define PTE_G (1ull << 8)
#define PTE_ADDR 0x000ffffffffff000ull
#define PTE_ATTRS (~PTE_ADDR & ~(PTE_A | PTE_D))
#define CR4_PGE (1ull << 7)
#define CR4_LA57 (1ull << 12)
#define CR4_PCIDE (1ull << 17)
#define COALESCE_PAGES 4

uint16_t walk_x86_64_pcid(const struct walk_x86_64_regs *regs)
{
	return regs->cr4 & CR4_PCIDE ? regs->cr3 & 0xfff : 0;
}

/* Whether the 4KB PTE at @index of @table is in a coalescable run. */
static bool coalescable(walk_read_fn read, void *ctx, uint64_t table,
			unsigned int index)
{
	unsigned int first = index & ~(COALESCE_PAGES - 1u), i;
	uint64_t base = 0, attrs = 0;

	for (i = 0; i < COALESCE_PAGES; i++) {
		uint64_t pte;

		if (read(ctx, table + 8ull * (first + i), &pte) ||
		    !(pte & PTE_P))
			return false;
		if (i == 0) {
			base = pte & PTE_ADDR;
			attrs = pte & PTE_ATTRS;
			if (base & (COALESCE_PAGES * 4096ull - 1))
				return false;
		} else if ((pte & PTE_ADDR) != base + i * 4096ull ||
			   (pte & PTE_ATTRS) != attrs) {
			return false;
		}
	}
	return true;
}

int walk_x86_64(const struct walk_x86_64_regs *regs, uint64_t va,
		walk_read_fn read, void *ctx, struct tlb_translation *t,
		unsigned int *reads)
{
	uint64_t table = regs->cr3 & PTE_ADDR, entry = 0;
	unsigned int level, shift = 39, index = 0;

	*reads = 0;
	if (regs->cr4 & CR4_LA57)
		return -EOPNOTSUPP;
	/* Canonical: bits 63..47 all equal. */
	if ((uint64_t)((int64_t)(va << 16) >> 16) != va)
		return -ENOENT;
	for (level = 4; level >= 1; level--) {
		shift = 12 + 9 * (level - 1);
		index = (va >> shift) & 0x1ff;
		if (read(ctx, table + 8ull * index, &entry))
			return -EFAULT;
		(*reads)++;
		if (!(entry & PTE_P))
			return -ENOENT;
		if (level == 1 ||
		    ((level == 2 || level == 3) && (entry & PTE_PS)))
			break;
		if (level == 4 && (entry & PTE_PS))
			return -ENOENT;
		table = entry & PTE_ADDR;
	}

	t->shift = shift;
	if (level == 1 && regs->coalesce &&
	    coalescable(read, ctx, table, index))
		t->shift = 14;
	t->vbase = va & ~((1ull << t->shift) - 1);
	/* Large pages: bit 12 is PAT, not address. */
	t->pbase = (entry & PTE_ADDR & ~((1ull << shift) - 1)) -
		   (((va >> shift) - (t->vbase >> shift)) << shift);
	t->global = (regs->cr4 & CR4_PGE) && (entry & PTE_G);
	t->asid = walk_x86_64_pcid(regs);
	return 0;
}
