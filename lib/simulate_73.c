// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fault and read paths of Linux 7.3 (mm/filemap.c, mm/readahead.c,
 * mm/memory.c of Debian's linux-source-7.3) and of the execfolio series on
 * it (the file's preferred order, mapping_pref_folio_order(), in readahead
 * and filemap_create_folio(); the same order in do_sync_mmap_readahead()'s
 * VM_EXEC branch instead of exec_folio_order(), and read-around from a
 * folio boundary), as the simulator replays them.
 */
#include <limits.h>

#include "simulate_internal.h"

/*
 * page_cache_ra_order(): the order comes from the readahead state, clamped
 * to the window; no readahead mark when the window reaches EOF. With a
 * preferred order that order is a floor where the window can
 * hold it, and a folio that overlaps cached pages is retried smaller, the
 * cached pages skipped, instead of ending the window.
 */
static void page_cache_ra_order(struct sim *s, struct ractl *ractl,
				struct ra_state *ra)
{
	uint64_t start = ractl->index, done;
	uint64_t limit = (s->size - 1) / s->p->page_size;
	uint64_t mark = NO_FOLIO;
	unsigned int size_order;

	/*
	 * ilog2(0) is -1 in the kernel, no bound: async readahead from a
	 * fresh state at a marked folio at index 0 has an empty window, whose
	 * end wraps below; stock then stops at the cached folio, the series
	 * skips it and reads on to EOF.
	 */
	size_order = ra->size ? execfolio_ilog2(ra->size) : UINT_MAX;

	if (limit > start + ra->size - 1) {
		limit = start + ra->size - 1;
		mark = start + ra->size - ra->async_size;
	}
	ra->order = sim_ra_order_clamp(s, ra->order, size_order);
	if (!sim_ra_alloc_folios(s, ractl, limit, ra->order, mark,
				 s->pref_order))
		return;
	/* Part of the window was cached: the rest in minimum-order folios. */
	done = ractl->index - start;
	if (ra->size > done)
		sim_do_page_cache_ra(s, ractl, ra->size - done, ra->async_size);
}

/*
 * page_cache_async_ra(): the window moves on (or is rebuilt from the
 * cache), the state's order grows by 2 and the window's end is trimmed
 * to a boundary of it.
 */
static void page_cache_async_ra(struct sim *s, struct ractl *ractl,
				uint64_t head, uint64_t req_count)
{
	struct ra_state *ra = ractl->ra;
	uint64_t max_pages = s->p->ra_pages, end, aligned_end, align;

	if (!max_pages || !sim_async_ra_window(s, ractl, head, req_count))
		return;
	ra->order += 2;
	/* 1 << min(ra->order, ffs(max_pages) - 1) */
	align = 1ull << min_u64(ra->order, __builtin_ctzll(max_pages));
	end = ra->start + ra->size;
	aligned_end = round_down_u64(end, align);
	if (aligned_end > ra->start)
		ra->size -= end - aligned_end;
	ra->async_size = ra->size;
	ractl->index = ra->start;
	page_cache_ra_order(s, ractl, ra);
}

/*
 * page_cache_sync_ra(): a read(2) or execve(2) missed the cache. Order-0
 * folios on stock 7.3; with a preferred order the window is widened to
 * whole folios of it, and a lone small read is left alone.  The replay
 * reads one page at a time, so the series' lone read of a whole preferred
 * folio or more, read in such folios, does not occur here.
 */
static void page_cache_sync_ra(struct sim *s, struct ra_state *ra,
			       uint64_t index, uint64_t req_count)
{
	struct ractl ractl = { .index = index, .ra = ra };

	/*
	 * No readahead: force_page_cache_ra() of the page asked for; a small
	 * random read: the same, the readahead state left alone.
	 */
	if (!s->p->ra_pages || !sim_sync_ra_window(s, ra, index, req_count)) {
		sim_do_page_cache_ra(s, &ractl, req_count, 0);
		return;
	}
	ra->order = 0;
	if (s->pref_order) {
		/* Whole preferred folios; the async mark stays inside. */
		sim_ra_window_pref(s, ra);
		ra->order = s->pref_order;
		/* The loader's first read of the header: no mark. */
		if (!index && ra->size == 1ull << s->pref_order)
			ra->async_size = 0;
	}
	ractl.index = ra->start;
	page_cache_ra_order(s, &ractl, ra);
}

/*
 * do_sync_mmap_readahead(). Exec faults: upstream's VM_EXEC branch, a
 * window of ra_pages from the folio of exec_folio_order() around the
 * fault (the series: the file's preferred order instead when it has one),
 * bounded by the VMA, no async mark, no mmap_miss accounting. Other
 * faults: read-around centred on the fault in order-0 folios; with a
 * preferred order (the series), a window of at least one folio grows to the
 * folio boundaries around it, its async mark moved out of the folio of
 * the fault (to the next one, or dropped when none follows); a smaller
 * one starts at the boundary above when the fault stays inside.
 */
static void do_sync_mmap_readahead(struct sim *s, struct ra_state *ra,
				   uint64_t page, int vma_idx, bool exec)
{
	struct ractl ractl = { .index = page, .ra = ra };
	uint64_t ra_pages = s->p->ra_pages;

	if (!ra_pages)
		return;
	if (exec) {
		const struct vma *vma = &s->vmas[vma_idx];
		unsigned int order = s->has_pref ? s->pref_order :
						   s->exec_order;
		uint64_t nr = 1ull << order, end;

		ra->order = order;
		ra->start = max_u64(round_down_u64(page, nr), vma->first);
		end = min_u64(round_up_u64(ra->start + ra_pages, nr),
			      vma->last + 1);
		ra->size = end - ra->start;
		ra->async_size = 0;
	} else {
		uint64_t pref_nr = 1ull << s->pref_order, aligned_start;

		if (!sim_read_around_window(s, ra, page))
			return;
		ra->order = 0;
		if (pref_nr > 1 && ra->size >= pref_nr) {
			uint64_t end =
				round_up_u64(ra->start + ra->size, pref_nr);
			uint64_t mark =
				max_u64(ra->start + ra->size - ra->async_size,
					round_up_u64(page + 1, pref_nr));

			ra->start = round_down_u64(ra->start, pref_nr);
			ra->size = end - ra->start;
			ra->async_size = end - mark;
		} else {
			aligned_start = round_up_u64(ra->start, pref_nr);
			if (aligned_start <= page) {
				ra->size -= aligned_start - ra->start;
				ra->start = aligned_start;
			}
		}
	}
	ractl.index = ra->start;
	page_cache_ra_order(s, &ractl, ra);
}

/* do_async_mmap_readahead(): exec faults leave mmap_miss alone. */
static void do_async_mmap_readahead(struct sim *s, struct ra_state *ra,
				    uint64_t page, bool exec)
{
	struct ractl ractl = { .index = page, .ra = ra };
	uint64_t head = sim_page(s, page)->head;

	if (!s->p->ra_pages)
		return;
	if (!exec && ra->mmap_miss)
		ra->mmap_miss--;
	if (sim_page(s, head)->ra_mark)
		page_cache_async_ra(s, &ractl, head, s->p->ra_pages);
}

/*
 * finish_fault(): a PMD for a PMD-mappable folio, else the whole folio
 * when it lies inside the VMA, one page table and the file and none of
 * its pages is mapped yet, else the page alone.
 */
static void finish_fault(struct sim *s, uint64_t page, int vma_idx, bool exec)
{
	uint64_t head = sim_page(s, page)->head,
		 nr = 1ull << sim_page(s, head)->order, i;
	bool inside_file = head + nr <= s->npages;

	if (inside_file && sim_folio_pmd_mappable(s, head, &s->vmas[vma_idx])) {
		sim_map_page(s, page, vma_idx);
		return;
	}
	if (nr == 1 || !inside_file || !sim_folio_fits(s, head, vma_idx) ||
	    !sim_folio_unmapped(s, head, vma_idx)) {
		sim_map_pte(s, page, vma_idx);
		return;
	}
	for (i = head; i < head + nr; i++)
		sim_map_pte(s, i, vma_idx);
}

/*
 * do_fault_around() + filemap_map_pages(): map the cached folios of the
 * window (marked ones skipped), each whole when it lies inside the VMA,
 * one page table and the file, and a PMD-mappable one by a PMD. The file
 * test is filemap_map_pages()'s: the folio must end before the last page
 * of the file, one page stricter than finish_fault()'s. A fault so
 * resolved on a non-exec mapping takes one back from mmap_miss.
 */
static void do_fault_around(struct sim *s, struct ra_state *ra, uint64_t page,
			    int vma_idx, bool exec)
{
	const struct vma *vma = &s->vmas[vma_idx];
	uint64_t q, end, last, i;

	sim_fault_around_window(s, page, vma_idx, &q, &end);
	last = min_u64(end - 1, s->npages - 1);
	while (q <= last) {
		uint64_t head, next;
		bool inside_file;

		if (!sim_present(s, q)) {
			q++;
			continue;
		}
		head = sim_page(s, q)->head;
		next = head + (1ull << sim_page(s, head)->order);
		inside_file = next < s->npages;
		if (sim_page(s, head)->ra_mark) {
			q = next;
			continue;
		}
		if (inside_file && sim_folio_pmd_mappable(s, head, vma)) {
			sim_map_page(s, q, vma_idx);
			return;
		}
		if (inside_file && sim_folio_fits(s, head, vma_idx)) {
			for (i = head; i < next; i++)
				if (!sim_mapped(s, i, vma_idx))
					sim_map_pte(s, i, vma_idx);
		} else {
			for (i = q; i < next && i <= last; i++)
				if (!sim_mapped(s, i, vma_idx))
					sim_map_pte(s, i, vma_idx);
		}
		q = next;
	}
	if (!exec && sim_mapped(s, page, vma_idx) && ra->mmap_miss)
		ra->mmap_miss--;
}

/*
 * filemap_read() of one page by a system call (filemap_get_pages()): sync
 * readahead on a miss, then a folio of its own if readahead left the page
 * out; async readahead when the folio found, even one sync readahead just
 * read, is marked.
 */
static int filemap_get_pages(struct sim *s, struct ra_state *ra, uint64_t page)
{
	uint64_t head;

	if (!sim_present(s, page))
		page_cache_sync_ra(s, ra, page, 1);
	if (!sim_present(s, page))
		return sim_filemap_create_folio(s, page);
	head = sim_page(s, page)->head;
	if (sim_page(s, head)->ra_mark) {
		/* filemap_readahead(): from the folio found */
		struct ractl ractl = { .index = head, .ra = ra };

		page_cache_async_ra(s, &ractl, head, page + 1 - head);
	}
	return 0;
}

const struct sim_kernel sim_kernel_73 = {
	.do_fault_around = do_fault_around,
	.do_async_mmap_readahead = do_async_mmap_readahead,
	.do_sync_mmap_readahead = do_sync_mmap_readahead,
	.finish_fault = finish_fault,
	.filemap_get_pages = filemap_get_pages,
};
