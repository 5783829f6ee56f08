/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hash index of a block, leaf or node directory, read from what
 * xfs_db prints of its blocks, and the writes that give entries new
 * hashes in it (dirindex.c). fixup_names.c uses it for placeholders whose
 * hash is not their name's.
 */
#ifndef MKFS_DIRINDEX_H
#define MKFS_DIRINDEX_H

#include <stddef.h>
#include <stdint.h>

struct dir_index;

/* An entry, by its address in the directory, to have @new_hash. */
struct dirindex_change {
	uint32_t address; /* xfs_dir2_dataptr_t: byte offset / 8 */
	uint32_t old_hash; /* the hash it has in the index */
	uint32_t new_hash;
};

/* A field of an index block to write: "@field[@index].@member". */
struct dirindex_write {
	uint64_t block; /* directory block, in file system blocks */
	const char *field; /* "bleaf", "lents" or "nbtree" */
	unsigned int index;
	const char *member; /* "hashval" or "address" */
	uint32_t value;
};

struct dir_index *dirindex_new(void);
void dirindex_free(struct dir_index *ix);

/*
 * A line xfs_db printed of directory block @block (file system blocks):
 * the leaf entries of a block or leaf block ("bleaf[N].hashval",
 * "lents[N].address", ...) or the entries of a node block ("N:[hashval,
 * before]"). 1 if read, 0 if not of those, -EINVAL if it is one but not
 * understood (dbparse.h).
 */
int dirindex_line(struct dir_index *ix, uint64_t block, const char *line);

/*
 * The writes that give the entries of @changes their new hash, in
 * @writes (allocated, in order; *@nwrites of them): the entries of each
 * leaf block in hash order again, each block keeping its number of
 * entries, and each node entry holding the last hash below it. The
 * directory's blocks are of 1 << @blocklog bytes.
 *
 * 0; -ENOENT if no entry has the address and old hash of @changes[*@bad];
 * -EINVAL if the blocks read make no index (one missing, or entries left
 * out or unpaired).
 */
int dirindex_plan(struct dir_index *ix, unsigned int blocklog,
		  const struct dirindex_change *changes, size_t nchanges,
		  struct dirindex_write **writes, size_t *nwrites, size_t *bad);

#endif /* MKFS_DIRINDEX_H */
