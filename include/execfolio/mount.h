/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which mount a file lives on, and the exec_folio_size= default it has with
 * the exec_folio_scope= of that default.
 */
#ifndef EXECFOLIO_MOUNT_H
#define EXECFOLIO_MOUNT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <execfolio/error.h>
#include <execfolio/policy.h>

struct execfolio_mount {
	int mount_id;
	char fstype[64];
	char mountpoint[PATH_MAX];
	bool has_option; /* exec_folio_size= among its options */
	bool option_invalid; /* ... but not a valid size (cannot happen
				 * on a kernel that validates it) */
	uint32_t size; /* its value, 0 for none */
	bool has_scope; /* exec_folio_scope= among its options */
	bool scope_invalid; /* ... but neither exec nor all */
	enum execfolio_scope scope; /* its value; exec when not given */
};

/*
 * Find the mount holding @path (following symlinks) in /proc/self/mountinfo
 * and its exec_folio_size= and exec_folio_scope= options. Returns 0 or
 * -errno.
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
