// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a build refuses, found on the tree before mkfs.xfs runs, so that a
 * dry run (-n) refuses the same trees: device numbers XFS cannot keep,
 * symlink targets xfsprogs 6.1 writes wrongly and files larger than an
 * allocation group (fit.c). Every such file is named before the build
 * stops. (Names the protofile cannot carry are no such thing: names.c
 * finds each a placeholder, or says why not, before this runs.)
 */
#include <string.h>
#include <sys/sysmacros.h>

#include "mkfs.h"

/*
 * XFS keeps the old 32-bit sysv device number, 14 bits of major and 18 of
 * minor, but Linux reads only 9 bits of the major back (xfs_to_linux_dev_t)
 * and refuses to create larger ones on XFS.
 */
#define XFS_DEV_MAJOR_MAX 511
#define XFS_DEV_MINOR_MAX 262143
/* The inode core before the literal area: v3 (crc) and v2 inodes. */
#define DINODE_CORE_V3 176
#define DINODE_CORE_V2 100

unsigned int inode_literal_bytes(const struct geometry *g)
{
	return g->inodesize - (g->crc ? DINODE_CORE_V3 : DINODE_CORE_V2);
}

static int check_node(const struct node *n, const struct geometry *g)
{
	switch (n->type) {
	case NODE_CHR:
	case NODE_BLK:
		if (major(n->st.st_rdev) <= XFS_DEV_MAJOR_MAX &&
		    minor(n->st.st_rdev) <= XFS_DEV_MINOR_MAX)
			return 0;
		err_file(n,
			 "device number %u:%u cannot be stored: XFS keeps "
			 "majors up to %u and minors up to %u",
			 major(n->st.st_rdev), minor(n->st.st_rdev),
			 XFS_DEV_MAJOR_MAX, XFS_DEV_MINOR_MAX);
		return -1;
	case NODE_REG:
		/* fit.c explains; the default size leaves room. */
		if ((uint64_t)n->st.st_size <= fit_ag_room(g))
			return 0;
		err_file(n,
			 "file of %llu bytes is larger than an allocation "
			 "group of the image can take (%llu bytes): mkfs.xfs "
			 "would write it over the next group's metadata; give "
			 "a larger --size, or larger groups (-- -d agcount=N)",
			 (unsigned long long)n->st.st_size,
			 (unsigned long long)fit_ag_room(g));
		return -1;
	case NODE_SYMLINK:
		/* mkfs.xfs keeps targets that fit in the inode there. */
		if (strlen(n->target) <= inode_literal_bytes(g))
			return 0;
		if (strlen(n->target) > XFS_SYMLINK_MAX) {
			err_file(n,
				 "symlink target of %zu bytes cannot be "
				 "stored: XFS keeps targets of up to %u bytes",
				 strlen(n->target), XFS_SYMLINK_MAX);
			return -1;
		}
		err_file(n,
			 "symlink target of %zu bytes is too long to be kept "
			 "in the inode (at most %u bytes with %u-byte inodes), "
			 "and mkfs.xfs writes longer ones without their "
			 "metadata header (xfs_repair would clear it); shorten "
			 "the target, or give no inode size in "
			 "MKFS_XFS_OPTIONS (one that holds it is then chosen)",
			 strlen(n->target), inode_literal_bytes(g),
			 g->inodesize);
		return -1;
	default:
		return 0;
	}
}

int tree_check(const struct tree *t, const struct geometry *g)
{
	size_t i, refused = 0;

	for (i = 0; i < t->count; i++) {
		if (t->nodes[i].skip)
			continue;
		if (check_node(&t->nodes[i], g))
			refused++;
	}
	if (refused)
		err_msg("%zu file%s above cannot be stored; no image made",
			refused, refused == 1 ? "" : "s");
	return refused ? -1 : 0;
}
