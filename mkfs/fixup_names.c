// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names and symlink targets the protofile could not carry: mkfs.xfs made
 * them with placeholders (names.c), which are overwritten with the real
 * bytes and read back. Batch 2 finds where each renamed entry is: in a
 * short-form directory by its slot, in a larger one through the
 * directory's extents. Batch 4 writes the names and targets kept in
 * inodes, reads the blocks of larger directories and plans what to write
 * there: each name, with its length and file type where the placeholder
 * has another length, and the hash index (dirindex.c) where its hash is
 * not the name's. Batch 5 makes those writes.
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
	return c->renamed && !c->same_hash;
}

/*
 * The renamed entries of directory @n in f->renamed, and whether one needs
 * a new hash: found once for all the lines about @n, which may be many.
 */
static void find_renamed(struct fixup *f, const struct node *n)
{
	size_t i;

	if (f->renamed_of == n)
		return;
	f->renamed_of = n;
	f->nrenamed = 0;
	f->renamed_new_hash = false;
	for (i = 0; i < n->nchildren; i++) {
		const struct node *c = &f->t->nodes[n->children[i]];

		if (!c->renamed)
			continue;
		f->renamed = xrealloc(f->renamed,
				      (f->nrenamed + 1) * sizeof(*f->renamed));
		f->renamed[f->nrenamed++] = n->children[i];
		f->renamed_new_hash |= needs_new_hash(c);
	}
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
	uint64_t stride = 1ull << f->sb.dirblklog, b, limit;

	/* Leaf and node blocks too when a hash in them is to be rewritten. */
	find_renamed(f, n);
	limit = (f->renamed_new_hash ? DIR2_FREE_OFFSET : DIR2_LEAF_OFFSET) >>
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
		find_renamed(f, n);
		for (i = 0; i < f->nrenamed; i++) {
			struct node *c = &f->t->nodes[f->renamed[i]];

			if (rendered_eq(v, c->img_name))
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
		if (n->dformat != FORMAT_LOCAL) {
			/* In a directory block: written in batch 5. */
			f->need_block_writes = true;
			continue;
		}
		if (c->dirent_slot < 0) {
			err_msg("%s: its directory entry cannot be found in "
				"the new image",
				c->rel);
			return -EIO;
		}
		/*
		 * names.c gives a placeholder another length only where the
		 * directory is too large for the short form.
		 */
		if (strlen(c->img_name) != strlen(c->name)) {
			err_file(c,
				 "its placeholder of %zu bytes is in a "
				 "short-form directory, which cannot take "
				 "a name of another length",
				 strlen(c->img_name));
			return -EIO;
		}
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

/* The renamed entry of @n found at @index of @field in the current block. */
static struct node *entry_at(struct fixup *f, const struct node *n,
			     const char *field, unsigned int index)
{
	size_t i;

	find_renamed(f, n);
	for (i = 0; i < f->nrenamed; i++) {
		struct node *c = &f->t->nodes[f->renamed[i]];

		if (c->dirent_in_block && c->dirent_block == f->dir_block &&
		    c->dirent_slot == (int)index &&
		    !strcmp(c->dirent_field, field))
			return c;
	}
	return NULL;
}

/* A renamed entry's placeholder found in the current directory block. */
static void note_entry(struct fixup *f, const struct node *n, const char *field,
		       unsigned int index, const char *name)
{
	size_t i;

	find_renamed(f, n);
	for (i = 0; i < f->nrenamed; i++) {
		struct node *c = &f->t->nodes[f->renamed[i]];

		if (c->dirent_in_block || !rendered_eq(name, c->img_name))
			continue;
		c->dirent_in_block = true;
		c->dirent_block = f->dir_block;
		c->dirent_slot = (int)index;
		strcpy(c->dirent_field, field);
	}
}

/* Where in the block a renamed entry found is, from its tag. */
static int note_entry_tag(struct fixup *f, const struct node *n,
			  const char *field, unsigned int index,
			  const char *value)
{
	struct node *c = entry_at(f, n, field, index);
	uint64_t v;

	if (!c)
		return 1;
	if (db_value_u64(value, &v) < 0 || c->have_tag || v > UINT16_MAX)
		return -EINVAL;
	c->dirent_tag = (uint16_t)v;
	c->have_tag = true;
	return 1;
}

/* Names written in a short-form directory, read back. */
static int sfdir_written(struct fixup *f, const struct node *n,
			 unsigned int idx, const char *got)
{
	size_t i;

	find_renamed(f, n);
	for (i = 0; i < f->nrenamed; i++) {
		const struct node *c = &f->t->nodes[f->renamed[i]];

		if (c->dirent_slot == (int)idx &&
		    check_written(c, "its name", got, c->name))
			return -EIO;
	}
	return 1;
}

/* The entries of a directory block: names, and where they are. */
static int dir_entry_line(struct fixup *f, struct node *n, const char *line)
{
	static const char *const name_fields[] = { "bu", "du" };
	unsigned int idx;
	const char *v;
	size_t k;
	int ret;

	for (k = 0; k < 2; k++) {
		ret = db_elem(line, name_fields[k], "name", &idx, &v);
		if (ret > 0)
			note_entry(f, n, name_fields[k], idx, v);
		if (!ret) {
			ret = db_elem(line, name_fields[k], "tag", &idx, &v);
			if (ret > 0)
				ret = note_entry_tag(f, n, name_fields[k], idx,
						     v);
		}
		if (ret)
			return ret;
	}
	return 0;
}

int names_inline_line(struct fixup *f, struct node *n, const char *line)
{
	uint64_t args[2];
	unsigned int idx;
	const char *v;
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
	if (!ret)
		ret = dir_entry_line(f, n, line);
	if (!ret)
		find_renamed(f, n);
	if (!ret && f->renamed_new_hash) {
		if (!f->index)
			f->index = dirindex_new();
		ret = dirindex_line(f->index, f->dir_block, line);
	}
	return ret < 0 ? fixup_bad_line(n, line, ret) : ret;
}

/* A write planned in directory block @block of the directory @dir. */
static struct dir_write *plan_write(struct fixup *f, size_t dir, size_t about,
				    uint64_t block)
{
	struct dir_write *w;

	f->writes = xrealloc(f->writes, (f->nwrites + 1) * sizeof(*f->writes));
	w = &f->writes[f->nwrites];
	*w = (struct dir_write){
		.dir = dir, .about = about, .block = block, .seq = f->nwrites
	};
	f->nwrites++;
	return w;
}

/* Write @nbytes of @bytes into member @member of @c's entry. */
static void plan_bytes(struct fixup *f, size_t dir, const struct node *c,
		       const char *member, const void *bytes, size_t nbytes)
{
	struct dir_write *w =
		plan_write(f, dir, (size_t)(c - f->t->nodes), c->dirent_block);

	snprintf(w->field, sizeof(w->field), "%s[%d].%s", c->dirent_field,
		 c->dirent_slot, member);
	w->bytes = xmalloc(nbytes);
	memcpy(w->bytes, bytes, nbytes);
	w->nbytes = nbytes;
}

static void plan_number(struct fixup *f, size_t dir, const struct node *c,
			const char *member, uint64_t value)
{
	struct dir_write *w =
		plan_write(f, dir, (size_t)(c - f->t->nodes), c->dirent_block);

	snprintf(w->field, sizeof(w->field), "%s[%d].%s", c->dirent_field,
		 c->dirent_slot, member);
	w->value = value;
}

/* XFS_DIR3_FT_*: the file type mkfs.xfs gave @c's directory entry. */
static uint8_t dirent_ftype(const struct node *c)
{
	static const uint8_t ftype[] = {
		[NODE_REG] = 1,	    [NODE_DIR] = 2,  [NODE_CHR] = 3,
		[NODE_BLK] = 4,	    [NODE_FIFO] = 5, [NODE_SOCK] = 6,
		[NODE_SYMLINK] = 7,
	};

	return ftype[c->type];
}

/*
 * The real name into @c's entry in a directory block. A placeholder of
 * another length has an entry of as many bytes (names.c), with room for
 * the longer name and its file type byte: the length is set to that, the
 * name written with the file type byte after it and zeros, and the length
 * set to the name's. Nothing else in the entry moves, and no byte of the
 * placeholder is left. (xfs_db shows no file type in the entries of v4
 * directories, even where they have one: it goes in with the name.)
 */
static int plan_name(struct fixup *f, size_t dir, const struct node *c)
{
	size_t len = strlen(c->name), old = strlen(c->img_name);
	size_t most = (len > old ? len : old) + (f->sb.ftype ? 1 : 0);
	unsigned char *bytes;

	if (len == old) {
		plan_bytes(f, dir, c, "name", c->name, len);
		return 0;
	}
	if (xfs_dirent_bytes(len, f->sb.ftype) !=
	    xfs_dirent_bytes(old, f->sb.ftype)) {
		err_file(c,
			 "its placeholder of %zu bytes has a directory entry "
			 "of another size than its name would",
			 old);
		return -EIO;
	}
	bytes = xcalloc(most, 1);
	memcpy(bytes, c->name, len);
	if (f->sb.ftype)
		bytes[len] = dirent_ftype(c);
	if (most != old)
		plan_number(f, dir, c, "namelen", most);
	plan_bytes(f, dir, c, "name", bytes, most);
	if (most != len)
		plan_number(f, dir, c, "namelen", len);
	free(bytes);
	return 0;
}

/* The hash index of @n with each renamed entry's real hash. */
static int plan_index(struct fixup *f, size_t dir, const struct node *n)
{
	struct dirindex_change *changes =
		xcalloc(n->nchildren, sizeof(*changes));
	size_t nchanges = 0, nw = 0, bad = 0, i;
	const struct node **about = xcalloc(n->nchildren, sizeof(*about));
	struct dirindex_write *w = NULL;
	int ret;

	for (i = 0; i < n->nchildren; i++) {
		const struct node *c = &f->t->nodes[n->children[i]];

		if (!needs_new_hash(c))
			continue;
		about[nchanges] = c;
		changes[nchanges++] = (struct dirindex_change){
			/* xfs_dir2_dataptr_t: the byte offset / 8. */
			.address = (uint32_t)(((c->dirent_block
						<< f->sb.blocklog) +
					       c->dirent_tag) >>
					      3),
			.old_hash = hash_of(c->img_name),
			.new_hash = hash_of(c->name),
		};
	}
	ret = f->index ? dirindex_plan(f->index, f->sb.blocklog, changes,
				       nchanges, &w, &nw, &bad) :
			 -EINVAL;
	if (ret == -ENOENT)
		err_file(about[bad], "its entry cannot be found in the hash "
				     "index of its directory in the new image");
	else if (ret)
		err_file(n, "the hash index of this directory in the new image "
			    "is not understood");
	for (i = 0; !ret && i < nw; i++) {
		struct dir_write *dw = plan_write(f, dir, dir, w[i].block);

		snprintf(dw->field, sizeof(dw->field), "%s[%u].%s", w[i].field,
			 w[i].index, w[i].member);
		dw->value = w[i].value;
	}
	free(w);
	free(about);
	free(changes);
	return ret ? -EIO : 0;
}

int names_inline_check(struct fixup *f, struct node *n)
{
	size_t dir = (size_t)(n - f->t->nodes), i;
	int ret = 0;

	if (n->type != NODE_DIR || n->dformat == FORMAT_LOCAL ||
	    !node_has_renamed_child(f->t, n))
		goto out;
	for (i = 0; !ret && i < n->nchildren; i++) {
		const struct node *c = &f->t->nodes[n->children[i]];

		if (!c->renamed)
			continue;
		if (!c->dirent_in_block || !c->have_tag) {
			err_file(c, "its directory entry cannot be found in "
				    "the new image");
			ret = -EIO;
		} else {
			ret = plan_name(f, dir, c);
		}
	}
	find_renamed(f, n);
	if (!ret && f->renamed_new_hash)
		ret = plan_index(f, dir, n);
out:
	dirindex_free(f->index);
	f->index = NULL;
	return ret;
}

/* ---- batch 5: in directory blocks --------------------------------------- */

static int cmp_write_ptr(const void *a, const void *b)
{
	const struct dir_write *x = *(const struct dir_write *const *)a;
	const struct dir_write *y = *(const struct dir_write *const *)b;

	if (x->block != y->block)
		return x->block < y->block ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The writes planned for directory @n, block by block in the order
 * planned. Until the last write into a block the block may not pass its
 * verifier (a name whose hash is not yet in the index, entries out of hash
 * order for a moment), so those are forced with "write -d"; the last one
 * is not, and fails unless the whole block is right again.
 */
int names_block_cmds(struct fixup *f, size_t i, const struct node *n)
{
	struct dir_write **mine = xcalloc(f->nwrites + 1, sizeof(*mine));
	size_t count = 0, k;

	for (k = 0; k < f->nwrites; k++)
		if (f->writes[k].dir == i)
			mine[count++] = &f->writes[k];
	qsort(mine, count, sizeof(*mine), cmp_write_ptr);
	for (k = 0; k < count; k++) {
		struct dir_write *w = mine[k];

		w->forced = k + 1 < count && mine[k + 1]->block == w->block;
		fprintf(f->cmds, "echo @@w %zu\n", (size_t)(w - f->writes));
		if (!k || mine[k - 1]->block != w->block)
			fprintf(f->cmds,
				"inode %" PRIu64 "\ndblock %" PRIu64 "\n",
				n->ino, w->block);
		fprintf(f->cmds, "write %s%s ", w->forced ? "-d " : "",
			w->field);
		if (w->bytes)
			xfsdb_hex(f->cmds, w->bytes, w->nbytes);
		else
			fprintf(f->cmds, "0x%" PRIx64, w->value);
		fputc('\n', f->cmds);
	}
	free(mine);
	return 0;
}

/* What the current write reads back as. */
static int write_read_back(struct fixup *f, const char *line)
{
	struct dir_write *w = f->write;
	const struct node *about = &f->t->nodes[w->about];
	char *want = NULL;
	const char *v;
	uint64_t got;
	int ret = db_field(line, w->field, &v);

	if (ret <= 0)
		return ret;
	if (w->bytes) {
		want = xfsdb_render_str(w->bytes, w->nbytes);
		ret = strcmp(v, want) ? -EIO : 1;
	} else {
		if (db_value_u64(v, &got) < 0)
			return -EINVAL;
		ret = got != w->value ? -EIO : 1;
		want = xasprintf("0x%" PRIx64, w->value);
	}
	if (ret < 0)
		err_file(about,
			 "%s of directory block %" PRIu64
			 " reads back as %s, not %s",
			 w->field, w->block, v, want);
	free(want);
	if (ret > 0) {
		w->done = true;
		f->write = NULL;
	}
	return ret;
}

int names_block_line(struct fixup *f, struct node *n, const char *line)
{
	uint64_t arg;
	int ret;

	ret = db_marker(line, "w", &arg, 1);
	if (ret > 0 && (arg >= f->nwrites ||
			f->writes[arg].dir != (size_t)(n - f->t->nodes)))
		ret = -EINVAL;
	if (ret) {
		f->write = ret > 0 ? &f->writes[arg] : NULL;
		return ret < 0 ? fixup_bad_line(n, line, ret) : 1;
	}
	/* What "write -d" says. */
	if (f->write && f->write->forced &&
	    !strcmp(line, "Allowing write of corrupted data with good CRC"))
		return 1;
	ret = f->write ? write_read_back(f, line) : 0;
	return ret == -EINVAL ? fixup_bad_line(n, line, ret) : ret;
}

int names_check_written(struct fixup *f)
{
	size_t i;

	for (i = 0; i < f->nwrites; i++) {
		if (!f->writes[i].done) {
			err_file(&f->t->nodes[f->writes[i].about],
				 "%s of directory block %" PRIu64
				 " was not written",
				 f->writes[i].field, f->writes[i].block);
			return -EIO;
		}
	}
	return 0;
}

void names_free(struct fixup *f)
{
	size_t i;

	for (i = 0; i < f->nwrites; i++)
		free(f->writes[i].bytes);
	free(f->writes);
	f->writes = NULL;
	f->nwrites = 0;
	dirindex_free(f->index);
	f->index = NULL;
	free(f->renamed);
	f->renamed = NULL;
	f->renamed_of = NULL;
}
