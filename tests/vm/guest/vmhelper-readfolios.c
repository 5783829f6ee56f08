// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmhelper readfolios: the folios one read(2) of a file range leaves in
 * the page cache; vmhelper seqtouch: the faults of a sequential mapping.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vmhelper.h"

/* What a range of a file holds in the page cache, in pages. */
struct range_folios {
	size_t cached; /* pages cached */
	size_t small; /* of those, pages in folios of a single page */
	size_t smallest; /* pages of the smallest folio, 0 if none cached */
};

/*
 * The folios of the @len bytes mapped at @map: which pages are cached is
 * asked of mincore() before anything is touched; touching those maps
 * them, and their page frames tell the folios.
 */
static int count_folios(volatile char *map, size_t len, size_t page,
			struct range_folios *rf)
{
	unsigned char *vec = malloc(len / page);
	int ret = -1;

	if (!vec || mincore((void *)map, len, vec)) {
		perror("vmhelper: mincore");
		goto out;
	}
	*rf = (struct range_folios){ 0 };
	for (size_t i = 0; i < len / page; i++) {
		uint64_t pfn, pages;

		if (!(vec[i] & 1))
			continue;
		rf->cached++;
		(void)map[i * page];
		pfn = vmhelper_mapped_pfn(map + i * page);
		if (!pfn) {
			fprintf(stderr,
				"vmhelper: no page frame for page %zu of the range: is /proc/self/pagemap readable (root)?\n",
				i);
			goto out;
		}
		pages = vmhelper_pfn_folio_pages(pfn);
		if (pages == 1)
			rf->small++;
		if (!rf->smallest || pages < rf->smallest)
			rf->smallest = pages;
	}
	ret = 0;
out:
	free(vec);
	return ret;
}

/*
 * One pread() of LEN bytes at OFFSET of PATH, then "cached=N small=M
 * smallest=S": the bytes of that range in the page cache, how many of
 * them are in single-page folios, and the size of the smallest folio
 * that holds any of them (0 when none is cached).  OFFSET and LEN must
 * be page aligned.
 */
int cmd_readfolios(char **args)
{
	size_t page = sysconf(_SC_PAGESIZE);
	const char *path = args[0];
	struct range_folios rf;
	char *end1, *end2, *buf;
	unsigned long long offset = strtoull(args[1], &end1, 0);
	unsigned long long len = strtoull(args[2], &end2, 0);
	void *map;
	int fd;

	if (*end1 || *end2 || !len || offset % page || len % page) {
		fprintf(stderr,
			"vmhelper: readfolios: '%s' and '%s' must be page-aligned byte counts, the length not 0\n",
			args[1], args[2]);
		return 2;
	}
	fd = open(path, O_RDONLY);
	buf = malloc(len);
	if (fd < 0 || !buf) {
		fprintf(stderr, "vmhelper: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (pread(fd, buf, len, offset) != (ssize_t)len) {
		fprintf(stderr, "vmhelper: %s: short read at %llu\n", path,
			offset);
		return 1;
	}
	map = vmhelper_map_uncollapsed(fd, len, offset);
	if (map == MAP_FAILED) {
		perror("vmhelper: mmap");
		return 1;
	}
	if (count_folios(map, len, page, &rf))
		return 1;
	printf("cached=%zu small=%zu smallest=%zu\n", rf.cached * page,
	       rf.small * page, rf.smallest * page);
	return 0;
}

/*
 * Map PATH shared, with MADV_SEQUENTIAL (and kept from khugepaged), and
 * read a byte of each page in @pages (page numbers in the file), in turn:
 * the faults of a sequential mapping, whose first one reads a readahead
 * window from the faulting page, wherever that is.  Prints "ok".
 */
int cmd_seqtouch(char **args)
{
	const char *path = args[0];
	char **pages = args + 1;
	size_t page = sysconf(_SC_PAGESIZE);
	volatile char *map;
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "vmhelper: %s: %s\n", path, strerror(errno));
		return 1;
	}
	map = vmhelper_map_uncollapsed(fd, st.st_size, 0);
	if (map == MAP_FAILED ||
	    madvise((void *)map, st.st_size, MADV_SEQUENTIAL)) {
		perror("vmhelper: mmap or madvise(MADV_SEQUENTIAL)");
		return 1;
	}
	for (; *pages; pages++) {
		char *end;
		unsigned long long nr = strtoull(*pages, &end, 0);

		if (*end || end == *pages || nr >= st.st_size / page) {
			fprintf(stderr,
				"vmhelper: seqtouch: '%s' is not a page of %s\n",
				*pages, path);
			return 2;
		}
		(void)map[nr * page];
	}
	puts("ok");
	return 0;
}
