// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cores modelled and a fetch through their two TLB levels (core.h).
 *
 * Neoverse N1: Arm Neoverse N1 Core Technical Reference Manual (Arm
 * document 100616), "TLB organization": a 48-entry fully associative L1
 * instruction TLB caching 4KB, 16KB, 64KB, 2MB and 32MB translations; a
 * 1280-entry 5-way set-associative L2 TLB shared by instructions and
 * data, holding every block size up to 1GB, whose access "usually takes
 * three cycles".
 *
 * Zen 4: Software Optimization Guide for the AMD Zen4 Microarchitecture
 * (AMD publication 57647), "Translation-Lookaside Buffer": a 64-entry
 * fully associative L1 instruction TLB for every page size; a 512-entry
 * 8-way L2 instruction TLB for 4KB and 2MB pages (1GB pages held as 2MB
 * entries).  Instruction misses of its L1 go to that L2 instruction
 * TLB, not to the unified data-side L2 TLB.  The 16KB entries of the L1
 * are the coalesced runs of four 4KB pages (walk_x86_64.c says when).
 *
 * 5 ways of 1280 entries give 256 sets, a power of two.  Neither
 * document gives the cost of a walk: each descriptor read is counted at
 * the latency of the core's L2 cache (N1 TRM: 9 to 11 cycles; Zen 4
 * guide: 14 cycles), assuming the descriptors are cached there.  Zen 4's
 * L2 instruction TLB hit latency is not published either: 7 cycles is
 * this model's assumption.
 */
#include <errno.h>
#include <string.h>

#include "core.h"

const struct core_desc core_descs[] = {
	{
		.name = "neoverse-n1",
		.l1 = { "L1 iTLB", 48, 48, 5, { 12, 14, 16, 21, 25 } },
		.l2 = { "L2 TLB", 1280, 5, 6, { 12, 14, 16, 21, 25, 30 } },
		.l2_hit_cycles = 3,
		.walk_read_cycles = 11,
		.source = "Arm Neoverse N1 TRM (100616), TLB organization",
	},
	{
		.name = "zen4",
		.l1 = { "L1 iTLB", 64, 64, 4, { 12, 14, 21, 30 } },
		.l2 = { "L2 iTLB", 512, 8, 2, { 12, 21 } },
		.l2_hit_cycles = 7,
		.walk_read_cycles = 14,
		.source = "AMD Zen4 Software Optimization Guide (57647), TLBs",
	},
};

const unsigned int core_desc_count = sizeof(core_descs) / sizeof(core_descs[0]);

const struct core_desc *core_desc_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < core_desc_count; i++)
		if (!strcmp(core_descs[i].name, name))
			return &core_descs[i];
	return NULL;
}

int core_model_init(struct core_model *m, const struct core_desc *desc)
{
	int err;

	memset(m, 0, sizeof(*m));
	m->desc = desc;
	err = tlb_init(&m->l1, &desc->l1);
	if (err)
		return err;
	err = tlb_init(&m->l2, &desc->l2);
	if (err)
		tlb_destroy(&m->l1);
	return err;
}

void core_model_destroy(struct core_model *m)
{
	tlb_destroy(&m->l1);
	tlb_destroy(&m->l2);
}

struct fetch_result core_fetch(struct core_model *m, uint64_t va, uint16_t asid,
			       core_walk_fn walk, void *ctx)
{
	struct fetch_result r = { FETCH_L1_HIT, 0, 0 };
	struct tlb_translation t;
	unsigned int reads = 0;

	if (tlb_lookup(&m->l1, va, asid, NULL))
		return r;
	r.cycles = m->desc->l2_hit_cycles;
	if (tlb_lookup(&m->l2, va, asid, &t)) {
		r.outcome = FETCH_L2_HIT;
		tlb_fill(&m->l1, &t, va);
		return r;
	}
	r.error = walk(ctx, va, &t, &reads);
	if (r.error) {
		r.outcome = FETCH_UNWALKABLE;
		r.cycles = 0;
		return r;
	}
	r.outcome = FETCH_WALK;
	r.cycles += (uint64_t)reads * m->desc->walk_read_cycles;
	tlb_fill(&m->l2, &t, va);
	tlb_fill(&m->l1, &t, va);
	return r;
}
