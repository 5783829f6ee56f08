// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fault steps that Linux 6.12 and 7.3 share (mm/memory.c), for the
 * simulator's models of each kernel (simulate_612.c, simulate_73.c): which
 * mapping a page faults through, whether it is mapped, and mapping it, by
 * a PMD where the folio allows.
 */
#include "simulate_internal.h"

bool sim_folio_pmd_mappable(const struct sim *s, uint64_t head,
			    const struct vma *vma)
{
	uint64_t nr = 1ull << s->pmd_order;

	return s->order[head] == s->pmd_order && head >= vma->first &&
	       head + nr - 1 <= vma->last &&
	       !((uint64_t)((int64_t)head + vma->delta) & (nr - 1));
}

bool sim_mapped(const struct sim *s, uint64_t page, int vma)
{
	if (sim_is_data_vma(s, vma))
		return s->data_mapped[page];
	return s->text_map[page] != NOT_MAPPED;
}

void sim_map_page(struct sim *s, uint64_t page, int vma_idx)
{
	const struct vma *vma = &s->vmas[vma_idx];
	uint64_t head = s->head[page], i, nr;

	if (sim_mapped(s, page, vma_idx))
		return;
	if (sim_is_data_vma(s, vma_idx)) {
		s->data_mapped[page] = 1;
		return;
	}
	if (!sim_folio_pmd_mappable(s, head, vma)) {
		s->text_map[page] = vma_idx;
		return;
	}
	nr = 1ull << s->pmd_order;
	for (i = head; i < head + nr; i++) {
		s->text_map[i] = vma_idx;
		s->pmd_mapped[i] = 1;
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
