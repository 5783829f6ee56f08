/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy test vectors (tests/vectors/policy.vec): one file, loaded by
 * every implementation's tests (library, kernel in a guest, FUSE, mkfs),
 * which link the loader (vectors.c, $(VECTORS_OBJ) in the make files).
 *
 * Line grammar (tokens separated by blanks, '#' starts a comment):
 *
 *   parse VALUE -> EXPECT
 *	EXPECT is the canonical size ("64k", "none") or "EINVAL".
 *   resolve [xattr=VALUE] [mount=VALUE] [scope=VALUE] mode=OCTAL page=N
 *	bsize=N fsize=N -> EXPECT
 *	mount is the exec_folio_size= mount option, scope the
 *	exec_folio_scope= one (absent: the kernel's default, exec).
 *	EXPECT is "size=CANON source=xattr|mount|none order=N
 *	[xattr_invalid]", or "EINVAL" (a mount option is rejected). order
 *	is the series' preferred order (execfolio_order()).
 *
 * VALUE is a bare word or a double-quoted string with C escapes (\n, \r, \t,
 * \\, \", \0 and \xHH), so values with blanks, NULs or binary bytes can be
 * written. A key given as "key=-" is absent, like a key left out.
 */
#ifndef EXECFOLIO_VECTORS_H
#define EXECFOLIO_VECTORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <execfolio/policy.h>

#define EXECFOLIO_VECTOR_VALUE_MAX 512

enum execfolio_vector_kind {
	EXECFOLIO_VECTOR_PARSE,
	EXECFOLIO_VECTOR_RESOLVE,
};

struct execfolio_vector_value {
	bool present;
	size_t len;
	char bytes[EXECFOLIO_VECTOR_VALUE_MAX];
};

struct execfolio_vector {
	unsigned int line; /* line number in the file */
	enum execfolio_vector_kind kind;
	bool expect_einval;

	/* parse: value; expect_size unless expect_einval */
	struct execfolio_vector_value value;
	uint32_t expect_size;

	/* resolve */
	struct execfolio_vector_value xattr;
	struct execfolio_vector_value mount;
	struct execfolio_vector_value scope;
	mode_t mode;
	uint32_t page_size;
	uint32_t block_size;
	uint64_t file_size;
	enum execfolio_source expect_source; /* and expect_size */
	unsigned int expect_order;
	bool expect_xattr_invalid;
};

struct execfolio_vectors {
	size_t count;
	struct execfolio_vector *v;
};

/*
 * Load a vectors file. Returns 0, or -errno with a message naming the file
 * and line written into @err.
 */
int execfolio_vectors_load(const char *path, struct execfolio_vectors *vecs,
			   char *err, size_t err_len);

void execfolio_vectors_free(struct execfolio_vectors *vecs);

/*
 * Check one vector against libexecfolio. Returns true when it agrees;
 * otherwise writes what differed into @why.
 */
bool execfolio_vector_check(const struct execfolio_vector *vec, char *why,
			    size_t why_len);

#endif /* EXECFOLIO_VECTORS_H */
