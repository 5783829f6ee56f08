// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Folio accounting of one executable file mapping, following the file-*
 * statistics of the kernel's tools/mm/thpmaps (thp_parse() and
 * cont_parse()), plus the 64K-block share of DESIGN.md section 2.10.
 *
 * thpmaps works on "ranges": maximal runs of pages flagged KPF_THP whose
 * virtual and physical frame numbers both increase by one. In a range,
 * pages before the first compound head belong to a folio mapped from its
 * middle and are partial; so is the last folio when the page after the
 * range is a compound tail (the folio goes on beyond the mapping or the
 * run). Every other folio is fully mapped: its size is the distance to the
 * next head, and it is aligned when its virtual frame number is a multiple
 * of its size. Pages not flagged KPF_THP are small folios.
 *
 * A page whose PFN an earlier mapping already counted is not counted
 * again; a 64K block counts when one of its resident pages is new.
 */
#include <errno.h>

#include <execfolio/bitops.h>

#include "measure_internal.h"

static bool present(const struct vma_pages *v, size_t i)
{
	return v->pm[i] & PM_PRESENT;
}

static uint64_t pfn_of(const struct vma_pages *v, size_t i)
{
	return v->pm[i] & PM_PFN_MASK;
}

static bool is_thp(const struct vma_pages *v, size_t i)
{
	return present(v, i) && (v->flags[i] & KPF_THP);
}

static bool is_file(const struct vma_pages *v, size_t i)
{
	return present(v, i) && !(v->flags[i] & KPF_ANON);
}

static bool is_head(const struct vma_pages *v, size_t i)
{
	return v->flags[i] & KPF_COMPOUND_HEAD;
}

/*
 * New pages in [first, end), when @owner is a file page: thpmaps attributes
 * a run of pages to anon or file by one page of it.
 */
static uint64_t new_pages(const struct vma_pages *v, size_t owner, size_t first,
			  size_t end)
{
	uint64_t n = 0;
	size_t i;

	if (!is_file(v, owner))
		return 0;
	for (i = first; i < end; i++)
		n += v->is_new[i];
	return n;
}

/* One range [s, e) of pages; adds the new PMD-order aligned pages to @pmd_aligned. */
static int account_range(const struct vma_pages *v, size_t s, size_t e,
			 struct execfolio_stat *st, uint64_t *pmd_aligned)
{
	const uint64_t ps = st->page_size;
	size_t first = e, last = e, h, next;
	uint64_t after;
	int ret;

	for (h = s; h < e; h++) {
		if (is_head(v, h)) {
			if (first == e)
				first = h;
			last = h;
		}
	}
	/* A folio entered from its middle. */
	st->partial_bytes += new_pages(v, s, s, first) * ps;
	if (first == e)
		return 0;

	/* The last folio goes on past the range. */
	ret = kpf_get(v->kpf, pfn_of(v, e - 1) + 1, &after);
	if (ret)
		return ret;
	if (after & KPF_COMPOUND_TAIL) {
		st->partial_bytes += new_pages(v, e - 1, last, e) * ps;
		e = last;
	}

	for (h = first; h < e; h = next) {
		unsigned int order;
		uint64_t nr, n;

		for (next = h + 1; next < e && !is_head(v, next); next++)
			;
		/* thpmaps counts 1 << floor(log2(distance)) pages. */
		order = execfolio_ilog2(next - h);
		if (order > EXECFOLIO_MAX_ORDER)
			continue;
		nr = 1ULL << order;
		n = new_pages(v, h, h, h + nr);
		st->folio_bytes[order] += n * ps;
		if (((v->start_vfn + h) & (nr - 1)) == 0) {
			st->aligned[order] += n * ps;
			if (order == st->pmd_order)
				*pmd_aligned += n;
		} else {
			st->unaligned[order] += n * ps;
		}
	}
	return 0;
}

/* Pages of 64K blocks inside the mapping: eligible and cont-aligned. */
static void account_blocks(const struct vma_pages *v, struct execfolio_stat *st)
{
	const uint64_t ps = st->page_size;
	uint64_t nr_block =
		ps >= EXECFOLIO_CONT_BLOCK ? 1 : EXECFOLIO_CONT_BLOCK / ps;
	uint64_t vfn = (v->start_vfn + nr_block - 1) & ~(nr_block - 1);

	for (; vfn + nr_block <= v->start_vfn + v->nr; vfn += nr_block) {
		size_t b = (size_t)(vfn - v->start_vfn), i;
		bool resident = false, counted = true, aligned;

		for (i = b; i < b + nr_block; i++) {
			if (!is_file(v, i))
				continue;
			resident = true;
			counted &= !v->is_new[i];
		}
		if (!resident || counted)
			continue;
		st->cont_eligible_64k_bytes += nr_block * ps;

		aligned = is_file(v, b) && (pfn_of(v, b) & (nr_block - 1)) == 0;
		if (nr_block > 1)
			aligned = aligned &&
				  (v->flags[b] &
				   (KPF_COMPOUND_HEAD | KPF_COMPOUND_TAIL));
		for (i = b + 1; aligned && i < b + nr_block; i++)
			aligned = is_file(v, i) &&
				  pfn_of(v, i) == pfn_of(v, b) + (i - b) &&
				  (v->flags[i] & KPF_COMPOUND_TAIL);
		if (aligned)
			st->cont_aligned_64k_bytes += nr_block * ps;
	}
}

int folio_account(const struct vma_pages *v, struct execfolio_stat *st)
{
	const uint64_t ps = st->page_size;
	uint64_t pmd_aligned = 0, pmd;
	size_t i, s;
	int ret;

	for (i = 0; i < v->nr; i++) {
		if (!is_file(v, i) || !v->is_new[i])
			continue;
		st->text_bytes += ps;
		if (!is_thp(v, i))
			st->folio_bytes[0] += ps;
	}

	for (i = 0; i < v->nr;) {
		if (!is_thp(v, i)) {
			i++;
			continue;
		}
		for (s = i++; i < v->nr && is_thp(v, i) &&
			      pfn_of(v, i) == pfn_of(v, i - 1) + 1;
		     i++)
			;
		ret = account_range(v, s, i, st, &pmd_aligned);
		if (ret)
			return ret;
	}

	/*
	 * smaps says how much of the mapping is PMD-mapped; those are aligned
	 * PMD-size folios, counted above, that an earlier mapping may have
	 * counted already.
	 */
	pmd = v->pmd_mapped_pages < pmd_aligned ? v->pmd_mapped_pages :
						  pmd_aligned;
	st->pmd_mapped_bytes += pmd * ps;

	account_blocks(v, st);
	return 0;
}
