// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hash index of directories (mkfs/dirindex.c): read from what xfs_db
 * 6.1 printed of a block and a leaf directory (tests/unit/data/xfsdb/
 * blocks.out) and from node directories written here in its format, an
 * entry given a new hash by the writes planned, which are applied to a
 * model of the blocks: every leaf block keeps its count and the whole
 * index is in hash order again, the entry has its new hash and every
 * other entry its own, each node entry holds the last hash below it, and
 * only fields that change are written. Then indexes that are not whole.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dbparse.h"
#include "dirindex.h"
#include "xfsdb_recording.h"

/* The frontend library's messages start with this. */
const char *progname = "test_mkfs_dirindex";

/* XFS_DIR2_LEAF_OFFSET in 4k blocks: the leaf block or the btree root. */
#define LEAF_BLOCK ((32ull << 30) >> 12)
#define MAX_BLOCKS 16
#define MAX_ENTS 1024

/* A model of the index blocks: what the lines say, then the writes. */
struct model_block {
	uint64_t block;
	bool node; /* nbtree: (hash, before); else (hash, address) */
	unsigned int n;
	uint32_t hash[MAX_ENTS];
	uint32_t ptr[MAX_ENTS];
};

struct model {
	struct model_block b[MAX_BLOCKS];
	unsigned int nblocks;
};

static struct model_block *model_block(struct model *m, uint64_t block)
{
	unsigned int i;

	for (i = 0; i < m->nblocks; i++)
		if (m->b[i].block == block)
			return &m->b[i];
	assert_true(m->nblocks < MAX_BLOCKS);
	m->b[m->nblocks].block = block;
	return &m->b[m->nblocks++];
}

/* Line @line of block @block into both the index and the model. */
static void feed(struct dir_index *ix, struct model *m, uint64_t block,
		 const char *line)
{
	static const char *const fields[] = { "bleaf", "lents" };
	struct model_block *b;
	unsigned int idx, f;
	uint64_t vals[2];
	const char *v;
	int ret = dirindex_line(ix, block, line);

	assert_true(ret >= 0);
	if (!ret)
		return;
	b = model_block(m, block);
	for (f = 0; f < 2; f++) {
		if (db_elem(line, fields[f], "hashval", &idx, &v) == 1)
			assert_int_equal(db_value_u64(v, &vals[0]), 1);
		else if (db_elem(line, fields[f], "address", &idx, &v) == 1)
			assert_int_equal(db_value_u64(v, &vals[1]), 1);
		else
			continue;
		assert_true(idx < MAX_ENTS);
		if (strstr(line, ".hashval"))
			b->hash[idx] = (uint32_t)vals[0];
		else
			b->ptr[idx] = (uint32_t)vals[1];
		if (idx >= b->n)
			b->n = idx + 1;
		return;
	}
	assert_int_equal(db_entry(line, &idx, vals, 2), 1);
	assert_true(idx < MAX_ENTS);
	b->node = true;
	b->hash[idx] = (uint32_t)vals[0];
	b->ptr[idx] = (uint32_t)vals[1];
	if (idx >= b->n)
		b->n = idx + 1;
}

/* The lines of a recording from "@@b DIR BLOCK" to the next marker. */
static void feed_recorded(struct dir_index *ix, struct model *m,
			  const struct dbout *out, const char *marker,
			  uint64_t block)
{
	size_t k;

	for (k = 0; k < out->nlines; k++)
		if (!strcmp(out->lines[k], marker))
			break;
	assert_true(k < out->nlines);
	for (k++; k < out->nlines && strncmp(out->lines[k], "@@", 2); k++)
		feed(ix, m, block, out->lines[k]);
}

static void apply(struct model *m, const struct dirindex_write *w, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		struct model_block *b = model_block(m, w[k].block);

		assert_true(w[k].index < b->n);
		assert_int_equal(b->node, !strcmp(w[k].field, "nbtree"));
		if (!strcmp(w[k].member, "hashval"))
			b->hash[w[k].index] = w[k].value;
		else
			b->ptr[w[k].index] = w[k].value;
	}
}

static struct model_block *find(struct model *m, uint64_t block)
{
	unsigned int i;

	for (i = 0; i < m->nblocks; i++)
		if (m->b[i].block == block)
			return &m->b[i];
	fail_msg("no block %llu", (unsigned long long)block);
	return NULL;
}

/*
 * The entries below @b in order into @hash and @ptr; each node entry the
 * last hash of its child. Returns @b's last hash.
 */
static uint32_t walk(struct model *m, struct model_block *b, uint32_t *hash,
		     uint32_t *ptr, unsigned int *n)
{
	unsigned int i;

	for (i = 0; i < b->n; i++) {
		if (b->node) {
			assert_int_equal(walk(m, find(m, b->ptr[i]), hash, ptr,
					      n),
					 b->hash[i]);
		} else {
			hash[*n] = b->hash[i];
			ptr[(*n)++] = b->ptr[i];
		}
	}
	return b->hash[b->n - 1];
}

/*
 * Give the entry at @address the hash @new_hash through @ix and check the
 * model after the writes against the one before (@root: where the index
 * starts). Returns the number of writes.
 */
static size_t move(struct dir_index *ix, struct model *m, uint64_t root,
		   uint32_t address, uint32_t new_hash)
{
	static uint32_t hash0[MAX_ENTS * 4], ptr0[MAX_ENTS * 4];
	static uint32_t hash1[MAX_ENTS * 4], ptr1[MAX_ENTS * 4];
	unsigned int n0 = 0, n1 = 0, i, j, counts[MAX_BLOCKS];
	struct dirindex_change ch = { .address = address,
				      .new_hash = new_hash };
	struct dirindex_write *w = NULL;
	size_t nw = 0, bad = 99;

	walk(m, find(m, root), hash0, ptr0, &n0);
	for (i = 0; i < n0; i++)
		if (ptr0[i] == address)
			ch.old_hash = hash0[i];
	for (i = 0; i < m->nblocks; i++)
		counts[i] = m->b[i].n;
	assert_int_equal(dirindex_plan(ix, 12, &ch, 1, &w, &nw, &bad), 0);
	assert_int_equal(bad, 99);
	apply(m, w, nw);
	free(w);
	walk(m, find(m, root), hash1, ptr1, &n1);
	for (i = 0; i < m->nblocks; i++)
		assert_int_equal(m->b[i].n, counts[i]);
	assert_int_equal(n1, n0);
	for (i = 1; i < n1; i++)
		assert_true(hash1[i - 1] <= hash1[i]);
	/* The same entries, each with its hash, the one moved with its new. */
	for (i = 0; i < n0; i++) {
		for (j = 0; j < n1 && ptr1[j] != ptr0[i]; j++)
			;
		assert_true(j < n1);
		assert_int_equal(hash1[j],
				 ptr0[i] == address ? new_hash : hash0[i]);
	}
	return nw;
}

static void test_block_dir(void **state)
{
	struct dir_index *ix = dirindex_new();
	struct model *m = calloc(1, sizeof(*m));
	struct model_block *b;
	uint32_t first_ptr, last_hash;
	struct dbout out;

	xfsdb_recording_load("blocks.out", &out);
	/* The block directory: its leaf array at the end of block 0. */
	feed_recorded(ix, m, &out, "@@b 7 0", 0);
	b = find(m, 0);
	assert_int_equal(b->n, 44);
	first_ptr = b->ptr[0];
	last_hash = b->hash[b->n - 1];
	/* The first entry to the end: 44 entries move, two fields each. */
	assert_int_equal(move(ix, m, 0, first_ptr, last_hash + 1), 88);
	assert_int_equal(b->ptr[43], first_ptr);
	assert_int_equal(b->hash[43], last_hash + 1);
	/* ... and back next to where it was: one hash written. */
	assert_int_equal(move(ix, m, 0, first_ptr, last_hash), 1);
	dirindex_free(ix);
	free(m);
	dbout_free(&out);
}

static void test_leaf_dir(void **state)
{
	struct dir_index *ix = dirindex_new();
	struct model *m = calloc(1, sizeof(*m));
	struct model_block *b;
	uint32_t ptr;
	struct dbout out;

	xfsdb_recording_load("blocks.out", &out);
	/* Data block lines are none of the index's. */
	feed_recorded(ix, m, &out, "@@b 8 0", 0);
	assert_int_equal(m->nblocks, 0);
	feed_recorded(ix, m, &out, "@@b 8 8388608", LEAF_BLOCK);
	b = find(m, LEAF_BLOCK);
	assert_int_equal(b->n, 303);
	ptr = b->ptr[200];
	/* To the start: 201 entries move. */
	assert_int_equal(move(ix, m, LEAF_BLOCK, ptr, 0), 402);
	assert_int_equal(b->ptr[0], ptr);
	/* The same hash again: nothing to write. */
	assert_int_equal(move(ix, m, LEAF_BLOCK, ptr, 0), 0);
	dirindex_free(ix);
	free(m);
	dbout_free(&out);
}

/*
 * A node directory written in xfs_db's format: @levels levels of node
 * blocks with 2 entries each over leaf blocks of 3 entries, hashes 10, 20,
 * 30, ... and addresses 1000 up, in hash order from leaf block to leaf
 * block. Block numbers: the root at LEAF_BLOCK, the rest after it.
 */
static uint64_t next_block;
static uint32_t next_hash;

static uint64_t write_tree(struct dir_index *ix, struct model *m,
			   uint64_t block, int levels, uint32_t *last)
{
	char line[128];
	uint64_t child;
	int i;

	if (!levels) {
		for (i = 0; i < 3; i++) {
			next_hash += 10;
			snprintf(line, sizeof(line), "lents[%d].hashval = 0x%x",
				 i, next_hash);
			feed(ix, m, block, line);
			snprintf(line, sizeof(line), "lents[%d].address = 0x%x",
				 i, 1000 + next_hash);
			feed(ix, m, block, line);
		}
		*last = next_hash;
		return block;
	}
	feed(ix, m, block, "nbtree[0-1] = [hashval,before]");
	for (i = 0; i < 2; i++) {
		child = write_tree(ix, m, next_block++, levels - 1, last);
		snprintf(line, sizeof(line), "%d:[0x%x,%llu]", i, *last,
			 (unsigned long long)child);
		feed(ix, m, block, line);
	}
	return block;
}

static void test_node_dir(void **state)
{
	struct dir_index *ix = dirindex_new();
	struct model *m = calloc(1, sizeof(*m));
	uint32_t last;
	size_t nw;

	/* Two levels of nodes over four leaf blocks, hashes 10 to 120. */
	next_block = LEAF_BLOCK + 1;
	next_hash = 0;
	write_tree(ix, m, LEAF_BLOCK, 2, &last);
	assert_int_equal(last, 120);
	assert_int_equal(m->nblocks, 7);
	/*
	 * The first entry (hash 10) to 95, in the third leaf block: 9 entries
	 * move, two fields each; the last hash of three leaf blocks and of
	 * the first node block changes, which the root holds.
	 */
	nw = move(ix, m, LEAF_BLOCK, 1010, 95);
	assert_int_equal(nw, 9 * 2 + 3 + 1);
	/* ... and back into the first, behind 20: 8 entries move. */
	nw = move(ix, m, LEAF_BLOCK, 1010, 21);
	assert_int_equal(nw, 8 * 2 + 3 + 1);
	dirindex_free(ix);
	free(m);
}

static void test_not_whole(void **state)
{
	struct dirindex_change ch = { .address = 0x12, .new_hash = 1 };
	struct dirindex_write *w = NULL;
	struct dir_index *ix;
	struct model *m = calloc(1, sizeof(*m));
	size_t nw = 0, bad = 99;
	struct dbout out;

	xfsdb_recording_load("blocks.out", &out);
	/* The recorded node directory without its second leaf block. */
	ix = dirindex_new();
	feed_recorded(ix, m, &out, "@@b 9 8388608", LEAF_BLOCK);
	feed_recorded(ix, m, &out, "@@b 9 8388609", LEAF_BLOCK + 1);
	ch.old_hash = 0x8a0c7c6e;
	assert_int_equal(dirindex_plan(ix, 12, &ch, 1, &w, &nw, &bad), -EINVAL);
	dirindex_free(ix);

	/* An entry whose address the index does not have, or not with the
	 * hash said. */
	memset(m, 0, sizeof(*m));
	ix = dirindex_new();
	feed_recorded(ix, m, &out, "@@b 8 8388608", LEAF_BLOCK);
	ch.address = 0xffffff;
	assert_int_equal(dirindex_plan(ix, 12, &ch, 1, &w, &nw, &bad), -ENOENT);
	assert_int_equal(bad, 0);
	ch.address = find(m, LEAF_BLOCK)->ptr[5];
	ch.old_hash = find(m, LEAF_BLOCK)->hash[5] + 1;
	assert_int_equal(dirindex_plan(ix, 12, &ch, 1, &w, &nw, &bad), -ENOENT);
	dirindex_free(ix);

	/* A hash without its address; a block with two kinds of entries; a
	 * field twice; nothing at all. */
	ix = dirindex_new();
	assert_int_equal(
		dirindex_line(ix, LEAF_BLOCK, "lents[0].hashval = 0x5"), 1);
	ch.address = 0;
	ch.old_hash = 5;
	assert_int_equal(dirindex_plan(ix, 12, &ch, 1, &w, &nw, &bad), -EINVAL);
	assert_int_equal(dirindex_line(ix, LEAF_BLOCK, "0:[0x5,8388609]"),
			 -EINVAL);
	assert_int_equal(dirindex_line(ix, LEAF_BLOCK,
				       "lents[0].hashval = 0x6"),
			 -EINVAL);
	assert_int_equal(dirindex_line(ix, LEAF_BLOCK,
				       "lents[1].hashval = 0x100000000"),
			 -EINVAL);
	dirindex_free(ix);
	ix = dirindex_new();
	assert_int_equal(dirindex_plan(ix, 12, &ch, 1, &w, &nw, &bad), -EINVAL);
	dirindex_free(ix);
	free(m);
	dbout_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_dir),
		cmocka_unit_test(test_leaf_dir),
		cmocka_unit_test(test_node_dir),
		cmocka_unit_test(test_not_whole),
	};

	return cmocka_run_group_tests_name("mkfs_dirindex", tests, NULL, NULL);
}
