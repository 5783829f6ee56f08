// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Making the image say what the protofile cannot, with xfs_db -x. Each
 * batch is one file of commands run by one xfs_db process, whatever the
 * size of the tree; there are five at most:
 *
 *  1. the superblock: block and inode sizes, crc and bigtime, which the
 *     commands of the others depend on;
 *  2. every entry, found by path: its inode number; timestamps and mode
 *     written; xattrs created with attr_set, which in xfsprogs 6.1 can
 *     only store values of repeated 'v's of the right length; listings of
 *     where they, device numbers and renamed directory entries landed;
 *  3. only when a directory or symlink has xattrs: those, once the size
 *     of its data fork is known;
 *  4. by inode number: short-form xattr values, symlink targets and
 *     short-form directory entries rewritten with the real bytes; the
 *     attribute leaf blocks and directory blocks that hold something
 *     still to be rewritten listed;
 *  5. only when something is left in those blocks: it rewritten, and in
 *     directories with placeholders whose hash is not their name's
 *     (names.c) the hash index given the real hashes (dirindex.c).
 *
 * Every write is read back from xfs_db's answer and compared with the bytes
 * meant; any error line, mismatch or answer cut short fails the build. Batches after the
 * second go by inode number, so renaming entries does not disturb them.
 * This file runs the batches; fixup_answer.c reads xfs_db's answers and
 * the inode fields all jobs use, and the jobs are in fixup_inode.c,
 * fixup_xattr.c and fixup_names.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fixup.h"

/* ---- batch 1: the superblock ------------------------------------------ */

static int sb_cmds(struct fixup *f)
{
	fputs("echo @@sb\nsb 0\nprint blocklog dirblklog inodesize\nversion\n",
	      f->cmds);
	return 0;
}

static int sb_read(struct fixup *f, const struct dbout *out)
{
	bool in_sb = false;
	size_t k;
	int ret;

	for (k = 0; k < out->nlines; k++) {
		const char *l = out->lines[k];

		ret = db_marker(l, "sb", NULL, 0);
		if (ret > 0) {
			in_sb = true;
			continue;
		}
		if (!ret && in_sb)
			ret = db_sb_line(l, &f->sb);
		if (ret < 0 || (!ret && (!in_sb || !db_line_ok(l)))) {
			err_msg("xfs_db on the new image, at the superblock: "
				"%s",
				l);
			return -EIO;
		}
	}
	if (f->sb.seen != DB_SB_ALL) {
		err_msg("xfs_db did not print the geometry and features of the "
			"new image's superblock");
		return -EIO;
	}
	return 0;
}

/* ---- batch 2: every entry, by path ------------------------------------- */

static int found_cmds(struct fixup *f)
{
	struct tree *t = f->t;
	size_t i;

	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];

		n->dirent_slot = -1;
		if (n->skip)
			continue;
		fprintf(f->cmds, "echo @@n %zu\npath %s\ninode\n", i,
			n->img_path);
		xattr_drop_unstorable(n);
		inode_core_cmds(f, n);
		xattr_create_cmds(f, n);
		names_locate_cmds(f, n);
		/* Where the data fork is: in the inode (local) or not. */
		if (n->type == NODE_DIR || n->type == NODE_SYMLINK)
			fputs("print core.format\n", f->cmds);
		inode_dev_cmds(f, n);
	}
	return 0;
}

static int found_line(struct fixup *f, struct node *n, const char *line)
{
	int ret = inode_fields_line(n, line);

	if (!ret)
		ret = inode_dev_line(f, n, line);
	if (!ret)
		ret = attr_listing_line(f, n, line);
	if (!ret)
		ret = names_locate_line(f, n, line);
	return ret;
}

static int found_check(struct fixup *f, struct node *n)
{
	int ret;

	if (!n->ino) {
		err_msg("%s: not found in the new image", n->rel);
		return -EIO;
	}
	ret = inode_check(f, n);
	if (!ret)
		ret = xattr_created_check(f, n);
	if (!ret)
		ret = names_located_check(f, n);
	return ret;
}

/* ---- batch 3: xattrs of directories and symlinks ----------------------- */

static int late_attrs_line(struct fixup *f, struct node *n, const char *line)
{
	int ret = inode_fields_line(n, line);

	return ret ? ret : attr_listing_line(f, n, line);
}

/* ---- batch 4: in the inode, by inode number ---------------------------- */

static int inline_cmds(struct fixup *f)
{
	struct tree *t = f->t;
	size_t i;

	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];

		/* Only entries with something left to write. */
		if (n->skip || !(xattr_pending(n) || names_pending(t, n)))
			continue;
		fprintf(f->cmds, "echo @@n %zu\ninode %" PRIu64 "\n", i,
			n->ino);
		xattr_inline_cmds(f, n);
		names_inline_cmds(f, n);
		/* Listings last: each runs until the next marker. */
		xattr_leaf_print_cmds(f, i, n);
		names_block_print_cmds(f, i, n);
	}
	return 0;
}

static int inline_line(struct fixup *f, struct node *n, const char *line)
{
	int ret = xattr_inline_line(f, n, line);

	return ret ? ret : names_inline_line(f, n, line);
}

static int inline_check(struct fixup *f, struct node *n)
{
	int ret = xattr_inline_check(f, n);

	return ret ? ret : names_inline_check(f, n);
}

/* ---- batch 5: in attribute leaf and directory blocks ------------------- */

static int block_cmds(struct fixup *f)
{
	struct tree *t = f->t;
	size_t i;

	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];

		if (n->skip)
			continue;
		fprintf(f->cmds, "echo @@n %zu\n", i);
		if (xattr_leaf_cmds(f, n) || names_block_cmds(f, i, n))
			return -EIO;
	}
	return 0;
}

static int block_line(struct fixup *f, struct node *n, const char *line)
{
	int ret = names_block_line(f, n, line);

	return ret ? ret : xattr_leaf_line(f, n, line);
}

/* ---- running a batch ----------------------------------------------------- */

static int run_batch(struct fixup *f, const struct batch *b)
{
	struct dbout out;
	int ret;

	f->cmds = fopen(f->cmd_path, "w");
	if (!f->cmds) {
		err_msg("cannot write %s: %s", f->cmd_path, strerror(errno));
		return -errno;
	}
	ret = b->cmds(f);
	fputs("echo @@end\n", f->cmds);
	if (fclose(f->cmds) && !ret) {
		err_msg("cannot write %s: %s", f->cmd_path, strerror(errno));
		ret = -errno;
	}
	f->cmds = NULL;
	if (ret)
		return ret;
	ret = xfsdb_run(f->x, f->image, f->cmd_path, f->workdir, &out);
	if (!ret)
		ret = answer_complete(&out);
	if (!ret)
		ret = b->read ? b->read(f, &out) : read_nodes(f, &out, b);
	dbout_free(&out);
	attr_slots_reset(&f->slots);
	f->attr_leaf = NULL;
	return ret;
}

static const struct batch superblock = { .cmds = sb_cmds, .read = sb_read };
static const struct batch found = { .cmds = found_cmds,
				    .line = found_line,
				    .check = found_check };
static const struct batch late_attrs = { .cmds = xattr_late_cmds,
					 .line = late_attrs_line,
					 .check = xattr_created_check };
static const struct batch in_inode = { .cmds = inline_cmds,
				       .line = inline_line,
				       .check = inline_check };
static const struct batch in_blocks = { .cmds = block_cmds,
					.line = block_line };

int fixup_image(struct tree *t, const struct xfsprogs *x, const char *image,
		const char *workdir)
{
	struct fixup f = {
		.t = t,
		.x = x,
		.image = image,
		.workdir = workdir,
	};
	int ret;

	f.cmd_path = xasprintf("%s/db.cmds", workdir);
	ret = run_batch(&f, &superblock);
	if (!ret)
		ret = run_batch(&f, &found);
	if (!ret && f.need_late_attrs)
		ret = run_batch(&f, &late_attrs);
	if (!ret)
		ret = run_batch(&f, &in_inode);
	if (!ret && f.need_block_writes)
		ret = run_batch(&f, &in_blocks);
	if (!ret)
		ret = names_check_written(&f);
	if (!ret)
		ret = xattr_check_written(&f);
	free(f.cmd_path);
	names_free(&f);
	return ret;
}
