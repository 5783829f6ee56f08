/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A synthetic proc tree for the folio measurement tests: kpageflags, and
 * per process smaps and pagemap, written to a temporary directory.
 */
#ifndef EXECFOLIO_MEASURE_FIXTURE_H
#define EXECFOLIO_MEASURE_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MFX_MAX_PROCS 4
#define MFX_MAX_VMAS 16

struct mfx_vma {
	uint64_t start_vfn, end_vfn;
	char perms[5];
	unsigned long inode;
	uint64_t pmd_mapped_kb;
	char path[64]; /* smaps' name field of a file mapping */
};

struct mfx_proc {
	int pid;
	uint64_t *pagemap; /* entry per virtual page */
	struct mfx_vma vmas[MFX_MAX_VMAS];
	size_t nr_vmas;
};

struct mfx {
	char root[64];
	uint64_t page_size;
	uint64_t *kpf; /* flags per PFN */
	size_t nr_pfns, nr_vfns;
	struct mfx_proc procs[MFX_MAX_PROCS];
	size_t nr_procs;
};

/* A tree with @nr_pfns physical and @nr_vfns virtual pages per process. */
void mfx_init(struct mfx *f, uint64_t page_size, size_t nr_pfns,
	      size_t nr_vfns);
void mfx_cleanup(struct mfx *f);
/*
 * kpageflags of a folio of 2^@order pages at @pfn: head and tails for a
 * large folio (flagged THP unless @extra says otherwise), plus @extra.
 */
void mfx_folio(struct mfx *f, uint64_t pfn, unsigned int order, uint64_t extra);
struct mfx_proc *mfx_proc(struct mfx *f, int pid);
void mfx_vma(struct mfx_proc *p, uint64_t start_vfn, uint64_t end_vfn,
	     const char *perms, unsigned long inode, uint64_t pmd_mapped_kb);
/* Name the file of the last mapping added (default "/usr/bin/prog"). */
void mfx_vma_path(struct mfx_proc *p, const char *path);
/* Map @nr pages from @vfn to consecutive PFNs from @pfn (present). */
void mfx_map(struct mfx_proc *p, uint64_t vfn, uint64_t pfn, size_t nr);
/* Write kpageflags and every process's smaps (Rss from pagemap) and pagemap. */
void mfx_write(struct mfx *f);

#define MFX_KPF_ANON (1ULL << 12)
#define MFX_KPF_HEAD (1ULL << 15)
#define MFX_KPF_TAIL (1ULL << 16)
#define MFX_KPF_THP (1ULL << 22)
#define MFX_NOT_THP (1ULL << 63) /* for mfx_folio: a large folio off the LRU */

#endif /* EXECFOLIO_MEASURE_FIXTURE_H */
