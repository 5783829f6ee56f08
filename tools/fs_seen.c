// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which file systems a command has already spoken about, so that a note
 * that holds for a whole file system is given once, not once per file.
 */
#include "execfolio.h"

/* More file systems than this in one run just repeat their notes. */
#define FS_SEEN_MAX 64

bool fs_first_seen(dev_t dev)
{
	static dev_t seen[FS_SEEN_MAX];
	static size_t nr_seen;
	size_t i;

	for (i = 0; i < nr_seen; i++)
		if (seen[i] == dev)
			return false;
	if (nr_seen < FS_SEEN_MAX)
		seen[nr_seen++] = dev;
	return true;
}
