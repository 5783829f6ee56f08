/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exec folio policy: size syntax and resolution (DESIGN.md section 2).
 *
 * This header is the one definition of the xattr name, the size grammar and
 * its limits. The kernel series mirrors it in kernel C; tests/vectors/ holds
 * the cases every implementation checks.
 */
#ifndef EXECFOLIO_POLICY_H
#define EXECFOLIO_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <execfolio/error.h>

/* Full xattr name as seen through the VFS. */
#define EXECFOLIO_XATTR "trusted.exec_folio_size"
/* Name inside the trusted (XFS: root) attribute namespace. */
#define EXECFOLIO_XATTR_SUFFIX "exec_folio_size"
/* XFS mount option that sets the default for the files of its scope. */
#define EXECFOLIO_MOUNT_OPTION "exec_folio_size"
/* XFS mount option that says which regular files that default covers. */
#define EXECFOLIO_SCOPE_OPTION "exec_folio_scope"

#define EXECFOLIO_SIZE_MIN (4u << 10)
#define EXECFOLIO_SIZE_MAX (2u << 20)
/* Longest valid value: "2097152" plus one newline; longer is invalid. */
#define EXECFOLIO_VALUE_MAX 8
/* Room for the canonical form of any 32-bit size, and a NUL. */
#define EXECFOLIO_SIZE_STR 12

enum execfolio_source {
	EXECFOLIO_SOURCE_NONE,
	EXECFOLIO_SOURCE_XATTR,
	EXECFOLIO_SOURCE_MOUNT,
};

/*
 * Parse a policy size. @buf need not be NUL-terminated and may contain NUL
 * bytes (which make it invalid). On success stores the size in bytes (0 for
 * "0"/"none") and returns 0; returns -EINVAL otherwise, leaving @size alone.
 */
int execfolio_parse_size(const char *buf, size_t len, uint32_t *size);

/* Like execfolio_parse_size() for a NUL-terminated string. */
int execfolio_parse_size_str(const char *str, uint32_t *size);

/*
 * Write the canonical form of a valid policy size (0 gives "none") into
 * @buf, which holds at least EXECFOLIO_SIZE_STR bytes. Returns @buf.
 */
char *execfolio_format_size(uint32_t size, char *buf);

/* True when @size is 0 or a power of two within the limits. */
bool execfolio_size_valid(uint32_t size);

const char *execfolio_source_name(enum execfolio_source source);

/* Which regular files the mount default covers (exec_folio_scope=). */
enum execfolio_scope {
	EXECFOLIO_SCOPE_EXEC, /* those with an execute bit: the default */
	EXECFOLIO_SCOPE_ALL, /* every regular file */
};

/*
 * Parse an exec_folio_scope= value: exactly "exec" or "all", as the kernel
 * matches it (no blank, no newline, no other case). @buf need not be
 * NUL-terminated. Returns 0, or -EINVAL leaving @scope alone.
 */
int execfolio_parse_scope(const char *buf, size_t len,
			  enum execfolio_scope *scope);

/* Like execfolio_parse_scope() for a NUL-terminated string. */
int execfolio_parse_scope_str(const char *str, enum execfolio_scope *scope);

/* "exec" or "all". */
const char *execfolio_scope_name(enum execfolio_scope scope);

/* What the kernel knows about an inode when it resolves the policy. */
struct execfolio_inode {
	mode_t mode; /* st_mode: type and permission bits */
	bool has_xattr; /* trusted.exec_folio_size present */
	const char *xattr; /* its raw value, not NUL-terminated */
	size_t xattr_len;
	bool has_mount; /* exec_folio_size= given at mount */
	uint32_t mount_size; /* its parsed value, 0 meaning "none" */
	enum execfolio_scope mount_scope; /* exec_folio_scope=, else exec */
};

struct execfolio_policy {
	uint32_t size; /* policy size in bytes, 0 if none */
	enum execfolio_source source;
	bool xattr_invalid; /* a malformed xattr was ignored */
};

/*
 * Resolve the policy of an inode: xattr > mount default (regular files with
 * an execute bit, or every regular file under exec_folio_scope=all) > none.
 * Only regular files have a policy. A malformed xattr value is ignored as if
 * absent, and reported through xattr_invalid.
 */
void execfolio_resolve(const struct execfolio_inode *inode,
		       struct execfolio_policy *policy);

/* Largest page-cache folio order a kernel allows for @page_size pages. */
unsigned int execfolio_max_order(uint32_t page_size);

/*
 * The preferred page-cache folio order the kernel series applies for a
 * policy size: log2(size / page_size), 0 when size <= page_size, clamped
 * to @max_order, and never below the order the filesystem block size
 * @block_size requires.  It does not depend on the file's size: the page
 * cache allocates no folio past EOF whatever the order.
 */
unsigned int execfolio_order(uint32_t size, uint32_t page_size,
			     uint32_t block_size, unsigned int max_order);

#endif /* EXECFOLIO_POLICY_H */
