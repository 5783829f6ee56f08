// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readahead/folio simulator on small cases computed by hand from the
 * 6.12 and 7.3 code paths (the comments give the steps).  With a policy,
 * 6.12 is the backport, which takes 7.3's paths.
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

/* One replay on @kernel and @arch of first touches of @pages, in order. */
static void replay(enum execfolio_sim_kernel kernel,
		   enum execfolio_sim_arch arch, uint64_t size,
		   const struct execfolio_sim_segment *segs, size_t nsegs,
		   const uint64_t *pages, size_t n,
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
	p.kernel = kernel;
	p.arch = arch;
	assert_int_equal(execfolio_sim_run(&file, &p, r), 0);
	free(t);
}

/* One 6.12 replay. */
static void run(uint64_t size, const struct execfolio_sim_segment *segs,
		size_t nsegs, const uint64_t *pages, size_t n,
		enum execfolio_sim_mode mode, unsigned int order,
		struct execfolio_sim_result *r)
{
	replay(EXECFOLIO_SIM_KERNEL_6_12, EXECFOLIO_SIM_ARCH_NATIVE, size, segs,
	       nsegs, pages, n, mode, order, r);
}

/* One 7.3 replay on @arch. */
static void run73(uint64_t size, const struct execfolio_sim_segment *segs,
		  size_t nsegs, const uint64_t *pages, size_t n,
		  enum execfolio_sim_mode mode, unsigned int order,
		  enum execfolio_sim_arch arch, struct execfolio_sim_result *r)
{
	replay(EXECFOLIO_SIM_KERNEL_7_3, arch, size, segs, nsegs, pages, n,
	       mode, order, r);
}

/*
 * The loader's read(2) of page 0 of a 1M file of text, by a stream of its
 * own, and nothing else: @r as @kernel on @arch leaves it.
 */
static void read_header(enum execfolio_sim_kernel kernel,
			enum execfolio_sim_arch arch,
			enum execfolio_sim_mode mode, unsigned int order,
			struct execfolio_sim_result *r)
{
	struct execfolio_sim_touch t = { .page = 0,
					 .stream = 1,
					 .syscall = true };
	struct execfolio_sim_file file = { 1 << 20, &whole_1m, 1, &t, 1 };
	struct execfolio_sim_params p;

	execfolio_sim_defaults(&p, mode, order);
	p.kernel = kernel;
	p.arch = arch;
	assert_int_equal(execfolio_sim_run(&file, &p, r), 0);
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
 * segment gets stock read-around, [84, 116), grown to the 64K boundaries
 * around it: [80, 128), three 64K folios (the 6.12 backport, as on 7.3).
 */
static void test_policy_data_fault(void **state)
{
	static const struct execfolio_sim_segment seg = { 0, 0, 64 * PAGE };
	static const uint64_t pages[] = { 100 };
	struct execfolio_sim_result r;

	run(1 << 20, &seg, 1, pages, 1, EXECFOLIO_SIM_POLICY, 4, &r);
	assert_int_equal(r.text_touched_pages, 0);
	assert_int_equal(r.text_mapped_pages, 0);
	assert_int_equal(r.cache_bytes, 48 * PAGE);
	assert_int_equal(r.aligned[4], 0);
}

/*
 * One touch of text with a 64K preference: the exec fault reads upstream's
 * VM_EXEC window (backported to 6.12), ra_pages from the aligned folio, in
 * 64K folios, and maps the folio of the fault whole (whole-folio
 * finish_fault()), so the block is one contpte entry at once.
 */
static void test_policy_whole_folio(void **state)
{
	static const uint64_t pages[] = { 100 };
	struct execfolio_sim_result r;

	run(1 << 20, &whole_1m, 1, pages, 1, EXECFOLIO_SIM_POLICY, 4, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.read_bytes, 32 * PAGE);
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
	struct execfolio_sim_result r;

	read_header(EXECFOLIO_SIM_KERNEL_6_12, EXECFOLIO_SIM_ARCH_NATIVE,
		    EXECFOLIO_SIM_STOCK, 0, &r);
	assert_int_equal(r.major_faults, 0);
	assert_int_equal(r.cache_bytes, 12 * PAGE);
	assert_int_equal(r.text_mapped_pages, 1);
	assert_int_equal(r.partial, 1);

	read_header(EXECFOLIO_SIM_KERNEL_6_12, EXECFOLIO_SIM_ARCH_NATIVE,
		    EXECFOLIO_SIM_POLICY, 4, &r);
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

/*
 * 7.3 on arm64, no policy: the VM_EXEC branch reads ra_pages (32) from the
 * 64K folio around the fault, [96, 128) as two 64K folios, no mark, and
 * finish_fault() maps the faulting folio whole: one contpte block. With
 * the text ending at page 40 the window is [32, 40): one 32K folio.
 */
static void test_73_arm64_exec_fault(void **state)
{
	static const struct execfolio_sim_segment short_text = { 0, 0,
								 40 * PAGE };
	static const uint64_t pages[] = { 100 }, at33[] = { 33 };
	struct execfolio_sim_result r;

	run73(1 << 20, &whole_1m, 1, pages, 1, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.read_bytes, 32 * PAGE);
	assert_int_equal(r.cache_bytes, 32 * PAGE);
	assert_int_equal(r.text_mapped_pages, 16);
	assert_int_equal(r.aligned[4], 16);
	assert_int_equal(r.cont_aligned, 16);
	assert_int_equal(r.tlb_contpte, 1);
	assert_int_equal(r.tlb_pte, 0);

	run73(1 << 20, &short_text, 1, at33, 1, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.read_bytes, 8 * PAGE);
	assert_int_equal(r.cache_bytes, 8 * PAGE);
	assert_int_equal(r.aligned[3], 8);
	assert_int_equal(r.text_mapped_pages, 8);
}

/*
 * 7.3 on x86_64, no policy: exec_folio_order() is 0, so the window is
 * [100, 132) in pages, nothing before the fault; page 101 is then mapped
 * by fault-around with the rest of [96, 112) that is cached.
 */
static void test_73_x86_64_exec_fault(void **state)
{
	static const uint64_t pages[] = { 100, 101 };
	struct execfolio_sim_result r;

	run73(1 << 20, &whole_1m, 1, pages, 1, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_X86_64, &r);
	assert_int_equal(r.read_bytes, 32 * PAGE);
	assert_int_equal(r.text_mapped_pages, 1);
	assert_int_equal(r.aligned[0], 1);
	assert_int_equal(r.aligned[4] + r.aligned[2], 0);

	run73(1 << 20, &whole_1m, 1, pages, 2, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_X86_64, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.cache_bytes, 32 * PAGE);
	assert_int_equal(r.text_mapped_pages, 12);
	assert_int_equal(r.aligned[0], 12);
	assert_int_equal(r.tlb_pte, 2);

	/* Option one on 7.3: upstream's branch at 64K on x86_64 too. */
	run73(1 << 20, &whole_1m, 1, pages, 1, EXECFOLIO_SIM_EXEC_ORDER, 4,
	      EXECFOLIO_SIM_ARCH_X86_64, &r);
	assert_int_equal(r.read_bytes, 32 * PAGE);
	assert_int_equal(r.aligned[4], 16);
	assert_int_equal(r.tlb_contpte, 1);
}

/*
 * With a policy the file's order replaces exec_folio_order(), even when
 * smaller: 4k on arm64 reads order-0 pages from the fault as x86_64 does,
 * 16k reads [100, 132) as 16K folios and maps the faulting one whole; on
 * x86_64 2m reads and PMD-maps the 2M folio around the fault.
 */
static void test_73_policy_order_wins(void **state)
{
	static const struct execfolio_sim_segment seg_4m = { 0, 0, 4 << 20 };
	static const uint64_t pages[] = { 100 }, pmd_pages[] = { 600, 700 };
	struct execfolio_sim_result r;

	run73(1 << 20, &whole_1m, 1, pages, 1, EXECFOLIO_SIM_POLICY, 0,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.read_bytes, 32 * PAGE);
	assert_int_equal(r.text_mapped_pages, 1);
	assert_int_equal(r.aligned[0], 1);
	assert_int_equal(r.aligned[4] + r.cont_aligned, 0);

	run73(1 << 20, &whole_1m, 1, pages, 1, EXECFOLIO_SIM_POLICY, 2,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.read_bytes, 32 * PAGE);
	assert_int_equal(r.text_mapped_pages, 4);
	assert_int_equal(r.aligned[2], 4);
	assert_int_equal(r.cont_aligned, 0);

	run73(4 << 20, &seg_4m, 1, pmd_pages, 2, EXECFOLIO_SIM_POLICY, 9,
	      EXECFOLIO_SIM_ARCH_X86_64, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.read_bytes, 2 << 20);
	assert_int_equal(r.pmd_mapped, 512);
	assert_int_equal(r.tlb_pmd, 1);
	assert_int_equal(r.tlb_contpte + r.tlb_pte, 0);
}

/*
 * Read-around of a data fault at 100: stock 7.3 reads [84, 116) in pages,
 * and a fault at 80 then misses; with a 64K preference the window grows
 * to the boundaries around it, [80, 128): every page stock reads, in
 * three 64K folios, and 80 is cached. With 2M, larger than the window,
 * whose boundary (0) lies before it, it keeps [84, 116) and gets the
 * largest folios that fit up to 64K: no 2M read for one data fault.
 */
static void test_73_read_around_aligned(void **state)
{
	static const struct execfolio_sim_segment seg = { 0, 0, 64 * PAGE };
	static const uint64_t pages[] = { 100, 80 };
	struct execfolio_sim_result r;

	run73(1 << 20, &seg, 1, pages, 1, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.cache_bytes, 32 * PAGE);
	run73(1 << 20, &seg, 1, pages, 2, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.major_faults, 2);
	run73(1 << 20, &seg, 1, pages, 1, EXECFOLIO_SIM_POLICY, 4,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.text_mapped_pages, 0);
	assert_int_equal(r.cache_bytes, 48 * PAGE);
	assert_int_equal(r.read_bytes, 48 * PAGE);
	run73(1 << 20, &seg, 1, pages, 2, EXECFOLIO_SIM_POLICY, 4,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.cache_bytes, 48 * PAGE);
	run73(1 << 20, &seg, 1, pages, 1, EXECFOLIO_SIM_POLICY, 9,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.cache_bytes, 32 * PAGE);
}

/*
 * The async mark of a grown read-around window stays out of the folio of
 * the fault, which the fault maps whole: a fault at 100 reads [80, 128);
 * stock's mark, 108, falls in its own folio and moves to the one at 112,
 * which a fault at 112 then meets and reads on from 128. A fault at 96
 * reads [80, 112), whose mark (104) would fall in its own folio with no
 * folio after it: it has none, and 104 reads nothing more.
 */
static void test_73_read_around_mark(void **state)
{
	static const uint64_t marked[] = { 100, 112 };
	static const uint64_t unmarked[] = { 96, 104 };
	struct execfolio_sim_result r;

	run73(1 << 20, NULL, 0, marked, 1, EXECFOLIO_SIM_POLICY, 4,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.cache_bytes, 48 * PAGE);
	run73(1 << 20, NULL, 0, marked, 2, EXECFOLIO_SIM_POLICY, 4,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.major_faults, 1);
	assert_true(r.cache_bytes > 48 * PAGE);
	run73(1 << 20, NULL, 0, unmarked, 2, EXECFOLIO_SIM_POLICY, 4,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.cache_bytes, 32 * PAGE);
}

/*
 * No folio past EOF: a 70000-byte file (pages 0..17) faulted at 17 with
 * a 64K preference reads from the boundary 0, below stock's window
 * [1, 33), to EOF: a 64K folio and one 8K folio of the 4464 bytes at 16,
 * one page more than the 17 pages [1, 18) stock reads.
 */
static void test_73_no_folio_past_eof(void **state)
{
	static const uint64_t pages[] = { 17 };
	struct execfolio_sim_result r;

	run73(70000, NULL, 0, pages, 1, EXECFOLIO_SIM_POLICY, 4,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.cache_bytes, 18 * PAGE);
	assert_int_equal(r.read_bytes, 70000);
	run73(70000, NULL, 0, pages, 1, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.cache_bytes, 17 * PAGE);
	assert_int_equal(r.read_bytes, 70000 - PAGE);
}

/*
 * Upstream's 64K loses to read-around, the series does not: a data fault
 * at 100 caches [84, 116) in pages before the first exec fault, at 116 in
 * text starting at 112. Stock: the exec window [112, 144) meets cached
 * 112 and falls back to pages; five pages mapped, one at a time. With
 * 64K: read-around caches [80, 128) as three 64K folios, the last one the
 * text's first, which the exec fault finds and maps whole, no sync read;
 * the read-around's mark is in it, so async readahead reads [128, 160).
 */
static void test_73_exec_after_read_around(void **state)
{
	static const struct execfolio_sim_segment seg = { 112 * PAGE,
							  112 * PAGE,
							  (256 - 112) * PAGE };
	static const uint64_t pages[] = { 100, 116 };
	struct execfolio_sim_result r;

	run73(1 << 20, &seg, 1, pages, 2, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.major_faults, 2);
	assert_int_equal(r.cache_bytes, 60 * PAGE);
	assert_int_equal(r.text_mapped_pages, 5);
	assert_int_equal(r.aligned[0], 5);

	run73(1 << 20, &seg, 1, pages, 2, EXECFOLIO_SIM_POLICY, 4,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.cache_bytes, 80 * PAGE);
	assert_int_equal(r.text_mapped_pages, 16);
	assert_int_equal(r.aligned[4], 16);
}

/*
 * Async readahead on 7.3 takes its order from the readahead state: the
 * mark at 108 of the order-0 read-around [84, 116) reads [116, 148) as
 * order-2 folios; the mark on 116 then reads order 4 and trims the
 * window's end to a 64K boundary: [148, 176), 28 pages.
 */
static void test_73_async_order(void **state)
{
	static const uint64_t pages[] = { 100, 101, 108, 128, 116 };
	struct execfolio_sim_result r;

	run73(1 << 20, NULL, 0, pages, 3, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.cache_bytes, 64 * PAGE);
	run73(1 << 20, NULL, 0, pages, 5, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_ARM64, &r);
	assert_int_equal(r.major_faults, 1);
	assert_int_equal(r.cache_bytes, (64 + 28) * PAGE);
}

/*
 * mmap_miss on 7.3: exec faults neither count nor stop read-around, so
 * 102 scattered exec faults each read 32 pages; data faults still stop
 * after 100 misses, as on 6.12.
 */
static void test_73_mmap_miss(void **state)
{
	static const struct execfolio_sim_segment seg = { 0, 0,
							  110 * 64 * PAGE };
	uint64_t pages[102];
	struct execfolio_sim_result r;
	int i;

	for (i = 0; i < 102; i++)
		pages[i] = 64 * i + 32;
	run73(110 * 64 * PAGE, &seg, 1, pages, 102, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_X86_64, &r);
	assert_int_equal(r.major_faults, 102);
	assert_int_equal(r.cache_bytes, 102 * 32 * PAGE);
	run73(110 * 64 * PAGE, NULL, 0, pages, 102, EXECFOLIO_SIM_STOCK, 0,
	      EXECFOLIO_SIM_ARCH_X86_64, &r);
	assert_int_equal(r.cache_bytes, (100 * 32 + 2) * PAGE);
}

/*
 * The loader's read(2) of the header on 7.3: [0, 4) in pages, marked at
 * 1; fault-around then maps 0, 2 and 3 (not the marked page) and nothing
 * more is read. With 64K: one 64K folio, unmarked, mapped whole.
 */
static void test_73_syscall_read(void **state)
{
	struct execfolio_sim_result r;

	read_header(EXECFOLIO_SIM_KERNEL_7_3, EXECFOLIO_SIM_ARCH_ARM64,
		    EXECFOLIO_SIM_STOCK, 0, &r);
	assert_int_equal(r.major_faults, 0);
	assert_int_equal(r.cache_bytes, 4 * PAGE);
	assert_int_equal(r.text_mapped_pages, 3);
	assert_int_equal(r.aligned[0], 3);

	read_header(EXECFOLIO_SIM_KERNEL_7_3, EXECFOLIO_SIM_ARCH_ARM64,
		    EXECFOLIO_SIM_POLICY, 4, &r);
	assert_int_equal(r.cache_bytes, 16 * PAGE);
	assert_int_equal(r.text_mapped_pages, 16);
	assert_int_equal(r.aligned[4], 16);
}

/* The names the command line takes, and exec_folio_order() per arch. */
static void test_kernel_and_arch(void **state)
{
	enum execfolio_sim_kernel k = EXECFOLIO_SIM_KERNEL_6_12;
	enum execfolio_sim_arch a = EXECFOLIO_SIM_ARCH_NATIVE;
	struct execfolio_sim_params p;

	execfolio_sim_defaults(&p, EXECFOLIO_SIM_STOCK, 0);
	assert_int_equal(p.kernel, EXECFOLIO_SIM_KERNEL_7_3);
	assert_int_equal(p.arch, EXECFOLIO_SIM_ARCH_NATIVE);
	assert_int_equal(execfolio_sim_kernel_parse("7.3", &k), 0);
	assert_int_equal(k, EXECFOLIO_SIM_KERNEL_7_3);
	assert_int_equal(execfolio_sim_kernel_parse("6.12", &k), 0);
	assert_int_equal(k, EXECFOLIO_SIM_KERNEL_6_12);
	assert_int_equal(execfolio_sim_kernel_parse("7", &k), -EINVAL);
	assert_int_equal(execfolio_sim_kernel_parse("", &k), -EINVAL);
	assert_int_equal(k, EXECFOLIO_SIM_KERNEL_6_12);
	assert_string_equal(execfolio_sim_kernel_name(EXECFOLIO_SIM_KERNEL_7_3),
			    "7.3");
	assert_string_equal(
		execfolio_sim_kernel_name(EXECFOLIO_SIM_KERNEL_6_12), "6.12");
	assert_string_equal(execfolio_sim_kernel_name(9), "?");
	assert_int_equal(execfolio_sim_arch_parse("arm64", &a), 0);
	assert_int_equal(a, EXECFOLIO_SIM_ARCH_ARM64);
	assert_int_equal(execfolio_sim_arch_parse("x86_64", &a), 0);
	assert_int_equal(a, EXECFOLIO_SIM_ARCH_X86_64);
	assert_int_equal(execfolio_sim_arch_parse("aarch64", &a), -EINVAL);
	assert_string_equal(execfolio_sim_arch_name(EXECFOLIO_SIM_ARCH_ARM64),
			    "arm64");
#ifdef __aarch64__
	assert_string_equal(execfolio_sim_arch_name(EXECFOLIO_SIM_ARCH_NATIVE),
			    "arm64");
#else
	assert_string_equal(execfolio_sim_arch_name(EXECFOLIO_SIM_ARCH_NATIVE),
			    "x86_64");
#endif
	assert_int_equal(execfolio_sim_arch_exec_order(EXECFOLIO_SIM_ARCH_ARM64,
						       4096),
			 4);
	assert_int_equal(execfolio_sim_arch_exec_order(EXECFOLIO_SIM_ARCH_ARM64,
						       16384),
			 2);
	assert_int_equal(execfolio_sim_arch_exec_order(EXECFOLIO_SIM_ARCH_ARM64,
						       65536),
			 0);
	assert_int_equal(
		execfolio_sim_arch_exec_order(EXECFOLIO_SIM_ARCH_X86_64, 4096),
		0);
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
	execfolio_sim_defaults(&p, EXECFOLIO_SIM_STOCK, 0);
	p.kernel = 2;
	assert_int_equal(execfolio_sim_run(&file, &p, &r), -EINVAL);
	execfolio_sim_defaults(&p, EXECFOLIO_SIM_STOCK, 0);
	p.arch = 3;
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
		cmocka_unit_test(test_73_arm64_exec_fault),
		cmocka_unit_test(test_73_x86_64_exec_fault),
		cmocka_unit_test(test_73_policy_order_wins),
		cmocka_unit_test(test_73_read_around_aligned),
		cmocka_unit_test(test_73_read_around_mark),
		cmocka_unit_test(test_73_no_folio_past_eof),
		cmocka_unit_test(test_73_exec_after_read_around),
		cmocka_unit_test(test_73_async_order),
		cmocka_unit_test(test_73_mmap_miss),
		cmocka_unit_test(test_73_syscall_read),
		cmocka_unit_test(test_kernel_and_arch),
		cmocka_unit_test(test_bad_params),
	};

	return cmocka_run_group_tests_name("simulate", tests, NULL, NULL);
}
