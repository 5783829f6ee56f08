// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The iTLB model of tests/tools/itlb on synthetic streams: replacement,
 * associativity, page sizes, address spaces, invalidation, and the
 * guest test's stream (one fetch per 4KB page over 4MB of text) through
 * the modelled cores, whose misses per pass are known in advance.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core.h"
#include "tlb.h"

#define KB 1024ull
#define MB (1024ull * KB)
#define PAGE (4 * KB)

static struct tlb_translation xlate(uint64_t va, unsigned int shift,
				    uint16_t asid, bool global)
{
	struct tlb_translation t = {
		.vbase = va & ~((1ull << shift) - 1),
		.pbase = 0x40000000ull + (va & ~((1ull << shift) - 1)),
		.asid = asid,
		.shift = shift,
		.global = global,
	};
	return t;
}

static void fill(struct tlb *tlb, uint64_t va, unsigned int shift,
		 uint16_t asid, bool global)
{
	struct tlb_translation t = xlate(va, shift, asid, global);

	tlb_fill(tlb, &t, va);
}

static void make(struct tlb *tlb, unsigned int entries, unsigned int ways,
		 unsigned int nsizes, const uint8_t *shifts)
{
	struct tlb_geometry g = { "test", entries, ways, nsizes, { 0 } };
	unsigned int i;

	for (i = 0; i < nsizes; i++)
		g.shifts[i] = shifts[i];
	assert_int_equal(tlb_init(tlb, &g), 0);
}

static const uint8_t only_4k[] = { 12 };
static const uint8_t sizes_4k_2m[] = { 12, 21 };
static const uint8_t sizes_4k_64k_2m[] = { 12, 16, 21 };

static void bad_geometry_is_refused(void **state)
{
	struct tlb_geometry g[] = {
		{ "ways do not divide", 10, 4, 1, { 12 } },
		{ "sets not a power of two", 12, 4, 1, { 12 } },
		{ "no sizes", 8, 2, 0, { 0 } },
		{ "sizes out of order", 8, 2, 2, { 21, 12 } },
		{ "no entries", 0, 1, 1, { 12 } },
	};
	struct tlb tlb;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++)
		assert_int_equal(tlb_init(&tlb, &g[i]), -EINVAL);
	/* 1280 entries of 5 ways: 256 sets, as Neoverse N1's L2 TLB. */
	g[0] = (struct tlb_geometry){ "n1 l2", 1280, 5, 1, { 12 } };
	assert_int_equal(tlb_init(&tlb, &g[0]), 0);
	assert_int_equal(tlb.sets, 256);
	tlb_destroy(&tlb);
}

/* A full, fully associative level evicts the least recently used. */
static void lru_replacement(void **state)
{
	struct tlb tlb;
	unsigned int i;

	(void)state;
	make(&tlb, 4, 4, 1, only_4k);
	for (i = 0; i < 4; i++)
		fill(&tlb, i * PAGE, 12, 1, false);
	assert_int_equal(tlb_occupancy(&tlb), 4);
	/* Page 0 used again: page 1 is now the least recently used. */
	assert_true(tlb_lookup(&tlb, 0x10, 1, NULL));
	fill(&tlb, 4 * PAGE, 12, 1, false);
	assert_true(tlb_lookup(&tlb, 0, 1, NULL));
	assert_false(tlb_lookup(&tlb, 1 * PAGE, 1, NULL));
	assert_true(tlb_lookup(&tlb, 2 * PAGE, 1, NULL));
	assert_true(tlb_lookup(&tlb, 3 * PAGE, 1, NULL));
	assert_true(tlb_lookup(&tlb, 4 * PAGE, 1, NULL));
	/* Hits since: 0, 2, 3, 4 (the miss on 1 changed nothing), so the
	 * next victim is page 0. */
	fill(&tlb, 5 * PAGE, 12, 1, false);
	assert_false(tlb_lookup(&tlb, 0, 1, NULL));
	assert_true(tlb_lookup(&tlb, 2 * PAGE, 1, NULL));
	assert_true(tlb_lookup(&tlb, 5 * PAGE, 1, NULL));
	tlb_destroy(&tlb);
}

/* 8 entries of 2 ways: pages 4 apart share a set and evict each other. */
static void set_conflicts(void **state)
{
	struct tlb tlb;
	unsigned int i;

	(void)state;
	make(&tlb, 8, 2, 1, only_4k);
	for (i = 1; i < 4; i++)
		fill(&tlb, i * PAGE, 12, 1, false);
	fill(&tlb, 0, 12, 1, false);
	fill(&tlb, 4 * PAGE, 12, 1, false);
	fill(&tlb, 8 * PAGE, 12, 1, false);
	/* Set 0 held pages 0 and 4; page 8 evicted page 0. */
	assert_false(tlb_lookup(&tlb, 0, 1, NULL));
	assert_true(tlb_lookup(&tlb, 4 * PAGE, 1, NULL));
	assert_true(tlb_lookup(&tlb, 8 * PAGE, 1, NULL));
	for (i = 1; i < 4; i++)
		assert_true(tlb_lookup(&tlb, i * PAGE, 1, NULL));
	assert_int_equal(tlb_occupancy(&tlb), 5);
	tlb_destroy(&tlb);
}

/* One entry covers its whole size, in whichever set it indexes. */
static void page_sizes(void **state)
{
	struct tlb_translation got;
	struct tlb tlb;
	uint64_t va;

	(void)state;
	make(&tlb, 16, 4, 3, sizes_4k_64k_2m);
	fill(&tlb, 2 * MB + 5 * PAGE, 21, 1, false);
	for (va = 2 * MB; va < 4 * MB; va += PAGE)
		assert_true(tlb_lookup(&tlb, va + 8, 1, NULL));
	assert_false(tlb_lookup(&tlb, 2 * MB - 4, 1, NULL));
	assert_false(tlb_lookup(&tlb, 4 * MB, 1, NULL));
	assert_true(tlb_lookup(&tlb, 3 * MB, 1, &got));
	assert_int_equal(got.shift, 21);
	assert_int_equal(got.vbase, 2 * MB);
	assert_int_equal(got.pbase, 0x40000000ull + 2 * MB);

	fill(&tlb, 8 * MB + 3 * PAGE, 16, 1, false);
	for (va = 8 * MB; va < 8 * MB + 64 * KB; va += PAGE)
		assert_true(tlb_lookup(&tlb, va, 1, NULL));
	assert_false(tlb_lookup(&tlb, 8 * MB + 64 * KB, 1, NULL));
	assert_int_equal(tlb_occupancy(&tlb), 2);
	tlb_destroy(&tlb);
}

/* A size the level does not hold is broken down to one it holds. */
static void sizes_not_held(void **state)
{
	struct tlb_translation t, got;
	struct tlb tlb;

	(void)state;
	make(&tlb, 16, 4, 2, sizes_4k_2m);
	/* A 64KB translation is held as the 4KB page looked up. */
	fill(&tlb, 1 * MB + 2 * PAGE + 12, 16, 1, false);
	assert_true(tlb_lookup(&tlb, 1 * MB + 2 * PAGE, 1, &got));
	assert_int_equal(got.shift, 12);
	assert_int_equal(got.vbase, 1 * MB + 2 * PAGE);
	assert_int_equal(got.pbase, 0x40000000ull + 1 * MB + 2 * PAGE);
	assert_false(tlb_lookup(&tlb, 1 * MB + 3 * PAGE, 1, NULL));
	assert_false(tlb_lookup(&tlb, 1 * MB, 1, NULL));
	/* A 1GB block is held as the 2MB block around the address. */
	t = xlate(1ull << 30, 30, 1, true);
	tlb_fill(&tlb, &t, (1ull << 30) + 5 * MB);
	assert_true(tlb_lookup(&tlb, (1ull << 30) + 4 * MB, 1, &got));
	assert_int_equal(got.shift, 21);
	assert_int_equal(got.pbase, 0x40000000ull + (1ull << 30) + 4 * MB);
	assert_false(tlb_lookup(&tlb, (1ull << 30) + 6 * MB, 1, NULL));
	tlb_destroy(&tlb);
}

static void address_spaces(void **state)
{
	struct tlb tlb;

	(void)state;
	make(&tlb, 16, 16, 2, sizes_4k_2m);
	fill(&tlb, 0x1000, 12, 7, false);
	fill(&tlb, 0x1000, 12, 8, false);
	fill(&tlb, 0xffff800000000000ull, 21, 7, true);
	assert_true(tlb_lookup(&tlb, 0x1000, 7, NULL));
	assert_true(tlb_lookup(&tlb, 0x1000, 8, NULL));
	assert_false(tlb_lookup(&tlb, 0x1000, 9, NULL));
	/* Global: every address space. */
	assert_true(tlb_lookup(&tlb, 0xffff800000001000ull, 9, NULL));

	tlb_flush_asid(&tlb, 7);
	assert_false(tlb_lookup(&tlb, 0x1000, 7, NULL));
	assert_true(tlb_lookup(&tlb, 0x1000, 8, NULL));
	assert_true(tlb_lookup(&tlb, 0xffff800000001000ull, 7, NULL));

	fill(&tlb, 0x1000, 12, 7, false);
	tlb_flush_va(&tlb, 0x1234, 7, false);
	assert_false(tlb_lookup(&tlb, 0x1000, 7, NULL));
	assert_true(tlb_lookup(&tlb, 0x1000, 8, NULL));
	tlb_flush_va(&tlb, 0x1234, 0, true);
	assert_false(tlb_lookup(&tlb, 0x1000, 8, NULL));
	/* By address inside a block: the block goes. */
	tlb_flush_va(&tlb, 0xffff800000123000ull, 3, false);
	assert_false(tlb_lookup(&tlb, 0xffff800000001000ull, 9, NULL));

	/* INVPCID type 0: one page of one space, global entries kept. */
	fill(&tlb, 0x1000, 12, 7, false);
	fill(&tlb, 0x1000, 12, 8, false);
	fill(&tlb, 0xffff800000000000ull, 21, 7, true);
	tlb_flush_va_nonglobal(&tlb, 0x1800, 7);
	tlb_flush_va_nonglobal(&tlb, 0xffff800000000000ull, 7);
	assert_false(tlb_lookup(&tlb, 0x1000, 7, NULL));
	assert_true(tlb_lookup(&tlb, 0x1000, 8, NULL));
	assert_true(tlb_lookup(&tlb, 0xffff800000000000ull, 7, NULL));

	/* A range: what it overlaps, of its address space. */
	fill(&tlb, 0x1000, 12, 7, false);
	fill(&tlb, 0x2000, 12, 7, false);
	fill(&tlb, 0x3000, 12, 7, false);
	fill(&tlb, 0x2000, 12, 8, false);
	fill(&tlb, 0x200000, 21, 7, false);
	tlb_flush_range(&tlb, 0x2000, 0x3000, 7, false);
	assert_true(tlb_lookup(&tlb, 0x1000, 7, NULL));
	assert_false(tlb_lookup(&tlb, 0x2000, 7, NULL));
	assert_true(tlb_lookup(&tlb, 0x3000, 7, NULL));
	assert_true(tlb_lookup(&tlb, 0x2000, 8, NULL));
	tlb_flush_range(&tlb, 0x3fff00, 0x400000, 9, true);
	assert_false(tlb_lookup(&tlb, 0x200000, 7, NULL));
	assert_true(tlb_lookup(&tlb, 0x3000, 7, NULL));

	fill(&tlb, 0x1000, 12, 7, false);
	fill(&tlb, 0xffff800000000000ull, 21, 7, true);
	tlb_flush_nonglobal(&tlb);
	assert_false(tlb_lookup(&tlb, 0x1000, 7, NULL));
	assert_true(tlb_lookup(&tlb, 0xffff800000000000ull, 7, NULL));
	tlb_flush_all(&tlb);
	assert_int_equal(tlb_occupancy(&tlb), 0);
	tlb_destroy(&tlb);
}

/* The guest test's stream: a walk that maps text in @shift entries. */
struct text_map {
	unsigned int shift;
	unsigned int walks;
	bool fail;
};

static int text_walk(void *ctx, uint64_t va, struct tlb_translation *t,
		     unsigned int *reads)
{
	struct text_map *m = ctx;

	m->walks++;
	if (m->fail)
		return -EFAULT;
	*t = xlate(va, m->shift, 1, false);
	*reads = m->shift >= 21 ? 3 : 4;
	return 0;
}

struct pass_counts {
	unsigned int l1_misses, l2_misses, unwalkable;
	uint64_t cycles;
};

/* One pass of one fetch per 4KB page over 4MB of text at 16MB. */
static struct pass_counts text_pass(struct core_model *m, struct text_map *map)
{
	struct pass_counts c = { 0, 0, 0, 0 };
	uint64_t va;

	for (va = 16 * MB; va < 20 * MB; va += PAGE) {
		struct fetch_result r = core_fetch(m, va, 1, text_walk, map);

		c.l1_misses += r.outcome != FETCH_L1_HIT;
		c.l2_misses += r.outcome == FETCH_WALK;
		c.unwalkable += r.outcome == FETCH_UNWALKABLE;
		c.cycles += r.cycles;
	}
	return c;
}

static struct pass_counts warm_pass(const char *core, unsigned int shift)
{
	struct text_map map = { shift, 0, false };
	struct core_model m;
	struct pass_counts first, second;

	assert_int_equal(core_model_init(&m, core_desc_find(core)), 0);
	first = text_pass(&m, &map);
	/* The first pass walks once per translation. */
	assert_int_equal(first.l2_misses, (4 * MB) >> shift);
	second = text_pass(&m, &map);
	core_model_destroy(&m);
	return second;
}

static void neoverse_n1_text_stream(void **state)
{
	struct pass_counts c;

	(void)state;
	/* 1024 4KB pages: every fetch misses the 48-entry L1, and all fit
	 * in the 1280-entry L2 (4 per set of 5 ways): no walks. */
	c = warm_pass("neoverse-n1", 12);
	assert_int_equal(c.l1_misses, 1024);
	assert_int_equal(c.l2_misses, 0);
	assert_int_equal(c.cycles, 1024 * 3);
	/* 64 contpte entries cycling through 48: one miss per 16 pages. */
	c = warm_pass("neoverse-n1", 16);
	assert_int_equal(c.l1_misses, 64);
	assert_int_equal(c.l2_misses, 0);
	/* Two 2MB blocks: no misses once warm. */
	c = warm_pass("neoverse-n1", 21);
	assert_int_equal(c.l1_misses, 0);
	assert_int_equal(c.cycles, 0);
}

static void zen4_text_stream(void **state)
{
	struct pass_counts c;

	(void)state;
	/* 1024 4KB pages in a 512-entry L2 iTLB, LRU: every fetch walks. */
	c = warm_pass("zen4", 12);
	assert_int_equal(c.l1_misses, 1024);
	assert_int_equal(c.l2_misses, 1024);
	assert_int_equal(c.cycles, 1024 * (7 + 4 * 14));
	/* Coalesced 16KB entries: 256 of them in the 64-entry L1, one
	 * miss per 4 pages.  The L2 iTLB holds 4KB and 2MB only, so it
	 * keeps the first page of each run: 256 pages 16KB apart fall in
	 * 16 of its 64 sets, 16 to a set of 8 ways, and every L1 miss
	 * walks. */
	c = warm_pass("zen4", 14);
	assert_int_equal(c.l1_misses, 256);
	assert_int_equal(c.l2_misses, 256);
	c = warm_pass("zen4", 21);
	assert_int_equal(c.l1_misses, 0);
}

/* A walk that fails is reported and caches nothing. */
static void unwalkable_fetches(void **state)
{
	struct text_map map = { 12, 0, true };
	struct core_model m;
	struct pass_counts c;

	(void)state;
	assert_int_equal(core_model_init(&m, core_desc_find("neoverse-n1")), 0);
	c = text_pass(&m, &map);
	assert_int_equal(c.unwalkable, 1024);
	assert_int_equal(c.l2_misses, 0);
	c = text_pass(&m, &map);
	assert_int_equal(c.unwalkable, 1024);
	assert_int_equal(map.walks, 2048);
	assert_int_equal(tlb_occupancy(&m.l1) + tlb_occupancy(&m.l2), 0);
	core_model_destroy(&m);
	assert_null(core_desc_find("pentium"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bad_geometry_is_refused),
		cmocka_unit_test(lru_replacement),
		cmocka_unit_test(set_conflicts),
		cmocka_unit_test(page_sizes),
		cmocka_unit_test(sizes_not_held),
		cmocka_unit_test(address_spaces),
		cmocka_unit_test(neoverse_n1_text_stream),
		cmocka_unit_test(zen4_text_stream),
		cmocka_unit_test(unwalkable_fetches),
	};

	return cmocka_run_group_tests_name("itlb_tlb", tests, NULL, NULL);
}
