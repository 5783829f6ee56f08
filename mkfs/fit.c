// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fitting mkfs.xfs's geometry to the tree, before anything is built:
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

/* Free space an allocation group loses to alignment and inode chunks. */
#define AG_SLACK (16ull << 20)

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
