// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fault and read paths of stock Linux 6.12 and of option one (one fixed
 * folio order for every exec fault) on it, as the simulator replays them.  A file with a policy on 6.12 takes
 * the 7.3 paths (simulate_73.c): the 6.12 backport carries the series with
 * the upstream read paths it builds on.
 */
#include "simulate_internal.h"

/*
 * page_cache_ra_order(): folios of the order asked for plus 2, clamped to
 * the window; a window too small for large folios, or one that meets the
 * cache, is read (again) in minimum-order folios.
 */
static void page_cache_ra_order(struct sim *s, struct ractl *ractl,
				unsigned int new_order)
{
	struct ra_state *ra = ractl->ra;
	uint64_t min_nr = 1ull << s->min_order;
	uint64_t index = ractl->index;
	uint64_t limit = (s->size - 1) / s->p->page_size;
	uint64_t mark = index + ra->size - ra->async_size;
	uint64_t min_ra_size = max_u64(4, min_nr);

	if (ra->size < min_ra_size)
		goto fallback;

	limit = min_u64(limit, index + ra->size - 1);
	if (new_order < s->max_order)
		new_order += 2;
	new_order = sim_ra_order_clamp(s, new_order, execfolio_ilog2(ra->size));
	if (!sim_ra_alloc_folios(s, ractl, limit, new_order, mark, false))
		return;
fallback:
	sim_do_page_cache_ra(s, ractl, ra->size, ra->async_size);
}

/* page_cache_async_ra(): the next window in folios of the marked one's. */
static void page_cache_async_ra(struct sim *s, struct ractl *ractl,
				uint64_t head, uint64_t req_count)
{
	struct ra_state *ra = ractl->ra;
	unsigned int order = sim_page(s, head)->order;

	if (!sim_async_ra_window(s, ractl, head, req_count))
		return;
	ra->async_size = ra->size;
	ractl->index = ra->start;
	page_cache_ra_order(s, ractl, order);
}

/* page_cache_sync_ra(): a read(2) or execve(2) missed the cache. */
static void page_cache_sync_ra(struct sim *s, struct ra_state *ra,
			       uint64_t index, uint64_t req_count)
{
	struct ractl ractl = { .index = index, .ra = ra };

	if (!s->p->ra_pages) {
		sim_do_page_cache_ra(s, &ractl, req_count, 0);
		return;
	}
	if (!sim_sync_ra_window(s, ra, index, req_count)) {
		/* A small random read, the readahead state left alone. */
		sim_do_page_cache_ra(s, &ractl, req_count, 0);
		return;
	}
	ractl.index = ra->start;
	page_cache_ra_order(s, &ractl, 0);
}

static void do_sync_mmap_readahead(struct sim *s, struct ra_state *ra,
				   uint64_t page, int vma_idx, bool exec)
{
	struct ractl ractl = { .index = page, .ra = ra };
	unsigned int ra_pages = s->p->ra_pages;

	if (exec && s->p->mode == EXECFOLIO_SIM_EXEC_ORDER) {
		/* Option one's hook: a fixed order for every exec fault. */
		unsigned int order = s->p->order;

		ra->size = 1ull << order;
		ra->async_size = 0;
		ractl.index = round_down_u64(page, 1ull << order);
		page_cache_ra_order(s, &ractl, order);
		return;
	}
	if (!ra_pages || !sim_read_around_window(s, ra, page))
		return;
	ractl.index = ra->start;
	page_cache_ra_order(s, &ractl, 0);
}

static void do_async_mmap_readahead(struct sim *s, struct ra_state *ra,
				    uint64_t page, bool exec)
{
	struct ractl ractl = { .index = page, .ra = ra };
	uint64_t head = sim_page(s, page)->head;

	if (!s->p->ra_pages)
		return;
	if (ra->mmap_miss)
		ra->mmap_miss--;
	if (sim_page(s, head)->ra_mark)
		page_cache_async_ra(s, &ractl, head, s->p->ra_pages);
}

/* finish_fault(): one page per fault, as stock 6.12 maps a file folio. */
static void finish_fault(struct sim *s, uint64_t page, int vma_idx, bool exec)
{
	sim_map_page(s, page, vma_idx);
}

/* do_fault_around() + filemap_map_pages(): map what is cached nearby. */
static void do_fault_around(struct sim *s, struct ra_state *ra, uint64_t page,
			    int vma_idx, bool exec)
{
	uint64_t q, end;

	sim_fault_around_window(s, page, vma_idx, &q, &end);
	for (; q < end; q++) {
		if (q >= s->npages || !sim_present(s, q) ||
		    sim_page(s, sim_page(s, q)->head)->ra_mark)
			continue;
		sim_map_page(s, q, vma_idx);
	}
}

/*
 * filemap_read() of one page by a system call: sync readahead on a miss
 * (then filemap_create_folio()), async readahead on a marked folio
 * (filemap_readahead()).
 */
static int filemap_get_pages(struct sim *s, struct ra_state *ra, uint64_t page)
{
	if (!sim_present(s, page)) {
		page_cache_sync_ra(s, ra, page, 1);
		if (!sim_present(s, page))
			return sim_filemap_create_folio(s, page);
	} else if (sim_page(s, sim_page(s, page)->head)->ra_mark) {
		uint64_t head = sim_page(s, page)->head;
		struct ractl ractl = { .index = head, .ra = ra };

		page_cache_async_ra(s, &ractl, head, page + 1 - head);
	}
	return 0;
}

const struct sim_kernel sim_kernel_612 = {
	.do_fault_around = do_fault_around,
	.do_async_mmap_readahead = do_async_mmap_readahead,
	.do_sync_mmap_readahead = do_sync_mmap_readahead,
	.finish_fault = finish_fault,
	.filemap_get_pages = filemap_get_pages,
};
