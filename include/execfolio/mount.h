/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which mount a file lives on, and the exec_folio_size= default it has.
 */
#ifndef EXECFOLIO_MOUNT_H
#define EXECFOLIO_MOUNT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <execfolio/error.h>

struct execfolio_mount {
	int mount_id;
	char fstype[64];
	char mountpoint[PATH_MAX];
	bool has_option; /* exec_folio_size= among its options */
	bool option_invalid; /* ... but not a valid size (cannot happen
				 * on a kernel that validates it) */
	uint32_t size; /* its value, 0 for none */
};

/*
 * Find the mount holding @path (following symlinks) in /proc/self/mountinfo
 * and its exec_folio_size= option. Returns 0 or -errno.
 */
int execfolio_mount_lookup(const char *path, struct execfolio_mount *mnt);

/*
 * The parsing half, for tests: find mount @mount_id in @mountinfo (or, when
 * @mount_id < 0, the mount of device @dev whose mount point is the longest
 * prefix of @realpath). Returns 0, -ENOENT when no line matches, or -EINVAL
 * for a malformed line.
 */
int execfolio_mount_find(FILE *mountinfo, int mount_id, unsigned int dev_major,
			 unsigned int dev_minor, const char *realpath,
			 struct execfolio_mount *mnt);

#endif /* EXECFOLIO_MOUNT_H */
