// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page frame a virtual address of this process maps, and the flags of
 * a page frame: /proc/self/pagemap and /proc/kpageflags
 * (Documentation/admin-guide/mm/pagemap.rst), one entry at a time, for the
 * commands that look at single pages (vmhelper-readfolios.c,
 * vmhelper-hwpoison.c).  Each call opens the file again: these commands
 * look at a few thousand pages at most, and the guest runs as root.
 */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include <linux/kernel-page-flags.h>

#include "vmhelper.h"

#define PAGEMAP_PRESENT (1ULL << 63)
#define PAGEMAP_PFN_MASK ((1ULL << 55) - 1)

/* Entry @index of the table of u64 in @path, or 0 when it cannot be read. */
static uint64_t read_entry(const char *path, uint64_t index)
{
	uint64_t entry = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &entry, sizeof(entry), index * sizeof(entry)) !=
	    sizeof(entry))
		entry = 0;
	close(fd);
	return entry;
}

uint64_t vmhelper_mapped_pfn(const volatile void *addr)
{
	uint64_t entry = read_entry("/proc/self/pagemap",
				    (uintptr_t)addr / sysconf(_SC_PAGESIZE));

	return entry & PAGEMAP_PRESENT ? entry & PAGEMAP_PFN_MASK : 0;
}

uint64_t vmhelper_pfn_flags(uint64_t pfn)
{
	return read_entry("/proc/kpageflags", pfn);
}

bool vmhelper_pfn_in_large_folio(uint64_t pfn)
{
	return vmhelper_pfn_flags(pfn) &
	       ((1ULL << KPF_COMPOUND_HEAD) | (1ULL << KPF_COMPOUND_TAIL));
}

/*
 * A large folio's pages are consecutive page frames: its head is the
 * first frame before @pfn not flagged as a tail, and it ends at the first
 * frame after the head not flagged as one.
 */
uint64_t vmhelper_pfn_folio_pages(uint64_t pfn)
{
	const uint64_t tail = 1ULL << KPF_COMPOUND_TAIL;
	uint64_t head = pfn, end = pfn + 1;

	if (!vmhelper_pfn_in_large_folio(pfn))
		return 1;
	while (head && (vmhelper_pfn_flags(head) & tail))
		head--;
	while (vmhelper_pfn_flags(end) & tail)
		end++;
	return end - head;
}
