// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fault and read paths as Linux 6.12 and 7.3 share them: the order of
 * their steps (filemap_fault(), filemap_read()), each step the kernel's
 * own (struct sim_kernel of simulate_612.c, simulate_73.c), and the parts
 * of mm/memory.c both use: which mapping a page faults through, whether
 * it is mapped, mapping it, by a PMD where the folio allows, and the
 * fault-around window.
 */
#include <errno.h>

#include "simulate_internal.h"

bool sim_folio_pmd_mappable(const struct sim *s, uint64_t head,
			    const struct vma *vma)
{
	uint64_t nr = 1ull << s->pmd_order;

	return sim_page(s, head)->order == s->pmd_order && head >= vma->first &&
	       head + nr - 1 <= vma->last &&
	       !((uint64_t)((int64_t)head + vma->delta) & (nr - 1));
}

bool sim_mapped(const struct sim *s, uint64_t page, int vma)
{
	if (sim_is_data_vma(s, vma))
		return sim_page(s, page)->data_mapped;
	return sim_page(s, page)->text_map != NOT_MAPPED;
}

void sim_map_pte(struct sim *s, uint64_t page, int vma_idx)
{
	if (sim_is_data_vma(s, vma_idx))
		sim_page_w(s, page)->data_mapped = 1;
	else
		sim_page_w(s, page)->text_map = vma_idx;
}

void sim_map_page(struct sim *s, uint64_t page, int vma_idx)
{
	const struct vma *vma = &s->vmas[vma_idx];
	uint64_t head = sim_page(s, page)->head, i, nr;

	if (sim_mapped(s, page, vma_idx))
		return;
	if (sim_is_data_vma(s, vma_idx) ||
	    !sim_folio_pmd_mappable(s, head, vma)) {
		sim_map_pte(s, page, vma_idx);
		return;
	}
	nr = 1ull << s->pmd_order;
	for (i = head; i < head + nr; i++) {
		sim_page_w(s, i)->text_map = vma_idx;
		sim_page_w(s, i)->pmd_mapped = 1;
	}
}

int sim_find_vma(const struct sim *s, uint64_t page)
{
	size_t i;

	for (i = 0; i + 1 < s->nvmas; i++)
		if (page >= s->vmas[i].first && page <= s->vmas[i].last)
			return i;
	return s->nvmas - 1;
}

bool sim_folio_fits(const struct sim *s, uint64_t head, int vma_idx)
{
	const struct vma *vma = &s->vmas[vma_idx];
	uint64_t nr = 1ull << sim_page(s, head)->order,
		 table = 1ull << s->pmd_order;
	uint64_t va = (uint64_t)((int64_t)head + vma->delta);

	return head >= vma->first && head + nr - 1 <= vma->last &&
	       round_down_u64(va, table) == round_down_u64(va + nr - 1, table);
}

bool sim_folio_unmapped(const struct sim *s, uint64_t head, int vma_idx)
{
	uint64_t nr = 1ull << sim_page(s, head)->order, i;

	for (i = head; i < head + nr; i++)
		if (sim_mapped(s, i, vma_idx))
			return false;
	return true;
}

void sim_fault_around_window(const struct sim *s, uint64_t page, int vma_idx,
			     uint64_t *first, uint64_t *end)
{
	const struct vma *vma = &s->vmas[vma_idx];
	uint64_t nr = s->p->fault_around_pages, table = 1ull << s->pmd_order;
	uint64_t va = page + vma->delta, from, to;

	/* In virtual pages: inside the VMA and the page table of the fault. */
	from = max_u64(round_down_u64(va, nr), vma->first + vma->delta);
	from = max_u64(from, round_down_u64(va, table));
	to = min_u64(from + nr, round_down_u64(va, table) + table);
	to = min_u64(to, vma->last + vma->delta + 1);
	*first = from - vma->delta;
	*end = to - vma->delta;
}

int sim_fault(struct sim *s, const struct execfolio_sim_touch *t)
{
	const struct sim_kernel *kernel = s->kernel;
	uint64_t page = t->page, min_nr = 1ull << s->min_order;
	int vma = sim_find_vma(s, page);
	bool exec = !sim_is_data_vma(s, vma);
	struct ra_state *ra = sim_stream(s, t->stream);

	if (!ra)
		return -ENOMEM;
	if (sim_mapped(s, page, vma))
		return 0;
	if (s->p->fault_around_pages > 1) {
		kernel->do_fault_around(s, ra, page, vma, exec);
		if (sim_mapped(s, page, vma))
			return 0;
	}
	if (sim_present(s, page)) {
		kernel->do_async_mmap_readahead(s, ra, page, exec);
	} else {
		s->r->major_faults++;
		kernel->do_sync_mmap_readahead(s, ra, page, vma, exec);
		/* __filemap_get_folio(FGP_CREAT | FGP_FOR_MMAP) */
		if (!sim_present(s, page) &&
		    sim_add_folio(s, round_down_u64(page, min_nr), s->min_order,
				  false))
			return -ENOMEM;
	}
	kernel->finish_fault(s, page, vma, exec);
	return 0;
}

int sim_read(struct sim *s, const struct execfolio_sim_touch *t)
{
	struct ra_state *ra = sim_stream(s, t->stream);
	int ret;

	if (!ra)
		return -ENOMEM;
	ret = s->kernel->filemap_get_pages(s, ra, t->page);
	ra->prev_index = t->page;
	return ret;
}
