// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Readahead/folio simulator: replays a trace of first page touches through
 * a model of the fault, readahead and fault-around paths of Linux 7.3
 * (simulate_73.c) or 6.12 (simulate_612.c), built on the steps the two
 * kernels share (simulate_readahead.c, simulate_fault.c); here the replay
 * and the accounting. See include/execfolio/simulate.h for what is left
 * out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <execfolio/policy.h>
#include <execfolio/simulate.h>

#include "simulate_internal.h"

struct ra_state *sim_stream(struct sim *s, uint32_t id)
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

static bool text_mapped_via(const struct sim *s, uint64_t page, int vma)
{
	return page < s->nslots && sim_page(s, page)->text_map == vma;
}

/*
 * The rows of the option-one table (DESIGN.md section 1) and the
 * cont-aligned blocks of the folios of a chunk.
 */
static void account_folios(struct sim *s, uint64_t first, uint64_t end)
{
	struct execfolio_sim_result *r = s->r;
	uint64_t cont = 1ull << s->cont_order, page, i;

	for (page = first; page < end;) {
		const struct sim_page *head = sim_page(s, page);
		uint64_t nr, m = 0;
		unsigned int order;
		int vma;
		bool same = true;

		if (head->head == NO_FOLIO) {
			page++;
			continue;
		}
		order = head->order;
		nr = 1ull << order;
		vma = head->text_map;
		for (i = page; i < page + nr; i++) {
			int32_t map = sim_page(s, i)->text_map;

			if (map != NOT_MAPPED)
				m++;
			if (map != vma)
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
				vma = sim_page(s, b)->text_map;
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
					sim_page_w(s, i)->flag |= 2;
			}
		}
		page += nr;
	}
}

/*
 * The headline share's denominator, as execfolio stat counts it: the
 * 64K-aligned virtual blocks wholly inside a segment with a page mapped
 * through it, found from the mapped pages (ascending) of a chunk; *@last
 * is the block counted last in segment @i.
 */
static void account_eligible(struct sim *s, size_t i, uint64_t first,
			     uint64_t end, uint64_t *last)
{
	const struct vma *v = &s->vmas[i];
	uint64_t cont = 1ull << s->cont_order;
	uint64_t va = v->first + v->delta, vend = v->last + v->delta + 1;
	uint64_t lo = round_up_u64(va, cont), q, b;

	if (v->last < v->first)
		return;
	for (q = max_u64(first, v->first); q < end && q <= v->last; q++) {
		if (!text_mapped_via(s, q, (int)i))
			continue;
		b = round_down_u64(q + v->delta, cont);
		if (b < lo || b + cont > vend || b == *last)
			continue;
		s->r->cont_eligible += cont;
		*last = b;
	}
}

/* One entry per PMD, per contpte block, or per page touched. */
static void account_tlb(struct sim *s, uint64_t first, uint64_t end)
{
	struct execfolio_sim_result *r = s->r;
	uint64_t cont = 1ull << s->cont_order, page, head;

	for (page = first; page < end && page < s->npages; page++) {
		const struct sim_page *pg = sim_page(s, page);

		if (!(pg->flag & 1) || pg->text_map == NOT_MAPPED)
			continue;
		if (pg->pmd_mapped) {
			head = pg->head;
			if (!(sim_page(s, head)->flag & 4))
				r->tlb_pmd++;
			sim_page_w(s, head)->flag |= 4;
		} else if (pg->flag & 2) {
			head = round_down_u64(page, cont);
			if (!(sim_page(s, head)->flag & 8))
				r->tlb_contpte++;
			sim_page_w(s, head)->flag |= 8;
		} else {
			r->tlb_pte++;
		}
	}
}

/*
 * The table's rows, cont-aligned blocks and TLB entries for mapped text,
 * over the chunks the replay wrote, in file order: pages no step wrote are
 * neither cached nor mapped.
 */
static int account(struct sim *s)
{
	uint64_t chunk = 1ull << s->pages->chunk_order, *keys, *last, page;
	size_t nr, k, i;

	if (sim_pages_chunks(s->pages, &keys, &nr))
		return -ENOMEM;
	last = malloc(s->nvmas * sizeof(*last));
	if (!last) {
		free(keys);
		return -ENOMEM;
	}
	for (i = 0; i < s->nvmas; i++)
		last[i] = NO_FOLIO;
	for (k = 0; k < nr; k++) {
		uint64_t first = keys[k] * chunk, end = first + chunk;

		account_folios(s, first, end);
		for (i = 0; i + 1 < s->nvmas; i++)
			account_eligible(s, i, first, end, &last[i]);
		for (page = first; page < end && page < s->nslots; page++)
			s->r->pmd_mapped += sim_page(s, page)->pmd_mapped;
	}
	for (k = 0; k < nr; k++)
		account_tlb(s, keys[k] * chunk, keys[k] * chunk + chunk);
	free(last);
	free(keys);
	return s->pages->nomem ? -ENOMEM : 0;
}

static int setup(struct sim *s, const struct execfolio_sim_file *file)
{
	uint32_t ps = s->p->page_size;
	size_t i;

	s->npages = (file->size + ps - 1) / ps;
	s->max_order = execfolio_max_order(ps);
	s->pmd_order = execfolio_ilog2(ps) - 3;
	s->cont_order = ps < (64u << 10) ? execfolio_ilog2((64u << 10) / ps) :
					   0;
	/*
	 * The policy is a preferred order (the series'
	 * mapping_set_folio_pref_order(), not a minimum order): no minimum,
	 * and mapping_pref_folio_order() is 0 unless above the minimum. On 7.3
	 * an explicit order 0 still replaces exec_folio_order().
	 */
	s->min_order = 0;
	s->has_pref = s->p->mode == EXECFOLIO_SIM_POLICY;
	s->pref_order = s->has_pref ? s->p->order : 0;
	if (s->pref_order > s->max_order)
		return -EINVAL;
	s->exec_order = s->p->mode == EXECFOLIO_SIM_EXEC_ORDER ?
				s->p->order :
				execfolio_sim_arch_exec_order(s->p->arch, ps);
	s->nslots = s->npages + (1ull << s->max_order);
	s->nslots = round_down_u64(s->nslots, 1ull << s->max_order);

	/* A chunk holds the largest folio and a contpte block. */
	sim_pages_init(s->pages, max_u64(s->max_order, s->cont_order));
	s->nvmas = file->nsegs + 1;
	s->vmas = calloc(s->nvmas, sizeof(*s->vmas));
	if (!s->vmas)
		return -ENOMEM;
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
	sim_pages_free(s->pages);
	free(s->vmas);
	free(s->streams);
}

int execfolio_sim_run(const struct execfolio_sim_file *file,
		      const struct execfolio_sim_params *params,
		      struct execfolio_sim_result *result)
{
	struct sim_pages pages = { 0 };
	struct sim s = {
		.p = params, .r = result, .size = file->size, .pages = &pages
	};
	size_t i;
	int ret;

	memset(result, 0, sizeof(*result));
	if (params->page_size < 4096 ||
	    (params->page_size & (params->page_size - 1)))
		return -EINVAL;
	if (params->kernel != EXECFOLIO_SIM_KERNEL_7_3 &&
	    params->kernel != EXECFOLIO_SIM_KERNEL_6_12)
		return -EINVAL;
	if (params->arch != EXECFOLIO_SIM_ARCH_NATIVE &&
	    params->arch != EXECFOLIO_SIM_ARCH_ARM64 &&
	    params->arch != EXECFOLIO_SIM_ARCH_X86_64)
		return -EINVAL;
	if (params->mode == EXECFOLIO_SIM_EXEC_ORDER &&
	    params->order > execfolio_max_order(params->page_size))
		return -EINVAL;
	if (!file->size)
		return 0;
	/*
	 * The 6.12 backport carries the 7.3 series and the upstream read
	 * paths it builds on: a policy on 6.12 takes 7.3's paths.
	 */
	s.kernel = &sim_kernel_612;
	if (params->kernel == EXECFOLIO_SIM_KERNEL_7_3 ||
	    params->mode == EXECFOLIO_SIM_POLICY)
		s.kernel = &sim_kernel_73;
	ret = setup(&s, file);
	for (i = 0; !ret && i < file->ntouches; i++) {
		const struct execfolio_sim_touch *t = &file->touches[i];

		if (t->page >= s.npages)
			continue;
		if (!(sim_page(&s, t->page)->flag & 1)) {
			sim_page_w(&s, t->page)->flag |= 1;
			result->touched_pages++;
			if (!sim_is_data_vma(&s, sim_find_vma(&s, t->page)))
				result->text_touched_pages++;
		}
		/*
		 * A page read by a system call in an executable segment: the
		 * loaders then use it through the mapping (ELF and program
		 * headers, symbol tables), a fault the trace cannot see.
		 */
		if (t->syscall) {
			ret = sim_read(&s, t);
			if (ret ||
			    sim_is_data_vma(&s, sim_find_vma(&s, t->page)))
				continue;
		}
		ret = sim_fault(&s, t);
		if (!ret && pages.nomem)
			ret = -ENOMEM;
	}
	if (!ret)
		ret = account(&s);
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
	params->kernel = EXECFOLIO_SIM_KERNEL_7_3;
	params->arch = EXECFOLIO_SIM_ARCH_NATIVE;
}

static const char *const kernel_names[] = {
	[EXECFOLIO_SIM_KERNEL_7_3] = "7.3",
	[EXECFOLIO_SIM_KERNEL_6_12] = "6.12",
};

const char *execfolio_sim_kernel_name(enum execfolio_sim_kernel kernel)
{
	if ((unsigned int)kernel >=
	    sizeof(kernel_names) / sizeof(*kernel_names))
		return "?";
	return kernel_names[kernel];
}

int execfolio_sim_kernel_parse(const char *name,
			       enum execfolio_sim_kernel *kernel)
{
	unsigned int k;

	for (k = 0; k < sizeof(kernel_names) / sizeof(*kernel_names); k++) {
		if (!strcmp(name, kernel_names[k])) {
			*kernel = (enum execfolio_sim_kernel)k;
			return 0;
		}
	}
	return -EINVAL;
}

enum execfolio_sim_arch execfolio_sim_arch_resolve(enum execfolio_sim_arch arch)
{
	if (arch != EXECFOLIO_SIM_ARCH_NATIVE)
		return arch;
#ifdef __aarch64__
	return EXECFOLIO_SIM_ARCH_ARM64;
#else
	return EXECFOLIO_SIM_ARCH_X86_64;
#endif
}

const char *execfolio_sim_arch_name(enum execfolio_sim_arch arch)
{
	switch (execfolio_sim_arch_resolve(arch)) {
	case EXECFOLIO_SIM_ARCH_ARM64:
		return "arm64";
	case EXECFOLIO_SIM_ARCH_X86_64:
		return "x86_64";
	case EXECFOLIO_SIM_ARCH_NATIVE:
		break;
	}
	return "?";
}

int execfolio_sim_arch_parse(const char *name, enum execfolio_sim_arch *arch)
{
	if (!strcmp(name, "arm64"))
		*arch = EXECFOLIO_SIM_ARCH_ARM64;
	else if (!strcmp(name, "x86_64"))
		*arch = EXECFOLIO_SIM_ARCH_X86_64;
	else
		return -EINVAL;
	return 0;
}

unsigned int execfolio_sim_arch_exec_order(enum execfolio_sim_arch arch,
					   uint32_t page_size)
{
	/* arm64: ilog2(SZ_64K >> PAGE_SHIFT), there only for pages <= 64K */
	if (execfolio_sim_arch_resolve(arch) != EXECFOLIO_SIM_ARCH_ARM64 ||
	    page_size > (64u << 10))
		return 0;
	return execfolio_ilog2((64u << 10) / page_size);
}
