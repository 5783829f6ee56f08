/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The readahead/folio simulator: given the order in which a workload first
 * touched the pages of a file (an execfoliofs trace), replay the page
 * cache and fault paths of a kernel and tell which folios would have been
 * cached and mapped under stock readahead, option one (a fixed folio order
 * for exec faults) and a per-file exec folio policy. Two kernels are
 * modelled, 7.3 (the default) and 6.12; DESIGN.md section 8.3 says what
 * each model covers and what it leaves out.
 *
 * Linux 6.12 (mm/filemap.c, mm/readahead.c, mm/memory.c): mmap
 * read-around (do_sync_mmap_readahead: ra_pages window centred on the
 * fault, async mark at a quarter, mmap_miss accounting), async readahead
 * on a marked folio (page_cache_async_ra, order growth by 2 in
 * page_cache_ra_order), the fallback to order-0 readahead when part of a
 * window is cached, fault-around mapping of cached folios (skipping marked
 * ones), PMD mapping of aligned PMD-sized folios.  A file with a policy
 * on 6.12 is replayed as on 7.3: the 6.12 backport of the execfolio series
 * carries it with the upstream read paths it builds on (the VM_EXEC
 * branch, the order in file_ra_state, whole-folio finish_fault()).
 *
 * Linux 7.3: the VM_EXEC branch of do_sync_mmap_readahead() (a window of
 * ra_pages from the folio of exec_folio_order() around the fault, bounded
 * by the VMA, no async mark, no mmap_miss accounting for exec faults; the
 * order is 64K on arm64 and 0 elsewhere), the folio order kept in
 * file_ra_state (read-around and sync readahead in order-0 folios, async
 * readahead raising the order by 2 and trimming its window to it), no
 * readahead mark at EOF, finish_fault() and fault-around mapping whole
 * large folios inside the VMA, one page table and the file; and the 7.3
 * execfolio series: the file's preferred order replaces exec_folio_order()
 * (even order 0), is a floor for readahead windows that can hold it
 * (cached pages skipped, smaller folios around them), sync readahead
 * windows aligned to it, read-around of other faults started on a folio
 * boundary, a preferred folio for a lone read only inside the file.
 *
 * Both: reads by system calls (the loaders reading ELF headers) go
 * through page_cache_sync_ra()/page_cache_async_ra(); a page so read that
 * lies in an executable segment is then also accessed through the
 * mapping, as the loaders do with the program headers and the symbol
 * tables behind them. Not modelled: memory pressure (nothing is evicted,
 * no allocation fails), VM_RAND_READ/VM_SEQ_READ/VM_HUGEPAGE madvise
 * hints, readahead(2)/fadvise, the device's io_pages, the exact end of a
 * read(2) (prev_pos is taken to lie in the page read).
 */
#ifndef EXECFOLIO_SIMULATE_H
#define EXECFOLIO_SIMULATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <execfolio/error.h>

/* Folio orders 0..MAX_PAGECACHE_ORDER (11; the PMD order, 9, at 4K). */
#define EXECFOLIO_SIM_ORDERS 12
/* The kernel's MMAP_LOTSAMISS: read-around stops after this many misses. */
#define EXECFOLIO_SIM_LOTSAMISS 100

/* The kernel whose page cache is modelled. */
enum execfolio_sim_kernel {
	EXECFOLIO_SIM_KERNEL_7_3 = 0, /* the default */
	EXECFOLIO_SIM_KERNEL_6_12,
};

/*
 * The architecture, for 7.3's exec_folio_order(): 64K on arm64 (order 4 at
 * 4K pages, 2 at 16K, 0 at 64K), 0 on x86_64 and every other one. 6.12 has
 * no such order. NATIVE: the one libexecfolio was built for.
 */
enum execfolio_sim_arch {
	EXECFOLIO_SIM_ARCH_NATIVE = 0,
	EXECFOLIO_SIM_ARCH_ARM64,
	EXECFOLIO_SIM_ARCH_X86_64,
};

enum execfolio_sim_mode {
	/* Stock: no policy (on 7.3 the architecture's exec order applies). */
	EXECFOLIO_SIM_STOCK,
	/*
	 * Option one: exec faults read an aligned folio of a fixed order (on
	 * 7.3: upstream's VM_EXEC branch with that order on any architecture).
	 */
	EXECFOLIO_SIM_EXEC_ORDER,
	/* This policy: a preferred order, exec faults read one folio. */
	EXECFOLIO_SIM_POLICY,
};

struct execfolio_sim_params {
	uint32_t page_size; /* bytes, a power of two >= 4096 */
	unsigned int ra_pages; /* bdi read-ahead window (32 = 128K) */
	unsigned int fault_around_pages; /* 16 = 64K; 0 or 1 disables it */
	enum execfolio_sim_mode mode;
	/*
	 * EXEC_ORDER: the order exec faults read (4 for 64K at 4K pages).
	 * POLICY: the mapping's preferred order: execfolio_order() of the
	 * size (0 for a 4k policy, which still replaces the architecture's
	 * order).
	 */
	unsigned int order;
	enum execfolio_sim_kernel kernel;
	enum execfolio_sim_arch arch;
};

/*
 * An executable PT_LOAD segment: pages of [offset, offset + filesz) are
 * mapped at vaddr + (pos - offset). The load bias is assumed to be aligned
 * to the largest folio size considered (glibc and the kernel align it to
 * p_align; a PIE's bias to at least that), so only vaddr - offset matters.
 */
struct execfolio_sim_segment {
	uint64_t offset;
	uint64_t vaddr;
	uint64_t filesz;
};

/*
 * One first touch of a page; @stream names the open file (its ra state).
 * @syscall: the page was read by a system call (read(2), execve(2)), not
 * faulted in through a mapping.
 */
struct execfolio_sim_touch {
	uint64_t page;
	uint32_t stream;
	bool syscall;
};

struct execfolio_sim_file {
	uint64_t size; /* file size in bytes */
	const struct execfolio_sim_segment *segs; /* executable segments */
	size_t nsegs;
	const struct execfolio_sim_touch *touches; /* in time order */
	size_t ntouches;
};

/*
 * Outcome. Page counts are in pages of params.page_size; the table rows
 * (aligned, unaligned, partial, cont_aligned) count mapped pages of
 * executable segments, like the option-one table's "share of all mapped
 * text memory" (DESIGN.md section 1).
 */
struct execfolio_sim_result {
	uint64_t touched_pages; /* distinct pages in the trace */
	uint64_t text_touched_pages; /* of which in executable segments */
	uint64_t text_mapped_pages; /* mapped text: the table's 100% */
	uint64_t aligned[EXECFOLIO_SIM_ORDERS]; /* [0]: base pages */
	uint64_t unaligned[EXECFOLIO_SIM_ORDERS];
	uint64_t partial; /* folios mapped in part */
	uint64_t cont_aligned; /* in 64K contpte-mappable blocks */
	/* 64K-aligned blocks wholly inside a segment, some page mapped */
	uint64_t cont_eligible;
	uint64_t pmd_mapped; /* mapped by a PMD */
	uint64_t read_bytes; /* read from backing storage */
	uint64_t cache_bytes; /* page cache occupied */
	uint64_t major_faults; /* faults that found no folio */
	/* TLB entries to map the touched text pages. */
	uint64_t tlb_pte;
	uint64_t tlb_contpte;
	uint64_t tlb_pmd;
};

/*
 * Replay @file under @params and store the outcome in @result (zeroed
 * first). Touches beyond the end of the file are ignored. Returns 0,
 * -EINVAL for bad parameters (page size, order, kernel or architecture
 * out of range), or -ENOMEM.
 */
int execfolio_sim_run(const struct execfolio_sim_file *file,
		      const struct execfolio_sim_params *params,
		      struct execfolio_sim_result *result);

/* Add @r into @total, for totals over several files. */
void execfolio_sim_add(struct execfolio_sim_result *total,
		       const struct execfolio_sim_result *r);

/*
 * Default parameters for @mode at 4K pages: 128K read-ahead, 64K around,
 * Linux 7.3 on the native architecture.
 */
void execfolio_sim_defaults(struct execfolio_sim_params *params,
			    enum execfolio_sim_mode mode, unsigned int order);

/*
 * "7.3" or "6.12" (and "?" for a value out of range); the parse takes the
 * same names. Returns 0, or -EINVAL for any other name.
 */
const char *execfolio_sim_kernel_name(enum execfolio_sim_kernel kernel);
int execfolio_sim_kernel_parse(const char *name,
			       enum execfolio_sim_kernel *kernel);

/*
 * "arm64" or "x86_64" (NATIVE is named as what it stands for); the parse
 * takes the same names. Returns 0, or -EINVAL for any other name.
 */
const char *execfolio_sim_arch_name(enum execfolio_sim_arch arch);
int execfolio_sim_arch_parse(const char *name, enum execfolio_sim_arch *arch);

/* @arch, or for NATIVE the architecture libexecfolio was built for. */
enum execfolio_sim_arch
execfolio_sim_arch_resolve(enum execfolio_sim_arch arch);

/*
 * exec_folio_order() of Linux 7.3 on @arch at @page_size: the order of the
 * folios an exec fault reads in a file without a policy.
 */
unsigned int execfolio_sim_arch_exec_order(enum execfolio_sim_arch arch,
					   uint32_t page_size);

#endif /* EXECFOLIO_SIMULATE_H */
