// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page-table walks of tests/tools/itlb on tables built here in a
 * small guest memory: the size of the translation each walk finds (4KB
 * pages, arm64 contpte 64KB runs, 2MB and 1GB blocks, AMD Zen's
 * coalesced 16KB runs), its physical address, address space and global
 * bit, the descriptors read, and the walks it refuses.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "walk.h"

#define KB 1024ull
#define MB (1024ull * KB)
#define GB (1024ull * MB)
#define PAGE (4 * KB)

/* Guest memory: 64 page-table pages at physical address MEM_BASE. */
#define MEM_BASE 0x40000000ull
#define MEM_PAGES 64

struct memory {
	uint64_t words[MEM_PAGES][512];
	unsigned int next; /* the next free page */
	unsigned int reads;
};

static struct memory mem;

static int mem_read(void *ctx, uint64_t pa, uint64_t *desc)
{
	struct memory *m = ctx;

	m->reads++;
	if (pa < MEM_BASE || pa >= MEM_BASE + MEM_PAGES * PAGE || (pa & 7))
		return -EFAULT;
	*desc = m->words[(pa - MEM_BASE) / PAGE][((pa - MEM_BASE) % PAGE) / 8];
	return 0;
}

static uint64_t new_table(void)
{
	assert_true(mem.next < MEM_PAGES);
	memset(mem.words[mem.next], 0, PAGE);
	return MEM_BASE + PAGE * mem.next++;
}

static uint64_t *entry(uint64_t table, unsigned int index)
{
	return &mem.words[(table - MEM_BASE) / PAGE][index];
}

static int reset(void **state)
{
	(void)state;
	memset(&mem, 0, sizeof(mem));
	return 0;
}

/* --- arm64 ---------------------------------------------------------- */

#define A64_TABLE 0x3ull
#define A64_PAGE 0x3ull
#define A64_BLOCK 0x1ull
#define A64_AF (1ull << 10)
#define A64_NG (1ull << 11)
#define A64_CONT (1ull << 52)
/* T0SZ = T1SZ = 16 (48-bit), TG0 4KB, TG1 4KB (2), 16-bit ASIDs. */
#define A64_TCR (16ull | (16ull << 16) | (2ull << 30) | (1ull << 36))

/*
 * The table @depth levels below @root on the way to @va (both formats
 * index 512 entries from bit 39 down), making missing ones as tables
 * with @flags; @mask takes the next table's address from an entry.
 */
static uint64_t descend(uint64_t root, uint64_t va, int depth, uint64_t flags,
			uint64_t mask)
{
	uint64_t table = root;
	int i;

	for (i = 0; i < depth; i++) {
		uint64_t *e = entry(table, (va >> (39 - 9 * i)) & 0x1ff);

		if (!*e)
			*e = new_table() | flags;
		table = *e & mask;
	}
	return table;
}

/* The table that holds level-@level entries for @va (4 levels). */
static uint64_t a64_table(uint64_t root, uint64_t va, int level)
{
	return descend(root, va, level, A64_TABLE, 0x0000fffffffff000ull);
}

static void a64_map(uint64_t root, uint64_t va, uint64_t pa, int level,
		    uint64_t attrs)
{
	uint64_t table = a64_table(root, va, level);
	uint64_t kind = level == 3 ? A64_PAGE : A64_BLOCK;

	*entry(table, (va >> (39 - 9 * level)) & 0x1ff) = pa | kind | A64_AF |
							  attrs;
}

static struct walk_arm64_regs a64_regs(uint64_t root0, uint64_t root1,
				       uint16_t asid)
{
	struct walk_arm64_regs r = {
		.ttbr0 = root0 | ((uint64_t)asid << 48),
		.ttbr1 = root1,
		.tcr = A64_TCR,
	};
	return r;
}

/* A walk that must succeed: its translation. */
static struct tlb_translation a64_walk(const struct walk_arm64_regs *r,
				       uint64_t va, unsigned int *reads)
{
	struct tlb_translation t;

	assert_int_equal(walk_arm64(r, va, mem_read, &mem, &t, reads), 0);
	return t;
}

static void arm64_4k_page(void **state)
{
	uint64_t root = new_table();
	struct walk_arm64_regs r = a64_regs(root, 0, 0x1234);
	struct tlb_translation t;
	unsigned int reads;

	(void)state;
	a64_map(root, 0x400000, 0x80123000ull, 3, A64_NG);
	t = a64_walk(&r, 0x400abc, &reads);
	assert_int_equal(t.shift, 12);
	assert_int_equal(t.vbase, 0x400000);
	assert_int_equal(t.pbase, 0x80123000ull);
	assert_int_equal(t.asid, 0x1234);
	assert_false(t.global);
	assert_int_equal(reads, 4);
	/* The page next to it is not mapped. */
	assert_int_equal(walk_arm64(&r, 0x401000, mem_read, &mem, &t, &reads),
			 -ENOENT);
	/* 8-bit ASIDs (TCR.AS clear). */
	r.tcr &= ~(1ull << 36);
	t = a64_walk(&r, 0x400000, &reads);
	assert_int_equal(t.asid, 0x34);
}

/* Map 16 pages from @va to @pa, contiguous bit on @cont of them. */
static void a64_map_run(uint64_t root, uint64_t va, uint64_t pa,
			unsigned int cont)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		a64_map(root, va + i * PAGE, pa + i * PAGE, 3,
			A64_NG | (i < cont ? A64_CONT : 0));
}

static void arm64_contpte(void **state)
{
	uint64_t root = new_table();
	struct walk_arm64_regs r = a64_regs(root, 0, 3);
	struct tlb_translation t;
	unsigned int reads;

	(void)state;
	a64_map_run(root, 0x10000000, 0x90000000ull, 16);
	t = a64_walk(&r, 0x10005008, &reads);
	assert_int_equal(t.shift, 16);
	assert_int_equal(t.vbase, 0x10000000);
	assert_int_equal(t.pbase, 0x90000000ull);
	/* The hardware reads one descriptor per level. */
	assert_int_equal(reads, 4);

	/* One descriptor of the group without the bit: 4KB pages. */
	a64_map_run(root, 0x10010000, 0x90010000ull, 15);
	t = a64_walk(&r, 0x10012000, &reads);
	assert_int_equal(t.shift, 12);
	assert_int_equal(t.pbase, 0x90012000ull);

	/* The bit set but the output not contiguous: 4KB pages. */
	a64_map_run(root, 0x10020000, 0x90020000ull, 16);
	*entry(a64_table(root, 0x10020000, 3), (0x1002f000 >> 12) & 0x1ff) =
		0x99000000ull | A64_PAGE | A64_AF | A64_CONT;
	t = a64_walk(&r, 0x10021000, &reads);
	assert_int_equal(t.shift, 12);
}

static void arm64_blocks(void **state)
{
	uint64_t root = new_table();
	struct walk_arm64_regs r = a64_regs(root, 0, 1);
	struct tlb_translation t;
	unsigned int reads;
	unsigned int i;

	(void)state;
	a64_map(root, 0x200000, 0xa0200000ull, 2, A64_NG);
	t = a64_walk(&r, 0x3fff00, &reads);
	assert_int_equal(t.shift, 21);
	assert_int_equal(t.vbase, 0x200000);
	assert_int_equal(t.pbase, 0xa0200000ull);
	assert_int_equal(reads, 3);

	a64_map(root, 4 * GB, 0x140000000ull, 1, A64_NG);
	t = a64_walk(&r, 4 * GB + 12345, &reads);
	assert_int_equal(t.shift, 30);
	assert_int_equal(reads, 2);

	/* 16 contiguous 2MB blocks: one 32MB translation. */
	for (i = 0; i < 16; i++)
		a64_map(root, 64 * MB + i * 2 * MB, 0xc0000000ull + i * 2 * MB,
			2, A64_NG | A64_CONT);
	t = a64_walk(&r, 64 * MB + 7 * MB, &reads);
	assert_int_equal(t.shift, 25);
	assert_int_equal(t.pbase, 0xc0000000ull);
}

/* Kernel addresses: TTBR1, global unless nG. */
static void arm64_upper_half(void **state)
{
	uint64_t root1 = new_table();
	struct walk_arm64_regs r = a64_regs(new_table(), root1, 9);
	uint64_t kva = 0xffff800080000000ull;
	struct tlb_translation t;
	unsigned int reads;

	(void)state;
	a64_map(root1, kva, 0x40200000ull, 2, 0);
	t = a64_walk(&r, kva + 0x1234, &reads);
	assert_int_equal(t.shift, 21);
	assert_true(t.global);
	assert_int_equal(t.pbase, 0x40200000ull);
	/* Outside the 48-bit upper range. */
	assert_int_equal(walk_arm64(&r, 0xfeff800080000000ull, mem_read, &mem,
				    &t, &reads),
			 -ENOENT);
	/* TCR.A1: the ASID comes from TTBR1. */
	r.ttbr1 |= 5ull << 48;
	r.tcr |= 1ull << 22;
	assert_int_equal(walk_arm64_asid(&r, 0x1000), 5);
}

static void arm64_refused_walks(void **state)
{
	uint64_t root = new_table();
	struct walk_arm64_regs r = a64_regs(root, 0, 1);
	struct tlb_translation t;
	unsigned int reads;

	(void)state;
	/* A table descriptor pointing outside guest memory. */
	*entry(root, 0) = 0x7000000000ull | A64_TABLE;
	assert_int_equal(walk_arm64(&r, 0x1000, mem_read, &mem, &t, &reads),
			 -EFAULT);
	/* A block at level 0 does not exist. */
	*entry(root, 0) = 0x80000000ull | A64_BLOCK;
	assert_int_equal(walk_arm64(&r, 0x1000, mem_read, &mem, &t, &reads),
			 -ENOENT);
	/* The 64KB granule (TG0 = 1) is not modelled. */
	r.tcr |= 1ull << 14;
	assert_int_equal(walk_arm64(&r, 0x1000, mem_read, &mem, &t, &reads),
			 -EOPNOTSUPP);
	/* 52-bit addresses (T0SZ 12) are not either. */
	r = a64_regs(root, 0, 1);
	r.tcr = (r.tcr & ~0x3full) | 12;
	assert_int_equal(walk_arm64(&r, 0x1000, mem_read, &mem, &t, &reads),
			 -EOPNOTSUPP);
}

/* 39-bit addresses start at level 1. */
static void arm64_three_levels(void **state)
{
	uint64_t l1 = new_table(), l2 = new_table(), l3 = new_table();
	struct walk_arm64_regs r = a64_regs(l1, 0, 1);
	struct tlb_translation t;
	unsigned int reads;

	(void)state;
	r.tcr = (r.tcr & ~0x3full) | 25;
	*entry(l1, 2) = l2 | A64_TABLE;
	*entry(l2, 3) = l3 | A64_TABLE;
	*entry(l3, 4) = 0x88000000ull | A64_PAGE | A64_AF;
	t = a64_walk(&r, 2 * GB + 3 * 2 * MB + 4 * PAGE + 8, &reads);
	assert_int_equal(t.pbase, 0x88000000ull);
	assert_int_equal(reads, 3);
	/* Above 39 bits: no translation. */
	assert_int_equal(walk_arm64(&r, 1ull << 39, mem_read, &mem, &t, &reads),
			 -ENOENT);
}

/* FEAT_LPA2 (TCR.DS), 52-bit addresses: five levels from level -1, the
 * output address's bits 51:50 in descriptor bits 9:8. */
static void arm64_lpa2_52bit(void **state)
{
	uint64_t lm1 = new_table(), l0 = new_table(), l1 = new_table();
	uint64_t l2 = new_table(), l3 = new_table();
	struct walk_arm64_regs r = a64_regs(lm1, 0, 1);
	uint64_t va = (1ull << 50) | (5ull << 39) | (6ull << 30) |
		      (7ull << 21) | (8ull << 12) | 0x44;
	uint64_t pa = (3ull << 50) | 0x123000ull;
	struct tlb_translation t;
	unsigned int reads;

	(void)state;
	r.tcr = (r.tcr & ~0x3full) | 12 | (1ull << 59);
	*entry(lm1, 4) = l0 | A64_TABLE;
	*entry(l0, 5) = l1 | A64_TABLE;
	*entry(l1, 6) = l2 | A64_TABLE;
	*entry(l2, 7) = l3 | A64_TABLE;
	*entry(l3, 8) = (pa & 0x0003fffffffff000ull) | (3ull << 8) | A64_PAGE |
			A64_AF;
	t = a64_walk(&r, va, &reads);
	assert_int_equal(reads, 5);
	assert_int_equal(t.shift, 12);
	assert_int_equal(t.pbase, pa);
	/* A 512GB block at level 0 exists with LPA2. */
	*entry(l0, 9) = 0x8000000000ull | A64_BLOCK | A64_AF;
	t = a64_walk(&r, (1ull << 50) | (9ull << 39) | 0x1234, &reads);
	assert_int_equal(t.shift, 39);
	assert_int_equal(reads, 2);
	/* Without TCR.DS, 52-bit addresses are not modelled. */
	r.tcr &= ~(1ull << 59);
	assert_int_equal(walk_arm64(&r, va, mem_read, &mem, &t, &reads),
			 -EOPNOTSUPP);
}

/* --- x86_64 ---------------------------------------------------------- */

#define X86_P 0x1ull
#define X86_RW 0x2ull
#define X86_US 0x4ull
#define X86_A (1ull << 5)
#define X86_D (1ull << 6)
#define X86_PS (1ull << 7)
#define X86_G (1ull << 8)
#define X86_CR4_PGE (1ull << 7)
#define X86_CR4_LA57 (1ull << 12)
#define X86_CR4_PCIDE (1ull << 17)

static uint64_t x86_table(uint64_t root, uint64_t va, int level)
{
	return descend(root, va, 4 - level, X86_P | X86_RW | X86_US,
		       0x000ffffffffff000ull);
}

static void x86_map(uint64_t root, uint64_t va, uint64_t pa, int level,
		    uint64_t attrs)
{
	uint64_t table = x86_table(root, va, level);

	*entry(table, (va >> (12 + 9 * (level - 1))) & 0x1ff) =
		pa | X86_P | X86_US | attrs | (level > 1 ? X86_PS : 0);
}

static struct tlb_translation x86_walk(const struct walk_x86_64_regs *r,
				       uint64_t va, unsigned int *reads)
{
	struct tlb_translation t;

	assert_int_equal(walk_x86_64(r, va, mem_read, &mem, &t, reads), 0);
	return t;
}

static void x86_pages_and_blocks(void **state)
{
	uint64_t root = new_table();
	struct walk_x86_64_regs r = { root | 0x2a, X86_CR4_PCIDE, false };
	struct tlb_translation t;
	unsigned int reads;

	(void)state;
	x86_map(root, 0x401000, 0x7654000ull, 1, X86_A);
	t = x86_walk(&r, 0x401777, &reads);
	assert_int_equal(t.shift, 12);
	assert_int_equal(t.pbase, 0x7654000ull);
	assert_int_equal(t.asid, 0x2a);
	assert_int_equal(reads, 4);
	assert_false(t.global);

	x86_map(root, 0x600000, 0x12600000ull, 2, 0);
	t = x86_walk(&r, 0x7ffff0, &reads);
	assert_int_equal(t.shift, 21);
	assert_int_equal(t.vbase, 0x600000);
	assert_int_equal(t.pbase, 0x12600000ull);
	assert_int_equal(reads, 3);

	x86_map(root, 8 * GB, 3 * GB, 3, 0);
	t = x86_walk(&r, 8 * GB + 5 * MB, &reads);
	assert_int_equal(t.shift, 30);
	assert_int_equal(t.pbase, 3 * GB);
	assert_int_equal(reads, 2);

	/* Without CR4.PCIDE every translation is in address space 0. */
	r.cr4 = 0;
	assert_int_equal(walk_x86_64_pcid(&r), 0);
}

static void x86_global_kernel_text(void **state)
{
	uint64_t root = new_table();
	struct walk_x86_64_regs r = { root, X86_CR4_PGE, false };
	uint64_t kva = 0xffffffff81000000ull;
	struct tlb_translation t;
	unsigned int reads;

	(void)state;
	x86_map(root, kva, 0x1000000ull, 2, X86_G);
	t = x86_walk(&r, kva + 0x100, &reads);
	assert_true(t.global);
	/* G counts only with CR4.PGE. */
	r.cr4 = 0;
	t = x86_walk(&r, kva, &reads);
	assert_false(t.global);
	/* Not canonical. */
	assert_int_equal(walk_x86_64(&r, 0x0000900000000000ull, mem_read, &mem,
				     &t, &reads),
			 -ENOENT);
	r.cr4 = X86_CR4_LA57;
	assert_int_equal(walk_x86_64(&r, kva, mem_read, &mem, &t, &reads),
			 -EOPNOTSUPP);
}

/* Four 4KB PTEs from @va to @pa, the @odd-th with extra attributes. */
static void x86_map_four(uint64_t root, uint64_t va, uint64_t pa,
			 unsigned int odd, uint64_t odd_attrs)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		x86_map(root, va + i * PAGE, pa + i * PAGE, 1,
			X86_A | (i == odd ? odd_attrs : 0));
}

static void x86_zen_coalescing(void **state)
{
	uint64_t root = new_table();
	struct walk_x86_64_regs r = { root, 0, true };
	struct tlb_translation t;
	unsigned int reads;

	(void)state;
	/* Aligned and contiguous; a dirty bit does not matter. */
	x86_map_four(root, 0x500000, 0x2340000ull, 2, X86_D);
	t = x86_walk(&r, 0x502010, &reads);
	assert_int_equal(t.shift, 14);
	assert_int_equal(t.vbase, 0x500000);
	assert_int_equal(t.pbase, 0x2340000ull);
	assert_int_equal(reads, 4);
	/* Not on Zen. */
	r.coalesce = false;
	t = x86_walk(&r, 0x502010, &reads);
	assert_int_equal(t.shift, 12);
	r.coalesce = true;

	/* Physically contiguous but not 16KB-aligned. */
	x86_map_four(root, 0x510000, 0x2341000ull, 0, 0);
	t = x86_walk(&r, 0x510000, &reads);
	assert_int_equal(t.shift, 12);
	/* Different permissions on one page. */
	x86_map_four(root, 0x520000, 0x2350000ull, 1, X86_RW);
	t = x86_walk(&r, 0x520000, &reads);
	assert_int_equal(t.shift, 12);
	/* One page missing. */
	x86_map(root, 0x530000, 0x2360000ull, 1, 0);
	t = x86_walk(&r, 0x530000, &reads);
	assert_int_equal(t.shift, 12);
	/* Out of order physically. */
	x86_map_four(root, 0x540000, 0x2370000ull, 4, 0);
	*entry(x86_table(root, 0x541000, 1), (0x541000 >> 12) & 0x1ff) =
		0x2372000ull | X86_P | X86_US | X86_A;
	t = x86_walk(&r, 0x540000, &reads);
	assert_int_equal(t.shift, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(arm64_4k_page, reset),
		cmocka_unit_test_setup(arm64_contpte, reset),
		cmocka_unit_test_setup(arm64_blocks, reset),
		cmocka_unit_test_setup(arm64_upper_half, reset),
		cmocka_unit_test_setup(arm64_refused_walks, reset),
		cmocka_unit_test_setup(arm64_three_levels, reset),
		cmocka_unit_test_setup(arm64_lpa2_52bit, reset),
		cmocka_unit_test_setup(x86_pages_and_blocks, reset),
		cmocka_unit_test_setup(x86_global_kernel_text, reset),
		cmocka_unit_test_setup(x86_zen_coalescing, reset),
	};

	return cmocka_run_group_tests_name("itlb_walk", tests, NULL, NULL);
}
