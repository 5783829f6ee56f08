/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * XFS_IOC_GET_EXEC_FOLIO, as the series in fs/ (patch "xfs: report the exec
 * folio policy of a file with an ioctl") defines it in
 * fs/xfs/libxfs/xfs_fs.h. Mirrored here, as userspace cannot rely on kernel
 * headers that have it. The layout is ABI: keep it in step with the patch.
 *
 * Header only, so that static guest programs can issue the ioctl without
 * linking libexecfolio; execfolio_kernel_query() in <execfolio/kernel.h> is
 * the library's interface to it.
 */
#ifndef EXECFOLIO_XFS_EXEC_FOLIO_H
#define EXECFOLIO_XFS_EXEC_FOLIO_H

#include <stdint.h>
#include <sys/ioctl.h>

struct xfs_exec_folio {
	uint32_t ef_size; /* policy size in bytes, 0 for none */
	uint8_t ef_source; /* XFS_EXEC_FOLIO_SOURCE_* */
	uint8_t ef_order; /* page cache folio order in effect */
	uint8_t ef_page_shift; /* log2(page size): order to bytes */
	uint8_t ef_flags; /* XFS_EXEC_FOLIO_* */
	uint64_t ef_pad[3]; /* zero */
};

_Static_assert(sizeof(struct xfs_exec_folio) == 32,
	       "struct xfs_exec_folio is 32 bytes in the kernel");

#define XFS_EXEC_FOLIO_SOURCE_NONE 0
#define XFS_EXEC_FOLIO_SOURCE_XATTR 1
#define XFS_EXEC_FOLIO_SOURCE_MOUNT 2

/* Folios cached under an older policy remain until the inode is evicted. */
#define XFS_EXEC_FOLIO_PENDING 0x1
/* The policy could not be read yet (I/O error): retried at next open. */
#define XFS_EXEC_FOLIO_DEFERRED 0x2

#define XFS_IOC_GET_EXEC_FOLIO _IOR('X', 71, struct xfs_exec_folio)

#endif /* EXECFOLIO_XFS_EXEC_FOLIO_H */
