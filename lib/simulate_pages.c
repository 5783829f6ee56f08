// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The simulator's page state, kept only for the chunks of the file that
 * the replay reaches: a trace of a few pages of a huge sparse file costs
 * memory and time in the pages touched (and the windows around them), not
 * in the size of the file. A chunk is the largest folio, so a folio never
 * straddles two; chunks live in an open-addressing hash table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "simulate_internal.h"

/* The state of a page no step has written: not cached, not mapped. */
static const struct sim_page absent_page = {
	.head = NO_FOLIO,
	.text_map = NOT_MAPPED,
};

#define EMPTY_KEY UINT64_MAX

static size_t slot_of(uint64_t key, size_t size)
{
	/* Fibonacci hashing: neighbouring chunks spread over the table. */
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (size - 1);
}

static struct sim_page *find_chunk(const struct sim_pages *t, uint64_t key)
{
	size_t i;

	if (!t->size)
		return NULL;
	for (i = slot_of(key, t->size);; i = (i + 1) & (t->size - 1)) {
		if (t->keys[i] == key)
			return t->chunks[i];
		if (t->keys[i] == EMPTY_KEY)
			return NULL;
	}
}

static void insert_chunk(struct sim_pages *t, uint64_t key,
			 struct sim_page *chunk)
{
	size_t i = slot_of(key, t->size);

	while (t->keys[i] != EMPTY_KEY)
		i = (i + 1) & (t->size - 1);
	t->keys[i] = key;
	t->chunks[i] = chunk;
	t->used++;
}

/* Twice the room, at most half full afterwards. */
static int grow_table(struct sim_pages *t)
{
	struct sim_pages old = *t;
	size_t size = old.size ? old.size * 2 : 64, i;

	t->keys = malloc(size * sizeof(*t->keys));
	t->chunks = malloc(size * sizeof(*t->chunks));
	if (!t->keys || !t->chunks) {
		free(t->keys);
		free(t->chunks);
		*t = old;
		return -ENOMEM;
	}
	memset(t->keys, 0xff, size * sizeof(*t->keys)); /* EMPTY_KEY */
	t->size = size;
	t->used = 0;
	for (i = 0; i < old.size; i++)
		if (old.keys[i] != EMPTY_KEY)
			insert_chunk(t, old.keys[i], old.chunks[i]);
	free(old.keys);
	free(old.chunks);
	return 0;
}

const struct sim_page *sim_page(const struct sim *s, uint64_t index)
{
	struct sim_pages *t = s->pages;
	uint64_t key = index >> t->chunk_order;
	struct sim_page *chunk;

	if (key != t->last_key || !t->last_chunk) {
		chunk = find_chunk(t, key);
		if (!chunk)
			return &absent_page;
		t->last_key = key;
		t->last_chunk = chunk;
	}
	return &t->last_chunk[index & ((1ull << t->chunk_order) - 1)];
}

struct sim_page *sim_page_w(struct sim *s, uint64_t index)
{
	struct sim_pages *t = s->pages;
	uint64_t key = index >> t->chunk_order, nr = 1ull << t->chunk_order;
	struct sim_page *chunk;
	uint64_t i;

	if (key == t->last_key && t->last_chunk)
		return &t->last_chunk[index & (nr - 1)];
	chunk = find_chunk(t, key);
	if (!chunk) {
		if ((t->used + 1) * 2 > t->size && grow_table(t))
			goto nomem;
		chunk = malloc(nr * sizeof(*chunk));
		if (!chunk)
			goto nomem;
		for (i = 0; i < nr; i++)
			chunk[i] = absent_page;
		insert_chunk(t, key, chunk);
	}
	t->last_key = key;
	t->last_chunk = chunk;
	return &chunk[index & (nr - 1)];
nomem:
	/* The caller goes on with a scratch page; the replay fails. */
	t->nomem = true;
	t->scratch = absent_page;
	return &t->scratch;
}

void sim_pages_init(struct sim_pages *t, unsigned int chunk_order)
{
	memset(t, 0, sizeof(*t));
	t->chunk_order = chunk_order;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int sim_pages_chunks(const struct sim_pages *t, uint64_t **keys, size_t *nr)
{
	size_t i, n = 0;

	*keys = malloc((t->used ? t->used : 1) * sizeof(**keys));
	if (!*keys)
		return -ENOMEM;
	for (i = 0; i < t->size; i++)
		if (t->keys[i] != EMPTY_KEY)
			(*keys)[n++] = t->keys[i];
	qsort(*keys, n, sizeof(**keys), cmp_u64);
	*nr = n;
	return 0;
}

void sim_pages_free(struct sim_pages *t)
{
	size_t i;

	for (i = 0; i < t->size; i++)
		if (t->keys[i] != EMPTY_KEY)
			free(t->chunks[i]);
	free(t->keys);
	free(t->chunks);
	memset(t, 0, sizeof(*t));
}
