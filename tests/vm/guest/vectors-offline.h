/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy vectors whose xattr only an offline writer can store: the
 * kernel rejects a malformed value with EINVAL when it is set, so these are
 * written on the host into the test disk (vecstage) and the guest checks
 * how the kernel resolves them when the inode is read (vmvectors).
 */
#ifndef EXECFOLIO_TESTS_VECTORS_OFFLINE_H
#define EXECFOLIO_TESTS_VECTORS_OFFLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include <execfolio/policy.h>

#include "../../vectors/vectors.h"

/* The guests' page size and the test disk's block size. */
#define VECTORS_GUEST_PAGE_SIZE 4096u
#define VECTORS_DISK_BLOCK_SIZE 4096u

/* Where the file of vector line N is on the test disk. */
#define VECTORS_OFFLINE_FMT "vectors/line-%u"

static inline bool vector_is_offline(const struct execfolio_vector *vec)
{
	uint32_t size;

	return vec->kind == EXECFOLIO_VECTOR_RESOLVE && S_ISREG(vec->mode) &&
	       vec->page_size == VECTORS_GUEST_PAGE_SIZE &&
	       vec->block_size == VECTORS_DISK_BLOCK_SIZE &&
	       vec->xattr.present &&
	       execfolio_parse_size(vec->xattr.bytes, vec->xattr.len, &size);
}

#endif /* EXECFOLIO_TESTS_VECTORS_OFFLINE_H */
