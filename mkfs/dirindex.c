// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hash index of a directory larger than the inode, and the writes that
 * give some of its entries new hashes.
 *
 * A block directory indexes its entries in one array of (hash, address)
 * pairs sorted by hash at the end of its block ("bleaf"), a leaf directory
 * in the leaf block at XFS_DIR2_LEAF_OFFSET ("lents"). A node directory
 * has the root of a btree there instead: node blocks whose entries
 * ("nbtree": hash, before) hold for each block below the last hash in it,
 * over leaf blocks that together hold one sorted array. A renamed entry's
 * placeholder (names.c) may have any hash; given its name's, the entry
 * goes where that hash sorts, the entries in between one place along, from
 * one leaf block into the next where they span several; each block keeps
 * its number of entries, and a node entry over a leaf block whose last
 * hash changed takes the new one. Only fields that change are written.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dbparse.h"
#include "dirindex.h"
#include "frontend.h"

/* XFS_DIR2_LEAF_OFFSET: where the leaf block or the btree root is. */
#define DIR2_LEAF_OFFSET (32ull << 30)
/* XFS_DA_NODE_MAXDEPTH: node levels above the leaf blocks, at most. */
#define DA_NODE_MAXDEPTH 5

#define HAVE_HASH 1u
#define HAVE_PTR 2u

/* A leaf entry (hash, address) or a node entry (hash, before). */
struct index_entry {
	uint32_t hash;
	uint32_t ptr;
	unsigned int have; /* HAVE_* of the fields read */
};

struct index_block {
	uint64_t block;
	const char *field; /* "bleaf", "lents" or "nbtree" */
	struct index_entry *ents;
	unsigned int nents;
};

struct dir_index {
	struct index_block *blocks;
	size_t nblocks;
};

/* An entry of the whole index in hash order, and where it was. */
struct sorted_entry {
	uint32_t hash;
	uint32_t ptr;
	size_t pos;
};

struct plan {
	struct dirindex_write *writes;
	size_t nwrites;
};

struct dir_index *dirindex_new(void)
{
	return xcalloc(1, sizeof(struct dir_index));
}

void dirindex_free(struct dir_index *ix)
{
	size_t i;

	if (!ix)
		return;
	for (i = 0; i < ix->nblocks; i++)
		free(ix->blocks[i].ents);
	free(ix->blocks);
	free(ix);
}

static struct index_block *find_block(const struct dir_index *ix,
				      uint64_t block)
{
	size_t i;

	for (i = ix->nblocks; i-- > 0;)
		if (ix->blocks[i].block == block)
			return &ix->blocks[i];
	return NULL;
}

/* Entry @index of @block's array @field, made if need be; NULL: clash. */
static struct index_entry *entry_of(struct dir_index *ix, uint64_t block,
				    const char *field, unsigned int index)
{
	struct index_block *b = find_block(ix, block);

	if (!b) {
		ix->blocks = xrealloc(ix->blocks,
				      (ix->nblocks + 1) * sizeof(*ix->blocks));
		b = &ix->blocks[ix->nblocks++];
		*b = (struct index_block){ .block = block, .field = field };
	}
	/* One array a block. */
	if (strcmp(b->field, field))
		return NULL;
	if (index >= b->nents) {
		b->ents = xrealloc(b->ents, (index + 1) * sizeof(*b->ents));
		memset(&b->ents[b->nents], 0,
		       (index + 1 - b->nents) * sizeof(*b->ents));
		b->nents = index + 1;
	}
	return &b->ents[index];
}

static int set_field(struct dir_index *ix, uint64_t block, const char *field,
		     unsigned int index, unsigned int have, uint64_t v)
{
	struct index_entry *e;

	if (v > UINT32_MAX)
		return -EINVAL;
	e = entry_of(ix, block, field, index);
	if (!e || (e->have & have))
		return -EINVAL;
	if (have == HAVE_HASH)
		e->hash = (uint32_t)v;
	else
		e->ptr = (uint32_t)v;
	e->have |= have;
	return 1;
}

int dirindex_line(struct dir_index *ix, uint64_t block, const char *line)
{
	static const char *const fields[] = { "bleaf", "lents" };
	static const struct {
		const char *name;
		unsigned int have;
	} members[] = { { "hashval", HAVE_HASH }, { "address", HAVE_PTR } };
	unsigned int idx;
	uint64_t v, vals[2];
	const char *value;
	size_t f, m;
	int ret;

	for (f = 0; f < 2; f++) {
		for (m = 0; m < 2; m++) {
			ret = db_elem(line, fields[f], members[m].name, &idx,
				      &value);
			if (ret > 0 && db_value_u64(value, &v) < 0)
				ret = -EINVAL;
			if (ret > 0)
				ret = set_field(ix, block, fields[f], idx,
						members[m].have, v);
			if (ret)
				return ret;
		}
	}
	/* "N:[hashval,before]" of a node block's nbtree. */
	ret = db_entry(line, &idx, vals, 2);
	if (ret > 0)
		ret = set_field(ix, block, "nbtree", idx, HAVE_HASH, vals[0]);
	if (ret > 0)
		ret = set_field(ix, block, "nbtree", idx, HAVE_PTR, vals[1]);
	return ret;
}

/* Every entry of @b read whole, and at least one. */
static bool block_complete(const struct index_block *b)
{
	unsigned int i;

	for (i = 0; i < b->nents; i++)
		if (b->ents[i].have != (HAVE_HASH | HAVE_PTR))
			return false;
	return b->nents > 0;
}

/* The leaf blocks below @b, in hash order, appended to @leaves. */
static int collect_leaves(const struct dir_index *ix, struct index_block *b,
			  int depth, struct index_block ***leaves,
			  size_t *nleaves)
{
	unsigned int i;
	int ret;

	if (!block_complete(b))
		return -EINVAL;
	if (strcmp(b->field, "nbtree")) {
		*leaves = xrealloc(*leaves, (*nleaves + 1) * sizeof(**leaves));
		(*leaves)[(*nleaves)++] = b;
		return 0;
	}
	if (depth >= DA_NODE_MAXDEPTH)
		return -EINVAL;
	for (i = 0; i < b->nents; i++) {
		struct index_block *child = find_block(ix, b->ents[i].ptr);

		if (!child)
			return -EINVAL;
		ret = collect_leaves(ix, child, depth + 1, leaves, nleaves);
		if (ret)
			return ret;
	}
	return 0;
}

static void add_write(struct plan *p, const struct index_block *b,
		      unsigned int index, const char *member, uint32_t value)
{
	p->writes = xrealloc(p->writes, (p->nwrites + 1) * sizeof(*p->writes));
	p->writes[p->nwrites++] = (struct dirindex_write){
		.block = b->block,
		.field = b->field,
		.index = index,
		.member = member,
		.value = value,
	};
}

/*
 * The hash of each node entry below @b the last hash of the block it
 * points to, written where it was not; @b's last hash in @last.
 */
static void fix_node_hashes(const struct dir_index *ix, struct index_block *b,
			    struct plan *p, uint32_t *last)
{
	unsigned int i;
	uint32_t h;

	if (strcmp(b->field, "nbtree")) {
		*last = b->ents[b->nents - 1].hash;
		return;
	}
	/* collect_leaves() found every block below, complete. */
	for (i = 0; i < b->nents; i++) {
		fix_node_hashes(ix, find_block(ix, b->ents[i].ptr), p, &h);
		if (h != b->ents[i].hash) {
			add_write(p, b, i, "hashval", h);
			b->ents[i].hash = h;
		}
	}
	*last = b->ents[b->nents - 1].hash;
}

static int cmp_sorted(const void *a, const void *b)
{
	const struct sorted_entry *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The block or leaf block whose array is the index, or the btree root. */
static struct index_block *index_root(const struct dir_index *ix,
				      unsigned int blocklog)
{
	struct index_block *root = find_block(ix, DIR2_LEAF_OFFSET >> blocklog);
	size_t i;

	if (root)
		return root;
	/* A block directory: the array at the end of its only block. */
	for (i = 0; i < ix->nblocks; i++)
		if (!strcmp(ix->blocks[i].field, "bleaf"))
			return ix->nblocks == 1 ? &ix->blocks[i] : NULL;
	return NULL;
}

int dirindex_plan(struct dir_index *ix, unsigned int blocklog,
		  const struct dirindex_change *changes, size_t nchanges,
		  struct dirindex_write **writes, size_t *nwrites, size_t *bad)
{
	struct index_block *root = index_root(ix, blocklog), **leaves = NULL;
	struct sorted_entry *all = NULL;
	struct plan p = { 0 };
	size_t nleaves = 0, n = 0, i, k;
	unsigned int j;
	uint32_t last;
	int ret = root ? collect_leaves(ix, root, 0, &leaves, &nleaves) :
			 -EINVAL;

	for (i = 0; !ret && i < nleaves; i++) {
		all = xrealloc(all, (n + leaves[i]->nents) * sizeof(*all));
		for (j = 0; j < leaves[i]->nents; j++, n++)
			all[n] = (struct sorted_entry){
				.hash = leaves[i]->ents[j].hash,
				.ptr = leaves[i]->ents[j].ptr,
				.pos = n,
			};
	}
	/* Each change's entry: its address, with the hash it had. */
	for (k = 0; !ret && k < nchanges; k++) {
		for (i = 0; i < n; i++)
			if (all[i].ptr == changes[k].address &&
			    all[i].hash == changes[k].old_hash)
				break;
		if (i == n) {
			*bad = k;
			ret = -ENOENT;
		} else {
			all[i].hash = changes[k].new_hash;
		}
	}
	if (!ret) {
		qsort(all, n, sizeof(*all), cmp_sorted);
		for (i = 0, n = 0; i < nleaves; i++) {
			for (j = 0; j < leaves[i]->nents; j++, n++) {
				struct index_entry *e = &leaves[i]->ents[j];

				if (e->hash != all[n].hash)
					add_write(&p, leaves[i], j, "hashval",
						  all[n].hash);
				if (e->ptr != all[n].ptr)
					add_write(&p, leaves[i], j, "address",
						  all[n].ptr);
				e->hash = all[n].hash;
				e->ptr = all[n].ptr;
			}
		}
		fix_node_hashes(ix, root, &p, &last);
	}
	free(all);
	free(leaves);
	if (ret) {
		free(p.writes);
		return ret;
	}
	*writes = p.writes;
	*nwrites = p.nwrites;
	return 0;
}
