// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sparse map from 64-bit keys to fixed-size blocks, and on top of it the
 * set of physical pages already counted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "measure_internal.h"

#define PFNSET_BLOCK_BITS 32768 /* 4 KiB of bits: 128 MiB of 4K pages */

void blockmap_init(struct blockmap *bm, size_t block_size)
{
	memset(bm, 0, sizeof(*bm));
	bm->block_size = block_size;
}

void blockmap_free(struct blockmap *bm)
{
	free(bm->keys);
	free(bm->index);
	free(bm->blocks);
	blockmap_init(bm, bm->block_size);
}

static size_t slot_of(uint64_t key, size_t nr_slots)
{
	/* Fibonacci hashing spreads runs of consecutive keys. */
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 17) & (nr_slots - 1);
}

static long find_slot(const struct blockmap *bm, uint64_t key)
{
	size_t i;

	if (!bm->nr_slots)
		return -1;
	for (i = slot_of(key, bm->nr_slots);;
	     i = (i + 1) & (bm->nr_slots - 1)) {
		if (bm->keys[i] == key + 1)
			return (long)i;
		if (!bm->keys[i])
			return -1;
	}
}

void *blockmap_find(const struct blockmap *bm, uint64_t key)
{
	long slot = find_slot(bm, key);

	if (slot < 0)
		return NULL;
	return bm->blocks + (size_t)bm->index[slot] * bm->block_size;
}

static int grow_slots(struct blockmap *bm)
{
	size_t nr = bm->nr_slots ? bm->nr_slots * 2 : 64, i, j;
	uint64_t *keys = calloc(nr, sizeof(*keys));
	uint32_t *index = calloc(nr, sizeof(*index));

	if (!keys || !index) {
		free(keys);
		free(index);
		return -ENOMEM;
	}
	for (i = 0; i < bm->nr_slots; i++) {
		if (!bm->keys[i])
			continue;
		for (j = slot_of(bm->keys[i] - 1, nr); keys[j];
		     j = (j + 1) & (nr - 1))
			;
		keys[j] = bm->keys[i];
		index[j] = bm->index[i];
	}
	free(bm->keys);
	free(bm->index);
	bm->keys = keys;
	bm->index = index;
	bm->nr_slots = nr;
	return 0;
}

static int grow_blocks(struct blockmap *bm)
{
	size_t max = bm->max_blocks ? bm->max_blocks * 2 : 16;
	unsigned char *blocks;

	if (max > UINT32_MAX)
		return -ENOMEM;
	blocks = realloc(bm->blocks, max * bm->block_size);
	if (!blocks)
		return -ENOMEM;
	bm->blocks = blocks;
	bm->max_blocks = max;
	return 0;
}

void *blockmap_get(struct blockmap *bm, uint64_t key)
{
	void *block = blockmap_find(bm, key);
	size_t i;

	if (block)
		return block;
	/* Keep the load factor under one half so probes stay short. */
	if ((bm->nr_used + 1) * 2 > bm->nr_slots && grow_slots(bm))
		return NULL;
	if (bm->nr_blocks == bm->max_blocks && grow_blocks(bm))
		return NULL;
	for (i = slot_of(key, bm->nr_slots); bm->keys[i];
	     i = (i + 1) & (bm->nr_slots - 1))
		;
	bm->keys[i] = key + 1;
	bm->index[i] = (uint32_t)bm->nr_blocks;
	bm->nr_used++;
	block = bm->blocks + bm->nr_blocks++ * bm->block_size;
	memset(block, 0, bm->block_size);
	return block;
}

void pfnset_init(struct pfnset *set)
{
	blockmap_init(&set->bm, PFNSET_BLOCK_BITS / 8);
}

void pfnset_free(struct pfnset *set)
{
	blockmap_free(&set->bm);
}

bool pfnset_test(const struct pfnset *set, uint64_t pfn)
{
	const unsigned char *bits =
		blockmap_find(&set->bm, pfn / PFNSET_BLOCK_BITS);
	uint64_t bit = pfn % PFNSET_BLOCK_BITS;

	return bits && (bits[bit / 8] & (1U << (bit % 8)));
}

int pfnset_add(struct pfnset *set, uint64_t pfn)
{
	unsigned char *bits = blockmap_get(&set->bm, pfn / PFNSET_BLOCK_BITS);
	uint64_t bit = pfn % PFNSET_BLOCK_BITS;

	if (!bits)
		return -ENOMEM;
	bits[bit / 8] |= 1U << (bit % 8);
	return 0;
}

void pfnset_clear(struct pfnset *set, uint64_t pfn)
{
	unsigned char *bits = blockmap_find(&set->bm, pfn / PFNSET_BLOCK_BITS);
	uint64_t bit = pfn % PFNSET_BLOCK_BITS;

	if (bits)
		bits[bit / 8] &= ~(1U << (bit % 8));
}
