/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading and writing the policy xattr on files, and telling whether we may.
 */
#ifndef EXECFOLIO_XATTR_H
#define EXECFOLIO_XATTR_H

#include <stdbool.h>
#include <stddef.h>

#include <execfolio/error.h>
#include <execfolio/policy.h>

/* Room for any stored value we are willing to look at. */
#define EXECFOLIO_XATTR_READ_MAX 256

struct execfolio_stored {
	bool present;
	size_t len; /* bytes in value; may exceed what was kept */
	char value[EXECFOLIO_XATTR_READ_MAX];
};

/*
 * True when this process can read and write trusted.* xattrs. Without
 * CAP_SYS_ADMIN the kernel answers ENODATA for every trusted.* read, so an
 * absent value would be indistinguishable from one we may not see.
 */
bool execfolio_may_access_trusted(void);

/*
 * Read the policy xattr of @path (following symlinks). Returns 0 with
 * stored->present set or cleared, or -errno (-ENOTSUP: the filesystem has no
 * xattr support, -E2BIG: the value is longer than we keep, ...).
 */
int execfolio_xattr_get(const char *path, struct execfolio_stored *stored);

/* Write the canonical form of @size (0 writes "none"). Returns 0 or -errno. */
int execfolio_xattr_set(const char *path, uint32_t size);

/*
 * Remove the policy xattr. Returns 1 when one was removed, 0 when there was
 * none (not an error), or -errno.
 */
int execfolio_xattr_remove(const char *path);

/*
 * A message for an errno from the functions above, saying what it means for
 * the policy xattr and what to do ("needs CAP_SYS_ADMIN: run as root", ...).
 */
const char *execfolio_xattr_strerror(int err);

/*
 * Like execfolio_xattr_strerror() for an errno from changing the xattr of
 * @path, telling the causes of EPERM apart: an immutable or append-only
 * file (chattr +i/+a) refuses every xattr change, even root's; only when
 * the file is neither does EPERM mean a missing CAP_SYS_ADMIN, or, with
 * the capability, a refusal by a security module.
 */
const char *execfolio_xattr_change_strerror(const char *path, int err);

#endif /* EXECFOLIO_XATTR_H */
