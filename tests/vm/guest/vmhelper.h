/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmhelper's commands in files of their own: those that take memory, a
 * hog and a fragmenter (vmhelper-memory.c), the folios a read leaves
 * (vmhelper-readfolios.c) and the hardware poison test
 * (vmhelper-hwpoison.c); the page frames they look at
 * (vmhelper-pagemap.c).
 */
#ifndef VMHELPER_H
#define VMHELPER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Each command takes its operands, NULL-terminated, and returns the exit
 * status: hog MIB, fragment KIB, readfolios PATH OFFSET LENGTH, seqtouch
 * PATH PAGE..., hwpoison PATH POISON TOUCH.
 */
int cmd_hog(char **args);
int cmd_fragment(char **args);
int cmd_readfolios(char **args);
int cmd_seqtouch(char **args);
int cmd_hwpoison(char **args);

void *vmhelper_map_uncollapsed(int fd, size_t len, off_t offset);

/* The page frame mapped at @addr of this process, or 0 when none is. */
uint64_t vmhelper_mapped_pfn(const volatile void *addr);
/* The /proc/kpageflags entry of page frame @pfn, or 0. */
uint64_t vmhelper_pfn_flags(uint64_t pfn);
/* Whether page frame @pfn is a page of a folio larger than one page. */
bool vmhelper_pfn_in_large_folio(uint64_t pfn);
/* How many pages the folio of page frame @pfn has. */
uint64_t vmhelper_pfn_folio_pages(uint64_t pfn);

#endif /* VMHELPER_H */
