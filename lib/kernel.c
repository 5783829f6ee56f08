// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XFS_IOC_GET_EXEC_FOLIO, as fs/patches defines it in fs/xfs/libxfs/xfs_fs.h.
 * The layout is ABI: keep it in step with the patch.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <execfolio/kernel.h>

struct xfs_exec_folio {
	uint32_t ef_size;
	uint8_t ef_source;
	uint8_t ef_order;
	uint8_t ef_page_shift;
	uint8_t ef_flags;
	uint64_t ef_pad[3];
};

#define XFS_EXEC_FOLIO_SOURCE_XATTR 1
#define XFS_EXEC_FOLIO_SOURCE_MOUNT 2
#define XFS_EXEC_FOLIO_PENDING 0x1
#define XFS_EXEC_FOLIO_DEFERRED 0x2
#define XFS_IOC_GET_EXEC_FOLIO _IOR('X', 135, struct xfs_exec_folio)

_Static_assert(sizeof(struct xfs_exec_folio) == 32,
	       "struct xfs_exec_folio is 32 bytes in the kernel");

int execfolio_kernel_query(const char *path,
			   struct execfolio_kernel_state *state)
{
	struct xfs_exec_folio ef = { 0 };
	int fd, ret = 0;

	/* O_RDONLY, not O_PATH: ioctls need an open file. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, XFS_IOC_GET_EXEC_FOLIO, &ef))
		ret = -errno;
	close(fd);
	if (ret)
		return ret;

	state->size = ef.ef_size;
	switch (ef.ef_source) {
	case XFS_EXEC_FOLIO_SOURCE_XATTR:
		state->source = EXECFOLIO_SOURCE_XATTR;
		break;
	case XFS_EXEC_FOLIO_SOURCE_MOUNT:
		state->source = EXECFOLIO_SOURCE_MOUNT;
		break;
	default:
		state->source = EXECFOLIO_SOURCE_NONE;
		break;
	}
	state->order = ef.ef_order;
	state->page_size = ef.ef_page_shift < 32 ? 1u << ef.ef_page_shift : 0;
	state->pending = ef.ef_flags & XFS_EXEC_FOLIO_PENDING;
	state->deferred = ef.ef_flags & XFS_EXEC_FOLIO_DEFERRED;
	return 0;
}
