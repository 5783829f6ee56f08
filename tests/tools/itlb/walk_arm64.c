// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The arm64 stage 1 walk of an EL1&0 instruction fetch with the 4KB
 * granule (Arm ARM, VMSAv8-64 translation): TTBR0_EL1 or TTBR1_EL1 by
 * bit 55 of the address, the start level from T0SZ/T1SZ, table
 * descriptors down to a block (1GB at level 1, 2MB at level 2) or a page
 * (level 3).  A block or page whose contiguous bit (52) is set in all 16
 * aligned descriptors of its group, each valid and mapping the next
 * output address, is cached as one translation 16 times as large (64KB
 * pages: the kernel's contpte; 32MB blocks).  The ASID is TTBR0's or
 * TTBR1's (TCR.A1), 8 or 16 bits (TCR.AS); nG (bit 11) makes a
 * translation non-global.  With FEAT_LPA2 (TCR.DS, the kernel's 52-bit
 * VA_BITS on 4KB pages) addresses of up to 52 bits start at level -1,
 * level 0 may hold a 512GB block, and output addresses take bits 51:50
 * from descriptor bits 9:8 (TTBR bits 5:2 for bits 51:48 of the root).
 */
#include <errno.h>

#include "walk.h"

#define DESC_VALID 0x1ull
#define DESC_TABLE 0x2ull /* at levels 0-2; a page at level 3 */
#define DESC_NG (1ull << 11)
#define DESC_CONT (1ull << 52)
#define OA_MASK 0x0000fffffffff000ull
#define OA_MASK_LPA2 0x0003fffffffff000ull
#define TTBR_BADDR_MASK 0x0000ffffffffffc0ull /* tables are 64-byte aligned */
#define CONT_ENTRIES 16

#define TCR_T0SZ(tcr) ((tcr)&0x3f)
#define TCR_EPD0 (1ull << 7)
#define TCR_TG0(tcr) (((tcr) >> 14) & 3)
#define TCR_T1SZ(tcr) (((tcr) >> 16) & 0x3f)
#define TCR_A1 (1ull << 22)
#define TCR_EPD1 (1ull << 23)
#define TCR_TG1(tcr) (((tcr) >> 30) & 3)
#define TCR_AS (1ull << 36)
#define TCR_DS (1ull << 59)
#define TG0_4K 0
#define TG1_4K 2

static bool is_upper(uint64_t va)
{
	return (va >> 55) & 1;
}

uint16_t walk_arm64_asid(const struct walk_arm64_regs *regs, uint64_t va)
{
	uint64_t ttbr = regs->tcr & TCR_A1 ? regs->ttbr1 : regs->ttbr0;
	uint16_t asid = ttbr >> 48;

	(void)va;
	return regs->tcr & TCR_AS ? asid : (asid & 0xff);
}

/* The output address of descriptor @d. */
static uint64_t output_address(uint64_t d, bool lpa2)
{
	if (!lpa2)
		return d & OA_MASK;
	return (d & OA_MASK_LPA2) | (((d >> 8) & 3) << 50);
}

/* The level-@level shift of the 4KB granule: 48, 39, 30, 21, 12. */
static unsigned int level_shift(int level)
{
	return 12 + 9 * (3 - level);
}

/*
 * Whether the 16-aligned group around entry @index of the table at
 * @table (level @level) is one contiguous translation: every descriptor
 * valid, of the same kind, with the contiguous bit, mapping consecutive
 * output addresses.
 */
static bool contiguous_group(walk_read_fn read, void *ctx, uint64_t table,
			     unsigned int index, int level, uint64_t kind,
			     bool lpa2)
{
	unsigned int first = index & ~(CONT_ENTRIES - 1u), i;
	uint64_t size = 1ull << level_shift(level), base = 0;

	for (i = 0; i < CONT_ENTRIES; i++) {
		uint64_t d;

		if (read(ctx, table + 8ull * (first + i), &d))
			return false;
		if ((d & 3) != kind || !(d & DESC_CONT))
			return false;
		if (i == 0) {
			base = output_address(d, lpa2);
			if (base & (size * CONT_ENTRIES - 1))
				return false;
		} else if (output_address(d, lpa2) != base + i * size) {
			return false;
		}
	}
	return true;
}

int walk_arm64(const struct walk_arm64_regs *regs, uint64_t va,
	       walk_read_fn read, void *ctx, struct tlb_translation *t,
	       unsigned int *reads)
{
	bool upper = is_upper(va), lpa2 = regs->tcr & TCR_DS;
	unsigned int tsz = upper ? TCR_T1SZ(regs->tcr) : TCR_T0SZ(regs->tcr);
	unsigned int va_bits = 64 - tsz, tg, shift, index;
	uint64_t table, desc = 0, kind;
	int level;

	*reads = 0;
	tg = upper ? TCR_TG1(regs->tcr) : TCR_TG0(regs->tcr);
	if (tg != (upper ? TG1_4K : TG0_4K) || va_bits > (lpa2 ? 52 : 48) ||
	    va_bits < 25)
		return -EOPNOTSUPP;
	if (regs->tcr & (upper ? TCR_EPD1 : TCR_EPD0))
		return -ENOENT;
	/* The bits above the address size must all equal bit 55. */
	if (upper ? (~va >> va_bits) != 0 : (va >> va_bits) != 0)
		return -ENOENT;

	table = upper ? regs->ttbr1 : regs->ttbr0;
	table = (table & TTBR_BADDR_MASK) |
		(lpa2 ? ((table >> 2) & 0xf) << 48 : 0);
	level = 3 - (int)((va_bits - 12 - 1) / 9);
	for (;; level++) {
		shift = level_shift(level);
		index = (va >> shift) & 0x1ff;
		if (level_shift(level) + 9 > va_bits)
			index &= (1u << (va_bits - shift)) - 1;
		if (read(ctx, table + 8ull * index, &desc))
			return -EFAULT;
		(*reads)++;
		if (!(desc & DESC_VALID))
			return -ENOENT;
		kind = desc & 3;
		if (level < 3 && kind == (DESC_VALID | DESC_TABLE)) {
			table = output_address(desc, lpa2);
			continue;
		}
		/* A block at level 1 or 2 (0 too with LPA2), a page at 3. */
		if ((level == 3) != (kind == (DESC_VALID | DESC_TABLE)) ||
		    level < 0 || (level == 0 && !lpa2))
			return -ENOENT;
		break;
	}

	t->shift = shift;
	if ((desc & DESC_CONT) &&
	    contiguous_group(read, ctx, table, index, level, kind, lpa2))
		t->shift = shift + 4;
	t->vbase = va & ~((1ull << t->shift) - 1);
	t->pbase = (output_address(desc, lpa2) & ~((1ull << shift) - 1)) -
		   (((va >> shift) - (t->vbase >> shift)) << shift);
	t->global = !(desc & DESC_NG);
	t->asid = walk_arm64_asid(regs, va);
	return 0;
}
