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
 * stored->present set or cleared, or -errno with "PATH: what it means and
 * what to do" in @err (-ENOTSUP: the filesystem has no xattr support,
 * -E2BIG: the value is longer than we keep, stored->present set, ...).
 */
int execfolio_xattr_get(const char *path, struct execfolio_stored *stored,
			char *err, size_t errlen);

/*
 * Write the canonical form of @size (0 writes "none"). Returns 0, or -errno
 * with "PATH: what it means and what to do" in @err (-EINVAL: @size is no
 * policy size, or the kernel refused the value; -EPERM: @err tells apart an
 * immutable or append-only file, which refuses every xattr change even to
 * root, a missing CAP_SYS_ADMIN, and a refusal by a security module).
 */
int execfolio_xattr_set(const char *path, uint32_t size, char *err,
			size_t errlen);

/*
 * execfolio_xattr_set() of the file open as @fd (not O_PATH), named @name
 * in @err.
 */
int execfolio_xattr_fset(int fd, const char *name, uint32_t size, char *err,
			 size_t errlen);

/*
 * Remove the policy xattr. Returns 1 when one was removed, 0 when there was
 * none (not an error), or -errno with @err as for execfolio_xattr_set().
 */
int execfolio_xattr_remove(const char *path, char *err, size_t errlen);

#endif /* EXECFOLIO_XATTR_H */
