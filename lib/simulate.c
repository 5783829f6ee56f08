// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Readahead/folio simulator: replays a trace of first page touches through
 * a model of the 6.12 fault, readahead and fault-around paths. Function
 * names follow the kernel functions they model so the two can be compared
 * line by line; see include/execfolio/simulate.h for what is left out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <execfolio/policy.h>
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

struct sim {
	const struct execfolio_sim_params *p;
	struct execfolio_sim_result *r;
	uint64_t size;
	uint64_t npages; /* pages holding file data */
	uint64_t nslots; /* room for folios reaching past EOF */
	unsigned int min_order, max_order, pmd_order, cont_order;
	unsigned int pref_order; /* mapping_pref_folio_order(), 0 for none */

	uint64_t *head; /* first page of the folio caching each page */
	uint8_t *order; /* at the head */
	uint8_t *ra_mark; /* PG_readahead, at the head */
	int32_t *text_map; /* exec segment a page is mapped through */
	uint8_t *data_mapped; /* mapped through a non-exec mapping */
	uint8_t *pmd_mapped;
	uint8_t *flag; /* scratch: touched, then TLB accounting */

	struct vma *vmas; /* exec segments, then the data mapping */
	size_t nvmas;
	struct ra_state *streams;
	size_t nstreams;
};

static unsigned int ilog2_u64(uint64_t x)
{
	return 63 - __builtin_clzll(x);
}

static uint64_t round_down_u64(uint64_t x, uint64_t align)
{
	return x & ~(align - 1);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static bool present(const struct sim *s, uint64_t index)
{
	return index < s->nslots && s->head[index] != NO_FOLIO;
}

/* filemap_add_folio() of a freshly allocated folio: -EEXIST on overlap. */
static int add_folio(struct sim *s, uint64_t index, unsigned int order,
		     bool mark)
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
static void read_pages(struct ractl *ractl)
{
	ractl->index += ractl->nr_pages;
	ractl->nr_pages = 0;
}

static void page_cache_ra_unbounded(struct sim *s, struct ractl *ractl,
				    uint64_t nr_to_read, uint64_t lookahead)
{
	uint64_t min_nr = 1ull << s->min_order;
	uint64_t index = round_down_u64(ractl->index, min_nr);
	uint64_t mark, i = 0;

	mark = round_down_u64(ractl->index + nr_to_read - lookahead + min_nr -
				      1,
			      min_nr) -
	       index;
	nr_to_read += ractl->index - index;
	ractl->index = index;

	while (i < nr_to_read) {
		if (present(s, index + i) ||
		    add_folio(s, index + i, s->min_order, i == mark)) {
			read_pages(ractl);
			ractl->index += min_nr;
			i = ractl->index + ractl->nr_pages - index;
			continue;
		}
		ractl->nr_pages += min_nr;
		i += min_nr;
	}
	read_pages(ractl);
}

static void do_page_cache_ra(struct sim *s, struct ractl *ractl,
			     uint64_t nr_to_read, uint64_t lookahead)
{
	uint64_t end_index;

	if (!s->size)
		return;
	end_index = (s->size - 1) / s->p->page_size;
	if (ractl->index > end_index)
		return;
	if (nr_to_read > end_index - ractl->index)
		nr_to_read = end_index - ractl->index + 1;
	page_cache_ra_unbounded(s, ractl, nr_to_read, lookahead);
}

static void page_cache_ra_order(struct sim *s, struct ractl *ractl,
				unsigned int new_order)
{
	struct ra_state *ra = ractl->ra;
	uint64_t min_nr = 1ull << s->min_order;
	uint64_t index = ractl->index;
	uint64_t limit = (s->size - 1) / s->p->page_size;
	uint64_t mark = index + ra->size - ra->async_size;
	uint64_t min_ra_size = s->pref_order ? min_nr : max_u64(4, min_nr);
	int err = 0;

	if (ra->size < min_ra_size)
		goto fallback;

	limit = min_u64(limit, index + ra->size - 1);
	if (new_order < s->max_order)
		new_order += 2;
	if (new_order > s->max_order)
		new_order = s->max_order;
	if (new_order > ilog2_u64(ra->size))
		new_order = ilog2_u64(ra->size);
	if (new_order < s->min_order)
		new_order = s->min_order;
	/* A window sized for the preferred order gets it (patch 1). */
	new_order =
		max_u64(new_order, min_u64(s->pref_order, ilog2_u64(ra->size)));

	ractl->index = round_down_u64(index, min_nr);
	index = ractl->index;
	while (index <= limit) {
		unsigned int order = new_order;

		if (index & ((1ull << order) - 1))
			order = __builtin_ctzll(index);
		while (order > s->min_order &&
		       index + (1ull << order) - 1 > limit)
			order--;
		/* ra_alloc_folio() */
		err = add_folio(s, index, order,
				index == round_down_u64(mark, 1ull << order));
		if (err)
			break;
		ractl->nr_pages += 1ull << order;
		index += 1ull << order;
	}
	read_pages(ractl);
	if (!err)
		return;
fallback:
	do_page_cache_ra(s, ractl, ra->size, ra->async_size);
}

static uint64_t get_next_ra_size(const struct ra_state *ra, uint64_t max)
{
	if (ra->size < max / 16)
		return 4 * ra->size;
	if (ra->size <= max / 2)
		return 2 * ra->size;
	return max;
}

static uint64_t page_cache_next_miss(const struct sim *s, uint64_t index,
				     uint64_t max_scan)
{
	uint64_t nr = max_scan;

	while (nr--) {
		if (!present(s, index))
			return index;
		index++;
	}
	return index;
}

static void page_cache_async_ra(struct sim *s, struct ractl *ractl,
				uint64_t head, uint64_t req_count)
{
	struct ra_state *ra = ractl->ra;
	uint64_t max_pages = s->p->ra_pages;
	uint64_t index = ractl->index, expected, start;
	unsigned int order = s->order[head];

	s->ra_mark[head] = 0;
	expected = round_down_u64(ra->start + ra->size - ra->async_size,
				  1ull << order);
	if (index == expected) {
		ra->start += ra->size;
		ra->size = max_u64(ra->size, get_next_ra_size(ra, max_pages));
		ra->async_size = ra->size;
	} else {
		start = page_cache_next_miss(s, index + 1, max_pages);
		if (!start || start - index > max_pages)
			return;
		ra->start = start;
		ra->size = start - index + req_count;
		ra->size = get_next_ra_size(ra, max_pages);
		ra->async_size = ra->size;
	}
	ractl->index = ra->start;
	page_cache_ra_order(s, ractl, order);
}

static uint64_t get_init_ra_size(uint64_t size, uint64_t max)
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

/* The first page below @index that is not cached; NO_FOLIO below 0. */
static uint64_t page_cache_prev_miss(const struct sim *s, uint64_t index,
				     uint64_t max_scan)
{
	while (max_scan--) {
		if (!present(s, index))
			break;
		if (!index)
			return NO_FOLIO;
		index--;
	}
	return index;
}

/* page_cache_ra_pref() of the series: whole preferred folios, no mark. */
static void page_cache_ra_pref(struct sim *s, struct ractl *ractl,
			       uint64_t index, uint64_t nr_pages)
{
	uint64_t nr = 1ull << s->pref_order;
	uint64_t start = round_down_u64(index, nr);
	struct ra_state window = {
		.start = start,
		.size = round_down_u64(index + nr_pages + nr - 1, nr) - start,
	};
	struct ractl pref = { .index = start, .ra = &window };

	page_cache_ra_order(s, &pref, s->pref_order);
	ractl->index = pref.index;
}

/* page_cache_sync_ra(): a read(2) or execve(2) missed the cache. */
static void page_cache_sync_ra(struct sim *s, struct ra_state *ra,
			       uint64_t index, uint64_t req_count)
{
	struct ractl ractl = { .index = index, .ra = ra };
	uint64_t max_pages = s->p->ra_pages, miss, contig;

	if (!max_pages) {
		do_page_cache_ra(s, &ractl, req_count, 0);
		return;
	}
	if (!index || req_count > max_pages ||
	    (ra->prev_index != NO_FOLIO && index - ra->prev_index <= 1)) {
		ra->start = index;
		ra->size = get_init_ra_size(req_count, max_pages);
		ra->async_size = ra->size > req_count ? ra->size - req_count :
							ra->size >> 1;
		goto readit;
	}
	miss = page_cache_prev_miss(s, index - 1, max_pages);
	contig = index - miss - 1;
	if (contig <= req_count) {
		/* A small random read, the readahead state left alone. */
		if (s->pref_order)
			page_cache_ra_pref(s, &ractl, index, req_count);
		else
			do_page_cache_ra(s, &ractl, req_count, 0);
		return;
	}
	if (miss == NO_FOLIO)
		contig *= 2;
	ra->start = index;
	ra->size = min_u64(contig + req_count, max_pages);
	ra->async_size = 1;
readit:
	if (s->pref_order) {
		/* Whole preferred folios; the async mark stays inside. */
		uint64_t nr = 1ull << s->pref_order;
		uint64_t end =
			round_down_u64(ra->start + ra->size + nr - 1, nr);

		ra->start = round_down_u64(ra->start, nr);
		ra->size = end - ra->start;
		ra->async_size = min_u64(ra->async_size, ra->size - 1);
	}
	ractl.index = ra->start;
	page_cache_ra_order(s, &ractl, 0);
}

/*
 * do_exec_folio_readahead() of the execfolio series (patch 2): the
 * naturally aligned folio of the preferred order around the fault,
 * bounded to the part of the file the VMA maps, read with a window of its
 * own (no async mark, the file's readahead state untouched).
 */
static void do_exec_folio_readahead(struct sim *s, const struct vma *vma,
				    uint64_t page)
{
	uint64_t nr = 1ull << s->pref_order;
	uint64_t start = round_down_u64(page, nr);
	uint64_t first = max_u64(start, vma->first);
	uint64_t end = min_u64(start + nr, vma->last + 1);
	struct ra_state window = { .start = first, .size = end - first };
	struct ractl ractl = { .index = first, .ra = &window };

	page_cache_ra_order(s, &ractl, s->pref_order);
}

static void do_sync_mmap_readahead(struct sim *s, struct ra_state *ra,
				   uint64_t page, int vma_idx, bool exec)
{
	struct ractl ractl = { .index = page, .ra = ra };
	unsigned int ra_pages = s->p->ra_pages;

	if (exec && s->pref_order && ra_pages) {
		do_exec_folio_readahead(s, &s->vmas[vma_idx], page);
		return;
	}
	if (exec && s->p->mode == EXECFOLIO_SIM_EXEC_ORDER) {
		/* The seed's hook: a fixed order for every exec fault. */
		unsigned int order = s->p->order;

		ra->size = 1ull << order;
		ra->async_size = 0;
		ractl.index = round_down_u64(page, 1ull << order);
		page_cache_ra_order(s, &ractl, order);
		return;
	}
	if (!ra_pages)
		return;
	if (ra->mmap_miss < MMAP_MISS_CAP)
		ra->mmap_miss++;
	if (ra->mmap_miss > EXECFOLIO_SIM_LOTSAMISS)
		return;
	ra->start = page > ra_pages / 2 ? page - ra_pages / 2 : 0;
	ra->size = ra_pages;
	ra->async_size = ra_pages / 4;
	ractl.index = ra->start;
	page_cache_ra_order(s, &ractl, 0);
}

static void do_async_mmap_readahead(struct sim *s, struct ra_state *ra,
				    uint64_t page, bool exec)
{
	struct ractl ractl = { .index = page, .ra = ra };
	uint64_t head = s->head[page];

	if (!s->p->ra_pages)
		return;
	/* Text with a preferred folio order gets no async readahead. */
	if (exec && s->pref_order)
		return;
	if (ra->mmap_miss)
		ra->mmap_miss--;
	if (s->ra_mark[head])
		page_cache_async_ra(s, &ractl, head, s->p->ra_pages);
}

static bool folio_pmd_mappable(const struct sim *s, uint64_t head,
			       const struct vma *vma)
{
	uint64_t nr = 1ull << s->pmd_order;

	return s->order[head] == s->pmd_order && head >= vma->first &&
	       head + nr - 1 <= vma->last &&
	       !((uint64_t)((int64_t)head + vma->delta) & (nr - 1));
}

static bool mapped(const struct sim *s, uint64_t page, int vma)
{
	if ((size_t)vma + 1 == s->nvmas)
		return s->data_mapped[page];
	return s->text_map[page] != NOT_MAPPED;
}

static void map_page(struct sim *s, uint64_t page, int vma_idx)
{
	const struct vma *vma = &s->vmas[vma_idx];
	uint64_t head = s->head[page], i, nr;

	if (mapped(s, page, vma_idx))
		return;
	if ((size_t)vma_idx + 1 == s->nvmas) {
		s->data_mapped[page] = 1;
		return;
	}
	if (!folio_pmd_mappable(s, head, vma)) {
		s->text_map[page] = vma_idx;
		return;
	}
	nr = 1ull << s->pmd_order;
	for (i = head; i < head + nr; i++) {
		s->text_map[i] = vma_idx;
		s->pmd_mapped[i] = 1;
	}
}

/*
 * finish_fault() of the execfolio series (patch 3): a read fault on text
 * with a preferred folio order maps the whole folio when it lies inside
 * the VMA and one page table and none of its pages is mapped yet.
 */
static bool map_whole_folio(struct sim *s, uint64_t page, int vma_idx)
{
	const struct vma *vma = &s->vmas[vma_idx];
	uint64_t head = s->head[page], nr = 1ull << s->order[head], i;
	uint64_t table = 1ull << s->pmd_order;
	uint64_t va = (uint64_t)((int64_t)head + vma->delta);

	if (nr == 1 || head < vma->first || head + nr - 1 > vma->last ||
	    round_down_u64(va, table) != round_down_u64(va + nr - 1, table))
		return false;
	for (i = head; i < head + nr; i++)
		if (mapped(s, i, vma_idx))
			return false;
	if (folio_pmd_mappable(s, head, vma)) {
		map_page(s, page, vma_idx);
		return true;
	}
	for (i = head; i < head + nr; i++)
		s->text_map[i] = vma_idx;
	return true;
}

/* do_fault_around() + filemap_map_pages(): map what is cached nearby. */
static void do_fault_around(struct sim *s, uint64_t page, int vma_idx)
{
	const struct vma *vma = &s->vmas[vma_idx];
	uint64_t nr = s->p->fault_around_pages, table = 1ull << s->pmd_order;
	uint64_t va = page + vma->delta, from, to, q;

	from = max_u64(round_down_u64(va, nr), vma->first + vma->delta);
	from = max_u64(from, round_down_u64(va, table));
	to = min_u64(from + nr, round_down_u64(va, table) + table);
	to = min_u64(to, vma->last + vma->delta + 1);
	for (q = from - vma->delta; q < to - vma->delta; q++) {
		if (q >= s->npages || !present(s, q) || s->ra_mark[s->head[q]])
			continue;
		map_page(s, q, vma_idx);
	}
}

static int find_vma(const struct sim *s, uint64_t page)
{
	size_t i;

	for (i = 0; i + 1 < s->nvmas; i++)
		if (page >= s->vmas[i].first && page <= s->vmas[i].last)
			return i;
	return s->nvmas - 1;
}

static struct ra_state *stream(struct sim *s, uint32_t id)
{
	if (id >= s->nstreams) {
		size_t n = (size_t)id + 16;
		struct ra_state *st = realloc(s->streams, n * sizeof(*st));

		if (!st)
			return NULL;
		memset(st + s->nstreams, 0, (n - s->nstreams) * sizeof(*st));
		for (size_t i = s->nstreams; i < n; i++)
			st[i].prev_index = NO_FOLIO; /* prev_pos = -1 */
		s->streams = st;
		s->nstreams = n;
	}
	return &s->streams[id];
}

static int fault(struct sim *s, const struct execfolio_sim_touch *t)
{
	uint64_t page = t->page, min_nr = 1ull << s->min_order;
	int vma = find_vma(s, page);
	bool exec = (size_t)vma + 1 < s->nvmas;
	struct ra_state *ra = stream(s, t->stream);

	if (!ra)
		return -ENOMEM;
	if (mapped(s, page, vma))
		return 0;
	if (s->p->fault_around_pages > 1) {
		do_fault_around(s, page, vma);
		if (mapped(s, page, vma))
			return 0;
	}
	if (present(s, page)) {
		do_async_mmap_readahead(s, ra, page, exec);
	} else {
		s->r->major_faults++;
		do_sync_mmap_readahead(s, ra, page, vma, exec);
		if (!present(s, page) &&
		    add_folio(s, round_down_u64(page, min_nr), s->min_order,
			      false))
			return -ENOMEM;
	}
	if (exec && s->pref_order && map_whole_folio(s, page, vma))
		return 0;
	map_page(s, page, vma);
	return 0;
}

/*
 * filemap_read() of one page by a system call: sync readahead on a miss
 * (then filemap_create_folio(), a preferred folio if it lies inside the
 * file), async readahead on a marked folio (filemap_readahead()). Nothing
 * is mapped.
 */
static int read_syscall(struct sim *s, const struct execfolio_sim_touch *t)
{
	struct ra_state *ra = stream(s, t->stream);
	uint64_t page = t->page, nr = 1ull << s->pref_order;

	if (!ra)
		return -ENOMEM;
	if (!present(s, page)) {
		page_cache_sync_ra(s, ra, page, 1);
		if (!present(s, page) &&
		    ((round_down_u64(page, nr) + nr) * s->p->page_size >
			     s->size ||
		     add_folio(s, round_down_u64(page, nr), s->pref_order,
			       false)) &&
		    add_folio(s, page, 0, false))
			return -ENOMEM;
	} else if (s->ra_mark[s->head[page]]) {
		uint64_t head = s->head[page];
		struct ractl ractl = { .index = head, .ra = ra };

		page_cache_async_ra(s, &ractl, head, page + 1 - head);
	}
	ra->prev_index = page;
	return 0;
}

static bool text_mapped_via(const struct sim *s, uint64_t page, int vma)
{
	return page < s->nslots && s->text_map[page] == vma;
}

/* The seed's rows, cont-aligned blocks and TLB entries for mapped text. */
static void account(struct sim *s)
{
	struct execfolio_sim_result *r = s->r;
	uint64_t cont = 1ull << s->cont_order, page, i;

	for (page = 0; page < s->nslots;) {
		uint64_t nr, m = 0;
		unsigned int order;
		int vma;
		bool same = true;

		if (s->head[page] == NO_FOLIO) {
			page++;
			continue;
		}
		order = s->order[page];
		nr = 1ull << order;
		vma = s->text_map[page];
		for (i = page; i < page + nr; i++) {
			if (s->text_map[i] != NOT_MAPPED)
				m++;
			if (s->text_map[i] != vma)
				same = false;
		}
		r->text_mapped_pages += m;
		if (!m)
			;
		else if (!order)
			r->aligned[0]++;
		else if (m < nr)
			r->partial += m;
		else if (same &&
			 !((uint64_t)((int64_t)page + s->vmas[vma].delta) &
			   (nr - 1)))
			r->aligned[order] += nr;
		else
			r->unaligned[order] += nr;

		/* contpte: aligned 64K blocks of one folio, wholly mapped */
		if (m && order >= s->cont_order) {
			uint64_t b;

			for (b = page; b < page + nr; b += cont) {
				vma = s->text_map[b];
				if (vma == NOT_MAPPED ||
				    ((uint64_t)((int64_t)b +
						s->vmas[vma].delta) &
				     (cont - 1)))
					continue;
				for (i = b; i < b + cont; i++)
					if (!text_mapped_via(s, i, vma))
						break;
				if (i < b + cont)
					continue;
				r->cont_aligned += cont;
				for (i = b; i < b + cont; i++)
					s->flag[i] |= 2;
			}
		}
		page += nr;
	}

	/* The headline share's denominator, as execfolio stat counts it. */
	for (i = 0; i + 1 < s->nvmas; i++) {
		const struct vma *v = &s->vmas[i];
		uint64_t va = v->first + v->delta, end = v->last + v->delta + 1;
		uint64_t b, q;

		if (v->last < v->first)
			continue;
		for (b = round_down_u64(va + cont - 1, cont); b + cont <= end;
		     b += cont) {
			for (q = b - v->delta; q < b - v->delta + cont; q++)
				if (text_mapped_via(s, q, i))
					break;
			if (q < b - v->delta + cont)
				r->cont_eligible += cont;
		}
	}
	for (page = 0; page < s->nslots; page++)
		r->pmd_mapped += s->pmd_mapped[page];

	/* One entry per PMD, per contpte block, or per page touched. */
	for (page = 0; page < s->npages; page++) {
		uint64_t first;

		if (!(s->flag[page] & 1) || s->text_map[page] == NOT_MAPPED)
			continue;
		if (s->pmd_mapped[page]) {
			first = s->head[page];
			if (!(s->flag[first] & 4))
				r->tlb_pmd++;
			s->flag[first] |= 4;
		} else if (s->flag[page] & 2) {
			first = round_down_u64(page, cont);
			if (!(s->flag[first] & 8))
				r->tlb_contpte++;
			s->flag[first] |= 8;
		} else {
			r->tlb_pte++;
		}
	}
}

static int setup(struct sim *s, const struct execfolio_sim_file *file)
{
	uint32_t ps = s->p->page_size;
	size_t i;

	s->npages = (file->size + ps - 1) / ps;
	s->max_order = execfolio_max_order(ps);
	s->pmd_order = ilog2_u64(ps) - 3;
	s->cont_order = ps < (64u << 10) ? ilog2_u64((64u << 10) / ps) : 0;
	/*
	 * The policy is a preferred order (patch 1): no minimum, and
	 * mapping_pref_folio_order() is 0 unless above the minimum.
	 */
	s->min_order = 0;
	s->pref_order = s->p->mode == EXECFOLIO_SIM_POLICY ? s->p->order : 0;
	if (s->pref_order > s->max_order)
		return -EINVAL;
	s->nslots = s->npages + (1ull << s->max_order);
	s->nslots = round_down_u64(s->nslots, 1ull << s->max_order);

	s->head = malloc(s->nslots * sizeof(*s->head));
	s->text_map = malloc(s->nslots * sizeof(*s->text_map));
	s->order = calloc(s->nslots, 1);
	s->ra_mark = calloc(s->nslots, 1);
	s->data_mapped = calloc(s->nslots, 1);
	s->pmd_mapped = calloc(s->nslots, 1);
	s->flag = calloc(s->nslots, 1);
	s->nvmas = file->nsegs + 1;
	s->vmas = calloc(s->nvmas, sizeof(*s->vmas));
	if (!s->head || !s->text_map || !s->order || !s->ra_mark ||
	    !s->data_mapped || !s->pmd_mapped || !s->flag || !s->vmas)
		return -ENOMEM;
	for (i = 0; i < s->nslots; i++) {
		s->head[i] = NO_FOLIO;
		s->text_map[i] = NOT_MAPPED;
	}
	for (i = 0; i < file->nsegs; i++) {
		const struct execfolio_sim_segment *seg = &file->segs[i];

		if (!seg->filesz) {
			s->vmas[i].first = 1; /* empty */
			continue;
		}
		s->vmas[i].first = seg->offset / ps;
		s->vmas[i].last = (seg->offset + seg->filesz - 1) / ps;
		s->vmas[i].delta = (int64_t)(seg->vaddr / ps) -
				   (int64_t)(seg->offset / ps);
	}
	/* Non-exec accesses: one read-only mapping of the whole file. */
	s->vmas[file->nsegs].first = 0;
	s->vmas[file->nsegs].last = s->npages ? s->npages - 1 : 0;
	return 0;
}

static void teardown(struct sim *s)
{
	free(s->head);
	free(s->text_map);
	free(s->order);
	free(s->ra_mark);
	free(s->data_mapped);
	free(s->pmd_mapped);
	free(s->flag);
	free(s->vmas);
	free(s->streams);
}

int execfolio_sim_run(const struct execfolio_sim_file *file,
		      const struct execfolio_sim_params *params,
		      struct execfolio_sim_result *result)
{
	struct sim s = { .p = params, .r = result, .size = file->size };
	size_t i;
	int ret;

	memset(result, 0, sizeof(*result));
	if (params->page_size < 4096 ||
	    (params->page_size & (params->page_size - 1)))
		return -EINVAL;
	if (params->mode == EXECFOLIO_SIM_EXEC_ORDER &&
	    params->order > execfolio_max_order(params->page_size))
		return -EINVAL;
	if (!file->size)
		return 0;
	ret = setup(&s, file);
	for (i = 0; !ret && i < file->ntouches; i++) {
		const struct execfolio_sim_touch *t = &file->touches[i];

		if (t->page >= s.npages)
			continue;
		if (!(s.flag[t->page] & 1)) {
			s.flag[t->page] |= 1;
			result->touched_pages++;
			if (find_vma(&s, t->page) + 1 < (int)s.nvmas)
				result->text_touched_pages++;
		}
		/*
		 * A page read by a system call in an executable segment: the
		 * loaders then use it through the mapping (ELF and program
		 * headers, symbol tables), a fault the trace cannot see.
		 */
		if (t->syscall) {
			ret = read_syscall(&s, t);
			if (ret || find_vma(&s, t->page) + 1 == (int)s.nvmas)
				continue;
		}
		ret = fault(&s, t);
	}
	if (!ret)
		account(&s);
	teardown(&s);
	return ret;
}

void execfolio_sim_add(struct execfolio_sim_result *total,
		       const struct execfolio_sim_result *r)
{
	unsigned int i;

	total->touched_pages += r->touched_pages;
	total->text_touched_pages += r->text_touched_pages;
	total->text_mapped_pages += r->text_mapped_pages;
	for (i = 0; i < EXECFOLIO_SIM_ORDERS; i++) {
		total->aligned[i] += r->aligned[i];
		total->unaligned[i] += r->unaligned[i];
	}
	total->partial += r->partial;
	total->cont_aligned += r->cont_aligned;
	total->cont_eligible += r->cont_eligible;
	total->pmd_mapped += r->pmd_mapped;
	total->read_bytes += r->read_bytes;
	total->cache_bytes += r->cache_bytes;
	total->major_faults += r->major_faults;
	total->tlb_pte += r->tlb_pte;
	total->tlb_contpte += r->tlb_contpte;
	total->tlb_pmd += r->tlb_pmd;
}

void execfolio_sim_defaults(struct execfolio_sim_params *params,
			    enum execfolio_sim_mode mode, unsigned int order)
{
	params->page_size = 4096;
	params->ra_pages = 32;
	params->fault_around_pages = 16;
	params->mode = mode;
	params->order = order;
}
