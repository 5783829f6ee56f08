// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the running kernel says: execfolio_kernel_query(), the library's view
 * of XFS_IOC_GET_EXEC_FOLIO, and the THP PMD size.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <execfolio/kernel.h>
#include <execfolio/xfs_exec_folio.h>

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

uint64_t execfolio_kernel_thp_pmd_size(void)
{
	unsigned long long size = 0;
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
			"r");

	if (f) {
		if (fscanf(f, "%llu", &size) != 1)
			size = 0;
		fclose(f);
	}
	return size;
}
