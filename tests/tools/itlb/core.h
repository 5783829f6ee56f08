/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The instruction-side TLBs of one core: an L1 instruction TLB backed
 * by an L2 TLB, with published sizes and associativity (core.c gives the
 * sources), and what a fetch costs when it misses.
 */
#ifndef ITLB_CORE_H
#define ITLB_CORE_H

#include <stdint.h>

#include "tlb.h"

struct core_desc {
	const char *name;
	struct tlb_geometry l1; /* the L1 instruction TLB */
	struct tlb_geometry l2; /* the L2 TLB that L1 misses go to */
	unsigned int l2_hit_cycles; /* an L1 miss that hits in L2 */
	unsigned int walk_read_cycles; /* each descriptor read of a walk */
	const char *source; /* where the numbers come from */
};

/* The cores modelled, and the one named @name (NULL: none). */
extern const struct core_desc core_descs[];
extern const unsigned int core_desc_count;
const struct core_desc *core_desc_find(const char *name);

struct core_model {
	const struct core_desc *desc;
	struct tlb l1;
	struct tlb l2;
};

enum fetch_outcome {
	FETCH_L1_HIT,
	FETCH_L2_HIT, /* an L1 instruction TLB miss */
	FETCH_WALK, /* an L2 TLB miss too */
	FETCH_UNWALKABLE, /* the walk could not be done: nothing cached */
};

/*
 * Finds the translation of @va for @asid on a miss: fills @t and the
 * number of descriptors read, returns 0, or a negative errno when the
 * walk cannot be done.
 */
typedef int (*core_walk_fn)(void *ctx, uint64_t va, struct tlb_translation *t,
			    unsigned int *reads);

struct fetch_result {
	enum fetch_outcome outcome;
	uint64_t cycles; /* modelled cycles of the miss, 0 for an L1 hit */
	int error; /* FETCH_UNWALKABLE: what the walk returned */
};

int core_model_init(struct core_model *m, const struct core_desc *desc);
void core_model_destroy(struct core_model *m);

/* One instruction fetch of the page holding @va in address space @asid. */
struct fetch_result core_fetch(struct core_model *m, uint64_t va, uint16_t asid,
			       core_walk_fn walk, void *ctx);

#endif
