// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the fix-up jobs (fixup_inode.c, fixup_xattr.c, fixup_names.c) and
 * the reader of xfs_db's answers (fixup_answer.c) share: the error of a
 * line not understood, and whether a directory has renamed entries.
 */
#include <errno.h>

#include "fixup.h"

int fixup_bad_line(const struct node *n, const char *line, int err)
{
	if (err == -ENOMEM) {
		err_msg("out of memory");
		return err;
	}
	err_msg("xfs_db on the new image, at %s: %s",
		n ? (n->rel[0] ? n->rel : ".") : "the start of its answer",
		line);
	return -EIO;
}

bool node_has_renamed_child(const struct tree *t, const struct node *n)
{
	size_t i;

	for (i = 0; i < n->nchildren; i++)
		if (t->nodes[n->children[i]].renamed)
			return true;
	return false;
}
