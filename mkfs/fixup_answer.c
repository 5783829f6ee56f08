// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xfs_db's answer to a batch of fixup.c, read: whole (it ends with the
 * batch's last marker), then node by node, each line handed to the
 * batch's reader; and the lines about an inode itself that batches 2 and
 * 3 read for every job (its number, the formats and size of its forks,
 * its short-form xattr listing).
 */
#include <errno.h>
#include <limits.h>

#include "fixup.h"

/* "NAME = N" of a fork format, a small number. */
static int read_format(const char *line, const char *name, int *format)
{
	uint64_t v;
	int ret = db_field_u64(line, name, &v);

	if (ret > 0 && v > INT_MAX)
		return -EINVAL;
	if (ret > 0)
		*format = (int)v;
	return ret;
}

/* Lines about the inode itself: its number and what its forks hold. */
int inode_fields_line(struct node *n, const char *line)
{
	uint64_t v;
	int ret;

	ret = db_inode_number(line, &v);
	if (ret > 0) {
		if (n->ino)
			return fixup_bad_line(n, line, -EINVAL);
		n->ino = v;
	}
	if (!ret)
		ret = read_format(line, "core.aformat", &n->aformat);
	if (!ret)
		ret = read_format(line, "core.format", &n->dformat);
	if (!ret)
		ret = db_field_u64(line, "core.size", &n->dsize);
	return ret < 0 ? fixup_bad_line(n, line, ret) : ret;
}

int attr_listing_line(struct fixup *f, struct node *n, const char *line)
{
	int ret = attr_slots_sf_line(&f->slots, line);

	return ret < 0 ? fixup_bad_line(n, line, ret) : ret;
}

/* The answer node by node: each "@@n INDEX" ends the lines of the last. */
int read_nodes(struct fixup *f, const struct dbout *out, const struct batch *b)
{
	struct node *n = NULL;
	uint64_t index;
	size_t k;
	int ret = 0;

	for (k = 0; k <= out->nlines && !ret; k++) {
		const char *l = k < out->nlines ? out->lines[k] : NULL;

		ret = l ? db_marker(l, "n", &index, 1) : 1;
		if (l && ret > 0 && index >= f->t->count)
			ret = -EINVAL;
		if (ret < 0)
			return fixup_bad_line(n, l, ret);
		if (ret > 0) {
			ret = n && b->check ? b->check(f, n) : 0;
			attr_slots_reset(&f->slots);
			f->write = NULL;
			n = l ? &f->t->nodes[index] : NULL;
			continue;
		}
		if (!n)
			return fixup_bad_line(NULL, l, -EINVAL);
		ret = b->line(f, n, l);
		if (!ret && !db_line_ok(l))
			ret = fixup_bad_line(n, l, -EINVAL);
		if (ret > 0)
			ret = 0;
	}
	return ret;
}

/*
 * An answer cut short would leave writes unchecked: every batch ends with
 * a marker, which must end the answer. The readers do not see it.
 */
int answer_complete(struct dbout *out)
{
	if (!out->nlines ||
	    db_marker(out->lines[out->nlines - 1], "end", NULL, 0) != 1) {
		err_msg("xfs_db's answer on the new image ends before the end "
			"of its commands");
		return -EIO;
	}
	out->nlines--;
	return 0;
}
