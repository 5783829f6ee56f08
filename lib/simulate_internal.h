/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The simulator's state and the parts of the page cache that Linux 6.12
 * and 7.3 share (simulate_readahead.c, simulate_fault.c), for the fault
 * and read paths of each kernel (simulate_612.c, simulate_73.c); the
 * replay (simulate.c) drives them. Function names follow the kernel
 * functions they model, with a sim_ prefix where they are shared.
 */
#ifndef EXECFOLIO_SIMULATE_INTERNAL_H
#define EXECFOLIO_SIMULATE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <execfolio/bitops.h>
#include <execfolio/simulate.h>

#define NO_FOLIO UINT64_MAX
#define NOT_MAPPED -1
#define MMAP_MISS_CAP (EXECFOLIO_SIM_LOTSAMISS * 10)

/* struct file_ra_state: one per open file (trace stream). */
struct ra_state {
	uint64_t start;
	uint64_t size;
	uint64_t async_size;
	unsigned int mmap_miss;
	unsigned int order; /* 7.3: the order of the last readahead */
	uint64_t prev_index; /* prev_pos >> PAGE_SHIFT; NO_FOLIO: none yet */
};

/* struct readahead_control: the window being built. */
struct ractl {
	uint64_t index;
	uint64_t nr_pages;
	struct ra_state *ra;
};

struct vma {
	uint64_t first, last; /* file pages */
	int64_t delta; /* virtual page = file page + delta */
};

/* What the simulator knows of one page of the file. */
struct sim_page {
	uint64_t head; /* first page of the folio caching it; NO_FOLIO */
	int32_t text_map; /* exec segment it is mapped through; NOT_MAPPED */
	uint8_t order; /* at the head */
	uint8_t ra_mark; /* PG_readahead, at the head */
	uint8_t data_mapped; /* mapped through a non-exec mapping */
	uint8_t pmd_mapped;
	uint8_t flag; /* scratch: touched, then TLB accounting */
};

/*
 * The pages the replay reached, in chunks of 1 << chunk_order pages (the
 * largest folio) allocated on first write (simulate_pages.c).
 */
struct sim_pages {
	unsigned int chunk_order;
	uint64_t *keys; /* chunk index, UINT64_MAX for a free slot */
	struct sim_page **chunks;
	size_t size, used; /* slots (a power of two), chunks */
	/* The chunk used last: replays stay in one chunk for long. */
	uint64_t last_key;
	struct sim_page *last_chunk;
	bool nomem; /* a chunk could not be allocated: the replay fails */
	struct sim_page scratch; /* written instead, then */
};

struct sim {
	const struct execfolio_sim_params *p;
	const struct sim_kernel *kernel; /* the steps of the kernel modelled */
	struct execfolio_sim_result *r;
	uint64_t size;
	uint64_t npages; /* pages holding file data */
	uint64_t nslots; /* room for folios reaching past EOF */
	unsigned int min_order, max_order, pmd_order, cont_order;
	unsigned int pref_order; /* mapping_pref_folio_order(), 0 for none */
	/* 7.3: mapping_has_folio_pref_order(), true even for order 0 */
	bool has_pref;
	/* 7.3: the VM_EXEC branch's order without a preference */
	unsigned int exec_order;

	/* Per page; written through a const struct sim by the lookups. */
	struct sim_pages *pages;

	struct vma *vmas; /* exec segments, then the data mapping */
	size_t nvmas;
	struct ra_state *streams;
	size_t nstreams;
};

static inline uint64_t round_down_u64(uint64_t x, uint64_t align)
{
	return x & ~(align - 1);
}

static inline uint64_t round_up_u64(uint64_t x, uint64_t align)
{
	return round_down_u64(x + align - 1, align);
}

static inline uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* simulate_pages.c */

/* Page @index as it is: a shared unwritable default if never written. */
const struct sim_page *sim_page(const struct sim *s, uint64_t index);
/* Page @index to change (s->pages->nomem set when out of memory). */
struct sim_page *sim_page_w(struct sim *s, uint64_t index);
void sim_pages_init(struct sim_pages *t, unsigned int chunk_order);
/* The indices of the chunks written, ascending, in *@keys to free(). */
int sim_pages_chunks(const struct sim_pages *t, uint64_t **keys, size_t *nr);
void sim_pages_free(struct sim_pages *t);

static inline bool sim_present(const struct sim *s, uint64_t index)
{
	return index < s->nslots && sim_page(s, index)->head != NO_FOLIO;
}

/* The last file page of the data mapping: every fault outside the text. */
static inline bool sim_is_data_vma(const struct sim *s, int vma)
{
	return (size_t)vma + 1 == s->nvmas;
}

/* simulate_readahead.c */

/* filemap_add_folio() of a freshly allocated folio: -EEXIST on overlap. */
int sim_add_folio(struct sim *s, uint64_t index, unsigned int order, bool mark);
void sim_read_pages(struct ractl *ractl);
void sim_page_cache_ra_unbounded(struct sim *s, struct ractl *ractl,
				 uint64_t nr_to_read, uint64_t lookahead);
/* 7.3 sets no readahead mark when the window reaches EOF; 6.12 does. */
void sim_do_page_cache_ra(struct sim *s, struct ractl *ractl,
			  uint64_t nr_to_read, uint64_t lookahead);
uint64_t sim_get_next_ra_size(const struct ra_state *ra, uint64_t max);
uint64_t sim_get_init_ra_size(uint64_t size, uint64_t max);
uint64_t sim_page_cache_next_miss(const struct sim *s, uint64_t index,
				  uint64_t max_scan);
/* The first page below @index that is not cached; NO_FOLIO below 0. */
uint64_t sim_page_cache_prev_miss(const struct sim *s, uint64_t index,
				  uint64_t max_scan);

/*
 * page_cache_ra_order()'s folio order: @order within the mapping's
 * minimum and maximum and no larger than the window (@size_order, its
 * ilog2), then raised to the preferred order where the window holds it.
 */
unsigned int sim_ra_order_clamp(const struct sim *s, unsigned int order,
				unsigned int size_order);
/*
 * page_cache_ra_order()'s folios from ractl->index (rounded down to the
 * minimum order) to page @limit: each of @new_order where the index is
 * aligned to it and the folio ends by @limit, else smaller; the folio
 * holding page @mark gets the readahead mark (NO_FOLIO: none). A folio
 * overlapping the cache ends the window, unless @retry_smaller (the 7.3
 * series): then it is retried an order smaller, down to a cached page,
 * which is skipped. Returns 0 or the error that ended the window, with
 * ractl->index where it ended.
 */
int sim_ra_alloc_folios(struct sim *s, struct ractl *ractl, uint64_t limit,
			unsigned int new_order, uint64_t mark,
			bool retry_smaller);
/*
 * page_cache_sync_ra()'s window for @req_count pages at @index, with
 * readahead on: false for a small random read, which leaves the state
 * alone and is read by itself.
 */
bool sim_sync_ra_window(const struct sim *s, struct ra_state *ra,
			uint64_t index, uint64_t req_count);
/* The window widened to whole preferred folios, its mark kept inside. */
void sim_ra_window_pref(const struct sim *s, struct ra_state *ra);
/*
 * filemap_create_folio(): with a preferred order (the series, on 7.3 and
 * in the 6.12 backport), a folio of it where it lies wholly inside the
 * file and none of it is cached; else a page. 0 or -ENOMEM.
 */
int sim_filemap_create_folio(struct sim *s, uint64_t page);
/*
 * page_cache_async_ra()'s next window at the marked folio @head found at
 * ractl->index, its mark cleared: the window after the current one when
 * the index is where that one's mark was, else one rebuilt from the first
 * page after the index the cache lacks; false, the state left alone, when
 * that page is more than ra_pages away. ra->async_size is left to the
 * kernel.
 */
bool sim_async_ra_window(struct sim *s, struct ractl *ractl, uint64_t head,
			 uint64_t req_count);
/*
 * do_sync_mmap_readahead()'s read-around: ra_pages centred on @page,
 * a quarter marked; false when the file has missed too often (mmap_miss).
 */
bool sim_read_around_window(const struct sim *s, struct ra_state *ra,
			    uint64_t page);

/* simulate_fault.c */

bool sim_folio_pmd_mappable(const struct sim *s, uint64_t head,
			    const struct vma *vma);
bool sim_mapped(const struct sim *s, uint64_t page, int vma);
/* A page table entry for @page alone. */
void sim_map_pte(struct sim *s, uint64_t page, int vma_idx);
/* One page, or the whole folio by a PMD when it is PMD-mappable. */
void sim_map_page(struct sim *s, uint64_t page, int vma_idx);
int sim_find_vma(const struct sim *s, uint64_t page);
/* The folio at @head lies inside the VMA and one page table. */
bool sim_folio_fits(const struct sim *s, uint64_t head, int vma_idx);
/* None of the pages of the folio at @head is mapped through the VMA. */
bool sim_folio_unmapped(const struct sim *s, uint64_t head, int vma_idx);
/*
 * do_fault_around()'s window in file pages, [*first, *end): the
 * fault_around_pages around @page that lie inside the VMA and the page
 * table of the fault.
 */
void sim_fault_around_window(const struct sim *s, uint64_t page, int vma_idx,
			     uint64_t *first, uint64_t *end);
/*
 * filemap_fault() and the fault path around it: the page mapped already
 * or by fault-around; else async readahead on a cached page, sync
 * readahead and a folio of its own on a miss; then finish_fault().
 * 0 or -ENOMEM.
 */
int sim_fault(struct sim *s, const struct execfolio_sim_touch *t);
/*
 * filemap_read() of one page by a system call, which moves the stream's
 * prev_pos on; nothing is mapped. 0 or -ENOMEM.
 */
int sim_read(struct sim *s, const struct execfolio_sim_touch *t);

/* simulate.c */

/* The readahead state of stream @id, NULL when out of memory. */
struct ra_state *sim_stream(struct sim *s, uint32_t id);

/* simulate_612.c, simulate_73.c */

/*
 * The steps of the fault and read paths where the kernels differ, named
 * after the kernel functions they model; sim_fault() and sim_read() take
 * them in the order both kernels do.
 */
struct sim_kernel {
	/* Map what is cached around @page (fault_around_pages > 1). */
	void (*do_fault_around)(struct sim *s, struct ra_state *ra,
				uint64_t page, int vma_idx, bool exec);
	/* A fault on a cached page. */
	void (*do_async_mmap_readahead)(struct sim *s, struct ra_state *ra,
					uint64_t page, bool exec);
	/* A fault that missed the cache. */
	void (*do_sync_mmap_readahead)(struct sim *s, struct ra_state *ra,
				       uint64_t page, int vma_idx, bool exec);
	/* Map @page, cached by now. */
	void (*finish_fault)(struct sim *s, uint64_t page, int vma_idx,
			     bool exec);
	/* A read of @page by a system call: 0 or -ENOMEM. */
	int (*filemap_get_pages)(struct sim *s, struct ra_state *ra,
				 uint64_t page);
};

extern const struct sim_kernel sim_kernel_612;
extern const struct sim_kernel sim_kernel_73;

#endif /* EXECFOLIO_SIMULATE_INTERNAL_H */
