// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page cache and readahead steps that Linux 6.12 and 7.3 share
 * (mm/filemap.c, mm/readahead.c), for the simulator's models of each
 * kernel (simulate_612.c, simulate_73.c): folio insertion, unbounded
 * readahead, the window sizes and the cache scans.
 */
#include <errno.h>
#include <limits.h>

#include "simulate_internal.h"

int sim_add_folio(struct sim *s, uint64_t index, unsigned int order, bool mark)
{
	uint64_t nr = 1ull << order, i, end;

	if (index + nr > s->nslots)
		return -ENOMEM;
	for (i = index; i < index + nr; i++)
		if (sim_page(s, i)->head != NO_FOLIO)
			return -EEXIST;
	for (i = index; i < index + nr; i++)
		sim_page_w(s, i)->head = index;
	sim_page_w(s, index)->order = order;
	sim_page_w(s, index)->ra_mark = mark;
	end = min_u64((index + nr) * s->p->page_size, s->size);
	if (end > index * s->p->page_size)
		s->r->read_bytes += end - index * s->p->page_size;
	s->r->cache_bytes += nr * s->p->page_size;
	return 0;
}

/* The I/O itself needs no modelling: the window just moves on. */
void sim_read_pages(struct ractl *ractl)
{
	ractl->index += ractl->nr_pages;
	ractl->nr_pages = 0;
}

void sim_page_cache_ra_unbounded(struct sim *s, struct ractl *ractl,
				 uint64_t nr_to_read, uint64_t lookahead)
{
	uint64_t min_nr = 1ull << s->min_order;
	uint64_t index = round_down_u64(ractl->index, min_nr);
	uint64_t mark = NO_FOLIO, i = 0;

	if (lookahead <= nr_to_read)
		mark = round_up_u64(ractl->index + nr_to_read - lookahead,
				    min_nr) -
		       index;
	nr_to_read += ractl->index - index;
	ractl->index = index;

	while (i < nr_to_read) {
		if (sim_present(s, index + i) ||
		    sim_add_folio(s, index + i, s->min_order, i == mark)) {
			sim_read_pages(ractl);
			ractl->index += min_nr;
			i = ractl->index + ractl->nr_pages - index;
			continue;
		}
		ractl->nr_pages += min_nr;
		i += min_nr;
	}
	sim_read_pages(ractl);
}

void sim_do_page_cache_ra(struct sim *s, struct ractl *ractl,
			  uint64_t nr_to_read, uint64_t lookahead)
{
	uint64_t end_index;

	if (!s->size)
		return;
	end_index = (s->size - 1) / s->p->page_size;
	if (ractl->index > end_index)
		return;
	if (nr_to_read > end_index - ractl->index) {
		nr_to_read = end_index - ractl->index + 1;
		if (s->p->kernel == EXECFOLIO_SIM_KERNEL_7_3)
			lookahead = 0; /* the end: no readahead mark */
	}
	sim_page_cache_ra_unbounded(s, ractl, nr_to_read, lookahead);
}

uint64_t sim_get_next_ra_size(const struct ra_state *ra, uint64_t max)
{
	if (ra->size < max / 16)
		return 4 * ra->size;
	if (ra->size <= max / 2)
		return 2 * ra->size;
	return max;
}

uint64_t sim_page_cache_next_miss(const struct sim *s, uint64_t index,
				  uint64_t max_scan)
{
	uint64_t nr = max_scan;

	while (nr--) {
		if (!sim_present(s, index))
			return index;
		index++;
	}
	return index;
}

uint64_t sim_get_init_ra_size(uint64_t size, uint64_t max)
{
	uint64_t newsize = 1;

	while (newsize < size)
		newsize <<= 1;
	if (newsize <= max / 32)
		return newsize * 4;
	if (newsize <= max / 4)
		return newsize * 2;
	return max;
}

uint64_t sim_page_cache_prev_miss(const struct sim *s, uint64_t index,
				  uint64_t max_scan)
{
	while (max_scan--) {
		if (!sim_present(s, index))
			break;
		if (!index)
			return NO_FOLIO;
		index--;
	}
	return index;
}

unsigned int sim_ra_order_clamp(const struct sim *s, unsigned int order,
				unsigned int size_order)
{
	order = min_u64(order, s->max_order);
	order = min_u64(order, size_order);
	order = max_u64(order, s->min_order);
	/* A window sized for the preferred order gets it (the series). */
	return max_u64(order, min_u64(s->pref_order, size_order));
}

int sim_ra_alloc_folios(struct sim *s, struct ractl *ractl, uint64_t limit,
			unsigned int new_order, uint64_t mark,
			bool retry_smaller)
{
	unsigned int retry_order = UINT_MAX;
	uint64_t index;
	int err = 0;

	ractl->index = round_down_u64(ractl->index, 1ull << s->min_order);
	index = ractl->index;
	while (index <= limit) {
		unsigned int order = min_u64(new_order, retry_order);

		if (index & ((1ull << order) - 1))
			order = __builtin_ctzll(index);
		while (order > s->min_order &&
		       index + (1ull << order) - 1 > limit)
			order--;
		/* ra_alloc_folio(): the mark rounded down to the folio */
		err = sim_add_folio(
			s, index, order,
			mark != NO_FOLIO &&
				index == round_down_u64(mark, 1ull << order));
		retry_order = UINT_MAX;
		if (err == -EEXIST && retry_smaller) {
			if (order > s->min_order) {
				retry_order = order - 1;
				err = 0;
				continue;
			}
			/* The batch stays contiguous: read it, skip the page. */
			sim_read_pages(ractl);
			index += 1ull << order;
			ractl->index = index;
			err = 0;
			continue;
		}
		if (err)
			break;
		ractl->nr_pages += 1ull << order;
		index += 1ull << order;
	}
	sim_read_pages(ractl);
	return err;
}

bool sim_sync_ra_window(const struct sim *s, struct ra_state *ra,
			uint64_t index, uint64_t req_count)
{
	uint64_t max_pages = s->p->ra_pages, miss, contig;

	/* The start of the file, a large read or one that follows on. */
	if (!index || req_count > max_pages ||
	    (ra->prev_index != NO_FOLIO && index - ra->prev_index <= 1)) {
		ra->start = index;
		ra->size = sim_get_init_ra_size(req_count, max_pages);
		ra->async_size = ra->size > req_count ? ra->size - req_count :
							ra->size >> 1;
		return true;
	}
	/* Else as far back as the cache holds the pages before it. */
	miss = sim_page_cache_prev_miss(s, index - 1, max_pages);
	contig = index - miss - 1;
	if (contig <= req_count)
		return false;
	if (miss == NO_FOLIO)
		contig *= 2;
	ra->start = index;
	ra->size = min_u64(contig + req_count, max_pages);
	ra->async_size = 1;
	return true;
}

void sim_ra_window_pref(const struct sim *s, struct ra_state *ra)
{
	uint64_t nr = 1ull << s->pref_order;
	uint64_t end = round_up_u64(ra->start + ra->size, nr);

	ra->start = round_down_u64(ra->start, nr);
	ra->size = end - ra->start;
	ra->async_size = min_u64(ra->async_size, ra->size - 1);
}

bool sim_async_ra_window(struct sim *s, struct ractl *ractl, uint64_t head,
			 uint64_t req_count)
{
	struct ra_state *ra = ractl->ra;
	uint64_t max_pages = s->p->ra_pages;
	uint64_t index = ractl->index, expected, start;

	sim_page_w(s, head)->ra_mark = 0;
	expected = round_down_u64(ra->start + ra->size - ra->async_size,
				  1ull << sim_page(s, head)->order);
	if (index == expected) {
		ra->start += ra->size;
		ra->size =
			max_u64(ra->size, sim_get_next_ra_size(ra, max_pages));
		return true;
	}
	start = sim_page_cache_next_miss(s, index + 1, max_pages);
	if (!start || start - index > max_pages)
		return false;
	ra->start = start;
	ra->size = start - index + req_count;
	ra->size = sim_get_next_ra_size(ra, max_pages);
	return true;
}

bool sim_read_around_window(const struct sim *s, struct ra_state *ra,
			    uint64_t page)
{
	uint64_t ra_pages = s->p->ra_pages;

	if (ra->mmap_miss < MMAP_MISS_CAP)
		ra->mmap_miss++;
	if (ra->mmap_miss > EXECFOLIO_SIM_LOTSAMISS)
		return false;
	ra->start = page > ra_pages / 2 ? page - ra_pages / 2 : 0;
	ra->size = ra_pages;
	ra->async_size = ra_pages / 4;
	return true;
}

int sim_filemap_create_folio(struct sim *s, uint64_t page)
{
	uint64_t nr = 1ull << s->pref_order, start = round_down_u64(page, nr);

	if (s->pref_order && (start + nr) * s->p->page_size <= s->size &&
	    !sim_add_folio(s, start, s->pref_order, false))
		return 0;
	return sim_add_folio(s, page, 0, false) ? -ENOMEM : 0;
}
