/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a patched kernel says about a file's exec folio policy: the
 * XFS_IOC_GET_EXEC_FOLIO ioctl of the series in fs/ (patch "xfs: report the
 * exec folio policy of a file with an ioctl"), whose layout
 * <execfolio/xfs_exec_folio.h> mirrors.
 */
#ifndef EXECFOLIO_KERNEL_H
#define EXECFOLIO_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include <execfolio/error.h>
#include <execfolio/policy.h>

struct execfolio_kernel_state {
	uint32_t size; /* policy size in bytes, 0 for none */
	enum execfolio_source source;
	unsigned int order; /* folio order the page cache prefers */
	uint32_t page_size;
	bool pending; /* folios of an older policy still cached */
	bool deferred; /* policy not read yet; retried at next open */
};

/*
 * Ask the kernel for the policy of the regular file @path. Returns 0, -ENOTTY
 * (or -EOPNOTSUPP) when the kernel or filesystem has no such ioctl, -EPERM
 * without CAP_SYS_ADMIN, or another -errno.
 */
int execfolio_kernel_query(const char *path,
			   struct execfolio_kernel_state *state);

/*
 * The PMD size of the running kernel's transparent huge pages (2M with 4K
 * pages), from /sys/kernel/mm/transparent_hugepage/hpage_pmd_size, or 0
 * when the kernel has no THP.
 */
uint64_t execfolio_kernel_thp_pmd_size(void);

#endif /* EXECFOLIO_KERNEL_H */
