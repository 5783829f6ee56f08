// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names and symlink targets the protofile could not carry: mkfs.xfs made
 * them with placeholders of the same length (names.c), which are
 * overwritten with the real bytes and read back. Batch 2 finds where each
 * renamed entry is: in a short-form directory by its slot, in a larger one
 * through the directory's extents. Batch 4 writes the names and targets
 * kept in inodes and lists the directory blocks; batch 5 writes the names
 * in those blocks, and the real hash in the leaf and node entries of a
 * placeholder whose hash was only next to its name's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fixup.h"

/* Directory data blocks lie below this byte offset (XFS_DIR2_LEAF_OFFSET). */
#define DIR2_LEAF_OFFSET (32ull << 30)
/* ... and leaf and node blocks below this one (XFS_DIR2_FREE_OFFSET). */
#define DIR2_FREE_OFFSET (64ull << 30)

/* A renamed entry whose hash changes with its name (names.c). */
static bool needs_new_hash(const struct node *c)
{
	return c->renamed && c->near_hash;
}

static bool node_has_new_hash_child(const struct tree *t, const struct node *n)
{
	size_t i;

	for (i = 0; i < n->nchildren; i++)
		if (needs_new_hash(&t->nodes[n->children[i]]))
			return true;
	return false;
}

static uint32_t hash_of(const char *name)
{
	return xfs_dahash((const unsigned char *)name, strlen(name));
}

/* xfs_db's names of the fields in the inode's data fork. */
static const char *sfdir_list(const struct fixup *f)
{
	if (f->sb.crc)
		return "u3.sfdir3.list";
	return f->sb.ftype ? "u.sfdir3.list" : "u.sfdir2.list";
}

static const char *symlink_field(const struct fixup *f)
{
	return f->sb.crc ? "u3.symlink" : "u.symlink";
}

static bool rendered_eq(const char *value, const char *bytes)
{
	char *want =
		xfsdb_render_str((const unsigned char *)bytes, strlen(bytes));
	bool eq = !strcmp(value, want);

	free(want);
	return eq;
}

/* @got, a name or target read back, against the bytes meant. */
static int check_written(const struct node *n, const char *what,
			 const char *got, const char *bytes)
{
	char *want =
		xfsdb_render_str((const unsigned char *)bytes, strlen(bytes));
	int ret = 0;

	if (strcmp(got, want)) {
		err_msg("%s: %s reads back as %s, not %s", n->rel, what, got,
			want);
		ret = -EIO;
	}
	free(want);
	return ret;
}

/* ---- batch 2: where the entries are ----------------------------------- */

void names_locate_cmds(struct fixup *f, const struct node *n)
{
	if (n->type == NODE_DIR && node_has_renamed_child(f->t, n))
		fprintf(f->cmds, "print %s\nbmap -d\n", f->sb.crc ? "u3" : "u");
}

/* The directory blocks of extent @off, @count (file system blocks). */
static void add_dblocks(struct fixup *f, struct node *n, uint64_t off,
			uint64_t count)
{
	uint64_t stride = 1ull << f->sb.dirblklog, b;
	/* Leaf and node blocks too when a hash in them is to be rewritten. */
	uint64_t limit = (node_has_new_hash_child(f->t, n) ?
				  DIR2_FREE_OFFSET :
				  DIR2_LEAF_OFFSET) >>
			 f->sb.blocklog;

	for (b = (off + stride - 1) & ~(stride - 1);
	     b < off + count && b < limit; b += stride) {
		n->dblocks = xrealloc(n->dblocks,
				      (n->ndblocks + 1) * sizeof(uint64_t));
		n->dblocks[n->ndblocks++] = b;
	}
}

int names_locate_line(struct fixup *f, struct node *n, const char *line)
{
	uint64_t off, count;
	unsigned int idx;
	const char *v;
	size_t i;
	int ret;

	ret = db_elem(line, sfdir_list(f), "name", &idx, &v);
	if (ret > 0) {
		for (i = 0; i < n->nchildren; i++) {
			struct node *c = &f->t->nodes[n->children[i]];

			if (c->renamed && rendered_eq(v, c->img_name))
				c->dirent_slot = (int)idx;
		}
		return 1;
	}
	if (!ret)
		ret = db_data_extent(line, &off, &count);
	if (ret < 0 || (ret && off + count < off))
		return fixup_bad_line(n, line, -EINVAL);
	if (ret)
		add_dblocks(f, n, off, count);
	return ret;
}

int names_located_check(struct fixup *f, struct node *n)
{
	size_t i;

	if (n->target_fixup && n->dformat != FORMAT_LOCAL) {
		err_msg("%s: symlink target with blanks, too long to be "
			"rewritten in the inode; xfsprogs %d.%d's protofile "
			"cannot express it",
			n->rel, f->x->major, f->x->minor);
		return -EINVAL;
	}
	for (i = 0; i < n->nchildren; i++) {
		struct node *c = &f->t->nodes[n->children[i]];

		if (!c->renamed)
			continue;
		if (n->dformat == FORMAT_LOCAL) {
			if (c->dirent_slot < 0) {
				err_msg("%s: its directory entry cannot be "
					"found in the new image",
					c->rel);
				return -EIO;
			}
			continue;
		}
		if (!c->same_hash && !c->near_hash) {
			err_file(
				c,
				"name cannot be expressed: xfsprogs %d.%d's "
				"protofile cannot carry it, and in a directory "
				"too large for the inode its placeholder needs "
				"its hash or one next to it, which the hashes "
				"of its sibling names leave none of; rename it",
				f->x->major, f->x->minor);
			return -EINVAL;
		}
		/* In a directory block: written in batch 5. */
		f->need_block_writes = true;
	}
	return 0;
}

/* ---- batch 4: in the inode; directory blocks listed -------------------- */

bool names_pending(const struct tree *t, const struct node *n)
{
	return n->target_fixup ||
	       (n->type == NODE_DIR && node_has_renamed_child(t, n));
}

void names_inline_cmds(struct fixup *f, const struct node *n)
{
	size_t j;

	if (n->target_fixup) {
		fprintf(f->cmds, "write %s ", symlink_field(f));
		xfsdb_hex(f->cmds, (const unsigned char *)n->target,
			  strlen(n->target));
		fputc('\n', f->cmds);
	}
	for (j = 0; j < n->nchildren; j++) {
		const struct node *c = &f->t->nodes[n->children[j]];

		if (!c->renamed || n->dformat != FORMAT_LOCAL)
			continue;
		fprintf(f->cmds, "write %s[%d].name ", sfdir_list(f),
			c->dirent_slot);
		xfsdb_hex(f->cmds, (const unsigned char *)c->name,
			  strlen(c->name));
		fputc('\n', f->cmds);
	}
}

void names_block_print_cmds(struct fixup *f, size_t i, const struct node *n)
{
	size_t j;

	if (n->type != NODE_DIR || n->dformat == FORMAT_LOCAL ||
	    !node_has_renamed_child(f->t, n))
		return;
	for (j = 0; j < n->ndblocks; j++)
		fprintf(f->cmds,
			"echo @@b %zu %" PRIu64 "\ndblock %" PRIu64 "\nprint\n",
			i, n->dblocks[j], n->dblocks[j]);
	fprintf(f->cmds, "inode %" PRIu64 "\n", n->ino);
}

/* A leaf or node entry of directory @n with @hash in the current block. */
static void note_hash(struct fixup *f, const struct node *n, const char *field,
		      unsigned int index, uint32_t hash)
{
	size_t i;

	for (i = 0; i < n->nchildren; i++) {
		const struct node *c = &f->t->nodes[n->children[i]];
		struct hash_write *w;

		if (!needs_new_hash(c) || hash_of(c->img_name) != hash)
			continue;
		f->hash_writes = xrealloc(f->hash_writes,
					  (f->nhash_writes + 1) *
						  sizeof(*f->hash_writes));
		w = &f->hash_writes[f->nhash_writes++];
		*w = (struct hash_write){ .dir = (size_t)(n - f->t->nodes),
					  .child = n->children[i],
					  .block = f->dir_block,
					  .field = field,
					  .index = index };
	}
}

/* A renamed entry's placeholder found in the current directory block. */
static void note_entry(struct fixup *f, const struct node *n, const char *field,
		       unsigned int index, const char *name)
{
	size_t i;

	for (i = 0; i < n->nchildren; i++) {
		struct node *c = &f->t->nodes[n->children[i]];

		if (!c->renamed || c->dirent_in_block ||
		    !rendered_eq(name, c->img_name))
			continue;
		c->dirent_in_block = true;
		c->dirent_block = f->dir_block;
		c->dirent_slot = (int)index;
		strcpy(c->dirent_field, field);
	}
}

/* Names written in a short-form directory, read back. */
static int sfdir_written(struct fixup *f, const struct node *n,
			 unsigned int idx, const char *got)
{
	size_t i;

	for (i = 0; i < n->nchildren; i++) {
		const struct node *c = &f->t->nodes[n->children[i]];

		if (c->renamed && c->dirent_slot == (int)idx &&
		    check_written(c, "its name", got, c->name))
			return -EIO;
	}
	return 1;
}

/* The 32-bit hash of a leaf or node entry, from xfs_db's VALUE. */
static int read_hash(const char *value, uint32_t *hash)
{
	uint64_t v;

	if (db_value_u64(value, &v) < 0 || v > UINT32_MAX)
		return -EINVAL;
	*hash = (uint32_t)v;
	return 0;
}

int names_inline_line(struct fixup *f, struct node *n, const char *line)
{
	static const char *const hash_fields[] = { "bleaf", "lents" };
	static const char *const name_fields[] = { "bu", "du" };
	uint64_t args[2], nbtree[2];
	unsigned int idx;
	const char *v;
	uint32_t hash;
	size_t k;
	int ret;

	ret = db_marker(line, "b", args, 2);
	if (ret > 0)
		f->dir_block = args[1];
	if (!ret) {
		ret = db_field(line, symlink_field(f), &v);
		if (ret > 0 &&
		    check_written(n, "the symlink target", v, n->target))
			return -EIO;
	}
	if (!ret) {
		ret = db_elem(line, sfdir_list(f), "name", &idx, &v);
		if (ret > 0)
			return sfdir_written(f, n, idx, v);
	}
	for (k = 0; !ret && k < 2; k++) {
		ret = db_elem(line, hash_fields[k], "hashval", &idx, &v);
		if (ret > 0 && read_hash(v, &hash))
			ret = -EINVAL;
		if (ret > 0)
			note_hash(f, n, hash_fields[k], idx, hash);
	}
	if (!ret) {
		/* "N:[hashval,before]" of a node block's nbtree. */
		ret = db_entry(line, &idx, nbtree, 2);
		if (ret > 0 && nbtree[0] > UINT32_MAX)
			ret = -EINVAL;
		if (ret > 0)
			note_hash(f, n, "nbtree", idx, (uint32_t)nbtree[0]);
	}
	for (k = 0; !ret && k < 2; k++) {
		ret = db_elem(line, name_fields[k], "name", &idx, &v);
		if (ret > 0)
			note_entry(f, n, name_fields[k], idx, v);
	}
	return ret < 0 ? fixup_bad_line(n, line, ret) : ret;
}

/* ---- batch 5: in directory blocks --------------------------------------- */

/* The real hash of @c into every leaf and node entry that has its old one. */
static int hash_write_cmds(struct fixup *f, size_t dir, const struct node *c)
{
	const struct node *n = &f->t->nodes[dir];
	bool in_leaf = false;
	size_t k;

	for (k = 0; k < f->nhash_writes; k++) {
		const struct hash_write *w = &f->hash_writes[k];

		if (w->dir != dir || &f->t->nodes[w->child] != c)
			continue;
		in_leaf |= strcmp(w->field, "nbtree") != 0;
		fprintf(f->cmds,
			"echo @@h %zu\ninode %" PRIu64 "\ndblock %" PRIu64
			"\nwrite %s[%u].hashval 0x%x\n",
			k, n->ino, w->block, w->field, w->index,
			hash_of(c->name));
	}
	if (!in_leaf) {
		err_file(c, "the hash of its directory entry cannot be found "
			    "in the new image");
		return -EIO;
	}
	return 0;
}

int names_block_cmds(struct fixup *f, size_t i, const struct node *n)
{
	size_t j;

	for (j = 0; j < n->nchildren; j++) {
		const struct node *c = &f->t->nodes[n->children[j]];

		if (!c->renamed || n->dformat == FORMAT_LOCAL)
			continue;
		if (!c->dirent_in_block) {
			err_msg("%s: its directory entry cannot be found in "
				"the new image",
				c->rel);
			return -EIO;
		}
		/*
		 * A block directory's verifier checks each name against the
		 * hashes in the same block: it holds again once the hash is
		 * written, just after.
		 */
		fprintf(f->cmds,
			"echo @@w %zu\ninode %" PRIu64 "\ndblock %" PRIu64
			"\nwrite %s%s[%d].name ",
			n->children[j], n->ino, c->dirent_block,
			needs_new_hash(c) && !strcmp(c->dirent_field, "bu") ?
				"-d " :
				"",
			c->dirent_field, c->dirent_slot);
		xfsdb_hex(f->cmds, (const unsigned char *)c->name,
			  strlen(c->name));
		fputc('\n', f->cmds);
		if (needs_new_hash(c) && hash_write_cmds(f, i, c))
			return -EIO;
	}
	return 0;
}

/* The hash written by the current "@@h" write, read back. */
static int hash_written(struct fixup *f, const char *line)
{
	struct hash_write *w = f->hash_write;
	const struct node *c = &f->t->nodes[w->child];
	unsigned int idx;
	uint32_t hash;
	const char *v;
	int ret = db_elem(line, w->field, "hashval", &idx, &v);

	if (ret <= 0)
		return ret;
	if (read_hash(v, &hash))
		return -EINVAL;
	if (idx != w->index || hash != hash_of(c->name)) {
		err_file(c,
			 "the hash of its directory entry reads back as %s, "
			 "not 0x%x",
			 v, hash_of(c->name));
		return -EIO;
	}
	w->done = true;
	f->hash_write = NULL;
	return 1;
}

/* The name written by the current "@@w" write, read back. */
static int name_written(struct fixup *f, const char *line)
{
	static const char *const name_fields[] = { "bu", "du" };
	const struct node *c = f->renamed;
	unsigned int idx;
	const char *v;
	size_t k;
	int ret = 0;

	for (k = 0; !ret && k < 2; k++)
		ret = db_elem(line, name_fields[k], "name", &idx, &v);
	if (ret <= 0)
		return ret;
	if (idx != (unsigned int)c->dirent_slot)
		return -EINVAL;
	if (check_written(c, "its name", v, c->name))
		return -EIO;
	f->renamed = NULL;
	return 1;
}

int names_block_line(struct fixup *f, struct node *n, const char *line)
{
	uint64_t arg;
	int ret;

	ret = db_marker(line, "w", &arg, 1);
	if (ret > 0 && arg >= f->t->count)
		ret = -EINVAL;
	if (ret) {
		f->renamed = ret > 0 ? &f->t->nodes[arg] : NULL;
		f->hash_write = NULL;
		return ret < 0 ? fixup_bad_line(n, line, ret) : 1;
	}
	ret = db_marker(line, "h", &arg, 1);
	if (ret > 0 && arg >= f->nhash_writes)
		ret = -EINVAL;
	if (ret) {
		f->hash_write = ret > 0 ? &f->hash_writes[arg] : NULL;
		f->renamed = NULL;
		return ret < 0 ? fixup_bad_line(n, line, ret) : 1;
	}
	/* What "write -d" says; the hash written next mends the block. */
	if (f->renamed && !strcmp(line, "Allowing write of corrupted data "
					"with good CRC"))
		return 1;
	ret = 0;
	if (f->hash_write)
		ret = hash_written(f, line);
	if (!ret && f->renamed)
		ret = name_written(f, line);
	return ret == -EINVAL ? fixup_bad_line(n, line, ret) : ret;
}

int names_check_written(struct fixup *f)
{
	size_t i;

	for (i = 0; i < f->nhash_writes; i++) {
		if (!f->hash_writes[i].done) {
			err_file(&f->t->nodes[f->hash_writes[i].child],
				 "the hash of its directory entry was not "
				 "written");
			return -EIO;
		}
	}
	return 0;
}
