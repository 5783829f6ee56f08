/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parts of the folio measurement: a sparse map from 64-bit keys to
 * fixed-size blocks (under both the kpageflags cache and the set of
 * physical pages already counted), the kpageflags cache, the smaps parser
 * and the per-mapping folio accounting.
 */
#ifndef EXECFOLIO_MEASURE_INTERNAL_H
#define EXECFOLIO_MEASURE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <execfolio/measure.h>

/* /proc/PID/pagemap and /proc/kpageflags bits (Documentation/admin-guide/mm/pagemap.rst). */
#define PM_PRESENT (1ULL << 63)
#define PM_PFN_MASK ((1ULL << 55) - 1)
#define KPF_ANON (1ULL << 12)
#define KPF_COMPOUND_HEAD (1ULL << 15)
#define KPF_COMPOUND_TAIL (1ULL << 16)
#define KPF_THP (1ULL << 22)

/*
 * Open-addressing hash from a key to a zeroed block of @block_size bytes.
 * Physical memory is sparse and page-cache pages are scattered over it, so
 * a flat array indexed by PFN would be as large as the highest PFN; this
 * grows with the blocks actually touched.
 */
struct blockmap {
	size_t block_size;
	size_t nr_slots; /* power of two */
	size_t nr_used;
	uint64_t *keys; /* key + 1; 0 is an empty slot */
	uint32_t *index; /* block number in @blocks */
	unsigned char *blocks;
	size_t nr_blocks, max_blocks;
};

void blockmap_init(struct blockmap *bm, size_t block_size);
void blockmap_free(struct blockmap *bm);
/* The block of @key, or NULL. */
void *blockmap_find(const struct blockmap *bm, uint64_t key);
/* The block of @key, created zeroed if new; NULL when out of memory. */
void *blockmap_get(struct blockmap *bm, uint64_t key);

/* The set of physical pages already counted, one bit per PFN. */
struct pfnset {
	struct blockmap bm;
};

void pfnset_init(struct pfnset *set);
void pfnset_free(struct pfnset *set);
bool pfnset_test(const struct pfnset *set, uint64_t pfn);
/* Returns -ENOMEM or 0. */
int pfnset_add(struct pfnset *set, uint64_t pfn);
void pfnset_clear(struct pfnset *set, uint64_t pfn);

/*
 * /proc/kpageflags through a cache of the entries read so far. The tail
 * pages of a folio share its flags, so the folio walk reads one entry per
 * folio plus a few to find where the folio ends.
 */
struct kpf_cache {
	int fd;
	struct blockmap bm; /* chunks of KPF_CHUNK_ENTRIES entries */
	uint64_t nr_preads; /* for tests and benchmarks */
};

#define KPF_CHUNK_SHIFT 6
#define KPF_CHUNK_ENTRIES (1U << KPF_CHUNK_SHIFT)

int kpf_cache_init(struct kpf_cache *c, int fd);
void kpf_cache_free(struct kpf_cache *c);
/* Flags of @pfn; 0 past the last PFN. Returns 0 or a negative errno. */
int kpf_get(struct kpf_cache *c, uint64_t pfn, uint64_t *flags);
/*
 * Read the flags of @nr (at most KPF_RUN_MAX) consecutive PFNs in one
 * pread: pages that are physically contiguous but not one folio (small
 * pages allocated in a row) would otherwise cost a pread each.
 */
#define KPF_RUN_MAX 32
int kpf_read_run(struct kpf_cache *c, uint64_t pfn, size_t nr);
bool kpf_cached(const struct kpf_cache *c, uint64_t pfn);
/* The PFN after the end of the compound page (folio) holding @pfn. */
int kpf_folio_end(struct kpf_cache *c, uint64_t pfn, uint64_t *end);

/* One executable file mapping, from smaps. */
struct exec_vma {
	uint64_t start, end;
	uint64_t rss_kb, anon_kb, pmd_mapped_kb;
	char *path; /* the name field of smaps, "" when empty; allocated */
};

/*
 * Executable file mappings (x permission and an inode) of an smaps file,
 * in address order. Returns 0 or a negative errno.
 */
int smaps_read_exec_vmas(int fd, struct exec_vma **vmas, size_t *nr);
void smaps_free_exec_vmas(struct exec_vma *vmas, size_t nr);

/*
 * The pages of one mapping: pagemap entry and kpageflags (0 when not
 * present) of each, and whether its PFN was not counted before.
 */
struct vma_pages {
	uint64_t start_vfn;
	size_t nr;
	const uint64_t *pm;
	const uint64_t *flags;
	const bool *is_new;
	/* kpageflags of the page after each present PFN, see folio_account. */
	struct kpf_cache *kpf;
	uint64_t pmd_mapped_pages;
};

/* Accumulate one mapping's pages into @st (bytes). */
int folio_account(const struct vma_pages *v, struct execfolio_stat *st);

#endif /* EXECFOLIO_MEASURE_INTERNAL_H */
