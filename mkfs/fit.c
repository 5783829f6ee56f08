// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fitting mkfs.xfs's geometry to the tree, before anything is built:
 *
 * - the inode size: mkfs.xfs 6.1 writes a symlink target too long for the
 *   inode into a block without the header v5 filesystems need, so when
 *   MKFS_XFS_OPTIONS choose no inode size, the smallest one whose inode
 *   holds the longest target is asked for (-i size=1024 or 2048);
 *
 * - the default image size: mkfs.xfs 6.1 gives each file one extent of
 *   the longest free space it finds, and writes the whole file from its
 *   start however short it is, over whatever follows (the headers of the
 *   next allocation group, or past the end of the image, which the file
 *   then lacks). The default size leaves every allocation group room for
 *   the largest file besides its share of the rest.
 */
#include <string.h>

#include "mkfs.h"

#define INODE_SIZE_MAX 2048
/* Free space an allocation group loses to alignment and inode chunks. */
#define AG_SLACK (16ull << 20)

static size_t longest_target(const struct tree *t)
{
	size_t i, len, longest = 0;

	for (i = 0; i < t->count; i++) {
		if (t->nodes[i].type != NODE_SYMLINK || t->nodes[i].skip)
			continue;
		len = strlen(t->nodes[i].target);
		if (len > longest)
			longest = len;
	}
	return longest;
}

/* Whether MKFS_XFS_OPTIONS set the inode size: -i size=N, -isize=N. */
static bool options_set_inode_size(const struct options *o)
{
	int i;

	for (i = 0; i < o->nmkfs_args; i++) {
		const char *a = o->mkfs_args[i];

		if (!strcmp(a, "-i") && i + 1 < o->nmkfs_args &&
		    strstr(o->mkfs_args[i + 1], "size="))
			return true;
		if (!strncmp(a, "-i", 2) && a[2] && strstr(a, "size="))
			return true;
	}
	return false;
}

int fit_inode_size(const struct tree *t, struct options *o,
		   const struct geometry *g, unsigned int *inodesize)
{
	size_t longest = longest_target(t);
	unsigned int size, core = g->inodesize - inode_literal_bytes(g);
	char **args;

	*inodesize = 0;
	if (longest <= inode_literal_bytes(g) || longest > XFS_SYMLINK_MAX ||
	    options_set_inode_size(o))
		return 0; /* check.c names what cannot be built */
	for (size = g->inodesize * 2; size - core < longest; size *= 2)
		;
	if (size > INODE_SIZE_MAX)
		return 0;
	args = xcalloc(o->nmkfs_args + 3, sizeof(*args));
	memcpy(args, o->mkfs_args, o->nmkfs_args * sizeof(*args));
	args[o->nmkfs_args] = xstrdup("-i");
	args[o->nmkfs_args + 1] = xasprintf("size=%u", size);
	o->mkfs_args = args;
	o->nmkfs_args += 2;
	*inodesize = size;
	return 1;
}

static uint64_t largest_file(const struct tree *t)
{
	uint64_t largest = 0, blocks;
	size_t i;

	for (i = 0; i < t->count; i++) {
		if (t->nodes[i].type != NODE_REG)
			continue;
		blocks = ((uint64_t)t->nodes[i].st.st_size + 4095) & ~4095ull;
		if (blocks > largest)
			largest = blocks;
	}
	return largest;
}

uint64_t fit_default_size(const struct tree *t, const struct geometry *g)
{
	uint64_t size = image_default_size(t, g->inodesize), want;

	if (!largest_file(t))
		return size;
	want = size + (uint64_t)g->agcount * (largest_file(t) + AG_SLACK);
	want = (want + (1ull << 20) - 1) & ~((1ull << 20) - 1);
	return want > size ? want : size;
}

uint64_t fit_ag_room(const struct geometry *g)
{
	uint64_t ag = (uint64_t)g->agblocks * g->blocksize;

	return ag > AG_SLACK ? ag - AG_SLACK : 0;
}
