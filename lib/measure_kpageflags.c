// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/kpageflags through a cache: entries are fetched in aligned chunks,
 * neighbouring chunks wanted by one mapping are read by a single pread, and
 * a chunk once read is never read again during a measurement.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure_internal.h"

/* At most this many chunks (32 KiB of entries) per pread. */
#define KPF_RUN_MAX 64
/* Read across a hole of up to this many unwanted chunks rather than split. */
#define KPF_RUN_GAP 2

int kpf_cache_init(struct kpf_cache *c, int fd)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	blockmap_init(&c->bm, KPF_CHUNK_ENTRIES * sizeof(uint64_t));
	c->buf_entries = (size_t)KPF_RUN_MAX * KPF_CHUNK_ENTRIES;
	c->buf = malloc(c->buf_entries * sizeof(uint64_t));
	return c->buf ? 0 : -ENOMEM;
}

void kpf_cache_free(struct kpf_cache *c)
{
	blockmap_free(&c->bm);
	free(c->buf);
	c->buf = NULL;
}

/* Read chunks [first, end) into the cache. */
static int read_chunks(struct kpf_cache *c, uint64_t first, uint64_t end)
{
	size_t want =
		(size_t)(end - first) * KPF_CHUNK_ENTRIES * sizeof(uint64_t);
	size_t got = 0;
	uint64_t key;

	while (got < want) {
		ssize_t n = pread(
			c->fd, (char *)c->buf + got, want - got,
			(off_t)(first * KPF_CHUNK_ENTRIES * sizeof(uint64_t) +
				got));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break; /* past the highest PFN: no flags */
		got += (size_t)n;
	}
	c->nr_preads++;
	memset((char *)c->buf + got, 0, want - got);
	for (key = first; key < end; key++) {
		uint64_t *chunk;

		if (blockmap_find(&c->bm, key))
			continue;
		chunk = blockmap_get(&c->bm, key);
		if (!chunk)
			return -ENOMEM;
		memcpy(chunk, c->buf + (key - first) * KPF_CHUNK_ENTRIES,
		       KPF_CHUNK_ENTRIES * sizeof(uint64_t));
	}
	return 0;
}

int kpf_flush(struct kpf_cache *c)
{
	int ret = 0;

	if (c->run_end > c->run_start)
		ret = read_chunks(c, c->run_start, c->run_end);
	c->run_start = c->run_end = 0;
	return ret;
}

int kpf_want(struct kpf_cache *c, uint64_t pfn)
{
	uint64_t key = pfn >> KPF_CHUNK_SHIFT, start, end;
	int ret;

	if (c->run_end > c->run_start) {
		if (key >= c->run_start && key < c->run_end)
			return 0;
		start = key < c->run_start ? key : c->run_start;
		end = key >= c->run_end ? key + 1 : c->run_end;
		if (key + KPF_RUN_GAP >= c->run_start &&
		    key <= c->run_end + KPF_RUN_GAP &&
		    end - start <= KPF_RUN_MAX) {
			c->run_start = start;
			c->run_end = end;
			return 0;
		}
	}
	if (blockmap_find(&c->bm, key))
		return 0;
	ret = kpf_flush(c);
	c->run_start = key;
	c->run_end = key + 1;
	return ret;
}

int kpf_get(struct kpf_cache *c, uint64_t pfn, uint64_t *flags)
{
	uint64_t key = pfn >> KPF_CHUNK_SHIFT;
	const uint64_t *chunk = blockmap_find(&c->bm, key);
	int ret;

	if (!chunk) {
		ret = read_chunks(c, key, key + 1);
		if (ret)
			return ret;
		chunk = blockmap_find(&c->bm, key);
	}
	*flags = chunk[pfn & (KPF_CHUNK_ENTRIES - 1)];
	return 0;
}
