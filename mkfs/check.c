// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a build refuses, found on the tree before mkfs.xfs runs, so that a
 * dry run (-n) refuses the same trees: device numbers XFS cannot keep,
 * symlink targets xfsprogs 6.1 writes wrongly, files larger than an
 * allocation group (fit.c) and names with no placeholder in a directory
 * too large for the inode. Every such file is named before
 * the build stops.
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

static unsigned int log2_up(uint64_t v)
{
	unsigned int l = 0;

	while ((1ull << l) < v)
		l++;
	return l;
}

/*
 * Whether mkfs.xfs keeps directory @dir in short form, in the inode: its
 * entries, as xfs_dir2_sf_addname() counts them, fit in the literal area.
 * Inode numbers take 4 bytes unless the file system has numbers beyond 32
 * bits; then 8 are assumed, which can only call a short-form directory
 * large, and so refuse a name that would have worked.
 */
static bool dir_is_short_form(const struct tree *t, const struct node *dir,
			      const struct geometry *g)
{
	unsigned int ino_bits = log2_up(g->agcount) + log2_up(g->agblocks) +
				log2_up(g->blocksize / g->inodesize);
	size_t ino = ino_bits > 32 ? 8 : 4, bytes = 2 + ino, i;

	for (i = 0; i < dir->nchildren; i++) {
		const struct node *c = &t->nodes[dir->children[i]];

		if (!c->skip)
			bytes += 3 + strlen(c->img_name) + g->ftype + ino;
	}
	return bytes <= inode_literal_bytes(g);
}

/* A placeholder with any hash (names.c) works in short form only. */
static int check_names(const struct tree *t, const struct node *dir,
		       const struct geometry *g)
{
	size_t i, refused = 0;

	for (i = 0; i < dir->nchildren; i++) {
		const struct node *c = &t->nodes[dir->children[i]];

		if (c->skip || !c->renamed || c->same_hash || c->near_hash ||
		    dir_is_short_form(t, dir, g))
			continue;
		err_file(c,
			 "name cannot be expressed: the protofile cannot carry "
			 "it, and in a directory too large for the inode its "
			 "placeholder needs its hash or one next to it, which "
			 "the hashes of its sibling names leave none of; "
			 "rename it");
		refused++;
	}
	return refused;
}

int tree_check(const struct tree *t, const struct geometry *g)
{
	size_t i, refused = 0;

	for (i = 0; i < t->count; i++) {
		if (t->nodes[i].skip)
			continue;
		if (check_node(&t->nodes[i], g))
			refused++;
		if (t->nodes[i].type == NODE_DIR)
			refused += check_names(t, &t->nodes[i], g);
	}
	if (refused)
		err_msg("%zu file%s above cannot be stored; no image made",
			refused, refused == 1 ? "" : "s");
	return refused ? -1 : 0;
}
