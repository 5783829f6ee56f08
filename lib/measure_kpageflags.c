// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/kpageflags through a cache. The kernel does real work for every
 * entry read (about 0.26us each on 6.18, against 0.45us for a whole
 * one-entry pread), so reading the flags of every mapped page would cost
 * 8.6ms per 128 MiB of text: entries are read one at a time, only those
 * the folio walk asks for, and never twice.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure_internal.h"

struct kpf_chunk {
	uint64_t valid; /* bit i: flags[i] has been read */
	uint64_t flags[KPF_CHUNK_ENTRIES];
};

int kpf_cache_init(struct kpf_cache *c, int fd)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	blockmap_init(&c->bm, sizeof(struct kpf_chunk));
	return 0;
}

void kpf_cache_free(struct kpf_cache *c)
{
	blockmap_free(&c->bm);
}

int kpf_get(struct kpf_cache *c, uint64_t pfn, uint64_t *flags)
{
	struct kpf_chunk *chunk = blockmap_get(&c->bm, pfn >> KPF_CHUNK_SHIFT);
	unsigned int i = pfn & (KPF_CHUNK_ENTRIES - 1);
	ssize_t n;

	if (!chunk)
		return -ENOMEM;
	if (!(chunk->valid & (1ULL << i))) {
		do {
			n = pread(c->fd, &chunk->flags[i], sizeof(uint64_t),
				  (off_t)(pfn * sizeof(uint64_t)));
		} while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
		c->nr_preads++;
		/* Past the highest PFN there is no page and no flag. */
		if (n != sizeof(uint64_t))
			chunk->flags[i] = 0;
		chunk->valid |= 1ULL << i;
	}
	*flags = chunk->flags[i];
	return 0;
}

int kpf_read_run(struct kpf_cache *c, uint64_t pfn, size_t nr)
{
	uint64_t buf[KPF_RUN_MAX];
	size_t got, i;
	ssize_t n;

	if (nr > KPF_RUN_MAX)
		nr = KPF_RUN_MAX;
	do {
		n = pread(c->fd, buf, nr * sizeof(uint64_t),
			  (off_t)(pfn * sizeof(uint64_t)));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	c->nr_preads++;
	got = (size_t)n / sizeof(uint64_t);
	for (i = 0; i < nr; i++) {
		struct kpf_chunk *chunk =
			blockmap_get(&c->bm, (pfn + i) >> KPF_CHUNK_SHIFT);
		unsigned int e = (pfn + i) & (KPF_CHUNK_ENTRIES - 1);

		if (!chunk)
			return -ENOMEM;
		chunk->flags[e] = i < got ? buf[i] : 0;
		chunk->valid |= 1ULL << e;
	}
	return 0;
}

bool kpf_cached(const struct kpf_cache *c, uint64_t pfn)
{
	const struct kpf_chunk *chunk =
		blockmap_find(&c->bm, pfn >> KPF_CHUNK_SHIFT);

	return chunk &&
	       (chunk->valid & (1ULL << (pfn & (KPF_CHUNK_ENTRIES - 1))));
}

int kpf_folio_end(struct kpf_cache *c, uint64_t pfn, uint64_t *end)
{
	unsigned int order;
	uint64_t next, flags;
	int ret;

	/*
	 * Folios are naturally aligned: the one holding @pfn ends at the
	 * first boundary align_up(pfn + 1, 2^order) whose page is not one of
	 * its tails, and that boundary is met by trying orders upwards.
	 */
	for (order = 0; order <= EXECFOLIO_MAX_ORDER + 2; order++) {
		next = ((pfn >> order) + 1) << order;
		ret = kpf_get(c, next, &flags);
		if (ret)
			return ret;
		if (!(flags & KPF_COMPOUND_TAIL)) {
			*end = next;
			return 0;
		}
	}
	*end = pfn + 1; /* larger than any folio: treat as a single page */
	return 0;
}
