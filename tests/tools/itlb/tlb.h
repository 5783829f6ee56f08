/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One level of a translation lookaside buffer: sets of ways holding
 * translations of several sizes, tagged with an address space (ASID or
 * PCID) unless global, replaced least recently used first.
 *
 * A lookup probes, for each size the level holds, the set that the
 * address indexes at that size (the set of a translation is its virtual
 * page number at its own size, modulo the number of sets); a fully
 * associative level has one set.  A translation larger than any size the
 * level holds is stored as the largest held size that contains the
 * address looked up, the way the Arm TRMs describe their TLBs breaking
 * down larger blocks.  Real replacement policies are not published: LRU
 * is this model's assumption.
 */
#ifndef ITLB_TLB_H
#define ITLB_TLB_H

#include <stdbool.h>
#include <stdint.h>

/* The sizes a level can hold, as log2 of bytes, smallest first. */
#define TLB_MAX_SIZES 6

struct tlb_entry {
	uint64_t vbase; /* virtual address of the translation, aligned */
	uint64_t pbase; /* its physical address */
	uint64_t last_use; /* the level's clock at its last hit or fill */
	uint16_t asid;
	uint8_t shift; /* log2 of its size */
	bool global;
	bool valid;
};

struct tlb_geometry {
	const char *name;
	unsigned int entries;
	unsigned int ways; /* == entries: fully associative */
	unsigned int nsizes;
	uint8_t shifts[TLB_MAX_SIZES]; /* the sizes held, smallest first */
};

struct tlb {
	struct tlb_geometry geo;
	unsigned int sets;
	uint64_t clock;
	struct tlb_entry *entries; /* sets * ways, set by set */
};

/* What a walk found: the translation the hardware would cache. */
struct tlb_translation {
	uint64_t vbase;
	uint64_t pbase;
	uint16_t asid;
	uint8_t shift;
	bool global;
};

/*
 * Sets @tlb up for @geo (entries a multiple of ways, the number of sets a
 * power of two, at least one size).  Returns 0, or -EINVAL for a
 * geometry it cannot model, -ENOMEM.
 */
int tlb_init(struct tlb *tlb, const struct tlb_geometry *geo);
void tlb_destroy(struct tlb *tlb);

/*
 * Looks @va up for address space @asid.  On a hit, the entry becomes the
 * most recently used and, when @out is not NULL, is copied there.
 */
bool tlb_lookup(struct tlb *tlb, uint64_t va, uint16_t asid,
		struct tlb_translation *out);

/*
 * Stores @t, covering @va, replacing the least recently used way of its
 * set (an invalid one first).  Stored as the largest held size that fits.
 */
void tlb_fill(struct tlb *tlb, const struct tlb_translation *t, uint64_t va);

/* Invalidation, as TLB maintenance instructions ask for it. */
void tlb_flush_all(struct tlb *tlb);
/* Every non-global entry of @asid. */
void tlb_flush_asid(struct tlb *tlb, uint16_t asid);
/* Every entry covering @va: of @asid and global ones, or of any space. */
void tlb_flush_va(struct tlb *tlb, uint64_t va, uint16_t asid, bool any_asid);
/* The non-global entries of @asid covering @va (global ones stay). */
void tlb_flush_va_nonglobal(struct tlb *tlb, uint64_t va, uint16_t asid);
/*
 * Every entry overlapping [@start, @end): of @asid and global ones, or of
 * any address space.
 */
void tlb_flush_range(struct tlb *tlb, uint64_t start, uint64_t end,
		     uint16_t asid, bool any_asid);
/* Every non-global entry, in every address space. */
void tlb_flush_nonglobal(struct tlb *tlb);

/* The number of valid entries (for tests and reports). */
unsigned int tlb_occupancy(const struct tlb *tlb);

#endif
