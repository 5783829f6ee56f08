// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readahead/folio simulator on small cases computed by hand from the
 * 6.12 code paths (the comments give the steps).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <execfolio/simulate.h>

#define PAGE 4096ull

static const struct execfolio_sim_segment whole_1m = { 0, 0, 1 << 20 };

static void run(uint64_t size, const struct execfolio_sim_segment *segs,
		size_t nsegs, const uint64_t *pages, size_t n,
		enum execfolio_sim_mode mode, unsigned int order,
		struct execfolio_sim_result *r)
{
	struct execfolio_sim_touch *t = calloc(n, sizeof(*t));
	struct execfolio_sim_file file = { size, segs, nsegs, t, n };
	struct execfolio_sim_params p;
	size_t i;

	assert_non_null(t);
	for (i = 0; i < n; i++)
		t[i].page = pages[i];
	execfolio_sim_defaults(&p, mode, order);
	assert_int_equal(execfolio_sim_run(&file, &p, r), 0);
	free(t);
}

/*
 * Stock read-around: a fault at page 100 reads [84, 116) as eight order-2
 * folios (page_cache_ra_order adds 2 to order 0), marking the one at 108
 * (start + size - async_size = 84 + 32 - 8).
 */
static void test_stock_read_around(void **state)
{
	static const uint64_t pages[] = { 100 };
	struct execfolio_sim_result r;

	run(1 << 20, &whole_1m, 1, pages, 1, EXECFOLIO_SIM_STOCK, 0, &r);
	assert_int_equal(r.touched_pages, 1);
	assert_int_equal(r.text_touched_pages, 1);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.read_bytes, 32 * PAGE);
	assert_int_equal(r.cache_bytes, 32 * PAGE);
	assert_int_equal(r.text_mapped_pages, 1);
	assert_int_equal(r.partial, 1);
	assert_int_equal(r.aligned[2], 0);
	assert_int_equal(r.tlb_pte, 1);
	assert_int_equal(r.tlb_contpte, 0);
}

/*
 * Then page 101: fault-around maps the cached window [96, 112) except the
 * marked folio 108, so 101 needs no fault. Page 108: the marked folio
 * triggers async readahead at the expected index: start 116, size 32,
 * order 2 + 2 = 4, folios 116 (o2, marked), 120 (o3), 128 (o4), 144 (o2,
 * shrunk to end at the window's last page 147).
 */
static void test_stock_async_readahead(void **state)
{
	static const uint64_t pages[] = { 100, 101, 108, 128 };
	struct execfolio_sim_result r;

	run(1 << 20, &whole_1m, 1, pages, 3, EXECFOLIO_SIM_STOCK, 0, &r);
	assert_int_equal(r.touched_pages, 3);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.cache_bytes, 64 * PAGE);
	assert_int_equal(r.read_bytes, 64 * PAGE);
	/* 96..107 by fault-around plus 108 */
	assert_int_equal(r.text_mapped_pages, 13);
	assert_int_equal(r.aligned[2], 12);
	assert_int_equal(r.partial, 1);
	assert_int_equal(r.tlb_pte, 3);

	/*
	 * 128 lies in the unmarked order-4 folio async readahead made:
	 * fault-around maps all of it, and it is one contpte block.
	 */
	run(1 << 20, &whole_1m, 1, pages, 4, EXECFOLIO_SIM_STOCK, 0, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.cache_bytes, 64 * PAGE);
	assert_int_equal(r.text_mapped_pages, 13 + 16);
	assert_int_equal(r.aligned[4], 16);
	assert_int_equal(r.cont_aligned, 16);
	assert_int_equal(r.tlb_pte, 3);
	assert_int_equal(r.tlb_contpte, 1);
}

/* Option one: a 64K-aligned order-4 folio, no mark, no async readahead. */
static void test_option_one(void **state)
{
	static const uint64_t pages[] = { 100, 101 };
	struct execfolio_sim_result r;

	run(1 << 20, &whole_1m, 1, pages, 2, EXECFOLIO_SIM_EXEC_ORDER, 4, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.read_bytes, 16 * PAGE);
	assert_int_equal(r.text_mapped_pages, 16);
	assert_int_equal(r.aligned[4], 16);
	assert_int_equal(r.cont_aligned, 16);
	assert_int_equal(r.cont_eligible, 16);
	assert_int_equal(r.tlb_contpte, 1);
	assert_int_equal(r.tlb_pte, 0);
}

/* A 2M policy on a 4M file: one PMD-mapped folio, one TLB entry. */
static void test_policy_pmd(void **state)
{
	static const struct execfolio_sim_segment seg = { 0, 0, 4 << 20 };
	static const uint64_t pages[] = { 600, 700 };
	struct execfolio_sim_result r;

	run(4 << 20, &seg, 1, pages, 2, EXECFOLIO_SIM_POLICY, 9, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.read_bytes, 2 << 20);
	assert_int_equal(r.text_mapped_pages, 512);
	assert_int_equal(r.aligned[9], 512);
	assert_int_equal(r.cont_aligned, 512);
	assert_int_equal(r.tlb_pmd, 1);
	assert_int_equal(r.tlb_contpte + r.tlb_pte, 0);
	assert_int_equal(r.pmd_mapped, 512);
	/* Only the 32 blocks of 64K in the mapped 2M have a page mapped. */
	assert_int_equal(r.cont_eligible, 512);
}

/*
 * The folio at EOF: the exec fault's window is bounded by the VMA (pages
 * 16..17), so one 8K folio is read (the 4464 bytes up to EOF) and mapped
 * whole.
 */
static void test_policy_eof(void **state)
{
	static const struct execfolio_sim_segment seg = { 0, 0, 70000 };
	static const uint64_t pages[] = { 17 };
	struct execfolio_sim_result r;

	run(70000, &seg, 1, pages, 1, EXECFOLIO_SIM_POLICY, 4, &r);
	assert_int_equal(r.cache_bytes, 8192);
	assert_int_equal(r.read_bytes, 70000 - 65536);
	assert_int_equal(r.aligned[1], 2);
	assert_int_equal(r.partial, 0);
}

/*
 * The preferred order also shapes non-exec reads: a fault outside the exec
 * segment gets stock read-around, [84, 116), in the largest folios up to
 * 64K that its alignment allows: 16K at 84, 32K at 88, 64K at 96, 16K at
 * 112 (page_cache_ra_order of the series).
 */
static void test_policy_data_fault(void **state)
{
	static const struct execfolio_sim_segment seg = { 0, 0, 64 * PAGE };
	static const uint64_t pages[] = { 100 };
	struct execfolio_sim_result r;

	run(1 << 20, &seg, 1, pages, 1, EXECFOLIO_SIM_POLICY, 4, &r);
	assert_int_equal(r.text_touched_pages, 0);
	assert_int_equal(r.text_mapped_pages, 0);
	assert_int_equal(r.cache_bytes, 32 * PAGE);
}

/*
 * One touch of text with a 64K preference: the exec fault reads the
 * aligned 64K folio and maps all of it (patch 3 of the series), so the
 * block is one contpte entry at once.
 */
static void test_policy_whole_folio(void **state)
{
	static const uint64_t pages[] = { 100 };
	struct execfolio_sim_result r;

	run(1 << 20, &whole_1m, 1, pages, 1, EXECFOLIO_SIM_POLICY, 4, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.read_bytes, 16 * PAGE);
	assert_int_equal(r.text_mapped_pages, 16);
	assert_int_equal(r.aligned[4], 16);
	assert_int_equal(r.cont_aligned, 16);
	assert_int_equal(r.tlb_contpte, 1);
}

/*
 * The exec fault's read is bounded to the VMA: text ends at page 40, so a
 * fault at 33 reads [32, 40) as one 32K folio, not 64K.
 */
static void test_policy_vma_bound(void **state)
{
	static const struct execfolio_sim_segment seg = { 0, 0, 40 * PAGE };
	static const uint64_t pages[] = { 33 };
	struct execfolio_sim_result r;

	run(1 << 20, &seg, 1, pages, 1, EXECFOLIO_SIM_POLICY, 4, &r);
	assert_int_equal(r.read_bytes, 8 * PAGE);
	assert_int_equal(r.aligned[3], 8);
	assert_int_equal(r.text_mapped_pages, 8);
}

/*
 * The loader's read(2) of the ELF header: page_cache_sync_ra() at page 0
 * reads its initial window, one marked 16K folio; the access through the
 * mapping that follows hits the mark: async readahead of [4, 12) as two
 * 16K folios, and only page 0 is mapped. With a 64K preference the window
 * is widened to one 64K folio, mapped whole, and nothing more is read.
 */
static void test_syscall_read(void **state)
{
	struct execfolio_sim_touch t = { .page = 0,
					 .stream = 1,
					 .syscall = true };
	struct execfolio_sim_file file = { 1 << 20, &whole_1m, 1, &t, 1 };
	struct execfolio_sim_params p;
	struct execfolio_sim_result r;

	execfolio_sim_defaults(&p, EXECFOLIO_SIM_STOCK, 0);
	assert_int_equal(execfolio_sim_run(&file, &p, &r), 0);
	assert_int_equal(r.major_faults, 0);
	assert_int_equal(r.cache_bytes, 12 * PAGE);
	assert_int_equal(r.text_mapped_pages, 1);
	assert_int_equal(r.partial, 1);

	execfolio_sim_defaults(&p, EXECFOLIO_SIM_POLICY, 4);
	assert_int_equal(execfolio_sim_run(&file, &p, &r), 0);
	assert_int_equal(r.cache_bytes, 16 * PAGE);
	assert_int_equal(r.text_mapped_pages, 16);
	assert_int_equal(r.aligned[4], 16);
}

/* Virtual address one page off the file offset: full but unaligned. */
static void test_unaligned(void **state)
{
	static const struct execfolio_sim_segment seg = { 0, PAGE, 1 << 20 };
	uint64_t pages[16];
	struct execfolio_sim_result r;
	int i;

	for (i = 0; i < 16; i++)
		pages[i] = i;
	run(1 << 20, &seg, 1, pages, 16, EXECFOLIO_SIM_EXEC_ORDER, 4, &r);
	assert_int_equal(r.unaligned[4], 16);
	assert_int_equal(r.aligned[4], 0);
	assert_int_equal(r.cont_aligned, 0);
	/* va 1..16: the block at va 0 is not inside the segment */
	assert_int_equal(r.cont_eligible, 16);
	assert_int_equal(r.tlb_pte, 16);
}

/*
 * mmap_miss: faults spaced 64 pages apart never hit, so after 100 misses
 * read-around stops and the 101st and later faults read one page each.
 */
static void test_mmap_lotsamiss(void **state)
{
	static const struct execfolio_sim_segment seg = { 0, 0,
							  110 * 64 * PAGE };
	uint64_t pages[102];
	struct execfolio_sim_result r;
	int i;

	for (i = 0; i < 102; i++)
		pages[i] = 64 * i + 32;
	run(110 * 64 * PAGE, &seg, 1, pages, 102, EXECFOLIO_SIM_STOCK, 0, &r);
	assert_int_equal(r.major_faults, 102);
	assert_int_equal(r.cache_bytes, (100 * 32 + 2) * PAGE);
	assert_int_equal(r.aligned[0], 2);
}

/* Not ELF (no segments): the cache fills, no text rows. */
static void test_no_segments(void **state)
{
	static const uint64_t pages[] = { 0 };
	struct execfolio_sim_result r, total;

	run(1 << 20, NULL, 0, pages, 1, EXECFOLIO_SIM_STOCK, 0, &r);
	/* At page 0 the window starts at 0: [0, 32). */
	assert_int_equal(r.cache_bytes, 32 * PAGE);
	assert_int_equal(r.text_mapped_pages, 0);
	memset(&total, 0, sizeof(total));
	execfolio_sim_add(&total, &r);
	execfolio_sim_add(&total, &r);
	assert_int_equal(total.cache_bytes, 64 * PAGE);
}

static void test_bad_params(void **state)
{
	struct execfolio_sim_file file = { 1 << 20, NULL, 0, NULL, 0 };
	struct execfolio_sim_params p;
	struct execfolio_sim_result r;

	execfolio_sim_defaults(&p, EXECFOLIO_SIM_POLICY, 12);
	assert_int_equal(execfolio_sim_run(&file, &p, &r), -EINVAL);
	execfolio_sim_defaults(&p, EXECFOLIO_SIM_STOCK, 0);
	p.page_size = 5000;
	assert_int_equal(execfolio_sim_run(&file, &p, &r), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stock_read_around),
		cmocka_unit_test(test_stock_async_readahead),
		cmocka_unit_test(test_option_one),
		cmocka_unit_test(test_policy_pmd),
		cmocka_unit_test(test_policy_eof),
		cmocka_unit_test(test_policy_data_fault),
		cmocka_unit_test(test_policy_whole_folio),
		cmocka_unit_test(test_policy_vma_bound),
		cmocka_unit_test(test_syscall_read),
		cmocka_unit_test(test_unaligned),
		cmocka_unit_test(test_mmap_lotsamiss),
		cmocka_unit_test(test_no_segments),
		cmocka_unit_test(test_bad_params),
	};

	return cmocka_run_group_tests_name("simulate", tests, NULL, NULL);
}
