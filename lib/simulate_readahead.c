// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page cache and readahead steps that Linux 6.12 and 7.3 share
 * (mm/filemap.c, mm/readahead.c), for the simulator's models of each
 * kernel (simulate_612.c, simulate_73.c): folio insertion, unbounded
 * readahead, the window sizes and the cache scans.
 */
#include <errno.h>

#include "simulate_internal.h"

int sim_add_folio(struct sim *s, uint64_t index, unsigned int order, bool mark)
{
	uint64_t nr = 1ull << order, i, end;

	if (index + nr > s->nslots)
		return -ENOMEM;
	for (i = index; i < index + nr; i++)
		if (s->head[i] != NO_FOLIO)
			return -EEXIST;
	for (i = index; i < index + nr; i++)
		s->head[i] = index;
	s->order[index] = order;
	s->ra_mark[index] = mark;
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
